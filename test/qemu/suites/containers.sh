# SUITE_TIMEOUT=900
# containers: lookups from user namespaces (issue 34), served as the host
# user the requester is, through the installed agent: root's and uid
# 1000's `unshare -Urm` with a slave and a private copy of the mounts,
# bwrap --unshare-user, a key the host had mounted, two keys from one
# shell, $USER, an NFS home from the in-guest knfsd, a multi-mount.  Then
# what the container's root tries: lifting nosuid, taking a multi-mount
# apart, planting its own maps and agent, crafted keys, a mount stacked on
# the trap while the agent runs, a failure of its own copy.  podman
# rootless: served from an imported image, its subordinate users charged to
# the user who runs it.  Expiry in the container, and nothing held once it exits.
. "$TOP/test/qemu/lib.sh"

AGENT=/sbin/autofs
D=/srv/ctr
M=/mnt/ctr
U=$(getent passwd 1000 | cut -d: -f1)
AS1000="setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=-all"
NFSVOL=/proc/fs/nfsfs/volumes

if [ ! -x "$AGENT" ] || ! grep -qw autofsng /proc/filesystems || [ -z "$U" ]; then
	t_fail setup "$AGENT, the autofsng filesystem or a user 1000 missing"
	exit 0
fi
echo 1 > /proc/sys/fs/mount_expire_tick
cleanup() {
	autofs stop >/dev/null 2>&1
	awk -v m="$M/" 'index($5, m) == 1 { print $5 }' /proc/self/mountinfo | sort -r |
		xargs -r umount -l
	pkill -KILL -u 1000; pkill -KILL -f catatonit
	umount /etc/subuid /etc/subgid 2>/dev/null
	rm -rf "$D" /etc/auto.ctr /etc/auto.ctrprog /tmp/ctr-*
}
trap cleanup EXIT

lookups() { suite_log | grep -c "lookup map=.* key=$1 "; }

for k in a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 b1 h1 n1 mv1 p1 pv1 sh1 nos m pd1 pd2 pd3 pd4 pd5 pd6 pd7 pd8 r11; do
	mkdir -p $D/src/$k && echo "$k" > $D/src/$k/hello
done
mkdir -p $D/users/$U $D/users/root $D/src/m/off
echo "home of $U" > $D/users/$U/hello
echo "home of root" > $D/users/root/hello
chmod -R a+rX $D
nfs_server_start /export/homes
mkdir -p "$NFS_ROOT/export/homes/alice"
echo "home of alice" > "$NFS_ROOT/export/homes/alice/hello"

# uid 1000's subordinate IDs, as a site gives them for podman (newuidmap)
printf '%s:200000:65536\n' "$U" > /tmp/ctr-subid
mount --bind /tmp/ctr-subid /etc/subuid && mount --bind /tmp/ctr-subid /etc/subgid
printf '[general]\nbrowse = no\n' > /etc/autofs-agent.conf
printf '%s\t/etc/auto.ctr\t--timeout=3\n' $M > /etc/auto.master
# a program map that takes 2 s and logs when each of its runs starts and ends
P=/mnt/ctrp
printf '%s\tprogram:/etc/auto.ctrprog\t--timeout=3 --trusted-program\n' $P >> /etc/auto.master
# the same map with its bind mounts' propagation shared (the master map's word)
S=/mnt/ctrs
printf '%s\t/etc/auto.ctr\t--timeout=3 shared\n' $S >> /etc/auto.master
cat > /etc/auto.ctrprog <<PROG
#!/bin/sh
echo "start \$1 \$(date +%s%N)" >> /tmp/ctr-prog.log
sleep 2
echo "end \$1 \$(date +%s%N)" >> /tmp/ctr-prog.log
echo "-fstype=bind,nosuid,nodev :$D/src/a1"
PROG
chmod 755 /etc/auto.ctrprog
cat > /etc/auto.ctr <<MAP
me	-fstype=bind	:$D/users/\$USER
nos	-fstype=bind,nosuid,nodev	:$D/src/nos
m	/ -fstype=bind :$D/src/m \\
	/off -fstype=tmpfs,size=1m :tmpfs
home	-fstype=nfs,vers=4.2	127.0.0.1:/export/homes/alice
*	-fstype=bind	:$D/src/&
MAP
mkdir -p $M $P $S
autofs stop >/dev/null 2>&1	# triggers an earlier suite of this boot left
t_ok start autofs start

