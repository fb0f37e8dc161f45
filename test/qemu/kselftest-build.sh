#!/bin/bash
# Build the selftests about mounts and namespaces, statically, from the
# patched tree, into $KBUILD_DIR/kselftest/<target>/ for suites/kselftest.sh.
# Run after `make kernel` (the uapi headers come from its output directory).
# KVER=6.12 builds 6.12's, from and into $KBUILD_DIR/6.12/.
#
#   [KVER=6.12] test/qemu/kselftest-build.sh [TARGET...]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=kernel/kbuild-dir.sh
. "$top/kernel/kbuild-dir.sh"
kb=$(kbuild_dir "$top" "${KVER:-6.1}") || exit 2
tree=$kb/linux
out=$kb/kselftest
hdr=$kb/kselftest-headers
targets=${*:-mount mount_setattr move_mount_set_group nsfs pidfd proc}

[ -d "$tree/tools/testing/selftests" ] || { echo "$tree missing: make kernel-tree" >&2; exit 2; }
make -s -C "$tree" O="$hdr" ARCH=x86_64 headers_install INSTALL_HDR_PATH="$hdr/usr" >/dev/null
mkdir -p "$out"
for t in $targets; do
	echo "kselftest-build: $t"
	mkdir -p "$out/$t"
	make -s -C "$tree/tools/testing/selftests/$t" OUTPUT="$out/$t" \
		KHDR_INCLUDES="-isystem $hdr/usr/include" CC="gcc -static" all >"$out/$t.log" 2>&1 ||
		{ echo "kselftest-build: $t failed, see $out/$t.log" >&2; exit 1; }
	cp "$tree/tools/testing/selftests/$t"/*.sh "$out/$t/" 2>/dev/null || true
done
