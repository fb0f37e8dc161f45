# QEMU suites: `make qemu-check SUITES="smoke expiry"` (default: all).
SUITES ?=
qemu-check:
	$(top_srcdir)/test/qemu/run $(SUITES)
.PHONY: qemu-check