# --- every requester is served ------------------------------------------------

t_eq root-userns-slave a1 "$(unshare -Urm --propagation slave cat $M/a1/hello 2>&1)"
t_eq user-userns-slave a2 "$($AS1000 unshare -Urm --propagation slave cat $M/a2/hello 2>&1)"
t_eq user-userns-private a3 "$($AS1000 unshare -Urm --propagation private cat $M/a3/hello 2>&1)"
t_eq user-bwrap a4 "$($AS1000 bwrap --unshare-user --dev-bind / / cat $M/a4/hello 2>&1)"
t_eq host-mounted-first a5 "$(cat $M/a5/hello)"
t_eq user-userns-host-mounted a5 "$($AS1000 unshare -Urm --propagation slave cat $M/a5/hello 2>&1)"
t_eq user-userns-two-keys "a6 a7" "$($AS1000 unshare -Urm --propagation private \
	sh -c "cat $M/a6/hello $M/a7/hello" 2>&1 | paste -sd' ')"
# the mount is the container's: the host's trap stays empty
t_eq private-not-on-host "" "$(awk -v p=$M/a3 '$5 == p' /proc/self/mountinfo)"
t_ok private-one-agent-run test "$(lookups a3)" -eq 1
# who the requester is on the host: $USER is uid 1000's name, not root's
t_eq user-userns-is-host-user "home of $U" \
	"$($AS1000 unshare -Urm --propagation private cat $M/me/hello 2>&1)"
t_ok user-userns-uid-logged logged "key=me .*uid=1000 "
t_eq root-userns-is-root "home of root" "$(unshare -Urm --propagation private cat $M/me/hello 2>&1)"
t_eq user-userns-nfs-home "home of alice" \
	"$($AS1000 unshare -Urm --propagation private cat $M/home/hello 2>&1)"
# fstype_of PATH, for a shell in a container: the topmost mount's type
cat > /tmp/ctr-fstype <<'SH'
#!/bin/sh
awk -v p="$1" '$5 == p { for (i = 6; i <= NF; i++) if ($i == "-") t = $(i + 1) } END { print t }' \
	/proc/self/mountinfo
SH
chmod 755 /tmp/ctr-fstype
t_eq user-userns-multi-offset "m tmpfs" "$($AS1000 unshare -Urm --propagation private sh -c \
	"cat $M/m/hello && ls $M/m/off >/dev/null && /tmp/ctr-fstype $M/m/off" 2>&1 | paste -sd' ')"

# --- what the container's root cannot do --------------------------------------

# as root of uid 1000's user namespace, in a private copy, after a lookup
attack() {
	$AS1000 unshare -Urm --propagation private sh -c "$1" > /tmp/ctr-out 2>&1
	paste -sd' ' /tmp/ctr-out
}
# the control: its own mounts it remounts as it likes
t_eq remount-own-mount-allowed "lifted" "$(attack "
	mkdir -p /tmp/ctr-own && mount --bind /tmp/ctr-own /tmp/ctr-own &&
	mount -o remount,bind,nosuid /tmp/ctr-own && mount -o remount,bind,suid /tmp/ctr-own &&
	echo lifted")"
t_eq remount-suid-refused "nos refused" "$(attack "
	cat $M/nos/hello
	mount -o remount,bind,suid $M/nos 2>/dev/null && echo lifted || echo refused")"
# what the host made for it the container cannot undo, move or re-time
t_eq umount-refused "a10 kept" "$(attack "
	cat $M/a10/hello
	umount $M/a10 2>/dev/null || umount -l $M/a10 2>/dev/null
	grep -q ' $M/a10 ' /proc/self/mountinfo && echo kept || echo undone")"
t_eq move-refused "a10 refused" "$(attack "
	cat $M/a10/hello; mkdir -p /tmp/ctr-mv2
	mount --move $M/a10 /tmp/ctr-mv2 2>/dev/null && echo moved || echo refused")"
t_eq setexpire-refused "a10 EPERM" "$(attack "
	cat $M/a10/hello
	$BUILDDIR/test/qemu/progs/mfd setexpire $M/a10 none 2>&1 | grep -o EPERM || echo allowed")"
# its copy made shared with a peer of its own: the peer's copy is locked too
t_eq peer-copy-remount-refused "nos refused" "$(attack "
	mount --make-shared $M && mkdir -p /tmp/ctr-peer && mount --bind $M /tmp/ctr-peer &&
	cat $M/nos/hello &&
	mount -o remount,bind,suid /tmp/ctr-peer/nos 2>/dev/null && echo lifted || echo refused")"
t_eq remount-dev-refused "nos refused" "$(attack "
	cat $M/nos/hello
	mount -o remount,bind,dev $M/nos 2>/dev/null && echo lifted || echo refused")"
# a multi-mount's offset trigger cannot be taken off to see the directory below
echo under-the-offset > $D/src/m/off/secret
t_eq offset-not-uncovered "refused" "$(attack "
	ls $M/m/off >/dev/null
	umount $M/m/off 2>/dev/null
	umount $M/m/off 2>/dev/null
	cat $M/m/off/secret 2>/dev/null || echo refused")"
# nor expired away: a 1-second policy on the locked trigger is refused
MFD=$BUILDDIR/test/qemu/progs/mfd
t_eq offset-not-expired-away "refused" "$(attack "
	ls $M/m/off >/dev/null
	umount $M/m/off 2>/dev/null
	$MFD setexpire $M/m/off mount 1 >/dev/null 2>&1
	sleep 4
	cat $M/m/off/secret 2>/dev/null || echo refused")"
t_eq offset-not-moved "refused" "$(attack "
	ls $M/m/off >/dev/null; mkdir -p /tmp/ctr-mv
	mount --move $M/m/off /tmp/ctr-mv 2>/dev/null && echo moved || echo refused")"
# its own maps, agent and passwd are not used: the agent reads the host's
cat > /tmp/ctr-evil.map <<'MAP'
*	-fstype=tmpfs	:tmpfs
MAP
printf '#!/bin/sh\ntouch /tmp/ctr-evil-agent-ran\n' > /tmp/ctr-evil-agent
chmod 755 /tmp/ctr-evil-agent
printf 'root:x:0:0::/root:/bin/sh\n%s:x:1000:1000::/tmp:/bin/sh\n' evil > /tmp/ctr-passwd
t_eq planted-files-unused "a8 no" "$(attack "
	mount --bind /tmp/ctr-evil.map /etc/auto.ctr
	mount --bind /tmp/ctr-evil.map /etc/auto.master
	mount --bind /tmp/ctr-evil-agent /sbin/autofs
	mount --bind /tmp/ctr-passwd /etc/passwd
	mount --bind /tmp/ctr-evil.map /etc/nsswitch.conf
	cat $M/a8/hello; test -e /tmp/ctr-evil-agent-ran && echo ran || echo no")"
t_eq planted-passwd-unused "home of $U" "$(attack "
	mount --bind /tmp/ctr-passwd /etc/passwd; cat $M/me/hello")"
# a mount it stacks on the trap while the agent runs, below or above the
# served one (nosuid): one umount takes its own tmpfs or nothing, and the
# served mount stays, locked
t_eq stacked-during-agent "a1 refused" "$(attack "
	cat $P/stack/hello >/dev/null & sleep 1
	mount -t tmpfs none $P/stack 2>/dev/null; wait
	umount $P/stack 2>/dev/null
	cat $P/stack/hello
	mount -o remount,bind,suid $P/stack 2>/dev/null && echo lifted || echo refused")"
# a failure of its own copy is its own: at fs.mount-max the attach fails
# there, and the host is served the same key at once (not negative-cached)
MAXM=$(cat /proc/sys/fs/mount-max)
echo $(( $(wc -l < /proc/self/mountinfo) + 30 )) > /proc/sys/fs/mount-max
t_eq full-copy-fails "fails" "$(attack "
	mkdir -p /tmp/ctr-fill
	while mount -t tmpfs none /tmp/ctr-fill 2>/dev/null; do :; done
	cat $M/a11/hello 2>/dev/null || echo fails")"
echo "$MAXM" > /proc/sys/fs/mount-max
t_eq full-copy-failure-not-host a11 "$(cat $M/a11/hello 2>&1)"
t_eq full-copy-failure-not-others a11 "$($AS1000 unshare -Urm cat $M/a11/hello 2>&1)"
# a walk from a container through the host's mount (an fd opened outside)
# is refused at once: the agent could not attach there, and the failure it
# would have had must not be cached for the host
t_eq foreign-mount-walk-refused "Invalid cross-device link" "$($AS1000 sh -c \
	"exec 3<$M; unshare -Urm cat /proc/self/fd/3/b1/hello" 2>&1 | sed 's/.*: //')"
t_eq foreign-mount-walk-no-agent 0 "$(lookups b1)"
t_eq foreign-mount-walk-not-host b1 "$(cat $M/b1/hello 2>&1)"
t_ok crafted-key-refused sh -c "! $AS1000 unshare -Urm cat '$M/-o/hello' 2>/dev/null"
t_eq crafted-key-no-agent 0 "$(lookups '-o')"

# --- the lock on what the host attached, from the container's side ------------
# A mount the container holds (a mountfd, or an fd) when host root takes it
# away (lazily: it is held): a policy asked for it then is refused, not read
# off the namespace the mount no longer has (on 6.1 a NULL dereference).
rm -f /tmp/ctr-held
$AS1000 unshare -Urm --propagation private sh -c "cat $M/h1/hello >/dev/null &&
	exec $MFD setexpire-held $M/h1 /tmp/ctr-held" > /tmp/ctr-held.out 2>&1 &
HELD=$!
for i in $(seq 100); do [ -e /tmp/ctr-held ] && break; sleep 0.1; done
t_ok host-takes-held-mount nsenter -t $HELD -m umount -l $M/h1
rm -f /tmp/ctr-held
wait $HELD
t_eq held-gone-setexpire-refused EINVAL "$(cat /tmp/ctr-held.out)"
# A namespace the container makes below its own gets copies of what the host
# attaches later, locked against the container too: entering it does not
# let the container take a copy away (it compared the copy's namespace).
t_eq nested-copy-umount-refused "n1 refused" "$(attack "
	mount --make-rshared $M
	unshare -Urm --propagation unchanged sleep 30 & inner=\$!
	sleep 1
	cat $M/n1/hello
	nsenter -t \$inner -m umount $M/n1 2>/dev/null && echo undone || echo refused
	kill \$inner")"
# A tree served with shared propagation (a peer of its source directory's
# mount) sends nothing back from a container: what the container mounts in
# it stays its own, not on the host's source directory.
mkdir -p $D/src/sh1/x
attack "cat $S/sh1/hello >/dev/null; mount -t tmpfs none $S/sh1/x" > /dev/null
t_eq shared-map-no-backflow 0 "$(grep -c " $D/src/sh1/x " /proc/self/mountinfo)"
# A rootless container's own parent namespace (uid 1000's outer user
# namespace, above the container's) may not undo it either: the lock holds
# against every user namespace below the attacher's.
t_eq parent-userns-umount-refused "p1 refused" "$($AS1000 unshare -Urm --propagation private sh -c "
	unshare -Urm --propagation private sh -c 'cat $M/p1/hello; exec sleep 30' > /tmp/ctr-p1 2>&1 &
	inner=\$!
	for i in \$(seq 50); do grep -q p1 /tmp/ctr-p1 && break; sleep 0.2; done
	cat /tmp/ctr-p1
	nsenter -t \$inner -m umount $M/p1 2>/dev/null && echo undone || echo refused
	kill \$inner" 2>&1 | paste -sd' ')"
# pivot_root(2) away from it would hand its lock to the new root and leave
# it free to unmount at put_old.
mkdir -p $D/src/pv1/bin $D/src/pv1/sub && cp /bin/busybox $D/src/pv1/bin/ &&
	chmod -R a+rX $D/src/pv1
t_eq pivot-root-refused "refused" "$(attack "
	mount --make-rprivate /
	cat $M/pv1/hello >/dev/null
	chroot $M/pv1 /bin/busybox sh -c '/bin/busybox mount -t tmpfs none /sub && cd /sub &&
		/bin/busybox mkdir old && /bin/busybox pivot_root . old &&
		/old/bin/busybox umount -l /old && echo undone || echo refused' 2>/dev/null")"
