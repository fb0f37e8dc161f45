# agent: /sbin/autofs.  The core is also a static library so that the unit
# tests and the fuzz targets link exactly the code the agent runs.
noinst_LIBRARIES = agent/libamcore.a
AMCORE_SOURCES = \
	agent/am_agent.h agent/am_conf.h agent/am_lookup.h agent/am_maptext.h \
	agent/am_master.h agent/am_module.h agent/am_mount.h agent/am_mount_abi.h agent/am_mountfd_nr.h agent/am_mountinfo.h \
	agent/am_mapcache.h agent/am_dynamic.h agent/am_plan.h agent/am_rundir.h agent/am_stage.h agent/am_sun.h agent/am_util.h \
	agent/conf.c agent/expand.c agent/log.c agent/lookup.c agent/maptext.c agent/master.c \
	agent/masterread.c agent/module.c agent/mount.c agent/expiry.c agent/mountinfo.c agent/mountstat.c \
	agent/mountwalk.c agent/mapcache.c agent/mapcache_id.c agent/nsswitch.c agent/plan.c agent/rundir.c agent/signals.c agent/stage.c \
	agent/mapenv.c agent/resolve.c agent/rqvars.c agent/source.c agent/sun_parse.c \
	agent/sun_quote.c agent/hostname.c agent/trigger.c agent/trust.c \
	agent/umount.c agent/util.c
agent_libamcore_a_SOURCES = $(AMCORE_SOURCES)
agent_libamcore_a_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE

sbin_PROGRAMS += agent/autofs
# the file map and the bind and NFS mounts, which nearly every lookup
# uses, are built in (am_module.h): no dlopen for them (a lookup of an
# NFS key spent 4.0 ms of TCG loading mount_nfs.so); their .so are built
# as well.  NFS needs only the C library, its pings included.
agent_autofs_SOURCES = agent/main.c $(MAP_FILE_SOURCES) $(MOUNT_BIND_SOURCES) \
	$(MOUNT_NFS_SOURCES)
agent_autofs_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -DAM_BUILTIN
agent_autofs_CFLAGS = $(AM_CFLAGS) -pthread
agent_autofs_LDADD = agent/libamcore.a $(LIBADD_DLOPEN) $(LIBS)
# the modules resolve nothing from the agent; -rdynamic is not needed
agent_autofs_LDFLAGS = $(AM_LDFLAGS) -pthread $(SAN_TIRPC_PRELOAD)

# The same agent, static-pie (am_dynamic.h): no dynamic loader when the
# kernel runs it.  It hands a lookup that needs a module, an NSS service
# other than files and dns, or libtirpc to the dynamic agent above, which
# is installed beside the modules as autofs-dynamic.  Its objects are its
# own: built without the sanitizers, which need the dynamic loader.  The
# linker's warnings that getpwuid_r, getgrgid_r and getaddrinfo need the
# shared C library are expected: am_dynamic_nss() guards each call.
if STATIC_AGENT_BUILD
noinst_PROGRAMS += agent/autofs-static
endif
# The generic mount module is built in too (libblkid linked statically):
# a mount of any other type would otherwise cost this agent a hand-over.
agent_autofs_static_SOURCES = agent/main.c agent/dynamic.c $(AMCORE_SOURCES) \
	$(MAP_FILE_SOURCES) $(MOUNT_BIND_SOURCES) $(MOUNT_NFS_SOURCES) $(MOUNT_GENERIC_SOURCES)
agent_autofs_static_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -DAM_BUILTIN -DAM_STATIC
agent_autofs_static_CFLAGS = $(WARN_CFLAGS) $(BLKID_CFLAGS) -fPIE -pthread
agent_autofs_static_LDADD = $(BLKID_LIBS)
agent_autofs_static_LDFLAGS = -static-pie

install-exec-hook: install-exec-hook-agent
install-exec-hook-agent:
	$(MKDIR_P) $(DESTDIR)$(pkglibdir)
	$(INSTALL_PROGRAM) agent/autofs $(DESTDIR)$(pkglibdir)/autofs-dynamic
if STATIC_AGENT
	$(INSTALL_PROGRAM) agent/autofs-static $(DESTDIR)$(sbindir)/autofs
endif
uninstall-hook: uninstall-hook-agent
uninstall-hook-agent:
	rm -f $(DESTDIR)$(pkglibdir)/autofs-dynamic
.PHONY: install-exec-hook-agent uninstall-hook-agent

dist_sysconf_DATA = agent/autofs-agent.conf
systemdunitdir = $(prefix)/lib/systemd/system
dist_systemdunit_DATA = agent/autofs-agent.service
