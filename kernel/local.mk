# The patched 6.1 kernel.  `make kernel` builds the base flavour,
# `make kernel FLAVOR=debug` the debug one (KASAN, lockdep) into its own
# output directory.  The tree and the output live under $(KBUILD_DIR), which
# git ignores.
FLAVOR ?= base
KBUILD_DIR ?= $(abs_top_srcdir)/_kbuild
export KBUILD_DIR

kernel:
	$(top_srcdir)/kernel/build.sh $(FLAVOR)

kernel-tree:
	$(top_srcdir)/kernel/build.sh --tree-only

lint: kernel-tree
	$(top_srcdir)/kernel/lint.sh

.PHONY: kernel kernel-tree lint
EXTRA_DIST += kernel
