# SUITE_TIMEOUT=480
# expiry: mounts expire in the VFS (Documentation/filesystems/expire_semantics.rst)
# with a 1-second tick.  Presence is read from /proc/self/mountinfo only:
# a stat of a mount point would itself be a use of the mount.
. "$TOP/test/qemu/lib.sh"
MFD=$BUILDDIR/test/qemu/progs/mfd
TICK=/proc/sys/fs/mount_expire_tick
RUNS=/proc/sys/fs/mount_expire_runs

present() { awk -v p="$1" '$5 == p { f = 1 } END { exit !f }' /proc/self/mountinfo; }
mnt() { mkdir -p "$1" && mount -t tmpfs "${2:-exp}" "$1"; }
# t_present NAME PATH / t_absent NAME PATH
t_present() { if present "$2"; then t_pass "$1"; else t_fail "$1" "$2 is not mounted"; fi; }
t_absent() { if present "$2"; then t_fail "$1" "$2 is still mounted"; else t_pass "$1"; fi; }
policy() { "$MFD" getexpire "$1" | cut -d' ' -f1; }
# mountfd (the 6.1 series) or setattr (6.12: mount_setattr and statmount)
API=$(mount_api)
echo "expiry: the kernel's expiry interface: $API"

t_eq tick-default 10 "$(cat $TICK)"
echo 0 > $TICK 2>/dev/null && t_fail tick-min "tick 0 accepted" || t_pass tick-min
echo 1 > $TICK
t_eq tick-set 1 "$(cat $TICK)"

# Nothing can expire: the work item is not armed, no tick runs.
r0=$(cat $RUNS); sleep 3; t_eq idle-no-ticks "$r0" "$(cat $RUNS)"

# An idle EXPIRE mount of 2 ticks goes within one tick of 2 s.
mnt /mnt/e1
ms=$("$MFD" expire-time /mnt/e1 2 6000)
echo "expiry: EXPIRE 2 s mount went after $ms ms"
if [ "$ms" != timeout ] && [ "$ms" -ge 1000 ] && [ "$ms" -le 3200 ]; then
	t_pass idle-goes-in-time
else
	t_fail idle-goes-in-time "went after '$ms' ms, want 1000..3200"
fi
t_absent idle-gone /mnt/e1

# Busy: an open file keeps it; it goes once the file is closed.
mnt /mnt/e2; echo data > /mnt/e2/f
exec 3</mnt/e2/f
"$MFD" setexpire /mnt/e2 mount 1
sleep 3
t_present open-file-keeps /mnt/e2
t_eq open-file-data data "$(cat <&3)"
exec 3<&-
t_ok open-file-released "$MFD" wait-gone /mnt/e2 4000

# Busy: the working directory of a child process keeps it.
mnt /mnt/e3
(cd /mnt/e3 && exec sleep 5) &
cwd_pid=$!
# in place before the countdown starts, however slow the guest
for i in $(seq 100); do [ "$(readlink /proc/$cwd_pid/cwd)" = /mnt/e3 ] && break; sleep 0.1; done
"$MFD" setexpire /mnt/e3 mount 1
sleep 2.5
t_present cwd-keeps /mnt/e3
wait $cwd_pid
t_ok cwd-released "$MFD" wait-gone /mnt/e3 4000

# Use resets the countdown: a stat every half tick keeps a 2-tick mount.
mnt /mnt/e4
"$MFD" setexpire /mnt/e4 mount 2
for i in 1 2 3 4 5 6 7 8; do stat /mnt/e4 >/dev/null; sleep 0.5; done
t_present use-resets-countdown /mnt/e4
t_ok use-stopped "$MFD" wait-gone /mnt/e4 5000

