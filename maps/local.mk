# maps: map backends, each a dlopen'd map_<name>.so (agent/am_module.h).

# -hosts: a host's exports through the MOUNT protocol (libtirpc).
module_LTLIBRARIES += maps/map_hosts.la
maps_map_hosts_la_SOURCES = maps/hosts.c
maps_map_hosts_la_CFLAGS = $(AM_CFLAGS) $(TIRPC_CFLAGS)
maps_map_hosts_la_LIBADD = $(TIRPC_LIBS)
maps_map_hosts_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared
