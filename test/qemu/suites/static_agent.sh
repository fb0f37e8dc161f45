# SUITE_TIMEOUT=300
# static_agent: /sbin/autofs as a release build installs it, static-pie
# (agent/am_dynamic.h), run by the kernel.  It mounts file-map keys (bind,
# tmpfs, NFS by address and by a name "files" resolves) by itself, and hands to the
# dynamic agent exactly the runs that need a shared object: a program map
# (a module), a name an NSS service other than files and dns resolves, a
# $USER whose user or group an NSS service may give.  A replicated NFS
# entry, whose servers are pinged, stays static.
# Every run, handed over or not, gives what the dynamic agent gives alone,
# and the program of a program map runs once.  This build's own agent is
# the sanitizers' dynamic one: the static one comes from $BUILDDIR.
. "$TOP/test/qemu/lib.sh"

STATIC=$BUILDDIR/agent/autofs-static
DYNAMIC=/usr/lib/autofsng/autofs-dynamic
SYS=/proc/sys/fs/autofsng
W=/run/static-agent
M=/mnt/st

[ -x "$STATIC" ] || { t_fail setup "no $STATIC (a C library without static-pie?)"; exit 0; }
[ -x "$DYNAMIC" ] || { t_fail setup "no $DYNAMIC installed"; exit 0; }
[ -S /dev/log ] || { t_fail syslog "no reader on /dev/log"; exit 0; }
nfs_server_start /export/st || { t_fail server "nfs_server_start failed"; exit 0; }
echo from-nfs > "$NFS_ROOT/export/st/hello"

mkdir -p $W/bindsrc/nobody $M $M.p $M.b
echo from-bind > $W/bindsrc/hello
echo nobody-home > $W/bindsrc/nobody/hello
cp "$STATIC" $W/autofs
cp /etc/nsswitch.conf $W/nsswitch.saved
cp /etc/hosts $W/hosts.saved
[ ! -e /etc/autofs-agent.conf ] || cp /etc/autofs-agent.conf $W/conf.saved
echo "127.0.0.1 stserver" >> /etc/hosts
printf '[general]\nlog_level = debug\n' > /etc/autofs-agent.conf
{
	echo "bind -fstype=bind :$W/bindsrc"
	echo "tmp -fstype=tmpfs,size=1m :tmpfs"
	echo "nfsaddr -fstype=nfs,vers=4.2,nobind 127.0.0.1:/export/st"
	echo "nfsname -fstype=nfs,vers=4.2,nobind stserver:/export/st"
	echo "nfsrepl -fstype=nfs,vers=4.2,nobind 127.0.0.1,127.0.0.2:/export/st"
	echo "user -fstype=bind :$W/bindsrc/\$USER"
} > /etc/auto.st
{
	echo "#!/bin/sh"
	echo "echo ran >> $W/prog.runs"
	echo "echo '-fstype=nfs,vers=4.2,nobind 127.0.0.1:/export/st'"
} > /etc/auto.stprog
chmod 755 /etc/auto.stprog
echo "$W/autofs" > $SYS/agent
mount -t autofsng -o indirect auto.st $M || t_fail mount-trigger "mount -t autofsng auto.st failed"
mount -t autofsng -o indirect auto.stprog $M.p || t_fail mount-trigger-prog "mount auto.stprog failed"
mount -t autofsng -o indirect,browse auto.st $M.b || t_fail mount-trigger-browse "mount browse failed"

# nss DB SERVICES: the DB line of nsswitch.conf
nss() {
	sed -i -E "/^[[:space:]]*$1([[:space:]]|:)/d" /etc/nsswitch.conf
	echo "$1: $2" >> /etc/nsswitch.conf
}

# handed: how many runs have handed over to the dynamic agent (the line is
# logged before the exec; the log reader may take a moment)
handed() {
	sleep 0.5
	suite_log | grep -c "handing over to $DYNAMIC"
}

