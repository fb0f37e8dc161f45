# QEMU suites: `make qemu-check SUITES="smoke expiry"` (default: all).
SUITES ?=
qemu-check:
	$(top_srcdir)/test/qemu/run $(SUITES)
.PHONY: qemu-check

# autofsng suite: the test agent the kernel runs, and the walk hammer.
# Built without sanitizers: the kernel execs the agent, which must stay
# single-threaded for setns(CLONE_NEWNS).
noinst_PROGRAMS += test/qemu/progs/autofsng-agent test/qemu/progs/autofsng-hammer
test_qemu_progs_autofsng_agent_SOURCES = test/qemu/progs/autofsng-agent.c
test_qemu_progs_autofsng_agent_CFLAGS = $(WARN_CFLAGS)
test_qemu_progs_autofsng_agent_LDFLAGS =
test_qemu_progs_autofsng_hammer_SOURCES = test/qemu/progs/autofsng-hammer.c
test_qemu_progs_autofsng_hammer_CFLAGS = $(WARN_CFLAGS)
test_qemu_progs_autofsng_hammer_LDFLAGS =
# trapfs example helpers and the suite that runs them
EXTRA_DIST += test/qemu/progs/trapfs-automount test/qemu/progs/trapfs-devfs test/qemu/suites/trapfs.sh
# Test programs the guest suites run: built on the host (compiling under
# TCG is slow), found by the suites in $BUILDDIR/test/qemu/progs/.
noinst_PROGRAMS += test/qemu/progs/mfd
test_qemu_progs_mfd_SOURCES = test/qemu/progs/mfd.c test/qemu/progs/mountfd_user.h
# security suite: what an unprivileged user tries with a mountfd
noinst_PROGRAMS += test/qemu/progs/mfd-attack
test_qemu_progs_mfd_attack_SOURCES = test/qemu/progs/mfd-attack.c test/qemu/progs/mountfd_user.h
# fuzz suite: random sequences of the series' calls (issue 38)
noinst_PROGRAMS += test/qemu/progs/kfuzz
test_qemu_progs_kfuzz_SOURCES = test/qemu/progs/kfuzz.c test/qemu/progs/mountfd_user.h
