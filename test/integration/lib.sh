# Sourced by the agent_*.sh host tests.  Each test prints "ok NAME" or
# "FAIL NAME: why"; the script exits non-zero when one failed.
top_builddir=${top_builddir:-.}
AUTOFS=$top_builddir/agent/autofs
export AUTOFS_AGENT_MODULE_DIR=$top_builddir/maps/.libs:$top_builddir/modules/.libs
export AUTOFS_AGENT_NSSWITCH=/nonexistent
T=$(mktemp -d /tmp/autofs-agent-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
export AUTOFS_AGENT_CONF=$T/autofs-agent.conf
printf '[general]\nmap_dir = %s\nsources = files\n' "$T" > "$AUTOFS_AGENT_CONF"
failed=0

pass() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# expect NAME RC PATTERN CMD...: CMD exits RC and its output contains PATTERN
expect() {
	local name=$1 rc=$2 pat=$3 out got
	shift 3
	out=$("$@" 2>&1)
	got=$?
	if [ "$got" != "$rc" ]; then
		fail "$name" "exit $got, expected $rc: $(echo "$out" | tail -3 | tr '\n' ' ')"
	elif [ -n "$pat" ] && ! printf '%s' "$out" | grep -qF -- "$pat"; then
		fail "$name" "output lacks '$pat': $(echo "$out" | tail -3 | tr '\n' ' ')"
	else
		pass "$name"
	fi
}

finish() {
	echo "$failed failed"
	[ "$failed" -eq 0 ]
}
