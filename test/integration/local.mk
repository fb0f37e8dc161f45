# test/integration: the built agent on real map files and program maps, and
# lookups in a private mount namespace (unshare -m) of this host.
TESTS += test/integration/agent_maps.sh test/integration/agent_lookup.sh \
	test/integration/agent_triggers.sh
EXTRA_DIST += test/integration/lib.sh test/integration/agent_maps.sh \
	test/integration/agent_lookup.sh test/integration/agent_triggers.sh \
	test/integration/perf_agent.sh
