# test/integration: map backends against real servers started by the tests.

check_PROGRAMS += test/integration/map-probe
test_integration_map_probe_SOURCES = test/integration/map-probe.c
test_integration_map_probe_LDADD = $(LIBS)

INTEGRATION_TESTS = \
	test/integration/ldap_lookup.sh

TESTS += $(INTEGRATION_TESTS)
EXTRA_DIST += $(INTEGRATION_TESTS) test/integration/lib.sh \
	test/integration/ldap_lib.sh
