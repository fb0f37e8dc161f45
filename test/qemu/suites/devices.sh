# SUITE_TIMEOUT=300
# devices: local filesystems named as mount(8) names them (issue 35, item 2).
# Loop devices on images made here: an ext4 with a label and UUID, an ext2
# for fstype=auto, a GPT disk whose partition has a PARTUUID and PARTLABEL,
# an empty device and a swap area.  Looked up through the kernel with the
# installed agent, by root and by uid 1000; what no device has, what holds
# no filesystem, and a program map's device fail with a line naming why.
. "$TOP/test/qemu/lib.sh"

IMG=/srv/devices
M=/mnt/dev
UUID_EXT2=6f1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d
PARTUUID=5e3f0a1c-1111-4222-8333-444455556666
LOOPS=()

# mnt_after_dash PATH N: field N after " - " of PATH's mountinfo line (1 type, 2 source)
mnt_after_dash() {
	awk -v p="$1" -v n="$2" '$5 == p { for (i = 6; i <= NF; i++) if ($i == "-") v = $(i + n) }
		END { print v }' /proc/self/mountinfo
}

# mounts_under DIR: the mountinfo lines of the mounts below DIR
mounts_under() { awk -v d="$1/" 'index($5, d) == 1' /proc/self/mountinfo; }

# loop_of FILE [losetup options]: attach FILE, print the device
loop_of() {
	local dev
	dev=$(losetup -f --show "$@") || return 1
	LOOPS+=("$dev")
	echo "$dev"
}

cleanup() {
	local l
	autofs stop >/dev/null 2>&1
	for l in $(mounts_under $M | awk '{ print $5 }' | sort -r); do
		umount "$l"
	done
	for l in "${LOOPS[@]}"; do
		losetup -d "$l"
	done
	rm -rf "$IMG" /etc/auto.dev /etc/auto.devprog "$M"
}
trap cleanup EXIT

if ! [ -e /dev/loop-control ] || ! grep -qw ext4 /proc/filesystems; then
	t_fail setup "this kernel has no loop devices or no ext4 (CONFIG_BLK_DEV_LOOP, CONFIG_EXT4_FS)"
	exit 0
fi
echo 1 > /proc/sys/fs/mount_expire_tick
mkdir -p "$IMG/files" "$M"
echo "on IMAGES" > "$IMG/files/hello"

# an ext4 labelled IMAGES, an ext2 with a known UUID
truncate -s 8M "$IMG/a.img" "$IMG/b.img" "$IMG/empty.img" "$IMG/swap.img" "$IMG/minix.img"
mkfs.ext4 -q -L IMAGES -d "$IMG/files" "$IMG/a.img"
echo "on ext2" > "$IMG/files/hello"
mkfs.ext2 -q -U "$UUID_EXT2" -d "$IMG/files" "$IMG/b.img"
mkswap -q "$IMG/swap.img" >/dev/null
mkfs.minix "$IMG/minix.img" >/dev/null	# a filesystem this kernel has not got
# a GPT disk: a partition with a PARTUUID, another with a PARTLABEL
# (mounted read-only below, so not the same superblock as the first)
truncate -s 24M "$IMG/gpt.img"
printf 'label: gpt\nstart=2048, size=16384, uuid=%s\nstart=18432, size=16384, name=projdata\n' \
	"$PARTUUID" | sfdisk -q "$IMG/gpt.img" >/dev/null
DEV_A=$(loop_of "$IMG/a.img")
DEV_B=$(loop_of "$IMG/b.img")
DEV_EMPTY=$(loop_of "$IMG/empty.img")
DEV_SWAP=$(loop_of "$IMG/swap.img")
DEV_MINIX=$(loop_of "$IMG/minix.img")
DEV_GPT=$(loop_of -P "$IMG/gpt.img")
for i in $(seq 50); do [ -b "${DEV_GPT}p2" ] && break; sleep 0.1; done
echo "in the partition" > "$IMG/files/hello"
mkfs.ext4 -q -L inner -d "$IMG/files" "${DEV_GPT}p1"
echo "in the labelled partition" > "$IMG/files/hello"
mkfs.ext4 -q -d "$IMG/files" "${DEV_GPT}p2"
t_ok setup-devices test -b "$DEV_A" -a -b "$DEV_B" -a -b "${DEV_GPT}p1" -a -b "${DEV_GPT}p2"