# Host root may DETACH what it attached; the tree stays locked, so that the
# container, holding a file on it, cannot attach it again unlocked.
if [ "$(mount_api)" = mountfd ]; then
	rm -f /tmp/ctr-f1 /tmp/ctr-f2
	$AS1000 unshare -Urm --propagation private sh -c "cat $M/mv1/hello >/dev/null &&
		mkdir -p /tmp/ctr-mvto && exec $MFD move-held $M/mv1 /tmp/ctr-f1 /tmp/ctr-mvto" \
		> /tmp/ctr-mv.out 2>&1 &
	MV=$!
	for i in $(seq 100); do [ -e /tmp/ctr-f1 ] && break; sleep 0.1; done
	nsenter -t $MV -m $MFD detach-wait $M/mv1 /tmp/ctr-f2 > /tmp/ctr-dw.out 2>&1 &
	DW=$!
	for i in $(seq 100); do [ -e /tmp/ctr-f2 ] && break; sleep 0.1; done
	rm -f /tmp/ctr-f1
	wait $MV
	rm -f /tmp/ctr-f2
	wait $DW
	t_eq host-detached-tree-stays-locked EINVAL "$(cat /tmp/ctr-mv.out)"
fi

# --- podman rootless, an image imported from a tarball -------------------------
# podman's own defaults but for what the guest lacks: no network, no registry,
# no systemd (cgroupfs, vfs storage in a scratch home)
PH=/tmp/ctr-pod
mkdir -p $PH/run /tmp/ctr-img/bin && chown -R 1000:1000 $PH && chmod 700 $PH/run
cp /bin/busybox /tmp/ctr-img/bin/
for c in sh cat grep umount mount su; do ln -sf busybox /tmp/ctr-img/bin/$c; done
mkdir -p /tmp/ctr-img/proc /tmp/ctr-img/dev /tmp/ctr-img/sys /tmp/ctr-img/tmp /tmp/ctr-img/mnt \
	/tmp/ctr-img/etc
printf 'root:x:0:0::/:/bin/sh\nu1:x:1:1::/:/bin/sh\nu2:x:2:2::/:/bin/sh\n' > /tmp/ctr-img/etc/passwd
printf 'root:x:0:\nu1:x:1:\nu2:x:2:\n' > /tmp/ctr-img/etc/group
# the image's own maps, nsswitch.conf and agent, which must go unused
mkdir -p /tmp/ctr-img/sbin
cp /tmp/ctr-evil.map /tmp/ctr-img/etc/auto.ctr
cp /tmp/ctr-evil.map /tmp/ctr-img/etc/auto.master
cp /tmp/ctr-evil.map /tmp/ctr-img/etc/nsswitch.conf
printf '#!/bin/sh\ntouch /tmp/ctr-evil-agent-ran\n' > /tmp/ctr-img/sbin/autofs
chmod 755 /tmp/ctr-img/sbin/autofs
tar -C /tmp/ctr-img -cf /tmp/ctr-img.tar . && chmod 644 /tmp/ctr-img.tar
pod() {
	$AS1000 env HOME=$PH XDG_RUNTIME_DIR=$PH/run podman --storage-driver vfs \
		--root $PH/storage --runroot $PH/run/storage --cgroup-manager cgroupfs \
		--events-backend file "$@"
}
podrun() { pod run --rm --pull never --network none "$@"; }
t_ok podman-import pod import --quiet /tmp/ctr-img.tar localhost/ctr
t_eq podman-private-volume pd1 "$(podrun -v $M:$M localhost/ctr cat $M/pd1/hello 2>&1)"
t_eq podman-rslave-volume pd2 "$(podrun -v $M:$M:rslave localhost/ctr cat $M/pd2/hello 2>&1)"
t_eq podman-is-host-user "home of $U" "$(podrun -v $M:$M localhost/ctr cat $M/me/hello 2>&1)"
t_eq podman-nfs-home "home of alice" "$(podrun -v $M:$M localhost/ctr cat $M/home/hello 2>&1)"
t_eq podman-image-files-unused "pd4 no" "$(podrun -v $M:$M localhost/ctr sh -c "
	cat $M/pd4/hello; test -e /tmp/ctr-evil-agent-ran && echo ran || echo no" 2>&1 | paste -sd' ')"
# a key the host has mounted (and holds), then a key nobody had, in one run
(cd $M/pd5 && exec sleep 60) & HOLD=$!
t_eq podman-host-mounted-then-new "pd5 pd6" "$(podrun -v $M:$M localhost/ctr \
	cat $M/pd5/hello $M/pd6/hello 2>&1 | paste -sd' ')"