# A subtree expires atomically: one busy member keeps all of it.
mnt /mnt/s; mnt /mnt/s/a; mnt /mnt/s/b; mnt /mnt/s/a/x
"$MFD" setexpire /mnt/s mount 1
for m in /mnt/s/a /mnt/s/b /mnt/s/a/x; do "$MFD" setexpire $m subtree; done
echo busy > /mnt/s/a/x/f
exec 4</mnt/s/a/x/f
sleep 3
n=$(awk '$5 ~ "^/mnt/s(/|$)"' /proc/self/mountinfo | wc -l)
t_eq subtree-busy-member-keeps-all 4 "$n"
exec 4<&-
t_ok subtree-released "$MFD" wait-gone /mnt/s 4000
n=$(awk '$5 ~ "^/mnt/s(/|$)"' /proc/self/mountinfo | wc -l)
t_eq subtree-went-whole 0 "$n"

# A NOEXPIRE mount inside the tree blocks it; as SUBTREE it goes along.
mnt /mnt/s2; mnt /mnt/s2/c
"$MFD" setexpire /mnt/s2 mount 1
sleep 3
t_present noexpire-child-blocks /mnt/s2
"$MFD" setexpire /mnt/s2/c subtree
t_ok noexpire-child-joined "$MFD" wait-gone /mnt/s2 4000

# Policy transitions (long timeouts: nothing expires meanwhile).
mnt /mnt/t; mnt /mnt/t/c; mnt /mnt/t/c/g; mnt /mnt/t2
t_eq tr-none-to-subtree-needs-parent EINVAL "$("$MFD" setexpire /mnt/t/c subtree)"
t_eq tr-none-to-expire-zero EINVAL "$("$MFD" setexpire /mnt/t mount 0)"
t_eq tr-bad-policy EINVAL "$("$MFD" setexpire /mnt/t 7 100)"
t_ok tr-none-to-expire "$MFD" setexpire /mnt/t mount 100
t_eq tr-expire-reads "1 100" "$("$MFD" getexpire /mnt/t | cut -d' ' -f1,2)"
t_ok tr-none-to-subtree "$MFD" setexpire /mnt/t/c subtree
t_ok tr-subtree-grandchild "$MFD" setexpire /mnt/t/c/g subtree
t_eq tr-subtree-reads "2 0 0" "$("$MFD" getexpire /mnt/t/c/g)"
t_eq tr-expire-to-subtree EINVAL "$("$MFD" setexpire /mnt/t subtree)"
t_ok tr-expire-to-none-t2-setup "$MFD" setexpire /mnt/t2 mount 100
t_eq tr-subtree-to-expire EINVAL "$("$MFD" setexpire /mnt/t/c mount 100)"
t_ok tr-expire-to-expire "$MFD" setexpire /mnt/t mount 50
t_eq tr-expire-new-timeout "1 50" "$("$MFD" getexpire /mnt/t | cut -d' ' -f1,2)"
t_ok tr-expire-to-none "$MFD" setexpire /mnt/t none
t_eq tr-cascade-child 0 "$(policy /mnt/t/c)"
t_eq tr-cascade-grandchild 0 "$(policy /mnt/t/c/g)"
"$MFD" setexpire /mnt/t mount 100; "$MFD" setexpire /mnt/t/c subtree; "$MFD" setexpire /mnt/t/c/g subtree
t_ok tr-subtree-to-none "$MFD" setexpire /mnt/t/c none
t_eq tr-subtree-cascade 0 "$(policy /mnt/t/c/g)"
t_eq tr-parent-kept 1 "$(policy /mnt/t)"
echo 2 > $TICK
"$MFD" setexpire /mnt/t2 mount 3
t_eq tr-rounded-to-ticks "1 4" "$("$MFD" getexpire /mnt/t2 | cut -d' ' -f1,2)"
echo 1 > $TICK

