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