kill $HOLD
# its root, even with CAP_SYS_ADMIN, cannot take the served mount away
t_eq podman-umount-refused "pd3 1" "$(podrun --cap-add SYS_ADMIN -v $M:$M localhost/ctr sh -c "
	cat $M/pd3/hello; umount $M/pd3 2>/dev/null || umount -l $M/pd3 2>/dev/null
	grep -c ' $M/pd3 ' /proc/self/mountinfo" 2>&1 | paste -sd' ')"
t_eq podman-move-refused "pd7 refused" "$(podrun --cap-add SYS_ADMIN -v $M:$M localhost/ctr sh -c "
	cat $M/pd7/hello; mkdir -p /tmp/mv
	mount -o move $M/pd7 /tmp/mv 2>/dev/null && echo moved || echo refused" 2>&1 | paste -sd' ')"
t_eq podman-bind-over-own "pd8 pd8" "$(podrun --cap-add SYS_ADMIN -v $M:$M localhost/ctr sh -c "
	cat $M/pd8/hello; mount -t tmpfs none $M/pd8 && umount $M/pd8 && cat $M/pd8/hello" 2>&1 | paste -sd' ')"
# and every one of those lookups ended well: the kernel logged no failure
t_eq podman-lookups-not-failed 0 "$(dmesg | grep -c "lookup of key 'pd[1-8]' .*failed")"

# subordinate users of one container (podman's users 1 and 2 are host uids
# 200000 and 200001) are charged to the user who owns it: with one agent per
# user their lookups run in turn, and (the control) with two at once
PERUSER=$(cat /proc/sys/fs/autofsng/max_agents_per_user)
subuid_pair() {
	rm -f /tmp/ctr-prog.log
	podrun -v $P:$P localhost/ctr sh -c "
		su -s /bin/sh u1 -c 'cat $P/$1/hello' > /dev/null &
		su -s /bin/sh u2 -c 'cat $P/$2/hello' > /dev/null &
		wait" 2>&1
	sort -k3n /tmp/ctr-prog.log | awk '{ print $1 }' | paste -sd' '
}
echo 1 > /proc/sys/fs/autofsng/max_agents_per_user
t_eq podman-subuids-one-owner "start end start end" "$(subuid_pair sub1 sub2)"
echo 2 > /proc/sys/fs/autofsng/max_agents_per_user
t_eq podman-subuids-control-two-agents "start start end end" "$(subuid_pair sub3 sub4)"
echo "$PERUSER" > /proc/sys/fs/autofsng/max_agents_per_user
t_ok podman-subuids-uid-logged logged "key=sub1 .*uid=20000[01] "

# --- expiry in the container, and nothing left when it exits ------------------

t_eq expires-in-container "a9 0" "$($AS1000 unshare -Urm --propagation private sh -c "
	cat $M/a9/hello
	for i in \$(seq 20); do
		grep -q ' $M/a9 ' /proc/self/mountinfo || break
		sleep 1
	done
	grep -c ' $M/a9 ' /proc/self/mountinfo" 2>&1 | paste -sd' ')"
# an NFS home served to a container that exits: its superblock goes with it
# (this suite mounts no NFS on the host: every NFS client superblock is a
# container's)
volumes() { grep -vc '^NV' $NFSVOL; }
$AS1000 unshare -Urm --propagation private sh -c "cat $M/home/hello >/dev/null
	grep -c ' $M/home ' /proc/self/mountinfo" > /tmp/ctr-home 2>&1
t_eq exited-container-was-served 1 "$(cat /tmp/ctr-home)"
for i in $(seq 20); do
	[ "$(volumes)" = 0 ] && break
	sleep 0.5
done
t_eq exited-container-holds-nothing 0 "$(volumes)"