# Timeouts at the end of what the 32-bit me_timeout holds: 2^32 - 1 s is
# kept (GETEXPIRE clamps to it), never rounded to 0 ticks, which would
# unmount at the first idle tick; 2^32 + 1 and 2^63 from a caller that took
# the field for 64 bits put their high half in me_remaining: EINVAL.  On
# 6.12 the high half lands past struct mount_attr's 40 bytes: E2BIG.
big_refused=EINVAL
[ "$API" = setattr ] && big_refused=E2BIG
echo 2 > $TICK
mnt /mnt/big
t_ok timeout-max "$MFD" setexpire /mnt/big mount 4294967295
t_eq timeout-max-reads "1 4294967295" "$("$MFD" getexpire /mnt/big | cut -d' ' -f1,2)"
sleep 5
t_present timeout-max-not-at-once /mnt/big
t_eq timeout-2^32-refused $big_refused "$("$MFD" setexpire64 /mnt/big 4294967296)"
t_eq timeout-2^32+1-refused $big_refused "$("$MFD" setexpire64 /mnt/big 4294967297)"
t_eq timeout-2^63-refused $big_refused "$("$MFD" setexpire64 /mnt/big 9223372036854775808)"
t_eq timeout-refused-kept "1 4294967295" "$("$MFD" getexpire /mnt/big | cut -d' ' -f1,2)"
umount /mnt/big
echo 1 > $TICK

# Mount operations, below a private mount: a move out of a shared parent
# is refused (the guest's root is rshared), realhost tests that case.
mnt /mnt/op && mount --make-private /mnt/op
mnt /mnt/op/o; mnt /mnt/op/o/c
"$MFD" setexpire /mnt/op/o mount 100; "$MFD" setexpire /mnt/op/o/c subtree
mkdir -p /mnt/op/b1 /mnt/op/b2 /mnt/op/b3
mount --bind /mnt/op/o /mnt/op/b1
t_eq op-bind-noexpire 0 "$(policy /mnt/op/b1)"
mount --rbind /mnt/op/o /mnt/op/b2
t_eq op-rbind-root-noexpire 0 "$(policy /mnt/op/b2)"
t_eq op-rbind-child-noexpire 0 "$(policy /mnt/op/b2/c)"
mount -o remount,size=2m /mnt/op/o
t_eq op-remount-keeps "1 100" "$("$MFD" getexpire /mnt/op/o | cut -d' ' -f1,2)"
t_eq op-remount-keeps-subtree 2 "$(policy /mnt/op/o/c)"
mount --make-private /mnt/op/o
mount --move /mnt/op/o/c /mnt/op/b3
t_eq op-move-subtree-to-none 0 "$(policy /mnt/op/b3)"
mkdir -p /mnt/op/o2
mount --move /mnt/op/o /mnt/op/o2
t_eq op-move-keeps-expire 1 "$(policy /mnt/op/o2)"
umount -R /mnt/op /mnt/t /mnt/t2

# unshare(CLONE_NEWNS): the copy keeps policy and countdown, and expires
# on its own in the new namespace.
mnt /mnt/u; mnt /mnt/u2
"$MFD" setexpire /mnt/u mount 100
t_eq op-unshare-keeps-policy "1 100" "$(unshare -m "$MFD" getexpire /mnt/u | cut -d' ' -f1,2)"
left=$(unshare -m "$MFD" getexpire /mnt/u | cut -d' ' -f3)
if [ "$left" -ge 95 ] && [ "$left" -le 100 ]; then t_pass op-unshare-keeps-countdown
else t_fail op-unshare-keeps-countdown "remaining $left"; fi
# set just before the copy: the debug kernel takes seconds for the checks
# above, and the original would have gone before the namespace was made
"$MFD" setexpire /mnt/u2 mount 6
t_ok op-unshare-copy-expires unshare -m sh -c \
	"grep -q ' /mnt/u2 ' /proc/self/mountinfo && exec '$MFD' wait-gone /mnt/u2 12000"
umount /mnt/u

# Lazy unmount of an expiring mount with an open file: NOEXPIRE, no harm.
mnt /mnt/l; echo lazy > /mnt/l/f
exec 5</mnt/l/f
"$MFD" setexpire /mnt/l mount 1
umount -l /mnt/l
sleep 2
t_eq lazy-file-still-readable lazy "$(cat <&5)"
exec 5<&-

