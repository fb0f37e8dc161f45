# modules: mount modules, each mount_<name>.so in $(moduledir).
module_LTLIBRARIES += modules/mount_bind.la modules/mount_generic.la

# what bind and NFS share: a clone of a local tree, safe path walks, mount
# attributes
MOUNT_COMMON_SOURCES = modules/bindclone.c modules/am_bindclone.h \
	modules/safepath.c modules/am_safepath.h \
	modules/mntattr.c modules/am_mntattr.h
MOUNT_BIND_SOURCES = modules/bind.c $(MOUNT_COMMON_SOURCES)
modules_mount_bind_la_SOURCES = $(MOUNT_BIND_SOURCES)
modules_mount_bind_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
modules_mount_bind_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)

MOUNT_GENERIC_SOURCES = modules/generic.c modules/blkdev.c modules/am_blkdev.h
modules_mount_generic_la_SOURCES = $(MOUNT_GENERIC_SOURCES) modules/mntattr.c modules/am_mntattr.h
modules_mount_generic_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
modules_mount_generic_la_CFLAGS = $(AM_CFLAGS) $(BLKID_CFLAGS)
modules_mount_generic_la_LIBADD = $(BLKID_LIBS)
modules_mount_generic_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)

# NFS: new mount API, version negotiation, replica ranking by RPC NULL ping
# (written by nfs_ping.c itself: no RPC library).
module_LTLIBRARIES += modules/mount_nfs.la
# The agent builds NFS in (agent/local.mk) beside bind, which brings the
# common files; the .so takes both.
MOUNT_NFS_SOURCES = modules/nfs.c \
	modules/nfs_addr.c modules/nfs_addr.h \
	modules/nfs_fs.c modules/nfs_fs.h \
	modules/nfs_opts.c modules/nfs_opts.h \
	modules/nfs_ping.c modules/nfs_ping.h
modules_mount_nfs_la_SOURCES = $(MOUNT_NFS_SOURCES) $(MOUNT_COMMON_SOURCES)
modules_mount_nfs_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
modules_mount_nfs_la_CFLAGS = $(AM_CFLAGS) -pthread
modules_mount_nfs_la_LDFLAGS = $(AM_LDFLAGS) -pthread $(MODULE_FLAGS)

# try-module: a test driver that loads one mount module, mounts what argv
# describes and attaches it on a directory; used by the QEMU nfs suite.
noinst_PROGRAMS += modules/try-module
modules_try_module_SOURCES = modules/try_module.c
modules_try_module_LDADD = $(LIBADD_DLOPEN) -ldl
modules_try_module_LDFLAGS = $(AM_LDFLAGS) $(SAN_TIRPC_PRELOAD)

dist_man_MANS += man/autofs-nfs.5
