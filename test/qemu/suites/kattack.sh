# SUITE_TIMEOUT=600
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

# asuser MFD-ARGS...: mfd as uid 1000, root of its own user namespace
asuser() {
	setpriv --reuid=1000 --regid=1000 --clear-groups \
		unshare -Urm --propagation private "$MFD" "$@" 2>&1
}

# under_attack SETTLE KEY MFD-ARGS...: uid 1000 runs mfd MFD-ARGS in its own
# namespace; once it has said "ready" and SETTLE seconds more have passed,
# root mounts and unmounts 40 times.  Prints the attacker's KEY= line and
# root's worst mount+umount.
under_attack() {
	local settle=$1 key=$2 out=$W/attack.out pid i lat
	shift 2
	asuser "$@" > "$out" 2>&1 &
	pid=$!
	for i in $(seq 1200); do
		grep -q '^ready' "$out" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	sleep "$settle"
	lat=$("$MFD" mountlat $W/lat 40)
	wait $pid
	echo "$(grep "$key=" "$out" || cat "$out") root_$lat"
}

# chain N: uid 1000 stacks N bind mounts of a directory on itself, each
# EXPIRE with the longest timeout, and holds them for 6 s of ticks (a tick
# or more of it before root measures).  Prints the longest tick and the
# longest hold of namespace_sem.
chain() { under_attack 1.5 chain chain $W/chain "$1" 6; }

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

# What one expiry tree may cost a tick is bounded, whatever uid 1000 builds
# in its own namespace: a tree of more than 1,024 mounts counts as busy and
# stays (before, 3,001 were scanned whole under one hold of namespace_sem
# and went), and so does a tree whose unmount would look at more than 16,384
# copies propagation made (before, all were checked and unmounted under
# mount_lock, which every path walk waits for).  The controls go.
mkdir -p $W/big && chown 1000:1000 $W/big
b3=$(asuser bigtree $W/big/t 3000 6); measure "bigtree $b3"
b0=$(asuser bigtree $W/big/t 50 6); measure "bigtree $b0"
t_eq bigtree-stays 0 "$(echo "$b3" | field gone)"
t_eq bigtree-control-goes 1 "$(echo "$b0" | field gone)"
c3=$(asuser copies $W/big/c 17000 6); measure "copies $c3"
c0=$(asuser copies $W/big/c 50 6); measure "copies $c0"
t_eq copies-many-stay 0 "$(echo "$c3" | field gone)"
t_eq copies-control-goes 1 "$(echo "$c0" | field gone)"

# GETFIRSTCHILD/GETNEXTCHILD ask about every mount they pass over.  uid
# 1000, chrooted away from 2,000 mounts of its own each 10,000 directories
# down, made every walk climb twenty million directories under one hold of
# namespace_sem, which root's mount(2) waited for: 430 ms at worst against
# 5 ms without (6.1 base).  The walk lets a waiting writer in after every
# 64 mounts it passes over, and a question costs 4,096 steps at most.
mkdir -p $W/hw && chown 1000:1000 $W/hw
hidewalk() { under_attack 1 hidden hidewalk $W/hw/t "$@"; }
if [ "$(mount_api)" = mountfd ]; then # the walk is mountfd(2)'s, 6.1 only
	h=$(hidewalk 2000 10000 10); measure "hidewalk $h"
	hlat=$(echo "$h" | field worst_ms)
	if [ -n "$hlat" ] && [ -n "$(echo "$h" | field walks)" ] &&
		[ "$hlat" -lt $((lat0 + 100)) ]; then
		t_pass hidewalk-root-mount-latency
	else
		t_fail hidewalk-root-mount-latency "root's worst mount+umount ${hlat:-?} ms while uid 1000 walked past 2,000 hidden mounts, ${lat0:-?} ms without: $h"
	fi
fi

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

# Landlock: a sandboxed task may not change the mount tree (umount(2) and
# move_mount(2) fail with EPERM); the series' operations that do the same
# go through the same LSM hooks.  SETEXPIRE of a policy that unmounts
# later is the unmount, decided when it is asked for.
landlocked() { "$MFD" landlocked "$@" 2>&1; }
ll=$(landlocked api /)
if [ "$ll" = ENOSYS ] || [ "$ll" = EOPNOTSUPP ]; then
	t_fail landlock "the kernel has no Landlock ($ll; kernel/config/base.config)"
