# DEFAULT=no
# expirybench: cost of one expiry tick and time to expire with 1,000 and
# 10,000 EXPIRE mounts (1-second tick).  "busy" holds a mountfd on every
# mount for 20 s, so every tick checks them all and none may go; then all
# are released and must go.  Figures are printed as "expirybench: ...".
. "$TOP/test/qemu/lib.sh"
MFD=$BUILDDIR/test/qemu/progs/mfd
echo 1 > /proc/sys/fs/mount_expire_tick
for n in 1000 10000; do
	mkdir -p /mnt/bench$n && mount -t tmpfs bench /mnt/bench$n
	out=$("$MFD" mass /mnt/bench$n $n 2 20)
	echo "expirybench: $n busy then released: $out"
	case "$out" in
	*"still=$n"*gone_ms=[0-9]*) t_pass "busy-kept-then-gone-$n" ;;
	*) t_fail "busy-kept-then-gone-$n" "$out" ;;
	esac
	out=$("$MFD" mass /mnt/bench$n $n 2 0)
	echo "expirybench: $n idle: $out"
	case "$out" in
	*gone_ms=[0-9]*) t_pass "idle-gone-$n" ;;
	*) t_fail "idle-gone-$n" "$out" ;;
	esac
	umount /mnt/bench$n
done
echo 10 > /proc/sys/fs/mount_expire_tick
