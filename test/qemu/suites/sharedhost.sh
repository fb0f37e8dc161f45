# SUITE_TIMEOUT=300
# sharedhost: multi-mounts whose sources sit on shared mounts, as every
# mount of a systemd host is.  A bind clone of a directory on a shared
# mount used to be a peer of it: the offset triggers the agent attached in
# the tree were copied back onto the source directories, the offset's own
# source then resolved to that copy of the trigger, and one `cat` ran the
# agent 17 times and grew the mount table to 65,560 (issue 32).  Each test
# counts the agent's runs (its syslog lines) and the mounts one access
# adds, and checks that nothing of the tree lands on its sources.
. "$TOP/test/qemu/lib.sh"

AGENT=/sbin/autofs
S=/srv/sh

# runs KEY: the agent's lookup lines for KEY so far.  The agent has exited
# when the access returns, but the syslog reader may lag on a loaded host:
# read until two readings 0.3 s apart agree (at most 6 s).
runs() {
	local n m i
	n=$(suite_log | grep -c "lookup map=.* key=$1 ")
	for i in $(seq 20); do
		sleep 0.3
		m=$(suite_log | grep -c "lookup map=.* key=$1 ")
		[ "$m" = "$n" ] && break
		n=$m
	done
	echo "$n"
}
nmounts() { wc -l < /proc/self/mountinfo; }
# traps_below DIR: autofsng mounts at or below DIR (none belong there)
traps_below() {
	awk -v d="$1" '(index($5, d "/") == 1 || $5 == d) && / - autofsng / { print $5 }' \
		/proc/self/mountinfo
}
# stacked_traps: an autofsng mount right on top of another one's root
# with the same map and offset (what the loop left, thousands deep)
stacked_traps() {
	awk '/ - autofsng / { n = split($0, f, " - "); split(f[2], g, " ")
		key = $5 " " g[2] " " g[3]; if (seen[key]++) print key }' /proc/self/mountinfo
}

if [ ! -x "$AGENT" ] || ! grep -qw autofsng /proc/filesystems; then
	t_fail setup "$AGENT or the autofsng filesystem missing"
	exit 0
fi
echo 1 > /proc/sys/fs/mount_expire_tick

# Sources on a shared, a slave and a private mount of their own, whatever
# the guest's root is (GUEST_PROPAGATION=private too); /srv/mm is on the
# guest's /srv, shared on a systemd-like root, as in the issue.
mkdir -p $S/shared $S/master $S/slave $S/private /srv/mm/multi/x
echo X > /srv/mm/multi/x/f
mount -t tmpfs shsrc $S/shared && mount --make-shared $S/shared
mount -t tmpfs shmaster $S/master && mount --make-shared $S/master
mount --bind $S/master $S/slave && mount --make-slave $S/slave
mount -t tmpfs shpriv $S/private && mount --make-private $S/private
for d in $S/shared $S/master $S/private; do
	mkdir -p $d/t/x/y $d/n/x/y $d/o/x
	echo "$(basename $d)-x" > $d/t/x/f
	echo "$(basename $d)-y" > $d/n/x/y/f
	echo "$(basename $d)-o" > $d/o/x/f
done
# NFS from this host becomes a bind of the exported path: the server's
# /tmp is the guest's (nfs_server_start), so the path is the same here.
mkdir -p /tmp/shnfs/x && echo nfs-x > /tmp/shnfs/x/f
nfs_ok=yes
nfs_server_start /tmp/shnfs || nfs_ok=

cp /etc/autofs-agent.conf conf.saved 2>/dev/null
printf '[general]\nlog_level = info\n' > /etc/autofs-agent.conf
cat > /etc/auto.master <<'MASTER'
/mnt/mm	/etc/auto.mm	--timeout=600
/mnt/sh	/etc/auto.sh	--timeout=600
/mnt/she	/etc/auto.sh	--timeout=2
/mnt/shs	/etc/auto.shs	--timeout=600 -shared
MASTER
echo 'multi  -fstype=bind  / :/srv/mm/multi  /x :/srv/mm/multi/x' > /etc/auto.mm
cat > /etc/auto.sh <<'MAP'
shared	-fstype=bind	/ :/srv/sh/shared/t  /x :/srv/sh/shared/t/x
slave	-fstype=bind	/ :/srv/sh/slave/t  /x :/srv/sh/slave/t/x
private	-fstype=bind	/ :/srv/sh/private/t  /x :/srv/sh/private/t/x
nested	-fstype=bind	/ :/srv/sh/shared/n  /x :/srv/sh/shared/n/x  /x/y :/srv/sh/shared/n/x/y
nfs	/ 127.0.0.1:/tmp/shnfs  /x 127.0.0.1:/tmp/shnfs/x
MAP
echo 'opt  -fstype=bind  / :/srv/sh/shared/o  /x :/srv/sh/shared/o/x' > /etc/auto.shs
autofs stop > /dev/null 2>&1
t_ok start autofs start

