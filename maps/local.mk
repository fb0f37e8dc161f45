# maps: map backends, each map_<name>.so in $(moduledir).
module_LTLIBRARIES += maps/map_file.la maps/map_program.la
MODULE_FLAGS = -module -avoid-version -shared

maps_map_file_la_SOURCES = maps/file.c agent/maptext.c agent/util.c
maps_map_file_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
maps_map_file_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)

maps_map_program_la_SOURCES = maps/program.c
maps_map_program_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
maps_map_program_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)

# modules are dlopen'd by name: no libtool archives in the installed tree
install-data-hook: install-data-hook-modules
install-data-hook-modules:
	rm -f $(DESTDIR)$(moduledir)/*.la
.PHONY: install-data-hook-modules

# -hosts: a host's exports through the MOUNT protocol (libtirpc).
module_LTLIBRARIES += maps/map_hosts.la
maps_map_hosts_la_SOURCES = maps/hosts.c
maps_map_hosts_la_CFLAGS = $(AM_CFLAGS) $(TIRPC_CFLAGS)
maps_map_hosts_la_LIBADD = $(TIRPC_LIBS)
maps_map_hosts_la_LDFLAGS = $(AM_LDFLAGS) $(MODULE_FLAGS)
