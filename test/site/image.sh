#!/bin/bash
# test/site/image.sh -- the site's disks (issue 36), under $SITE_DIR
# (default <repo>/_site, ignored by git):
#
#   base.tar     Debian 12 with systemd, sshd, NFS and NIS clients and
#                Debian's autofs, from the archive this machine reaches
#                (mmdebstrap in a mount namespace of its own: nothing is
#                mounted on this machine).
#                Downloaded once (from SITE_MIRROR, default
#                http://deb.debian.org/debian); rebuilt only when its
#                package list changes (base.tar.pkgs).
#   client.img   base.tar, then what an administrator does on a new
#                client: the project's packages (make deb) and kernel
#                package (make kernel-deb) installed with dpkg -i, users,
#                network, maps from the server through nsswitch.conf,
#                autofs-agent.service enabled.  An ext4 image made by
#                mkfs.ext4 -d, rebuilt whenever an input is newer.
#   server.img   the file server's export disk (ext4, mkfs.ext4 -d).
#   vmlinuz      the kernel package's own image, which QEMU boots.
#   ssh/id       the key the runner logs in with as root.
#
# The configuration laid into the client lives in test/site/client/ (a
# tree copied over the root as it is) and in client_setup below (what
# needs the installed system: users, passwords, units).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
site=${SITE_DIR:-$top/_site}
say() { echo "test/site/image.sh: $*"; }
die() { echo "test/site/image.sh: $*" >&2; exit 1; }

# What a client of an NFS site runs.  autofs and autofs-ldap are Debian's
# automounter, the one the scenarios compare against; nis brings ypbind,
# which both automounters ask for NIS maps.
BASE_PKGS="systemd-sysv dbus libpam-systemd openssh-server iproute2 procps
	nfs-common rpcbind nis ldap-utils libldap-common autofs autofs-ldap
	libnsl2 libtirpc3 libxml2 libsasl2-2 ca-certificates less"

base_tar() {
	local want
	want=$(echo "$BASE_PKGS" | tr -s ' \t\n' '\n' | sort | paste -sd,)
	if [ -f "$site/base.tar" ] && [ "$(cat "$site/base.tar.pkgs" 2>/dev/null)" = "$want" ]; then
		return
	fi
	command -v mmdebstrap >/dev/null || die "mmdebstrap missing: apt-get install mmdebstrap"
	say "building the Debian base (mmdebstrap, once)"
	# root mode mounts proc, sys and dev in the new root: in a mount
	# namespace of its own, so they never show on this machine
	# the mirror named, and stdin closed: without a mirror, mmdebstrap
	# reads a sources.list from a stdin that is not a terminal
	unshare -m --propagation private -- \
		mmdebstrap --mode=root --variant=important --include="$want" \
		bookworm "$site/base.tmp.tar" "${SITE_MIRROR:-http://deb.debian.org/debian}" </dev/null
	mv "$site/base.tmp.tar" "$site/base.tar"
	echo "$want" > "$site/base.tar.pkgs"
}

# The newest input of the client image: the base, the packages, the tree.
client_stale() {
	local img=$site/client.img f
	[ -f "$img" ] || return 0
	for f in "$site/base.tar" "$@" $(find "$top/test/site/client" "$0" -type f); do
		[ "$f" -nt "$img" ] && return 0
	done
	return 1
}

# dpkg -i and the rest run chrooted, in a mount namespace of their own
# (proc, sys and dev are mounted there and vanish with it), with services
# kept from starting as Debian's policy-rc.d allows.
in_root() {
	local root=$1
	shift
	unshare -m --propagation private -- sh -ec '
		root=$1; shift
		mount -t proc proc "$root/proc"
		mount --rbind /sys "$root/sys"
		mount --rbind /dev "$root/dev"
		exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive "$@"' sh "$root" "$@"
}

