# test/unit: host tests of the agent and modules, no kernel needed.

# Option translation of the NFS module (nfs(5) names -> fsconfig/attributes).
check_PROGRAMS += test/unit/nfs_opts_test
TESTS += test/unit/nfs_opts_test
test_unit_nfs_opts_test_SOURCES = test/unit/test_nfs_opts.c \
	modules/nfs_opts.c modules/nfs_opts.h
test_unit_nfs_opts_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/modules

# Server ranking and the RPC NULL ping (real loopback sockets).
check_PROGRAMS += test/unit/nfs_rank_test
TESTS += test/unit/nfs_rank_test
test_unit_nfs_rank_test_SOURCES = test/unit/test_nfs_rank.c \
	modules/nfs_addr.c modules/nfs_ping.c
test_unit_nfs_rank_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/modules
test_unit_nfs_rank_test_CFLAGS = $(AM_CFLAGS) $(TIRPC_CFLAGS) -pthread
test_unit_nfs_rank_test_LDADD = $(TIRPC_LIBS)
test_unit_nfs_rank_test_LDFLAGS = $(AM_LDFLAGS) -pthread
