# test/integration/maps_lib.sh -- sourced by the map backend tests.
#
# Each test prints "ok N - what" / "not ok N - what" lines and ends with a
# summary; the exit status is 0 only when every check passed (77 = skipped,
# as automake expects).  Servers started by a test are stopped by its EXIT
# trap; at_exit adds a command to that trap.

set -u
T_NUM=0
T_FAILED=0
T_EXIT_CMDS=()
srcdir=$(cd "${srcdir:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd)
builddir=${builddir:-$(pwd)}
PROBE=${PROBE:-$builddir/test/integration/map-probe}
MODDIR=${AUTOFS_AGENT_MODULE_DIR:-$builddir/maps/.libs}
export LSAN_OPTIONS=suppressions=$srcdir/test/integration/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/autofsng-it.XXXXXX")

t_cleanup() {
	local i
	for ((i = ${#T_EXIT_CMDS[@]} - 1; i >= 0; i--)); do
		eval "${T_EXIT_CMDS[i]}" >/dev/null 2>&1 || true
	done
	rm -rf "$TMP"
}
[ -n "${KEEP_TMP:-}" ] || trap t_cleanup EXIT
at_exit() { T_EXIT_CMDS+=("$*"); }

# enter_private_ns "$@" -- first thing in a test: re-run it as root in
# its own network (only loopback), UTS, mount and PID namespaces, so every
# server it starts dies with it and nothing touches the host's network.
enter_private_ns() {
	[ -n "${IT_IN_NS:-}" ] && { ip link set lo up; return 0; }
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for unshare"; exit 77; }
	command -v unshare >/dev/null || { echo "SKIP: no unshare"; exit 77; }
	rm -rf "$TMP"
	IT_IN_NS=1 exec unshare -n -u -m -p -f --mount-proc --propagation private \
		"$BASH" "$0" "$@"
}

t_ok() { T_NUM=$((T_NUM + 1)); echo "ok $T_NUM - $*"; }
t_fail() {
	T_NUM=$((T_NUM + 1)); T_FAILED=$((T_FAILED + 1))
	echo "not ok $T_NUM - $*"
}
t_skip() { echo "SKIP: $*"; exit 77; }

# t_eq WHAT EXPECTED ACTUAL
t_eq() {
	if [ "$2" = "$3" ]; then
		t_ok "$1"
	else
		t_fail "$1"
		printf '  expected: %.300s\n  actual:   %.300s\n' "$2" "$3"
	fi
}

# t_grep WHAT PATTERN FILE -- FILE has a line matching PATTERN
t_grep() {
	if grep -q -- "$2" "$3"; then
		t_ok "$1"
	else
		t_fail "$1"
		echo "  no line matching '$2' in:"; sed 's/^/  | /' "$3" | head -20
	fi
}

# t_nogrep WHAT PATTERN FILE -- no line of FILE matches PATTERN
t_nogrep() {
	if grep -q -- "$2" "$3"; then
		t_fail "$1"
		echo "  a line matches '$2' in:"; sed 's/^/  | /' "$3" | head -20
	else
		t_ok "$1"
	fi
}

t_done() {
	echo "$((T_NUM - T_FAILED)) passed, $T_FAILED failed"
	[ "$T_FAILED" -eq 0 ] && [ "$T_NUM" -gt 0 ]
}

need() {
	local c
	for c; do
		command -v "$c" >/dev/null 2>&1 || [ -x "$c" ] ||
			t_skip "$c not found (see the PACKAGES list of ./quickstart)"
	done
}

# A TCP port nobody listens on now.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Milliseconds since the epoch.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# probe MODULE MAP ARGS... -- run map-probe; stdout to $TMP/out, stderr
# to $TMP/err, sets RC.
probe() {
	local mod=$1; shift
	RC=0
	"$PROBE" "$MODDIR/map_$mod.so" "$@" >"$TMP/out" 2>"$TMP/err" || RC=$?
}

AUTOFS=${AUTOFS:-$builddir/agent/autofs}

# agent ARGS... -- run the agent as a user would; stdout to $TMP/out,
# stderr to $TMP/err, sets RC.  Skips the agent checks (returns 1) while
# the agent is not built.
agent() {
	RC=0
	AUTOFS_AGENT_MODULE_DIR=$MODDIR "$AUTOFS" "$@" >"$TMP/out" 2>"$TMP/err" || RC=$?
}

# Median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