else
	mkdir -p $W/ll/d $W/ll/to
	echo hidden > $W/ll/d/under
	mount -t tmpfs over $W/ll/d
	t_eq landlock-umount EPERM "$(landlocked umount $W/ll/d)"
	t_eq landlock-setexpire EPERM "$(landlocked setexpire $W/ll/d mount 1)"
	t_eq landlock-setexpire-none "" "$(landlocked setexpire $W/ll/d none)"
	if [ "$(mount_api)" = mountfd ]; then
		t_eq landlock-detach EPERM "$(landlocked detach-close $W/ll/d)"
		t_eq landlock-attach EPERM "$(landlocked attach $W/ll/d $W/ll/to)"
		t_eq landlock-unmount-ioctl EPERM "$(landlocked unmount $W/ll/d)"
	fi
	sleep 3 # two ticks: a policy that got through would have unmounted it
	t_eq landlock-still-hidden "" "$(cat $W/ll/d/under 2>/dev/null)"
	present $W/ll/d && t_pass landlock-mount-kept || t_fail landlock-mount-kept "$W/ll/d was unmounted"
	# unconfined, root still may
	t_eq unconfined-setexpire "" "$("$MFD" setexpire $W/ll/d mount 1 2>&1)"
	"$MFD" wait-gone $W/ll/d 6000 > /dev/null
	t_eq unconfined-expired hidden "$(cat $W/ll/d/under 2>/dev/null)"
fi
# The mountfd walk takes no reference on a mount the caller may not open:
# four processes of uid 1000 walking from / in a loop used to keep a
# strict-expiry mount below a 0700 directory busy (a reference each time
# the walk passed it), so it never expired, and root's umount of another
# mount there failed with EBUSY now and then.
if [ "$(mount_api)" = mountfd ]; then
	ATT=$BUILDDIR/test/qemu/progs/mfd-attack
	mkdir -p $W/priv
	chmod 700 $W/priv
	mkdir -p $W/priv/m $W/priv/u
	mount -t tmpfs strict $W/priv/m
	"$MFD" setexpire $W/priv/m 0x101 3 > /dev/null # MOUNT | STRICT, 3 s
	setpriv --reuid=1000 --regid=1000 --clear-groups \
		"$ATT" walkloop / 12 4 > $W/walk.out 2>&1 &
	wpid=$!
	sleep 1
	busy=0
	for i in $(seq 20); do
		mount -t tmpfs u $W/priv/u
		umount $W/priv/u 2> /dev/null || { busy=$((busy + 1)); umount -l $W/priv/u; }
	done
	gone=$("$MFD" wait-gone $W/priv/m 9000)
	wait $wpid
	measure "walkloop $(cat $W/walk.out) umount_ebusy=$busy/20 strict_3s_gone_ms=$gone"
	t_eq walk-umount-not-busy 0 "$busy"
	case $gone in
	timeout) t_fail walk-strict-expires "the 3 s strict mount below a 0700 directory stayed 9 s under the walk: $(cat $W/walk.out)" ;;
	*) t_pass walk-strict-expires ;;
	esac
	grep -q "^walks=[1-9]" $W/walk.out && t_pass walk-ran || t_fail walk-ran "$(cat $W/walk.out)"
	umount $W/priv/m 2> /dev/null

	# A host mount propagated into uid 1000's user namespace after it was
	# made arrives unlocked (the kernel locks a propagated tree's mounts
	# but its root).  Root of that namespace administers the namespace,
	# not the host's directories: the walk must not hand it a mount below
	# a 0700 directory of the host.
	mkdir -p $W/ps
	mount --bind $W/ps $W/ps
	mount --make-shared $W/ps
	mkdir -p $W/ps/priv
	chmod 700 $W/ps/priv
	mkdir -p $W/ps/priv/m
	setpriv --reuid=1000 --regid=1000 --clear-groups unshare -Urm --propagation slave \
		sh -c 'sleep 3; "$0" steal "$1" secret' "$ATT" $W/ps > $W/steal.out 2>&1 &
	spid=$!
	sleep 1
	mount -t tmpfs hostsecret $W/ps/priv/m
	echo TOPSECRET > $W/ps/priv/m/secret
	wait $spid
	if grep -q TOPSECRET $W/steal.out; then
		t_fail propagated-unlocked-not-opened "uid 1000's namespace root read a file below a 0700 host directory: $(cat $W/steal.out)"
	else
		t_pass propagated-unlocked-not-opened
	fi
	umount $W/ps/priv/m
	umount $W/ps

	# mnt_reachable() climbs from a mount to the caller's root.  A bind
	# mount's directory moved out of the bind's root (a rename on the host,
	# where it is no mount point) leaves a mount below it whose climb
	# reaches the filesystem's root without passing the bind's root; on
	# NFS that root is hashed.  The climb must end there (it spun for ever
	# under RCU and namespace_sem: every mount(2) hung).
	nfs_server_start /export/kat
	chmod 777 $NFS_ROOT/export/kat
	mkdir -p $W/nfs
	mount -t nfs -o vers=4.2 127.0.0.1:/export/kat $W/nfs
	setpriv --reuid=1000 --regid=1000 --clear-groups mkdir -p $W/nfs/a/c $W/nfs/b
	cat > $W/climb.sh <<-'CLIMB'
	# in uid 1000's namespace A: bind a on b, a tmpfs on b/c; in a nested
	# namespace B (not the tmpfs' owner), hold b/c, wait, then mountfd it
	set -e
	W=$1
	mount --bind $W/nfs/a $W/nfs/b
	mount -t tmpfs t $W/nfs/b/c
	exec unshare -Ur python3 -c '
	import ctypes, os, sys, time
	w = sys.argv[1]
	fd = os.open(w + "/nfs/b/c", os.O_PATH)
	open(w + "/climb.ready", "w").close()
	while not os.path.exists(w + "/climb.go"):
	    time.sleep(0.1)
	r = ctypes.CDLL(None, use_errno=True).syscall(451, fd, 0)
	print("mountfd", r, os.strerror(ctypes.get_errno()) if r < 0 else "ok")
	' $W
	CLIMB
	chmod 777 $W
	setpriv --reuid=1000 --regid=1000 --clear-groups \
		timeout 60 unshare -Urm sh $W/climb.sh $W > $W/climb.out 2>&1 &
	cpid=$!
	for i in $(seq 100); do [ -e $W/climb.ready ] && break; sleep 0.1; done
	mv $W/nfs/a/c $W/nfs/c
	touch $W/climb.go
	wait $cpid
	t_eq climb-ends-at-fs-root "mountfd -1 Permission denied" "$(cat $W/climb.out)"
	t_ok climb-mount-still-works sh -c "mount -t tmpfs after $W/lat && umount $W/lat"
	umount $W/nfs
