# security: what a user without privileges gets from mountfd(2), as uid 1000
# and as root of a user namespace it made itself (unshare -Urm): nothing its
# own path walk would refuse (Documentation/filesystems/mountfd.rst, "Who may
# do what"), however the mountfd reached it.  And an nsfs ioctl sent to a
# mountfd, or a mountfd ioctl sent to an nsfs file, does nothing (ENOTTY).
. "$TOP/test/qemu/lib.sh"

bin=/tmp/security-bin
mkdir -p "$bin"
cp "$BUILDDIR/test/qemu/progs/mfd" "$BUILDDIR/test/qemu/progs/mfd-attack" "$bin/"
chmod 755 "$bin" "$bin"/*
MFD=$bin/mfd
ATT=$bin/mfd-attack
USER1000="setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=-all"
user() { $USER1000 "$@"; }
userns() { $USER1000 unshare -Urm "$@"; }
lines() { tr '\n' ' ' | sed 's/ $//'; }
# Every test but the last drives a mountfd or its ioctl numbers: skipped on
# 6.12, which has none (the expiry suite tests its mount_setattr as uid 1000).
mountfd_only

# The scene below /mnt/sec: a tmpfs in a directory only root may search, one
# hidden under another, and a public one; each has a file "secret" at its
# root that says which it is.
mkdir -p /mnt/sec && mount -t tmpfs -o mode=0755 secbase /mnt/sec
mkdir -m 0700 /mnt/sec/priv && mkdir /mnt/sec/priv/t
mount -t tmpfs -o mode=0755 private /mnt/sec/priv/t
echo top-secret > /mnt/sec/priv/t/secret
mkdir /mnt/sec/h && mount -t tmpfs -o mode=0755 under /mnt/sec/h
echo hidden-under > /mnt/sec/h/secret
mount -t tmpfs -o mode=0755 over /mnt/sec/h
echo over > /mnt/sec/h/secret
mkdir /mnt/sec/pub && mount -t tmpfs -o mode=0755 public /mnt/sec/pub
echo public > /mnt/sec/pub/secret

# The walk shows a user what its own path walks see: the mount on top of
# /mnt/sec/h in place of the one it hides, nothing below /mnt/sec/priv.
t_eq user-walk-reads-what-paths-reach "over public" "$(user "$ATT" steal /mnt/sec secret | lines)"
t_eq user-walk-mounts "/mnt/sec/h /mnt/sec/pub" "$(user "$MFD" children /mnt/sec | lines)"
t_eq user-walk-from-root "over public" "$(user "$ATT" steal / secret | lines)"
t_eq root-walk-reads-all "top-secret hidden-under over public" "$("$ATT" steal /mnt/sec secret | lines)"
t_eq root-walk-mounts "/mnt/sec/priv/t /mnt/sec/h /mnt/sec/h /mnt/sec/pub" \
	"$("$MFD" children /mnt/sec | lines)"
t_eq root-getdirfd /mnt/sec/priv/t "$("$MFD" getdirfd /mnt/sec/priv/t)"

# A mountfd root passes over a unix socket widens nothing: the receiver's
# own credentials and root decide, at each operation.
t_eq passed-0700-getdirfd GETDIRFD=EACCES \
	"$("$ATT" sendfd /mnt/sec/priv/t $USER1000 "$ATT" recvfd steal secret | lines)"
t_eq passed-root-walk "over public" \
	"$("$ATT" sendfd / $USER1000 "$ATT" recvfd steal secret | lines)"
t_eq passed-0700-reads-like-mountinfo GETFSTYPE=tmpfs \
	"$("$ATT" sendfd /mnt/sec/priv/t $USER1000 "$ATT" recvfd info)"
t_eq passed-to-root top-secret "$("$ATT" sendfd /mnt/sec/priv/t "$ATT" recvfd steal secret)"

# mountfd() of a directory the user holds inside a mount since hidden: its
# process's cwd, reached through /proc/PID/cwd.
mkdir -p /mnt/sec2 && mount -t tmpfs -o mode=0755 secbase2 /mnt/sec2
mkdir /mnt/sec2/h && mount -t tmpfs -o mode=0755 under2 /mnt/sec2/h
echo hidden-under2 > /mnt/sec2/h/secret
$USER1000 sh -c 'cd /mnt/sec2/h && exec sleep 120' &
holder=$!
for i in $(seq 50); do
	[ "$(readlink "/proc/$holder/cwd")" = /mnt/sec2/h ] && break
	sleep 0.1
done
mount -t tmpfs -o mode=0755 over2 /mnt/sec2/h
t_eq user-mountfd-of-hidden-cwd mountfd=EACCES "$(user "$ATT" steal "/proc/$holder/cwd" secret | lines)"
t_eq root-mountfd-of-hidden-cwd hidden-under2 "$("$ATT" steal "/proc/$holder/cwd" secret)"

# From a user namespace: its copies of the mounts are its namespace's, but
# inherited (locked), so its path walk decides; its own mounts are its own.
t_eq userns-walk "over public" "$(userns "$ATT" steal /mnt/sec secret | lines)"
t_eq userns-walk-mounts "/mnt/sec/h /mnt/sec/pub" "$(userns "$MFD" children /mnt/sec | lines)"
t_eq userns-own-mount "over mine" "$(userns sh -c '
	mount -t tmpfs mine /mnt/sec/pub && echo mine > /mnt/sec/pub/secret &&
	"$1" steal /mnt/sec secret' sh "$ATT" | lines)"
t_eq userns-cannot-uncover EINVAL "$(userns "$MFD" detach-close /mnt/sec/h)"
# The user opens its own user namespace's copies through /proc/PID/root of
# a process in it: mounts of another namespace, which no path walk from its
# root reaches.  (The other way round, the kernel refuses /proc/PID/root.)
$USER1000 unshare -Urm sleep 120 &
nsholder=$!
for i in $(seq 50); do
	[ "$(readlink "/proc/$nsholder/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] && break
	sleep 0.1
done
t_eq user-proc-root-of-userns mountfd=EACCES \
	"$(user "$ATT" steal "/proc/$nsholder/root/mnt/sec" secret | lines)"
kill "$holder" "$nsholder"
wait "$holder" "$nsholder" 2>/dev/null

# nsfs and mountfd ioctls each fail with ENOTTY on the other's files and
# unmount nothing, for root, uid 1000 and a user namespace alike.
mkdir -p /mnt/nsx && mount -t tmpfs nsx /mnt/nsx
before=$(cat /proc/self/mountinfo)
ns_want="NS_GET_USERNS=ENOTTY NS_GET_PARENT=ENOTTY NS_GET_NSTYPE=ENOTTY NS_GET_OWNER_UID=ENOTTY"
mfd_want=
for i in GETDIRFD UNMOUNT DETACH FORCEDUNMOUNT ATTACH GETFIRSTCHILD GETNEXTCHILD \
	GETDEV GETFSTYPE GETSOURCE GETVFSOPTIONS GETFSOPTIONS GETEXPIRE SETEXPIRE; do
	mfd_want="$mfd_want $i=ENOTTY"
done
mfd_want=${mfd_want# }
t_eq nsfs-ioctls-on-mountfd "$ns_want" "$("$ATT" nsioctls /mnt/nsx | lines)"
t_eq nsfs-ioctls-on-mountfd-user "$ns_want" "$(user "$ATT" nsioctls /mnt/nsx | lines)"
t_eq nsfs-ioctls-on-mountfd-userns "$ns_want" "$(userns "$ATT" nsioctls /mnt/nsx | lines)"
for ns in mnt user; do
	t_eq "mountfd-ioctls-on-nsfs-$ns" "$mfd_want" "$("$ATT" onnsfs /proc/self/ns/$ns | lines)"
	t_eq "mountfd-ioctls-on-nsfs-$ns-user" "$mfd_want" "$(user "$ATT" onnsfs /proc/self/ns/$ns | lines)"
done
# A pipe's, a socket's or an anon inode's file lies on a kernel-internal
# mount, in no namespace; mountfd() on such an fd read the user namespace
# of that non-namespace and oopsed with namespace_sem held, after which
# every mount(2) on the machine hung.
fd_want="pipe=EINVAL socket=EINVAL eventfd=EINVAL memfd=EINVAL nsfs=EINVAL mountfd=EINVAL"
t_eq mountfd-of-internal-fds-user "$fd_want" "$(user "$ATT" fdkinds /mnt/nsx | lines)"
t_eq mountfd-of-internal-fds-userns "$fd_want" "$(userns "$ATT" fdkinds /mnt/nsx | lines)"
t_eq mountfd-of-internal-fds "$fd_want" "$("$ATT" fdkinds /mnt/nsx | lines)"
# (On 6.12 mountfd's numbers mean nothing, and nsfs's own extensible
# ioctls there match 0xD3 0x0A-0x0C by number alone: skipped above.)
any_kernel
t_eq ioctls-unmounted-nothing "$before" "$(cat /proc/self/mountinfo)"

umount /mnt/nsx
umount -R /mnt/sec2
umount -R /mnt/sec
