# mountfd: every ioctl of mountfd(2), its errors, the bounded walk, the
# DETACH/ATTACH round trip and balanced references (Documentation/filesystems/mountfd.rst).
. "$TOP/test/qemu/lib.sh"
MFD=$BUILDDIR/test/qemu/progs/mfd
# Every test drives a mountfd: on 6.12 (mount_setattr and statmount in its
# place, tested by the expiry suite) they are all skipped.
mountfd_only

present() { awk -v p="$1" '$5 == p { f = 1 } END { exit !f }' /proc/self/mountinfo; }
mnt() { mkdir -p "$1" && mount -t tmpfs "${2:-mfdtest}" "$1" ${3:+-o "$3"}; }

t_eq errors "badfd=EBADF badflags=EINVAL notmountfd=ENOTTY badioctl=ENOTTY badsize=EINVAL" \
	"$("$MFD" errors /etc/hostname | tr '\n' ' ' | sed 's/ $//')"
# me_size: an extensible struct, as copy_struct_from_user() reads one
t_eq expire-size-larger-zero ok "$("$MFD" expire-size / 40 0)"
t_eq expire-size-larger-nonzero E2BIG "$("$MFD" expire-size / 40 1)"
t_eq expire-size-smaller EINVAL "$("$MFD" expire-size / 16 0)"

# Read ioctls.
mnt /mnt/m1 srcname nosuid,nodev,size=1m,mode=0700
info=$("$MFD" info /mnt/m1)
t_eq info-fstype tmpfs "$(echo "$info" | sed -n 's/^fstype=//p')"
t_eq info-source srcname "$(echo "$info" | sed -n 's/^source=//p')"
t_eq info-vfsopts "rw,nosuid,nodev,relatime" "$(echo "$info" | sed -n 's/^vfsopts=//p')"
want_fs=$(awk '$5 == "/mnt/m1" { print $NF }' /proc/self/mountinfo)
t_eq info-fsopts-like-mountinfo "$want_fs" "$(echo "$info" | sed -n 's/^fsopts=//p')"
want_dev=$(awk '$5 == "/mnt/m1" { print $3 }' /proc/self/mountinfo)
t_eq info-dev "$want_dev" "$(echo "$info" | sed -n 's/^dev=//p')"
t_eq erange "ERANGE needed=6 intact=1" "$("$MFD" erange /mnt/m1)"
t_eq getdirfd /mnt/m1 "$("$MFD" getdirfd /mnt/m1)"
mkdir -p /mnt/m1/deep/er
t_eq mountfd-of-subdir-is-the-mount /mnt/m1 "$("$MFD" getdirfd /mnt/m1/deep/er)"

# Expiry through the fd.
t_ok setexpire "$MFD" setexpire /mnt/m1 mount 600
# a tick (10 s) may come between the two calls and count the idle mount down
case $("$MFD" getexpire /mnt/m1) in
"1 600 600" | "1 600 590") t_pass getexpire ;;
*) t_fail getexpire "expected '1 600 600' (or 590 left after a tick), got '$("$MFD" getexpire /mnt/m1)'" ;;
esac
"$MFD" setexpire /mnt/m1 none

# UNMOUNT: EBUSY while in use, then it goes; the fd's own reference is no use.
echo x > /mnt/m1/f
exec 3</mnt/m1/f
t_eq unmount-busy EBUSY "$("$MFD" unmount /mnt/m1)"
exec 3<&-
t_ok unmount "$MFD" unmount /mnt/m1
if present /mnt/m1; then t_fail unmount-gone "still mounted"; else t_pass unmount-gone; fi
mnt /mnt/m2
t_ok forcedunmount "$MFD" forceunmount /mnt/m2
if present /mnt/m2; then t_fail forcedunmount-gone "still mounted"; else t_pass forcedunmount-gone; fi

# Unprivileged caller (uid 65534, no capabilities) and another namespace.
cp "$MFD" /tmp/mfd && chmod 755 /tmp/mfd
mnt /mnt/m3
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all /tmp/mfd "$@"; }
t_eq eperm-unmount EPERM "$(nobody unmount /mnt/m3)"
t_eq eperm-forcedunmount EPERM "$(nobody forceunmount /mnt/m3)"
t_eq eperm-detach EPERM "$(nobody detach-close /mnt/m3)"
t_eq eperm-setexpire EPERM "$(nobody setexpire /mnt/m3 mount 10)"
mkdir -p /mnt/m3b
t_eq eperm-attach EPERM "$(nobody attach /mnt/m3 /mnt/m3b)"
t_ok unpriv-may-read nobody info /mnt/m3
t_eq userns-no-cap EPERM "$(unshare -U -r /tmp/mfd unmount /mnt/m3)"
t_eq other-namespace "unmount=EINVAL setexpire=EINVAL detach=EINVAL" "$("$MFD" otherns /mnt/m3)"
present /mnt/m3 && t_pass unpriv-left-it || t_fail unpriv-left-it "gone"