fi

# Fairness between users (autofsng): uid 1000 starts eight slow keys, then
# walks into alice's key, which queues behind them under uid 1000.  uid
# 1001 then walks to alice: the request moves to uid 1001's turn, and uid
# 1000 runs at most half the slots (fs.autofsng.max_agents_per_user 0),
# so it runs at once.  Before, it waited for the whole backlog: 8 keys of
# 4 s, 2 at a time.
AGENT=$BUILDDIR/test/qemu/progs/autofsng-agent
AD=/run/autofsng-agent
SYS=/proc/sys/fs/autofsng
mkdir -p $W/fair "$AD"
cp "$BUILDDIR/test/qemu/progs/autofsng-hammer" $W/hammer
printf '#!/bin/sh\ncase "$MAPKEY" in\nslow*) sleep 4; exit 3 ;;\nesac\nexec %s "$@"\n' \
	"$AGENT" > $W/fair-agent
chmod 755 $W $W/fair-agent
[ -f "$AD/map" ] && cp "$AD/map" $W/map.saved
echo 'alice ok' > "$AD/map"
: > "$AD/log"
chmod 666 "$AD/log"
old_agent=$(cat $SYS/agent)
old_max=$(cat $SYS/max_agents)
echo $W/fair-agent > $SYS/agent
echo 2 > $SYS/max_agents
t_eq per-user-default 0 "$(cat $SYS/max_agents_per_user 2>&1)"
mount -t autofsng -o indirect,negative_timeout=1 auto.fair $W/fair
for i in 1 2 3 4 5 6 7 8; do
	setpriv --reuid=1000 --regid=1000 --clear-groups stat $W/fair/slow$i > /dev/null 2>&1 &
done
sleep 1
running=$(pgrep -c -f "^/bin/sh $W/fair-agent")
setpriv --reuid=1000 --regid=1000 --clear-groups stat $W/fair/alice > /dev/null 2>&1 &
sleep 1
us=$(setpriv --reuid=1001 --regid=1001 --clear-groups $W/hammer time $W/fair/alice/hello)
ms=$(( ${us:-99999999} / 1000 ))
measure "fairness: uid 1001's alice behind uid 1000's 8 slow keys (4 s each, max_agents 2): $ms ms; uid 1000's agents at once: $running"
t_eq fair-one-slot-per-user 1 "$running"
if [ "$ms" -lt 3000 ]; then t_pass fair-joined-request-not-behind-backlog
else t_fail fair-joined-request-not-behind-backlog "uid 1001 waited $ms ms for alice, queued by uid 1000 behind 8 keys of 4 s"; fi
t_eq fair-one-agent-for-the-key 1 "$(grep -c "^lookup .* MAPKEY=alice " "$AD/log")"
wait
# A key the agent refuses (a leading '-', a control character) fails at
# once: no root agent runs for it, however many such names a user tries.
: > "$AD/log"
for k in -rf -x "$(printf 'a\tb')" "$(printf 'c\033d')" nosuch; do
	setpriv --reuid=1000 --regid=1000 --clear-groups stat "$W/fair/$k" > /dev/null 2>&1
