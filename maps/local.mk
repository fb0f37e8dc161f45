# maps: map backends, each map_<name>.so in $(moduledir).
module_LTLIBRARIES += maps/map_file.la maps/map_program.la
MODULE_FLAGS = -module -avoid-version -shared

MAP_FILE_SOURCES = maps/file.c maps/file_index.c maps/file_index.h
maps_map_file_la_SOURCES = $(MAP_FILE_SOURCES) agent/maptext.c agent/rundir.c agent/util.c
maps_map_file_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
maps_map_file_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)

maps_map_program_la_SOURCES = maps/program.c
maps_map_program_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
maps_map_program_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)

# Directory services: only am_map_module is exported, so the libraries
# they pull in never clash with the agent's symbols.  They stay mapped
# after dlclose (-z nodelete): libldap, libsasl2, GnuTLS and libtirpc keep
# thread keys, atexit handlers and global contexts that must not vanish
# under the process.
module_LTLIBRARIES += maps/map_ldap.la maps/map_nis.la
MAP_EXPORT = -export-symbols-regex '^am_map_module$$' -Wl,-z,nodelete

maps_map_ldap_la_SOURCES = maps/ldap.c maps/ldap_conn.c maps/ldap_auth.c \
	maps/ldap_text.c maps/ldap_priv.h agent/util.c
maps_map_ldap_la_CFLAGS = $(AM_CFLAGS) -D_GNU_SOURCE $(LDAP_CFLAGS) $(XML_CFLAGS) $(SASL_CFLAGS)
maps_map_ldap_la_LIBADD = $(LDAP_LIBS) $(XML_LIBS)
maps_map_ldap_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS) $(MAP_EXPORT)

maps_map_nis_la_SOURCES = maps/nis.c
maps_map_nis_la_CFLAGS = $(AM_CFLAGS) -D_GNU_SOURCE $(NSL_CFLAGS) $(TIRPC_CFLAGS)
maps_map_nis_la_LIBADD = $(NSL_LIBS) $(TIRPC_LIBS)
maps_map_nis_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS) $(MAP_EXPORT)

# SSSD: libsss_autofs.so is dlopen'd at run time (by the module's child),
# so no build dependency; configure finds its path.
module_LTLIBRARIES += maps/map_sss.la
maps_map_sss_la_SOURCES = maps/sss.c maps/sss_child.c maps/sss_priv.h agent/util.c
maps_map_sss_la_CFLAGS = $(AM_CFLAGS) -D_GNU_SOURCE \
	-DSSS_DEF_LIBRARY='"$(SSS_AUTOFS_LIB)"'
maps_map_sss_la_LIBADD = -ldl
maps_map_sss_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS) $(MAP_EXPORT)

EXTRA_DIST += maps/README.md

# modules are dlopen'd by name: no libtool archives in the installed tree
install-data-hook: install-data-hook-modules
install-data-hook-modules:
	rm -f $(DESTDIR)$(moduledir)/*.la
.PHONY: install-data-hook-modules

# -hosts: a host's exports through the MOUNT protocol (libtirpc).
module_LTLIBRARIES += maps/map_hosts.la
maps_map_hosts_la_SOURCES = maps/hosts.c maps/hosts_entry.c maps/hosts_entry.h \
	maps/hosts_names.c maps/hosts_names.h \
	agent/sun_quote.c agent/hostname.c agent/util.c
maps_map_hosts_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
maps_map_hosts_la_CFLAGS = $(AM_CFLAGS) $(TIRPC_CFLAGS)
maps_map_hosts_la_LIBADD = $(TIRPC_LIBS)
maps_map_hosts_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)