# Walking: all mounts below, depth first; never past the starting mount.
mnt /mnt/w; mnt /mnt/w/a; mnt /mnt/w/a/x; mnt /mnt/w/b
t_eq walk-all "/mnt/w/a /mnt/w/a/x /mnt/w/b" "$("$MFD" children /mnt/w | tr '\n' ' ' | sed 's/ $//')"
t_eq walk-bounded "/mnt/w/a/x" "$("$MFD" children /mnt/w/a | tr '\n' ' ' | sed 's/ $//')"
t_eq walk-no-sibling-of-start ENOENT "$("$MFD" nexttop /mnt/w/a)"
t_eq walk-leaf-empty "" "$("$MFD" children /mnt/w/b)"
# chroot: the root's mount holds /mnt/cr/in (inside) and /mnt/out (outside)
mkdir -p /mnt/cr/in; mnt /mnt/cr/in; mnt /mnt/out
# (LeakSanitizer cannot read /proc inside the chroot: leaks are checked elsewhere)
t_eq walk-chroot "dirfd=/ /in" "$(ASAN_OPTIONS=detect_leaks=0 "$MFD" chroot-walk /mnt/cr | tr '\n' ' ' | sed 's/ $//')"
umount /mnt/cr/in /mnt/out

# DETACH is a move out of the namespace: like move_mount(2) it refuses a
# mount whose parent is shared (mountfd(2)), as the guest's root is.
mount --make-shared /mnt/w
t_eq detach-shared-parent EINVAL "$("$MFD" detach-close /mnt/w/a)"
present /mnt/w/a && t_pass detach-shared-parent-kept || t_fail detach-shared-parent-kept "gone"
# DETACH / ATTACH round trip keeps the tree and its contents, below
# parents that do not propagate.
mount --make-private /mnt/w
mnt /mnt/pv && mount --make-private /mnt/pv
echo kept > /mnt/w/a/x/f
mkdir -p /mnt/pv/w2
t_eq detach-attach "detached=1 attached=1" "$("$MFD" move /mnt/w/a /mnt/pv/w2 | tr '\n' ' ' | sed 's/ $//')"
t_eq detach-attach-contents kept "$(cat /mnt/pv/w2/x/f)"
t_eq attach-inside-itself ELOOP "$("$MFD" attach-self /mnt/pv/w2 x)"
present /mnt/pv/w2 && t_pass attach-self-put-back || t_fail attach-self-put-back "not mounted"
mkdir -p /mnt/fsm
t_eq fsmount-attach "attached=1" "$("$MFD" fsmount-attach /mnt/fsm)"
# DETACH and close: the tree is dissolved; an open file in it still works
exec 4</mnt/pv/w2/x/f
t_ok detach-close "$MFD" detach-close /mnt/pv/w2
if present /mnt/pv/w2 || present /mnt/pv/w2/x; then t_fail detach-close-gone "still mounted"
else t_pass detach-close-gone; fi
t_eq detach-close-file-works kept "$(cat <&4)"
exec 4<&-

# References balance: after all of the above, the parents unmount at once.
for i in 1 2 3; do "$MFD" info /mnt/w/b >/dev/null; "$MFD" children /mnt/w >/dev/null; done
t_ok refs-balance-child umount /mnt/w/b
t_ok refs-balance-parent umount /mnt/w
mnt /mnt/p; mnt /mnt/p/c
"$MFD" info /mnt/p/c >/dev/null
t_ok refs-unmount-child "$MFD" unmount /mnt/p/c
t_ok refs-umount-parent umount /mnt/p
# on 6.12 the mountfd operations above left some of these unmounted
umount /mnt/fsm /mnt/m3 /mnt/pv || [ -n "$T_SKIP_WHY" ]
# and what the mountfd operations were to unmount (on 6.12 they fail, ENOSYS)
for m in /mnt/m1 /mnt/m2 /mnt/p /mnt/w; do
	if mountpoint -q "$m"; then umount -R "$m"; fi
done
