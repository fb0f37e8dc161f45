#!/bin/bash
# The agent's own time for one lookup, start of exec to exit: `autofs test`
# on a 10-line and a 100,000-key file map, and `autofs lookup` with a bind
# mount in a private mount namespace; perf stat -r 20 (task-clock is the
# CPU time, "elapsed" the wall time), and the peak RSS from GNU time.
# Not part of `make check`: figures, not a pass/fail.  Use a build without
# sanitizers:  top_builddir=_build-rel test/integration/perf_agent.sh
. "${srcdir:-.}/test/integration/lib.sh"
AUTOFS=$(cd "$(dirname "$AUTOFS")" && pwd)/$(basename "$AUTOFS")
for i in $(seq 1 10); do echo "key$i -rw server:/export/home/key$i"; done > "$T/auto.small"
awk 'BEGIN { for (i = 1; i <= 100000; i++) printf "key%d -rw,soft server:/export/home/key%d\n", i, i }' > "$T/auto.big"
mkdir -p "$T/src" "$T/mnt"
echo "bindkey -fstype=bind :$T/src" >> "$T/auto.small"
measure() {
	local what=$1
	shift
	echo "== $what"
	perf stat -r 20 "$@" 2>&1 >/dev/null | grep -E "task-clock|elapsed"
	/usr/bin/time -f "peak RSS %M KiB" "$@" 2>&1 >/dev/null | tail -1
}
measure "autofs test, 10-line map, last key" $AUTOFS test auto.small key10
measure "autofs test, 100,000-key map, last key" $AUTOFS test auto.big key100000
measure "autofs test, 100,000-key map, first key" $AUTOFS test auto.big key1
export AUTOFS
echo "== autofs lookup + bind mount, 10-line map (mounts stack on one directory)"
unshare -m --propagation private sh -c '
	exec 3<"$1"
	perf stat -r 20 env MAPNAME=auto.small MAPKEY=bindkey MOUNTFD=3 "$AUTOFS" lookup 2>&1 |
		grep -E "task-clock|elapsed"
' sh "$T/mnt"