# read_key TAG KEY WANT [UID]: the key's hello reads WANT, read by UID
# (default root); HANDED is then how many of its runs handed over
read_key() {
	local before
	before=$(handed)
	t_eq "$1-content" "$3" "$(setpriv --reuid="${4:-0}" --regid="${4:-0}" --clear-groups \
		cat $M/$2/hello 2>&1)"
	HANDED=$(( $(handed) - before ))
}

nss hosts "files dns"
nss passwd "files"
nss group "files"
read_key bind bind from-bind
t_eq bind-not-handed 0 "$HANDED"
read_key nfsaddr nfsaddr from-nfs
t_eq nfs-address-not-handed 0 "$HANDED"
before=$(handed)
t_eq tmpfs-mounted tmpfs "$(stat -c %T -f $M/tmp/. 2>&1)"
t_eq tmpfs-not-handed 0 $(( $(handed) - before ))
read_key nfsname nfsname from-nfs
t_eq nfs-name-files-not-handed 0 "$HANDED"
read_key user-files user nobody-home 65534
t_eq user-files-not-handed 0 "$HANDED"
umount $M/user

# the same keys once an NSS service outside the C library is named
nss hosts "files myhostname [NOTFOUND=return] dns"
umount $M/nfsname
read_key nfsname-nss nfsname from-nfs
t_eq nfs-name-nss-handed 1 "$HANDED"
nss group "files systemd"
read_key user-nss user nobody-home 65534
t_eq user-nss-handed 1 "$HANDED"
# lines as the C library reads them: no colon, a comment after a service
# (the library takes "#" and what follows as services)
for line in "group systemd" "group: files # systemd" "group:files	[NOTFOUND=return] systemd"; do
	nss group files
	echo "$line" >> /etc/nsswitch.conf
	umount $M/user
	read_key "user-line-$(echo "$line" | tr -c 'a-z\n' -)" user nobody-home 65534
	t_eq "user-line-handed-$(echo "$line" | tr -c 'a-z\n' -)" 1 "$HANDED"
done
nss group files
# a line written oddly is read as a line: handed over
nss hosts "files dns"
sed -i "/^hosts:/d" /etc/nsswitch.conf
echo "hosts : files myhostname dns" >> /etc/nsswitch.conf
umount $M/nfsname
read_key nfsname-odd nfsname from-nfs
t_eq nfs-name-odd-line-handed 1 "$HANDED"
nss hosts "files dns"
read_key nfsrepl nfsrepl from-nfs
t_eq nfs-replicated-not-handed 0 "$HANDED"
t_ok nfs-replicated-source sh -c "grep -q ' 127.0.0.[12]:/export/st ' /proc/self/mountinfo"

before=$(handed)
t_eq program-content from-nfs "$(cat $M.p/k1/hello 2>&1)"
t_eq program-handed 1 $(( $(handed) - before ))
t_eq program-ran-once 1 "$(wc -l < $W/prog.runs)"

# a browse listing of a file map stays static
before=$(handed)
t_eq list-keys "bind nfsaddr nfsname nfsrepl tmp user" "$(ls $M.b | tr '\n' ' ' | sed 's/ $//')"
t_eq list-not-handed 0 $(( $(handed) - before ))

# no dynamic agent: a run that needs it fails with the reason, the others work
mv "$DYNAMIC" $W/autofs-dynamic.away
t_ok program-without-dynamic-fails sh -c "! cat $M.p/k2/hello"
sleep 0.5
suite_log | grep -q "needs the dynamic agent: no autofs-dynamic" &&
	t_pass program-without-dynamic-logged ||
	t_fail program-without-dynamic-logged "no line naming the missing dynamic agent"
umount $M/bind
t_eq bind-without-dynamic from-bind "$(cat $M/bind/hello 2>&1)"
mv $W/autofs-dynamic.away "$DYNAMIC"

cp $W/nsswitch.saved /etc/nsswitch.conf
cp $W/hosts.saved /etc/hosts
for d in $M.b $M.p $M; do
	umount -R "$d" 2>/dev/null
done
echo /sbin/autofs > $SYS/agent
rm -f /etc/auto.st /etc/auto.stprog /etc/autofs-agent.conf
[ ! -e $W/conf.saved ] || cp $W/conf.saved /etc/autofs-agent.conf
