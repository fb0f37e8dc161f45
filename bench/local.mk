# Benchmarks (bench/README.md): the timing program the guest suite
# test/qemu/suites/bench.sh runs, built on the host like the other guest
# programs.  `bench/run` boots the guest and files the results.
noinst_PROGRAMS += bench/abench
bench_abench_SOURCES = bench/abench.c
bench_abench_CFLAGS = $(WARN_CFLAGS) -O2
bench_abench_LDFLAGS =
# the floor of the design (row floor-bind): a static program the kernel runs
# instead of the agent
noinst_PROGRAMS += bench/floor
bench_floor_SOURCES = bench/floor.c
bench_floor_CFLAGS = $(WARN_CFLAGS) -O2
bench_floor_LDFLAGS = -all-static
EXTRA_DIST += bench/run bench/report.sh bench/README.md test/qemu/suites/bench.sh