# umount2(MNT_EXPIRE) keeps its 6.1 meaning.
mnt /mnt/x
t_eq umount2-expire "EAGAIN ok" "$("$MFD" umount-expire /mnt/x)"

# 1,000 idle expiring mounts all go within two ticks after their countdown.
mnt /mnt/mass
out=$("$MFD" mass /mnt/mass 1000 2 0)
echo "expiry: 1000 idle mounts: $out"
ms=$(echo "$out" | sed -n 's/.*gone_ms=\([0-9-]*\).*/\1/p')
if [ -n "$ms" ] && [ "$ms" -ge 0 ] && [ "$ms" -le 4000 ]; then t_pass mass-1000-go
else t_fail mass-1000-go "$out"; fi

# Cost of a tick with 1,000 busy expiring mounts (each held by a mountfd).
out=$("$MFD" mass /mnt/mass 1000 1 10)
echo "expiry: 1000 busy mounts: $out"
case "$out" in
*"still=1000"*gone_ms=[0-9]*) t_pass mass-1000-busy-kept ;;
*) t_fail mass-1000-busy-kept "$out" ;;
esac
umount /mnt/mass

# 6.12: the series' mount_setattr(2) and statmount(2) ABI itself
# (mountfd(2), "Linux 6.12"); on 6.1 mountfd's is tested above and in the
# mountfd suite.
if [ "$API" = setattr ]; then
	mnt /mnt/abi; mkdir -p /mnt/abi/sub
	t_ok abi-set "$MFD" setexpire /mnt/abi mount 120
	t_eq abi-statmount-reads "1 120" "$("$MFD" getexpire /mnt/abi | cut -d' ' -f1,2)"
	t_ok abi-set-strict "$MFD" setexpire /mnt/abi 257 30
	t_eq abi-statmount-reads-strict "257 30" "$("$MFD" getexpire /mnt/abi | cut -d' ' -f1,2)"
	t_eq abi-attr-clr EINVAL "$("$MFD" setattr-case /mnt/abi clr)"
	t_eq abi-recursive EINVAL "$("$MFD" setattr-case /mnt/abi recursive)"
	t_eq abi-fields-without-bit EINVAL "$("$MFD" setattr-case /mnt/abi nobit)"
	t_eq abi-strict-without-mount EINVAL "$("$MFD" setattr-case /mnt/abi strict-none)"
	t_eq abi-bad-policy EINVAL "$("$MFD" setattr-case /mnt/abi badpolicy)"
	t_eq abi-zero-timeout EINVAL "$("$MFD" setattr-case /mnt/abi zero)"
	t_eq abi-not-a-mount-root EINVAL "$("$MFD" setattr-case /mnt/abi/sub notroot)"
	# with another attribute: both, or neither when the transition is refused
	t_eq abi-with-rdonly ok "$("$MFD" setattr-case /mnt/abi rdonly)"
	t_eq abi-with-rdonly-applied "1 60 ro" "$("$MFD" getexpire /mnt/abi | cut -d' ' -f1,2) $(findmnt -no OPTIONS /mnt/abi | cut -d, -f1)"
	mount -o remount,rw /mnt/abi
	t_eq abi-rdonly-refused-with-policy EINVAL "$("$MFD" setattr-case /mnt/abi rdonly-badpolicy)"
	t_eq abi-refused-changed-nothing "1 60 rw" "$("$MFD" getexpire /mnt/abi | cut -d' ' -f1,2) $(findmnt -no OPTIONS /mnt/abi | cut -d, -f1)"
	t_eq abi-refused-kept "1 60" "$("$MFD" getexpire /mnt/abi | cut -d' ' -f1,2)"
	# uid 1000, without capabilities: refused, the policy unchanged
	cp "$MFD" /tmp/mfd-expiry && chmod 755 /tmp/mfd-expiry
	t_eq abi-user-refused EPERM "$(setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=-all /tmp/mfd-expiry setexpire /mnt/abi mount 5)"
	t_eq abi-user-may-read "1 60" "$(setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=-all /tmp/mfd-expiry getexpire /mnt/abi | cut -d' ' -f1,2)"
	# a mount of another namespace: refused, as for mountfd's SETEXPIRE
	t_eq abi-other-namespace EINVAL "$(unshare -m --propagation unchanged sh -c 'exec "$1" setexpire "/proc/$2/root/mnt/abi" mount 5' sh "$MFD" $$)"
	t_eq abi-none "0 0 0" "$("$MFD" setexpire /mnt/abi none && "$MFD" getexpire /mnt/abi)"
	umount /mnt/abi
	rm -f /tmp/mfd-expiry
	# A copy propagation made in a slave namespace: NOEXPIRE, yet it goes
	# with the tree it copies, so statmount reports NONE | PROPAGATED
	# (0x200) with that tree's timeout and countdown; mount_setattr(2)
	# refuses the flag.  The parent is shared whatever the guest's root
	# is, and the namespace exists before the mount is made.
	mnt /mnt/pp; mount --make-shared /mnt/pp
	unshare -m --propagation slave sleep 120 &
	slave=$!
	sleep 1
	in_slave() { nsenter -t $slave -m "$@"; }
	mnt /mnt/pp/prop
	"$MFD" setexpire /mnt/pp/prop mount 100
	t_eq abi-propagated-original "1 100" "$("$MFD" getexpire /mnt/pp/prop | cut -d' ' -f1,2)"
	t_eq abi-propagated-copy "512 100" "$(in_slave "$MFD" getexpire /mnt/pp/prop | cut -d' ' -f1,2)"
	left=$(in_slave "$MFD" getexpire /mnt/pp/prop | cut -d' ' -f3)
	if [ "$left" -ge 90 ] && [ "$left" -le 100 ]; then t_pass abi-propagated-copy-countdown
	else t_fail abi-propagated-copy-countdown "remaining '$left', want 90..100"; fi
	mkdir /mnt/pp/prop/own
	t_eq abi-own-mount-in-slave "0 0 0" "$(in_slave sh -c 'mount -t tmpfs own /mnt/pp/prop/own && exec "$1" getexpire /mnt/pp/prop/own' sh "$MFD")"
	t_eq abi-propagated-refused EINVAL "$(in_slave "$MFD" setexpire /mnt/pp/prop 512 100)"
	t_eq abi-propagated-refused-original EINVAL "$("$MFD" setexpire /mnt/pp/prop 512 100)"
	t_eq abi-propagated-refused-kept "512 100" "$(in_slave "$MFD" getexpire /mnt/pp/prop | cut -d' ' -f1,2)"
	kill $slave; wait $slave 2>/dev/null
	umount -R /mnt/pp