done
t_eq refused-keys-run-no-agent "nosuch" "$(sed -n 's/^lookup .* MAPKEY=\([^ ]*\) .*/\1/p' "$AD/log" | tr '\n' ' ' | sed 's/ $//')"
umount $W/fair/alice 2> /dev/null
umount $W/fair

# Browse snapshots: eight listings of a 1,000-key map held open across
# refreshes (cache_ttl 1 s) pinned a copy of the map each; an unchanged map
# now makes no new copy, and fs.autofsng.snapshot_keys counts what is held.
echo "$AGENT" > $SYS/agent
seq -f 'b%.0f' 1 1000 > "$AD/list"
mkdir -p $W/snap
mount -t autofsng -o browse,cache_ttl=1 auto.snap $W/snap
base=$(cat $SYS/snapshot_keys 2>&1)
held=$(setpriv --reuid=1000 --regid=1000 --clear-groups python3 -c '
import os, sys, time
fds = []
for i in range(8):
    fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
    n = len(os.listdir(fd))
    fds.append(fd)
    time.sleep(1.3)
print(n, open("/proc/sys/fs/autofsng/snapshot_keys").read().strip())
' $W/snap 2>&1)
measure "browse: 8 listings of a 1,000-key map held open across refreshes: keys listed, keys held: $held (before: $base)"
# the mount's first refresh may or may not be done when base is read: the
# one snapshot of the map is what is held either way
t_eq snapshot-unchanged-map-one-copy "1000 1000" "$held"
umount $W/snap
rm -f "$AD/list"
echo "$old_agent" > $SYS/agent
echo "$old_max" > $SYS/max_agents
if [ -f $W/map.saved ]; then cp $W/map.saved "$AD/map"; else rm -f "$AD/map"; fi

# A host mount propagated into a rootless container is a copy that goes
# with the host's tree; the container reads it as plain NONE, not the host
# tree's timeout and countdown, which restart whenever a host user uses it.
# Root in a slave namespace of its own still sees PROPAGATED.
mkdir -p $W/sh
mount --bind $W/sh $W/sh
mount --make-shared $W/sh
mkdir -p $W/sh/m
chmod 755 $W/sh $W/sh/m
look='sleep 2; "$0" getexpire "$1"'
setpriv --reuid=1000 --regid=1000 --clear-groups \
	unshare -Urm --propagation slave sh -c "$look" "$MFD" $W/sh/m > $W/cont.out 2>&1 &
cpid=$!
unshare -m --propagation slave sh -c "$look" "$MFD" $W/sh/m > $W/rootns.out 2>&1 &
rpid=$!
sleep 1
mount -t tmpfs hostm $W/sh/m
"$MFD" setexpire $W/sh/m mount 300 > /dev/null
wait $cpid $rpid
t_eq propagated-container-sees-none "0 0 0" "$(cat $W/cont.out)"
case $(cat $W/rootns.out) in
"512 300 "*|"1 300 "*) t_pass propagated-root-slave-sees-tree ;;
*) t_fail propagated-root-slave-sees-tree "$(cat $W/rootns.out)" ;;
esac
umount $W/sh/m
umount $W/sh

# trapfs: one user's slow lookups take at most 64 of a mount's 256 helper
# runs in flight.  uid 1000 starts 256 lookups whose helper hangs; uid
# 1001's lookup is served (it failed with EAGAIN before).
mkdir -p $W/trap
printf '#!/bin/sh\ncase "$TRAPFS_NAME" in\nhang-*) sleep 1000 ;;\n*) echo "$TRAPFS_NAME" > /proc/self/fd/$TRAPFS_DIRFD/$TRAPFS_NAME ;;\nesac\n' > $W/thelper
chmod 755 $W/thelper
# by mount(2) itself: mount(8) takes "helper=" as its own option
python3 -c 'import ctypes, sys
if ctypes.CDLL(None).mount(b"trap", sys.argv[1].encode(), b"trapfs", 0, sys.argv[2].encode()):
	sys.exit("mount " + sys.argv[1] + " failed")' $W/trap "helper=$W/thelper,helper_timeout=12"
setpriv --reuid=1000 --regid=1000 --clear-groups \
	$W/hammer flood 256 256 0 $W/trap/hang- > $W/trapflood 2>&1 &
fpid=$!
sleep 4
t_eq trapfs-other-user-served served "$(setpriv --reuid=1001 --regid=1001 --clear-groups cat $W/trap/served 2>&1)"
wait $fpid
measure "trapfs: uid 1000's 256 hanging lookups: $(cat $W/trapflood)"
umount $W/trap

echo "$old_tick" > $TICK
rm -rf $W