# one_access NAME PATH WANT RUNS MOUNTS KEY: reading PATH gives WANT, the
# agent ran RUNS times for KEY and the mount table grew by MOUNTS exactly.
one_access() {
	local name=$1 path=$2 want=$3 nruns=$4 nmnt=$5 key=$6 r0 m0 m1 t0 got ms r
	r0=$(runs "$key")
	m0=$(nmounts)
	t0=$(date +%s%N)
	got=$(timeout 30 cat "$path" 2>&1)
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	# counted at once: a tree with a short timeout may expire meanwhile
	m1=$(nmounts)
	r=$(( $(runs "$key") - r0 ))
	echo "MEASURE $name: $ms ms, $r agent runs, $((m1 - m0)) new mounts"
	t_eq "$name-read" "$want" "$got"
	t_eq "$name-agent-runs" "$nruns" "$r"
	t_eq "$name-mounts" "$nmnt" "$((m1 - m0))"
}

# The issue's reproduction: root, the offset's trigger, the offset.
one_access repro /mnt/mm/multi/x/f X 2 3 multi
t_eq repro-no-trap-on-source "" "$(traps_below /srv)"
t_eq repro-no-stacked-traps "" "$(stacked_traps)"
t_eq repro-source-untouched "" "$(awk '$5 ~ "^/srv/mm" { print $5 }' /proc/self/mountinfo)"
# on a shared /srv the clone is a slave of it; on a private one, private
if grep -Eq ' /srv .* shared:' /proc/self/mountinfo; then
	t_ok repro-bind-is-slave grep -Eq ' /mnt/mm/multi .* master:' /proc/self/mountinfo
else
	t_ok repro-bind-is-private grep -Eq ' /mnt/mm/multi [^ ]+ - ' /proc/self/mountinfo
fi
one_access repro-again /mnt/mm/multi/x/f X 0 0 multi

one_access shared /mnt/sh/shared/x/f shared-x 2 3 shared
t_eq shared-no-trap-on-source "" "$(traps_below $S)"
# What is mounted on a source later still shows in the slave clone.
mkdir -p $S/shared/t/late
t_ok slave-receives mount -t tmpfs late $S/shared/t/late
t_ok slave-receives-shown grep -q ' /mnt/sh/shared/late ' /proc/self/mountinfo
umount $S/shared/t/late
one_access slave /mnt/sh/slave/x/f master-x 2 3 slave
one_access private /mnt/sh/private/x/f private-x 2 3 private
# three levels: root, /x, /x/y; two triggers
one_access nested /mnt/sh/nested/x/y/f shared-y 3 5 nested
t_eq nested-no-trap-on-source "" "$(traps_below $S)"
if [ -n "$nfs_ok" ]; then
	one_access nfs-local /mnt/sh/nfs/x/f nfs-x 2 3 nfs
	t_ok nfs-local-is-bind grep -q 'is on this host: bind mount of /tmp/shnfs/x' <(suite_log)
	t_eq nfs-no-trap-on-source "" "$(traps_below /tmp/shnfs)"
else
	t_fail nfs-local "nfs_server_start /tmp/shnfs failed"
fi
t_eq all-no-stacked-traps "" "$(stacked_traps)"

# The tree expires whole and the next access mounts it again, the same way.
one_access expiring /mnt/she/shared/x/f shared-x 2 3 shared
t_ok expires mnt_gone_within /mnt/she/shared 15
t_eq expired-nothing-left "" "$(awk '$5 ~ "^/mnt/she/" { print $5 }' /proc/self/mountinfo)"
one_access expired-again /mnt/she/shared/x/f shared-x 2 3 shared
t_eq expired-again-no-trap-on-source "" "$(traps_below $S)"

# A master map that asks for shared binds (autofs-tools' "shared") gets the
# peer it asked for; the offset whose source is then covered by its own
# trigger fails once, with a clear line, instead of looping.
r0=$(runs opt)
m0=$(nmounts)
out=$(timeout 30 cat /mnt/shs/opt/x/f 2>&1)
t_ok shared-option-fails test "$out" != shared-o
t_ok shared-option-bounded-runs test "$(( $(runs opt) - r0 ))" -le 3
t_ok shared-option-bounded-mounts test "$(( $(nmounts) - m0 ))" -le 8
t_ok shared-option-says-why grep -q 'is an automount trigger, not a directory' <(suite_log)
t_eq shared-option-no-stacked-traps "" "$(stacked_traps)"

t_ok stop autofs stop
for m in $(awk '$5 ~ "^/srv/sh/|^/srv/sh$" { print $5 }' /proc/self/mountinfo | sort -r); do
	umount -l "$m"
done
t_eq stop-clean "" "$(traps_below /mnt)"
if [ -f conf.saved ]; then mv conf.saved /etc/autofs-agent.conf; else rm -f /etc/autofs-agent.conf; fi
