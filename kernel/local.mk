# The patched kernel: 6.1, or 6.12 with KVER=6.12.  `make kernel` builds the base flavour,
# `make kernel FLAVOR=debug` the debug one (KASAN, lockdep) into its own
# output directory.  The tree and the output live under $(KBUILD_DIR), which
# git ignores.
FLAVOR ?= base
# KVER=6.12 builds the 6.12 series (kernel/patches/6.12) under $(KBUILD_DIR)/6.12.
KVER ?= 6.1
KBUILD_DIR ?= $(abs_top_srcdir)/_kbuild
export KBUILD_DIR

kernel:
	KVER=$(KVER) $(top_srcdir)/kernel/build.sh $(FLAVOR)

kernel-tree:
	KVER=$(KVER) $(top_srcdir)/kernel/build.sh --tree-only

# Each patch of the series in turn: checkpatch, apply, build (base config).
bisect-check:
	KVER=$(KVER) $(top_srcdir)/kernel/build.sh --bisect-check

lint: kernel-tree
	$(top_srcdir)/kernel/lint.sh

.PHONY: kernel kernel-tree bisect-check lint
EXTRA_DIST += kernel