# log_level info: the agent says which device a specifier named
cat > /etc/autofs-agent.conf <<'CONF'
[general]
browse = no
log_level = info
CONF
cat > /etc/auto.master <<'MASTER'
/mnt/dev	/etc/auto.dev	--timeout=2
/mnt/devprog	/etc/auto.devprog
MASTER
cat > /etc/auto.dev <<MAP
label		-fstype=ext4		:LABEL=IMAGES
uuid		-fstype=auto		:UUID=$UUID_EXT2
partuuid	-fstype=auto		:PARTUUID=$PARTUUID
partlabel	-fstype=ext4,ro		:PARTLABEL=projdata
path		-fstype=auto		:$DEV_B
nolabel		-fstype=ext4		:LABEL=NOSUCH
blank		-fstype=auto		:$DEV_EMPTY
swap		-fstype=auto		:$DEV_SWAP
minix		-fstype=auto		:$DEV_MINIX
tty		-fstype=auto		:/dev/ttyS1
labelsuid	-fstype=ext4,suid,dev	:UUID=$UUID_EXT2
MAP
printf '#!/bin/sh\necho "-fstype=ext4 :LABEL=IMAGES"\n' > /etc/auto.devprog
chmod 755 /etc/auto.devprog
mkdir -p /mnt/devprog
autofs stop >/dev/null 2>&1	# triggers an earlier suite of this boot left
t_ok start autofs start

# --- what a map file names is served ------------------------------------------

t_eq label-cat "on IMAGES" "$(cat $M/label/hello 2>&1)"
t_eq label-ext4 ext4 "$(mnt_fstype $M/label)"
t_eq label-device "$DEV_A" "$(mnt_after_dash $M/label 2)"
# whoever attaches a device chooses its label: nosuid,nodev unless the map says
opts() { awk -v p="$1" '$5 == p { print $6 }' /proc/self/mountinfo; }
case ",$(opts $M/label)," in
*,nosuid,*nodev,*|*,nodev,*nosuid,*) t_pass label-nosuid-nodev ;;
*) t_fail label-nosuid-nodev "options '$(opts $M/label)'" ;;
esac
t_eq uuid-auto-user "on ext2" "$(setpriv --reuid 1000 --regid 1000 --clear-groups cat $M/uuid/hello 2>&1)"
t_eq uuid-auto-ext2 ext2 "$(mnt_fstype $M/uuid)"
t_eq partuuid-cat "in the partition" "$(cat $M/partuuid/hello 2>&1)"
t_eq partuuid-device "${DEV_GPT}p1" "$(mnt_after_dash $M/partuuid 2)"
t_eq partlabel-cat "in the labelled partition" "$(cat $M/partlabel/hello 2>&1)"
case ",$(awk -v p=$M/partlabel '$5 == p { print $6 }' /proc/self/mountinfo)," in
*,ro,*) t_pass partlabel-ro ;;
*) t_fail partlabel-ro "mount options of $M/partlabel are not ro" ;;
esac
t_eq path-auto ext2 "$(ls $M/path >/dev/null 2>&1; mnt_fstype $M/path)"
t_ok resolution-logged logged "LABEL=IMAGES: ext4 $DEV_A"

# --- what cannot be served fails its key, saying why ----------------------------

t_ok nolabel-fails sh -c "! ls $M/nolabel >/dev/null 2>&1"
t_eq nolabel-nothing-mounted "" "$(mnt_fstype $M/nolabel)"
t_ok nolabel-says-why logged "no device has LABEL=NOSUCH"
t_ok blank-fails sh -c "! ls $M/blank >/dev/null 2>&1"
t_ok blank-says-why logged "no filesystem found on $DEV_EMPTY"
t_ok swap-fails sh -c "! ls $M/swap >/dev/null 2>&1"
t_ok swap-says-why logged "$DEV_SWAP holds swap (other), not a filesystem"
t_ok minix-fails sh -c "! ls $M/minix >/dev/null 2>&1"
t_ok minix-says-why logged "$DEV_MINIX holds minix, which this kernel has not loaded"
# a character device is never opened to be probed (a watchdog, a modem)
t_ok tty-fails sh -c "! ls $M/tty >/dev/null 2>&1"
t_ok tty-says-why logged "cannot probe /dev/ttyS1: Block device required"
t_ok program-device-fails sh -c "! ls /mnt/devprog/k >/dev/null 2>&1"
t_eq program-device-nothing-mounted "" "$(mnt_fstype /mnt/devprog/k)"
t_ok program-device-says-why logged "a local path or device from a source outside"

# --- the device that has the label at the lookup, after expiry -------------------

# the ext2 device is free again: its mounts by uuid and path have expired
# (ext4 cannot open a block device ext2 holds), however long that took
both_gone() { mnt_gone_within "$1" 20 && mnt_gone_within "$2" 20; }
t_ok labelsuid-device-free both_gone $M/uuid $M/path
t_eq labelsuid-cat "on ext2" "$(cat $M/labelsuid/hello 2>&1)"
case ",$(opts $M/labelsuid)," in
*,nosuid,*|*,nodev,*) t_fail labelsuid-as-said "options '$(opts $M/labelsuid)'" ;;
*) t_pass labelsuid-as-said ;;
esac
t_ok label-expires mnt_gone_within $M/label 15
for i in $(seq 15); do [ -z "$(mounts_under $M)" ] && break; sleep 1; done
t_eq all-expired "" "$(mounts_under $M)"
e2label "$DEV_A" OLD
e2label "${DEV_GPT}p1" IMAGES
t_eq relabel-follows "in the partition" "$(cat $M/label/hello 2>&1)"
t_eq relabel-device "${DEV_GPT}p1" "$(mnt_after_dash $M/label 2)"
