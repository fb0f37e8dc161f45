# SUITE_TIMEOUT=420
# DEFAULT=no
# fuzz: kfuzz runs random sequences of the series' calls from six processes
# (root, uid 1000, root of uid 1000's user namespace; issue 38) for
# harness.fuzz_seconds (FUZZ_SECONDS=N test/qemu/run fuzz; default 150 s)
# with a 1-second expiry tick, on a tmpfs of its own, with an autofsng
# mount whose agent mounts, fails or sleeps, and a trapfs mount whose
# helper creates names or sleeps.  The harness fails it on any splat or
# hung task (test/qemu/invariants); this suite fails it when a mount is
# leaked: once every worker and its namespaces are gone and the tree is
# unmounted, the kernel holds as many mounts (mnt_cache objects, the guest
# boots with slab_nomerge) as before.  Figures go to
# /run/results/fuzz-measure.txt.
. "$TOP/test/qemu/lib.sh"

FUZZ=$BUILDDIR/test/qemu/progs/kfuzz
AGENT=$BUILDDIR/test/qemu/progs/autofsng-agent
AD=/run/autofsng-agent
SYS=/proc/sys/fs/autofsng
TICK=/proc/sys/fs/mount_expire_tick
W=/mnt/kfuzz
MEASURE=/run/results/fuzz-measure.txt
SLAB=/sys/kernel/slab/mnt_cache
# Recursive binds of shared trees into themselves double the mounts until
# fs.mount-max (100,000 a namespace by default) refuses one; the refused
# mount(2) then takes every copy propagation made back apart under
# mount_lock, in upstream code the series leaves as it is
# (attach_recursive_mnt -> umount_tree -> change_mnt_propagation).  Under
# the default limit that held one vCPU of the debug kernel under TCG for
# over 20 s, the other spinning on mount_lock (soft lockups 11 minutes
# into the hour of 2026-12-07, on a quiet host): upstream's cost of its
# limit, not the series'.  The fuzzer works below a tenth of it (the
# harness puts the boot's value back before the next suite).
MAX=/proc/sys/fs/mount-max
FUZZ_MOUNT_MAX=10000

secs=$(sed -n 's/.*harness\.fuzz_seconds=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ "${secs:-0}" -gt 0 ] || secs=150

# mounts the kernel holds: mnt_cache's objects once its CPU slabs are flushed
mounts_held() {
	sleep 2 # RCU and the delayed mntput work
	echo 1 > $SLAB/shrink
	cut -d' ' -f1 $SLAB/objects
}

if [ ! -d $SLAB ]; then
	t_fail slab "no $SLAB: the guest must boot with slab_nomerge"
	exit 0
fi
before=$(mounts_held)
old_tick=$(cat $TICK)
old_agent=$(cat $SYS/agent)
echo 1 > $TICK
echo $FUZZ_MOUNT_MAX > $MAX
mkdir -p $W
mount -t tmpfs -o mode=0777 kfuzz $W
mount --make-shared $W
mkdir -p $W/auto $W/trap $W/t "$AD"
chmod 777 $W/t
[ -f "$AD/map" ] && cp "$AD/map" /run/kfuzz-map.saved
printf 'k%s ok\n' 0 1 2 3 4 5 > "$AD/map"
printf 'k%s sleep 1\n' 6 7 8 9 >> "$AD/map"
: > "$AD/log"
chmod 666 "$AD/log"
echo "$AGENT" > $SYS/agent
mount -t autofsng -o indirect,negative_timeout=1 auto.fuzz $W/auto
printf '#!/bin/sh\ncase "$TRAPFS_NAME" in\nk1*) sleep 2 ;;\nesac\necho x > /proc/self/fd/$TRAPFS_DIRFD/$TRAPFS_NAME\n' > $W/thelper
chmod 755 $W/thelper
# by mount(2) itself: mount(8) takes "helper=" as its own option
python3 -c 'import ctypes, sys
if ctypes.CDLL(None).mount(b"trap", sys.argv[1].encode(), b"trapfs", 0, sys.argv[2].encode()):
	sys.exit("mount " + sys.argv[1] + " failed")' $W/trap "helper=$W/thelper,helper_timeout=5,negative_timeout=1"

seed=$(date +%s)
out=$(cd / && "$FUZZ" $W/t "$secs" 6 "$seed" $W/auto $W/trap)
echo "MEASURE fuzz $secs s seed $seed mount-max $FUZZ_MOUNT_MAX: $out" | tee -a "$MEASURE"
case $out in
ops=[1-9]*) t_pass fuzz-ran ;;
*) t_fail fuzz-ran "kfuzz: $out" ;;
esac

# What the workers stacked and propagated: detach from the top down until
# nothing is mounted at or below $W (a lazy unmount takes the copies
# propagation made along).
for i in $(seq 200); do
	awk -v w="$W" '$5 == w || index($5, w "/") == 1 { f = 1 } END { exit !f }' \
		/proc/self/mountinfo || break
	umount -l $W 2> /dev/null ||
		umount -l "$(awk -v w="$W" 'index($5, w "/") == 1 { p = $5 } END { print p }' /proc/self/mountinfo)"
done
echo "$old_tick" > $TICK
echo "$old_agent" > $SYS/agent
if [ -f /run/kfuzz-map.saved ]; then mv /run/kfuzz-map.saved "$AD/map"; else rm -f "$AD/map"; fi
after=$(mounts_held)
echo "MEASURE fuzz mnt_cache objects before $before after $after" | tee -a "$MEASURE"
t_eq fuzz-no-mount-leaked "$before" "$after"
