# QEMU suites: `make qemu-check SUITES="smoke expiry"` (default: all).
SUITES ?=
qemu-check:
	$(top_srcdir)/test/qemu/run $(SUITES)
.PHONY: qemu-check
# trapfs example helpers and the suite that runs them
EXTRA_DIST += test/qemu/progs/trapfs-automount test/qemu/progs/trapfs-devfs test/qemu/suites/trapfs.sh
