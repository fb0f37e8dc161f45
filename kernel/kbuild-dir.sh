# shellcheck shell=bash
# Sourced by the host scripts that build or boot a kernel (kernel/build.sh,
# test/qemu/run, test/qemu/kselftest-build.sh, bench/run, quickstart): the
# one place a kernel version maps to its build directory.
#
#   kbuild_dir TOP KVER
# prints $KBUILD_DIR (default TOP/_kbuild) for 6.1, its 6.12/ for 6.12;
# another version is an error on stderr and status 2.
kbuild_dir() {
	local base=${KBUILD_DIR:-$1/_kbuild}
	case $2 in
	6.1) echo "$base" ;;
	6.12) echo "$base/6.12" ;;
	*) echo "$0: KVER=$2: only 6.1 and 6.12 are supported" >&2; return 2 ;;
	esac
}
