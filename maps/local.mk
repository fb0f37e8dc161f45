# maps: one shared object per map source, loaded by the agent (am_module.h).

module_LTLIBRARIES += maps/map_ldap.la maps/map_nis.la

maps_map_ldap_la_SOURCES = maps/ldap.c maps/ldap_conn.c maps/ldap_auth.c \
	maps/ldap_text.c maps/ldap_priv.h
maps_map_ldap_la_CFLAGS = $(AM_CFLAGS) -D_GNU_SOURCE $(LDAP_CFLAGS) $(XML_CFLAGS) $(SASL_CFLAGS)
maps_map_ldap_la_LIBADD = $(LDAP_LIBS) $(XML_LIBS)
maps_map_ldap_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^am_map_module$$'

maps_map_nis_la_SOURCES = maps/nis.c
maps_map_nis_la_CFLAGS = $(AM_CFLAGS) -D_GNU_SOURCE $(NSL_CFLAGS) $(TIRPC_CFLAGS)
maps_map_nis_la_LIBADD = $(NSL_LIBS) $(TIRPC_LIBS)
maps_map_nis_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-export-symbols-regex '^am_map_module$$'

EXTRA_DIST += maps/README.md
