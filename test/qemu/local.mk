# QEMU suites: `make qemu-check SUITES="smoke expiry"` (default: all).
SUITES ?=
qemu-check:
	$(top_srcdir)/test/qemu/run $(SUITES)
.PHONY: qemu-check

# Test programs the guest suites run: built on the host (compiling under
# TCG is slow), found by the suites in $BUILDDIR/test/qemu/progs/.
noinst_PROGRAMS += test/qemu/progs/mfd
test_qemu_progs_mfd_SOURCES = test/qemu/progs/mfd.c test/qemu/progs/mountfd_user.h