# A host NFS crossmount (nosuid) that uid 1000 walks from a user namespace
# of its own: the submount its walk makes is the host's as any other, and
# host root may change its flags and unmount it (its flags were locked
# against the host as if the walker had attached it from above).
nfs_server_start /export/homes/sub
echo sub > "$NFS_ROOT/export/homes/sub/hello"
chmod 755 "$NFS_ROOT/export/homes/sub"
mkdir -p /mnt/ctr-nfs
mount -t nfs -o vers=4.2,nosuid 127.0.0.1:/export/homes /mnt/ctr-nfs
t_eq userns-walks-crossmount sub "$($AS1000 unshare -U cat /mnt/ctr-nfs/sub/hello 2>&1)"
t_eq crossmount-submount-made nfs4 "$(mnt_fstype /mnt/ctr-nfs/sub)"
t_eq crossmount-host-remounts "" "$(mount -o remount,bind,suid /mnt/ctr-nfs/sub 2>&1)"
t_eq crossmount-host-unmounts "" "$(umount /mnt/ctr-nfs/sub 2>&1)"
umount -l /mnt/ctr-nfs

# --- the same first lookups against autofs-tools 5.1.8 in this boot -----------
# Each requester reads a key nobody looked up yet under each automounter
# (autofs-tools on /mnt/at, autofsng on $M); the table goes to the results.
for k in r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12; do
	mkdir -p $D/src/$k && echo "$k" > $D/src/$k/hello
done
chmod -R a+rX $D
# served, or the error the requester saw
try() {
	local out
	out=$("$@" 2>&1) && [ -n "$out" ] && { echo served; return; }
	echo "${out##*: }" | tail -1
}
requesters() {
	local m=$1
	echo "root on the host|$(try cat $m/r1/hello)"
	echo "root, unshare -m slave|$(try unshare -m --propagation slave cat $m/r2/hello)"
	echo "root, unshare -m private|$(try unshare -m --propagation private cat $m/r3/hello)"
	echo "unshare -Urm slave by root|$(try unshare -Urm --propagation slave cat $m/r4/hello)"
	echo "unshare -Urm slave by uid 1000|$(try $AS1000 unshare -Urm --propagation slave cat $m/r5/hello)"
	echo "unshare -Urm private by uid 1000|$(try $AS1000 unshare -Urm --propagation private cat $m/r6/hello)"
	echo "bwrap --unshare-user by uid 1000|$(try $AS1000 bwrap --unshare-user --dev-bind / / cat $m/r7/hello)"
	cat $m/r8/hello >/dev/null 2>&1
	echo "uid 1000 userns, a key the host mounted|$(try $AS1000 unshare -Urm --propagation slave cat $m/r8/hello)"
	echo "one userns shell, two keys|$(try $AS1000 unshare -Urm --propagation slave sh -c "cat $m/r9/hello >/dev/null && cat $m/r10/hello")"
	echo "podman rootless, -v (private)|$(try podrun -v $m:$m localhost/ctr cat $m/r11/hello)"
	echo "podman rootless, -v :rslave|$(try podrun -v $m:$m:rslave localhost/ctr cat $m/r12/hello)"
}
: > /tmp/ctr-at.table
if [ -x /usr/sbin/automount ]; then
	mkdir -p /mnt/at
	printf '/mnt/at\t/etc/auto.ctr\t--timeout=60\n' > /tmp/ctr-at.master
	printf '[ autofs ]\ntimeout = 600\nbrowse_mode = no\nmount_wait = 10\n' > /etc/autofs.conf
	setsid automount -f /tmp/ctr-at.master > /tmp/ctr-at.log 2>&1 &
	AT_PID=$!
	for i in $(seq 100); do
		awk '$5 == "/mnt/at"' /proc/self/mountinfo | grep -q . && break
		sleep 0.1
	done
	requesters /mnt/at > /tmp/ctr-at.table
	kill -TERM $AT_PID
	for i in $(seq 100); do kill -0 $AT_PID 2>/dev/null || break; sleep 0.1; done
	kill -KILL $AT_PID 2>/dev/null
	awk 'index($5, "/mnt/at") == 1 { print $5 }' /proc/self/mountinfo | sort -r | xargs -r umount -l
fi
requesters $M > /tmp/ctr-ng.table
{
	echo "requester|autofs-tools 5.1.8|autofsng"
	paste -d'|' /tmp/ctr-ng.table /tmp/ctr-at.table 2>/dev/null |
		awk -F'|' '{ print $1 "|" ($4 == "" ? "not run" : $4) "|" $2 }'
} | tee /run/results/containers-table.txt
t_eq table-autofsng-serves-all-eleven 11 "$(grep -c '|served$' /tmp/ctr-ng.table)"