client_setup() {
	local root=$1
	printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	mkdir -p "$root/tmp/debs"
	cp "${DEBS[@]}" "$root/tmp/debs/"
	in_root "$root" sh -c 'dpkg -i /tmp/debs/*.deb'
	rm -rf "$root/tmp/debs" "$root/usr/sbin/policy-rc.d"
	# the administrator's edits, after the packages' own conffiles; owned
	# by root and writable by nobody else, whoever owns the checkout
	tar -C "$top/test/site/client" --owner=0 --group=0 --mode=go-w -cf - etc usr |
		tar -C "$root" -xf -
	in_root "$root" sh -ec '
		useradd -M -d /home/alice -s /bin/bash -u 1100 alice
		useradd -M -d /home/bob -s /bin/bash -u 1101 bob
		echo alice:alice-pw | chpasswd
		echo bob:bob-pw | chpasswd
		echo root:root-pw | chpasswd
		systemctl enable systemd-networkd ssh ypbind autofs-agent
		systemctl disable autofs
		# nis brings the server too: the client only binds
		systemctl disable ypserv yppasswdd ypxfrd 2>/dev/null || true
		systemctl enable serial-getty@ttyS0
		ssh-keygen -A'
	mkdir -p "$root/root/.ssh"
	cp "$site/ssh/id.pub" "$root/root/.ssh/authorized_keys"
	chmod 700 "$root/root/.ssh"
}

# sources_newer_than FILE DIR...: a tracked file of DIR... changed after
# FILE was made.
sources_newer_than() {
	local f ref=$1
	shift
	for f in $(git -C "$top" ls-files "$@"); do
		[ "$top/$f" -nt "$ref" ] && return 0
	done
	return 1
}

# newest FILE...: the newest of the files that exist.
newest() { { ls -t "$@" 2>/dev/null || true; } | head -1; }

# The project's packages, rebuilt when their sources changed since: the
# agent's (make deb) and the kernel's (make kernel-deb, base config).
debs() {
	local agent kernel
	agent=$(newest "$top"/_deb/autofsng_*_amd64.deb)
	if [ -z "$agent" ] || sources_newer_than "$agent" agent maps modules debian man configure.ac; then
		make -C "$top" -s deb
	fi
	kernel=$(newest "$top"/_kbuild/deb-base/linux-image-*-autofsng_*.deb)
	if [ -z "$kernel" ] || sources_newer_than "$kernel" kernel; then
		make -C "$top" -s kernel-deb KCONFIG=base
	fi
	DEBS=("$(newest "$top"/_deb/autofsng_*_amd64.deb)"
		"$(newest "$top"/_deb/autofsng-ldap_*_amd64.deb)"
		"$(newest "$top"/_kbuild/deb-base/linux-image-*-autofsng_*.deb)")
}

client_img() {
	local root=$site/client.root rc
	debs
	client_stale "${DEBS[@]}" || return 0
	say "building the client image"
	mkdir -p "$site/ssh"
	[ -f "$site/ssh/id" ] || ssh-keygen -q -t ed25519 -N '' -C site-runner -f "$site/ssh/id"
	rm -rf "$root"
	mkdir -p "$root"
	tar -C "$root" -xf "$site/base.tar"
	# dpkg's and systemctl's lines go to a log, shown if a step fails
	set +e
	(set -e; client_setup "$root") > "$site/image.log" 2>&1
	rc=$?
	set -e
	[ $rc = 0 ] || { tail -30 "$site/image.log" >&2; die "client setup failed: $site/image.log"; }
	cp "$root"/boot/vmlinuz-*-autofsng "$site/vmlinuz"
	mkfs.ext4 -q -F -L site-root -d "$root" "$site/client.img.tmp" 4G
	mv "$site/client.img.tmp" "$site/client.img"
	rm -rf "$root"
}

# The server's disk: the exported trees, owned by the site's users (the
# runner boots a copy, so each run starts from this).
server_img() {
	local root=$site/server.root
	[ -f "$site/server.img" ] && [ "$site/server.img" -nt "$0" ] && return 0
	rm -rf "$root"
	mkdir -p "$root/home/alice" "$root/home/bob" "$root/proj/data"
	echo "alice's home on the server" > "$root/home/alice/.site"
	echo "bob's home on the server" > "$root/home/bob/.site"
	chown -R 1100:1100 "$root/home/alice"
	chown -R 1101:1101 "$root/home/bob"
	chmod 1777 "$root/proj/data"
	mkfs.ext4 -q -F -L site-export -d "$root" "$site/server.img.tmp" 1G
	mv "$site/server.img.tmp" "$site/server.img"
	rm -rf "$root"
}

mkdir -p "$site"
base_tar
client_img
server_img
say "ready: $site/client.img, $site/server.img, $site/vmlinuz"