fi

# A dead server's teardown holds no other up.  The tick unmounts from a
# kernel thread, so the last put of an expired tree is made there.  For an
# NFS mount, the teardown waits on a hard-mounted server for as long as it
# is gone (it returns delegations and ends its session).  The teardown of
# a local mount expired after it must still finish: ext4's
# /sys/fs/ext4/DEV goes with its superblock, which holds the loop device.
# Once knfsd is back, nothing waits any more.
d_kthreads() { ps -eo stat=,comm= | awk '$1 ~ /^D/ && $2 ~ /^kworker/' | wc -l; }
sb_gone_within() {	# sb_gone_within DEV SECONDS
	local i
	for i in $(seq $(($2 * 2))); do [ -e "/sys/fs/ext4/$1" ] || return 0; sleep 0.5; done
	return 1
}
none_waits_within() {	# none_waits_within SECONDS: no kworker in D
	local i
	for i in $(seq "$1"); do [ "$(d_kthreads)" = 0 ] && return 0; sleep 1; done
	return 1
}
# ext4_loop DIR: a new ext4 on a loop device mounted on DIR, the device's
# name printed.  losetup, not mount -o loop: mount(8) would hold the device
# open for write, which 6.12 without BLK_DEV_WRITE_MOUNTED refuses to mount.
ext4_loop() {
	local img=/tmp/el-${1##*/}.img loop
	truncate -s 16M "$img" && mkfs.ext4 -qF "$img" && mkdir -p "$1" &&
		loop=$(losetup -f --show "$img") && mount "$loop" "$1" && echo "${loop#/dev/}"
}
# nfs_dead_mount DIR: the deleg export on DIR, read once; none waits yet.
nfs_dead_mount() {
	nfs_server_start /export/deleg && mkdir -p "$NFS_ROOT/export/deleg/lower" &&
		echo record > "$NFS_ROOT/export/deleg/lower/f" && mkdir -p "$1" &&
		mount -t nfs4 -o vers=4.2,hard 127.0.0.1:/export/deleg "$1" &&
		cat "$1/lower/f" >/dev/null
}
# ov_mount LOWER DIR: a read-only overlay of LOWER (and an empty layer) on DIR
ov_mount() {
	mkdir -p /tmp/ov-empty "$2" &&
		mount -t overlay ov -o "lowerdir=$1:/tmp/ov-empty" "$2"
}
# server_gone_expiry NAME DEAD LOCAL DEV FILE: FILE (on DEAD, over NFS)
# read just before knfsd stops (the teardown waited only when the client had used
# the server moments before), then it expires and its teardown waits;
# LOCAL expires after it and the ext4 superblock of DEV goes within 5 s;
# with knfsd back, nothing waits.
server_gone_expiry() {
	local n=$1 dev=$4
	t_eq "$n-data" record "$(cat "$5")"
	t_eq "$n-none-waits-before" 0 "$(d_kthreads)"
	rpc.nfsd 0
	"$MFD" setexpire "$2" mount 1
	t_ok "$n-expires" "$MFD" wait-gone "$2" 6000
	sleep 2
	t_ok "$n-teardown-waits" test "$(d_kthreads)" -ge 1
	"$MFD" setexpire "$3" mount 1
	t_ok "$n-local-expires" "$MFD" wait-gone "$3" 6000
	t_ok "$n-local-teardown-done" sb_gone_within "$dev" 5
	rpc.nfsd 4
	t_ok "$n-nothing-waits-after-server-back" none_waits_within 60
	sb_gone_within "$dev" 10
	losetup -d "/dev/$dev"
}
dead_server_teardown() {
	local dev
	nfs_dead_mount /mnt/dn || { t_fail deadserver-setup "knfsd or the NFS mount"; return; }
	dev=$(ext4_loop /mnt/el) || { t_fail deadserver-local-setup "ext4 on a loop device"; return; }
	server_gone_expiry deadserver /mnt/dn /mnt/el "$dev" /mnt/dn/lower/f
}
# The same through overlayfs, whose teardown puts its layers' mounts: the
# overlay holds the last reference to the NFS filesystem (its mount
# detached), and the layer's teardown waits within the overlay's.  An
# overlay over ext4 expired after it must still let ext4's superblock go,
# though that layer's put too is made by a kernel thread.
dead_server_overlay() {
	local dev
	nfs_dead_mount /mnt/dn && ov_mount /mnt/dn/lower /mnt/ovn && umount -l /mnt/dn ||
		{ t_fail deadoverlay-setup "NFS or overlayfs"; return; }
	dev=$(ext4_loop /mnt/el) && mkdir /mnt/el/lower && ov_mount /mnt/el/lower /mnt/ovl &&
		umount /mnt/el || { t_fail deadoverlay-local-setup "overlay over ext4"; return; }
	server_gone_expiry deadoverlay /mnt/ovn /mnt/ovl "$dev" /mnt/ovn/f
}
dead_server_teardown
dead_server_overlay
rm -f /tmp/el-el.img "$NFS_ROOT/export/deleg/lower/f"

# Nothing left to expire: the ticks stop again.
sleep 2
r0=$(cat $RUNS); sleep 3; t_eq idle-again-no-ticks "$r0" "$(cat $RUNS)"
echo 10 > $TICK
