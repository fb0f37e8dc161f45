# SUITE_TIMEOUT=720
# kselftest: the selftests about mounts and namespaces of the running
# kernel's version (6.1 or 6.12), built statically on the host from the
# patched tree by [KVER=6.12] test/qemu/kselftest-build.sh.  Each
# program is one test: exit 0 passes, exit 4 (KSFT_SKIP) is reported as a
# pass named "...-skipped", anything else fails.  The TAP totals are
# printed for comparison with an unpatched kernel.
. "$TOP/test/qemu/lib.sh"
# the selftests of the running kernel's version (KVER=6.12 kselftest-build.sh)
case $(uname -r) in
6.12.*) KS=${KSELFTEST_DIR:-$TOP/_kbuild/6.12/kselftest} ;;
*) KS=${KSELFTEST_DIR:-$TOP/_kbuild/kselftest} ;;
esac

if [ ! -d "$KS" ]; then
	t_fail built "$KS missing: run test/qemu/kselftest-build.sh on the host"
	exit 0
fi

total_pass=0 total_fail=0 total_skip=0
# one program's limit: pidfd_test alone takes minutes under KASAN and TCG
PROG_LIMIT=240
[ "${FLAVOR:-base}" = base ] || PROG_LIMIT=900
run_one() {
	local dir=$1 prog=$2 name rc out p f s
	name=${dir}-${prog%.sh}
	out=$(cd "$KS/$dir" && timeout "$PROG_LIMIT" "./$prog" 2>&1)
	rc=$?
	echo "$out" | sed "s|^|  $name: |" | tail -40
	echo "$out" | grep -E '^(# )?not ok' | sed "s|^|  $name: failed: |"
	p=$(echo "$out" | grep -Ec '^(# )?ok [0-9]+' )
	f=$(echo "$out" | grep -Ec '^(# )?not ok [0-9]+' )
	s=$(echo "$out" | grep -Ec '^(# )?ok [0-9]+ .*# SKIP')
	total_pass=$((total_pass + p - s)) total_fail=$((total_fail + f)) total_skip=$((total_skip + s))
	case $rc in
	0) t_pass "$name" ;;
	4) t_pass "$name-skipped" ;;
	*)
		if only_known_failures "${prog%.sh}" "$out"; then
			t_pass "$name-known-failures"
		else
			t_fail "$name" "exit $rc: $(echo "$out" | grep -E 'not ok|FAIL' | head -3 | tr '\n' ' ')"
		fi ;;
	esac
}

# True when PROG failed some subtests and each is listed for it in
# test/qemu/kselftest-known-failures (they fail on the unpatched kernel too).
only_known_failures() {
	local prog=$1 out=$2 failed patterns t re known
	failed=$(echo "$out" | sed -nE 's/^(# )?not ok [0-9]+ ([^ #]+).*/\2/p')
	patterns=$(awk -v p="$prog" '!/^#/ && $1 == p { print $2 }' \
		"$TOP/test/qemu/kselftest-known-failures")
	[ -n "$failed" ] && [ -n "$patterns" ] || return 1
	for t in $failed; do
		known=0
		for re in $patterns; do
			[[ $t =~ $re ]] && known=1
		done
		[ $known = 1 ] || return 1
	done
	echo "kselftest: $prog: failed only subtests known to fail on the unpatched kernel here: $(echo $failed)"
}

for prog in run_unprivileged_remount.sh run_nosymfollow.sh; do run_one mount $prog; done
run_one mount_setattr mount_setattr_test
run_one move_mount_set_group move_mount_set_group_test
for prog in owner pidns; do run_one nsfs $prog; done
# pidfd_test forks until a PID of its namespace comes round again: up to
# pid_max (32768) forks, past PROG_LIMIT under TCG on 6.12.  A smaller
# pid_max keeps the test what it is and takes a fraction of the time.
pid_max=$(cat /proc/sys/kernel/pid_max)
echo 4096 > /proc/sys/kernel/pid_max
for prog in pidfd_test pidfd_fdinfo_test pidfd_open_test pidfd_poll_test pidfd_wait \
	    pidfd_getfd_test pidfd_setns_test; do
	run_one pidfd $prog
done
echo "$pid_max" > /proc/sys/kernel/pid_max
for prog in $(cd "$KS/proc" && ls | grep -v '\.'); do run_one proc "$prog"; done
echo "kselftest: TAP totals on $(uname -r): ok=$total_pass not_ok=$total_fail skip=$total_skip"
