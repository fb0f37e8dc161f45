# SUITE_TIMEOUT=400
# kattack: what root of an unprivileged user's namespace can make the
# series' kernel code cost everybody else (issue 38).  The attacker is uid
# 1000 in its own `unshare -Urm`; the victim is root doing mount(2).
# Figures go to the console and to /run/results/kattack-measure.txt.
. "$TOP/test/qemu/lib.sh"

MFD=$BUILDDIR/test/qemu/progs/mfd
TICK=/proc/sys/fs/mount_expire_tick
MEASURE=/run/results/kattack-measure.txt
W=/mnt/kattack

measure() {
	echo "MEASURE $*" | tee -a "$MEASURE"
}

present() { awk -v p="$1" '$5 == p { f = 1 } END { exit !f }' /proc/self/mountinfo; }

: > "$MEASURE"
old_tick=$(cat $TICK)
echo 1 > $TICK
mkdir -p $W/lat $W/chain
chown 1000:1000 $W/chain

# chain N: uid 1000 stacks N bind mounts of a directory on itself in its
# own namespace, each EXPIRE with the longest timeout, and holds them for
# 6 s of ticks while root mounts and unmounts 40 times.  Prints the
# attacker's line (longest tick, longest hold of namespace_sem) and root's.
chain() {
	local n=$1 out=$W/chain.$1 lat
	setpriv --reuid=1000 --regid=1000 --clear-groups \
		unshare -Urm --propagation private "$MFD" chain $W/chain "$n" 6 > "$out" 2>&1 &
	local pid=$! i
	for i in $(seq 600); do
		grep -q '^ready' "$out" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	sleep 1.5 # a tick or more of the chain before root measures
	lat=$("$MFD" mountlat $W/lat 40)
	wait $pid
	echo "$(grep chain= "$out" || cat "$out") root_$lat"
}

field() { sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }

# The tick visits each mount once: a chain of 3,000 nested expiry trees cost
# 570 ms a tick before (n^2 / 2 visits, issue 38), all of it under
# namespace_sem, which every mount(2) waits for.
c0=$(chain 0); measure "chain0 $c0"
c1=$(chain 1000); measure "chain1000 $c1"
c3=$(chain 3000); measure "chain3000 $c3"
hold=$(echo "$c3" | field max_hold_ns)
tick1=$(echo "$c1" | field max_tick_ns)
tick3=$(echo "$c3" | field max_tick_ns)
lat0=$(echo "$c0" | field worst_ms)
lat3=$(echo "$c3" | field worst_ms)
if [ -n "$hold" ] && [ "$hold" -gt 0 ] && [ "$hold" -lt 50000000 ]; then
	t_pass chain-hold-bounded
else
	t_fail chain-hold-bounded "namespace_sem held ${hold:-?} ns by one tick of a 3,000-chain, want < 50 ms: $c3"
fi
# linear: x3 mounts, x9 before; allow noise on top of x3
if [ -n "$tick1" ] && [ -n "$tick3" ] && [ "$tick3" -lt $((tick1 * 6 + 5000000)) ]; then
	t_pass chain-tick-linear
else
	t_fail chain-tick-linear "tick ${tick1:-?} ns at 1,000, ${tick3:-?} ns at 3,000"
fi
if [ -n "$lat3" ] && [ "$lat3" -lt $((lat0 + 200)) ]; then
	t_pass chain-root-mount-latency
else
	t_fail chain-root-mount-latency "root's worst mount+umount ${lat3:-?} ms under the chain, ${lat0:-?} ms without"
fi
present $W/chain && t_fail chain-stays-in-its-namespace "a bind of the chain is in root's namespace" ||
	t_pass chain-stays-in-its-namespace

# A tree nested in another expiring tree keeps its own use marks: the walk
# of the outer tree used to take them, and an inner mount in use every
# half second went at the end of its countdown.
mkdir -p $W/nest
mount -t tmpfs outer $W/nest
mkdir -p $W/nest/in
mount -t tmpfs inner $W/nest/in
"$MFD" setexpire $W/nest mount 3 > /dev/null
"$MFD" setexpire $W/nest/in mount 3 > /dev/null
for i in $(seq 16); do ls $W/nest/in > /dev/null; sleep 0.5; done
if present $W/nest/in; then t_pass nested-used-kept
else t_fail nested-used-kept "$W/nest/in, used every 0.5 s, expired"; fi
# once idle, both go: the inner first, then the outer
for i in $(seq 20); do present $W/nest || break; sleep 0.5; done
if present $W/nest; then t_fail nested-idle-goes "$W/nest still mounted 10 s after the last use"
else t_pass nested-idle-goes; fi

umount -R $W/nest 2>/dev/null
echo "$old_tick" > $TICK
rm -rf $W
