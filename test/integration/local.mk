# test/integration: the built agent on real map files and program maps, and
# lookups in a private mount namespace (unshare -m) of this host.
TESTS += test/integration/agent_maps.sh test/integration/agent_lookup.sh \
	test/integration/agent_compat.sh test/integration/agent_trust.sh \
	test/integration/agent_triggers.sh test/integration/file_index.sh \
	test/integration/static_agent.sh
EXTRA_DIST += test/integration/lib.sh test/integration/static_agent.sh test/integration/agent_maps.sh \
	test/integration/agent_trust.sh \
	test/integration/file_index.sh \
	test/integration/agent_compat.sh \
	test/integration/agent_lookup.sh test/integration/agent_triggers.sh \
	test/integration/perf_agent.sh

# Map backends against real servers started by the tests (maps_lib.sh).

check_PROGRAMS += test/integration/map-probe
test_integration_map_probe_SOURCES = test/integration/map-probe.c
# ASan intercepts the xdr_* functions and resolves the real ones once, at
# start; libtirpc must be loaded by then, or a dlopen'd map_nis.so calls
# through a NULL pointer.  So the driver links it even though it uses none.
test_integration_map_probe_LDFLAGS = $(AM_LDFLAGS) -Wl,--no-as-needed
test_integration_map_probe_LDADD = $(TIRPC_LIBS) $(LIBS)

# Escaping and unescaping of LDAP text, fuzzed (see maps/README.md).
check_PROGRAMS += test/integration/ldap-text-fuzz
test_integration_ldap_text_fuzz_SOURCES = test/integration/ldap-text-fuzz.c \
	maps/ldap_text.c
test_integration_ldap_text_fuzz_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/maps -D_GNU_SOURCE
test_integration_ldap_text_fuzz_CFLAGS = $(AM_CFLAGS) $(LDAP_CFLAGS)
test_integration_ldap_text_fuzz_LDADD = $(LDAP_LIBS)

MAPS_INTEGRATION_TESTS = \
	test/integration/ldap_lookup.sh \
	test/integration/ldap_auth.sh \
	test/integration/ldap_failover.sh \
	test/integration/ldap_limits.sh \
	test/integration/ldap_master.sh \
	test/integration/ldap_nsswitch.sh \
	test/integration/ldap_cache.sh \
	test/integration/nis_lookup.sh \
	test/integration/sss_lookup.sh \
	test/integration/sss_child.sh \
	test/integration/hosts_hostile.sh

TESTS += test/integration/ldap-text-fuzz $(MAPS_INTEGRATION_TESTS)
EXTRA_DIST += $(MAPS_INTEGRATION_TESTS) test/integration/maps_lib.sh \
	test/integration/ldap_lib.sh test/integration/nis_lib.sh \
	test/integration/sss_lib.sh \
	test/integration/lsan.supp test/integration/bench.sh

# The -hosts map against a MOUNT server that lies (hosts_hostile.sh and the
# guest suite hosts.sh, which finds it in the build tree: always built).
noinst_PROGRAMS += test/integration/mountd-hostile
test_integration_mountd_hostile_SOURCES = test/integration/mountd-hostile.c
test_integration_mountd_hostile_CFLAGS = $(AM_CFLAGS) $(TIRPC_CFLAGS)
test_integration_mountd_hostile_LDADD = $(TIRPC_LIBS)
