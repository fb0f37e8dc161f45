# SUITE_TIMEOUT=300
# demo: the README's first command.  Automounted NFS home directories from
# the in-guest knfsd: touch /home/alice, see the mount, browse /home, watch
# `autofs status` count down and the mount expire.  Until the agent and the
# autofsng filesystem are both in this build, it shows the part that exists:
# the NFS module mounting a home through the new mount API.
. "$TOP/test/qemu/lib.sh"

say() { printf '\n### %s\n' "$*"; }
show() { echo "\$ $*"; "$@" 2>&1 | sed 's/^/  /'; }

nfs_server_start /export/home || { t_fail server "nfs_server_start failed"; exit 1; }
for u in alice bob carol; do
	mkdir -p "$NFS_ROOT/export/home/$u"
	echo "Hello $u, this file lives on the NFS server." > "$NFS_ROOT/export/home/$u/README"
done

agent=$(command -v autofs)
if [ -n "$agent" ] && grep -qw autofsng /proc/filesystems; then
	cat > /etc/autofs-agent.conf <<-'CONF'
	[general]
	timeout = 20
	browse = yes
	mount_timeout = 15
	log_stderr = yes
	CONF
	echo "/home file:/etc/auto.home --timeout=20 -browse" > /etc/auto.master
	cat > /etc/auto.home <<-'MAP'
	alice	-vers=4.2	127.0.0.1:/export/home/alice
	bob	-vers=3		127.0.0.1:/export/home/bob
	*	127.0.0.1:/export/home/&
	MAP
	say "the master map and the home map"
	show cat /etc/auto.master /etc/auto.home
	say "start: mount the autofsng trigger on /home (no daemon stays behind)"
	show "$agent" start
	t_ok demo-start findmnt -t autofsng /home
	say "touch /home/alice: the kernel runs the agent once, which mounts NFS"
	start=$(date +%s%N)
	show cat /home/alice/README
	echo "  (first access took $(( ($(date +%s%N) - start) / 1000000 )) ms)"
	t_eq demo-read "Hello alice, this file lives on the NFS server." "$(cat /home/alice/README)"
	show findmnt -R /home
	t_eq demo-nfs nfs4 "$(findmnt -no FSTYPE /home/alice)"
	say "ls /home: browsing shows the map's keys before they are mounted"
	show ls /home
	t_ok demo-browse sh -c 'ls /home | grep -qx bob'
	say "autofs status: the mount and its expiry countdown"
	show "$agent" status
	# watch /proc/self/mountinfo: mountpoint(1) stats /home/alice, and
	# every stat is a use that starts the countdown again
	say "waiting for the idle home to expire"
	for i in $(seq 60); do
		grep -q ' /home/alice ' /proc/self/mountinfo || break
		sleep 1
	done
	show findmnt -R /home
	t_ok demo-expired sh -c "! grep -q ' /home/alice ' /proc/self/mountinfo"
	say "autofs stop: the trigger goes too"
	show "$agent" stop
	exit 0
fi

say "agent or autofsng not in this build: the NFS module on its own"
try=$BUILDDIR/modules/try-module
mkdir -p /mnt/alice
show "$try" "/usr/lib/autofsng/mount_nfs.so" /mnt/alice 127.0.0.1:/export/home/alice
show cat /mnt/alice/README
t_eq demo-module-read "Hello alice, this file lives on the NFS server." "$(cat /mnt/alice/README)"
show findmnt /mnt/alice
umount /mnt/alice
