# test/unit: the agent core on the host, sanitizers on when configured.
check_PROGRAMS += test/unit/am_unit
test_unit_am_unit_SOURCES = test/unit/am_unit.c
test_unit_am_unit_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
test_unit_am_unit_LDADD = agent/libamcore.a $(LIBS)

# broken modules for the loader test (built only for `make check`)
check_LTLIBRARIES = test/unit/map_badabi.la test/unit/map_badsize.la test/unit/map_nosym.la
BAD_MODULE_FLAGS = -module -avoid-version -shared -rpath /nowhere
test_unit_map_badabi_la_SOURCES = test/unit/bad_modules.c
test_unit_map_badabi_la_CPPFLAGS = $(AM_CPPFLAGS) -DBAD_KIND=1
test_unit_map_badabi_la_LDFLAGS = $(AM_LDFLAGS) $(BAD_MODULE_FLAGS)
test_unit_map_badsize_la_SOURCES = test/unit/bad_modules.c
test_unit_map_badsize_la_CPPFLAGS = $(AM_CPPFLAGS) -DBAD_KIND=2
test_unit_map_badsize_la_LDFLAGS = $(AM_LDFLAGS) $(BAD_MODULE_FLAGS)
test_unit_map_nosym_la_SOURCES = test/unit/bad_modules.c
test_unit_map_nosym_la_CPPFLAGS = $(AM_CPPFLAGS) -DBAD_KIND=3
test_unit_map_nosym_la_LDFLAGS = $(AM_LDFLAGS) $(BAD_MODULE_FLAGS)

TESTS += test/unit/golden.sh test/unit/loader.sh test/unit/man_check.sh test/unit/fuzz.sh
TESTS_ENVIRONMENT = srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	SANITIZERS='$(SAN_CFLAGS)'; export srcdir top_builddir ASAN_OPTIONS UBSAN_OPTIONS SANITIZERS;
EXTRA_DIST += test/unit/golden.sh test/unit/loader.sh test/unit/man_check.sh \
	test/unit/fuzz.sh test/unit/golden test/unit/fuzz_targets.c

# Manual pages: groff clean, and every ioctl and mount option of the kernel
# side is documented.
TESTS += test/unit/man_pages.sh
EXTRA_DIST += test/unit/man_pages.sh

# Option translation of the NFS module (nfs(5) names -> fsconfig/attributes).
check_PROGRAMS += test/unit/nfs_opts_test
TESTS += test/unit/nfs_opts_test
test_unit_nfs_opts_test_SOURCES = test/unit/test_nfs_opts.c test/unit/check.h \
	modules/nfs_opts.c modules/nfs_opts.h
test_unit_nfs_opts_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/modules

# Device specifiers and fstype=auto of the generic module (images made by mkfs).
check_PROGRAMS += test/unit/blkdev_test
TESTS += test/unit/blkdev_test
test_unit_blkdev_test_SOURCES = test/unit/test_blkdev.c test/unit/check.h \
	modules/blkdev.c modules/am_blkdev.h
test_unit_blkdev_test_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/modules
test_unit_blkdev_test_CFLAGS = $(AM_CFLAGS) $(BLKID_CFLAGS)
test_unit_blkdev_test_LDADD = $(BLKID_LIBS)

# Server ranking and the RPC NULL ping (real loopback sockets).
check_PROGRAMS += test/unit/nfs_rank_test
TESTS += test/unit/nfs_rank_test
test_unit_nfs_rank_test_SOURCES = test/unit/test_nfs_rank.c test/unit/check.h \
	modules/nfs_addr.c modules/nfs_ping.c
test_unit_nfs_rank_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/modules
test_unit_nfs_rank_test_CFLAGS = $(AM_CFLAGS) -pthread
test_unit_nfs_rank_test_LDFLAGS = $(AM_LDFLAGS) -pthread
