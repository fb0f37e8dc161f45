# modules: mount modules, each mount_<name>.so in $(moduledir).
module_LTLIBRARIES += modules/mount_bind.la modules/mount_generic.la

modules_mount_bind_la_SOURCES = modules/bind.c modules/mntattr.c modules/am_mntattr.h
modules_mount_bind_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
modules_mount_bind_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)

modules_mount_generic_la_SOURCES = modules/generic.c modules/mntattr.c modules/am_mntattr.h
modules_mount_generic_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
modules_mount_generic_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)
