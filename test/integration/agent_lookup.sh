#!/bin/bash
# `autofs lookup` as the kernel runs it, in a private mount namespace of this
# host: MOUNTFD is a directory the test opened itself (no autofsng needed),
# the agent builds bind and tmpfs mounts detached and attaches them there.
# `list` writes the keys of a map to WRITEFD.
. "${srcdir:-.}/test/integration/lib.sh"

if ! unshare -m true 2>/dev/null; then
	echo "SKIP: unshare -m not permitted"
	exit 77
fi
mkdir -p "$T/src/alice" "$T/src/multi-a" "$T/mnt" "$T/ns"
echo "alice's file" > "$T/src/alice/hello"
echo "a" > "$T/src/multi-a/a"
cat > "$T/auto.test" <<M
alice	-fstype=bind	:$T/src/alice
ro	-fstype=bind,ro	:$T/src/alice
local	:$T/src/alice
scratch	-fstype=tmpfs,size=1m	:tmpfs
multi	/a :$T/src/multi-a /b -fstype=tmpfs :tmpfs
badfs	-fstype=nosuchfs	:/dev/null
gone	-fstype=bind	:$T/src/nosuchdir
rlink	-fstype=bind	:$T/src/rootlink
ulink	-fstype=bind	:$T/src/ud/link
umid	-fstype=bind	:$T/src/ud/link/deeper
rlinkud	-fstype=bind	:$T/src/ud/rootlink
M
# a bind source through a link root made, and through one a user made in
# a directory of theirs (pointing at a directory they could not reach)
ln -s alice "$T/src/rootlink"
mkdir -p "$T/src/ud" "$T/src/secret/deeper"
echo secret > "$T/src/secret/deeper/s"
ln -s ../secret "$T/src/ud/link"
chown -h 1000:1000 "$T/src/ud" "$T/src/ud/link"
# root's link in a directory the user may change: she could have moved or
# hard-linked it there, or swapped it for hers between check and read
ln -s ../secret "$T/src/ud/rootlink"

# run_lookup KEY [VAR=VALUE...]: lookup inside a private namespace, then show
# what the requester sees
run_lookup() {
	local key=$1
	shift
	unshare -m --propagation private sh -c '
		d=$1; key=$2; shift 2
		mkdir -p "$d/$key"
		exec 3<"$d/$key"
		env MAPNAME=auto.test MAPKEY="$key" MOUNTFD=3 UID=0 GID=0 "$@" "$AUTOFS" lookup
		rc=$?
		echo "rc=$rc"
		findmnt -n -o FSTYPE,OPTIONS --mountpoint "$d/$key" | sed "s/^/mounted: /"
		ls "$d/$key" 2>/dev/null | sed "s/^/file: /"
		touch "$d/$key/written" 2>/dev/null && echo writable
		exit $rc
	' sh "$T/mnt" "$key" "$@" 2>&1
}
export AUTOFS
printf "[general]\nmap_dir = %s\nsources = files\nlog_stderr = yes\n" "$T" > "$AUTOFS_AGENT_CONF"

out=$(run_lookup alice)
case $out in *"rc=0"*"mounted: "*"file: hello"*) pass lookup-bind ;; *) fail lookup-bind "$out" ;; esac
# this host's kernel has no mountfd: one warning, and the mount stays
n=$(printf '%s\n' "$out" | grep -c "kernel has no mount expiry")
[ "$n" = 1 ] && pass lookup-no-mountfd-warns-once || fail lookup-no-mountfd-warns-once "$n warnings: $out"
out=$(run_lookup ro)
case $out in *"rc=0"*"mounted: "*" ro,"*) case $out in *writable*) fail lookup-bind-ro "writable: $out" ;; *) pass lookup-bind-ro ;; esac ;;
*) fail lookup-bind-ro "$out" ;; esac
out=$(run_lookup local)
case $out in *"rc=0"*"file: hello"*) pass lookup-local-path-is-bind ;; *) fail lookup-local-path-is-bind "$out" ;; esac
out=$(run_lookup scratch)
case $out in *"rc=0"*"mounted: tmpfs"*writable*) pass lookup-generic-tmpfs ;; *) fail lookup-generic-tmpfs "$out" ;; esac
out=$(run_lookup nosuch)
case $out in *"rc=3"*) case $out in *mounted:*) fail lookup-nokey "mounted: $out" ;; *) pass lookup-nokey ;; esac ;; *) fail lookup-nokey "$out" ;; esac
out=$(run_lookup badfs)
case $out in *"fsopen"*"rc=6"*) pass lookup-mount-failed ;; *) fail lookup-mount-failed "$out" ;; esac
out=$(run_lookup rlink)
case $out in *"rc=0"*"file: hello"*) pass lookup-bind-root-link-followed ;; *) fail lookup-bind-root-link-followed "$out" ;; esac
out=$(run_lookup ulink)
case $out in *"the symbolic link 'link' on the way belongs to a user, not root: not followed"*"rc=6"*)
	case $out in *"file: "*) fail lookup-bind-user-link-refused "mounted: $out" ;; *) pass lookup-bind-user-link-refused ;; esac ;;
*) fail lookup-bind-user-link-refused "$out" ;; esac
out=$(run_lookup umid)
case $out in *"belongs to a user, not root"*"rc=6"*)
	case $out in *"file: s"*) fail lookup-bind-user-link-inside-refused "mounted: $out" ;; *) pass lookup-bind-user-link-inside-refused ;; esac ;;
*) fail lookup-bind-user-link-inside-refused "$out" ;; esac
out=$(run_lookup rlinkud)
case $out in *"the symbolic link 'rootlink' on the way is in a directory others than root may change: not followed"*"rc=6"*)
	case $out in *"file: "*) fail lookup-bind-root-link-user-dir-refused "mounted: $out" ;; *) pass lookup-bind-root-link-user-dir-refused ;; esac ;;
*) fail lookup-bind-root-link-user-dir-refused "$out" ;; esac
out=$(run_lookup gone)
case $out in *"rc=6"*) pass lookup-bind-missing-source ;; *) fail lookup-bind-missing-source "$out" ;; esac
out=$(run_lookup alice MAPKEY=../x)
case $out in *"refused key"*"rc=3"*) pass lookup-refuses-bad-key ;; *) fail lookup-refuses-bad-key "$out" ;; esac
out=$(run_lookup alice MOUNTFD=97)
case $out in *"MOUNTFD=97 is not an open file descriptor"*"rc=2"*) pass lookup-bad-mountfd ;; *) fail lookup-bad-mountfd "$out" ;; esac
out=$(run_lookup alice 'MAPOPTIONS=--timeout=45 -ro')
case $out in *"rc=0"*" ro,"*) pass lookup-master-options ;; *) fail lookup-master-options "$out" ;; esac
# a multi-mount without a root: its offsets are autofsng triggers, which
# this host kernel does not have; a lookup that cannot build its whole tree
# fails before it attaches anything, and says why
out=$(run_lookup multi)
case $out in *"rc=6"*) case $out in *"mounted: "*) fail lookup-multi-all-or-nothing "half a tree: $out" ;;
	*) pass lookup-multi-all-or-nothing ;; esac ;;
*) fail lookup-multi-all-or-nothing "$out" ;; esac
case $out in *"kernel without autofsng"*) pass lookup-multi-trigger-reported ;; *) fail lookup-multi-trigger-reported "$out" ;; esac
out=$(run_lookup multi MAPOFFSET=/a)
case $out in *"rc=0"*"file: a"*) pass lookup-offset ;; *) fail lookup-offset "$out" ;; esac
out=$(run_lookup multi MAPOFFSET=/zzz)
case $out in *"has no offset /zzz"*"rc=3"*) pass lookup-offset-missing ;; *) fail lookup-offset-missing "$out" ;; esac
# the requester's namespace: MNTNSFD names another namespace, the mount
# appears there and not in the agent's own
out=$(unshare -m --propagation private sh -c '
	d=$1
	mkdir -p "$d/nsk"
	unshare -m --propagation private sleep 30 &
	pid=$!
	sleep 0.3
	exec 3<"/proc/$pid/root$d/nsk" 4</proc/$pid/ns/mnt
	env MAPNAME=auto.test MAPKEY=alice MOUNTFD=3 MNTNSFD=4 "$AUTOFS" lookup
	echo "rc=$?"
	findmnt -n --mountpoint "$d/nsk" >/dev/null && echo "agent-ns: mounted" || echo "agent-ns: empty"
	nsenter -t $pid -m findmnt -n --mountpoint "$d/nsk" >/dev/null && echo "requester-ns: mounted"
	kill $pid
' sh "$T/ns" 2>&1)
case $out in *"rc=0"*"agent-ns: empty"*"requester-ns: mounted"*) pass lookup-other-namespace ;;
*) fail lookup-other-namespace "$out" ;; esac
# The log after setns.  Each namespace gets a /dev/log of its own on a tmpfs,
# with a reader that appends what it receives to a file; the agent's lines
# go to its own namespace's reader, never to the requester's, and when the
# agent's namespace has no /dev/log they are dropped (syslog(3) connected to
# the requester's /dev/log then).
cat > "$T/reader.py" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("/dev/log")
out = open(sys.argv[1], "ab", buffering=0)
while True:
    out.write(s.recv(8192) + b"\n")
PY
out=$(unshare -m --propagation private sh -c '
	d=$1 T=$2
	until_socket() {
		for _ in $(seq 50); do [ -S "$1" ] && return; sleep 0.1; done
	}
	newdev() { mount -t tmpfs none /dev && mknod -m 666 /dev/null c 1 3; }
	mkdir -p "$d/logk1" "$d/logk2"
	newdev
	/usr/bin/python3 "$T/reader.py" "$T/heard-agent" &
	agent_reader=$!
	unshare -m --propagation private sh -c \
		"mount -t tmpfs none /dev && mknod -m 666 /dev/null c 1 3 && exec sleep 30" &
	ns=$!
	until_socket /dev/log
	until_socket "/proc/$ns/root/tmp"
	nsenter -t $ns -m /usr/bin/python3 "$T/reader.py" "$T/heard-requester" &
	requester_reader=$!
	until_socket "/proc/$ns/root/dev/log"
	exec 4</proc/$ns/ns/mnt
	exec 3<"/proc/$ns/root$d/logk1"
	env MAPNAME=auto.test MAPKEY=alice MOUNTFD=3 MNTNSFD=4 "$AUTOFS" lookup 2>/dev/null
	echo "rc1=$?"
	env MAPNAME=auto.test MAPKEY="$(printf "a b\nc")" MOUNTFD=3 "$AUTOFS" lookup 2>/dev/null
	echo "rc-badkey=$?"
	sleep 0.3
	kill $agent_reader
	rm /dev/log
	exec 3<"/proc/$ns/root$d/logk2"
	env MAPNAME=auto.test MAPKEY=alice MOUNTFD=3 MNTNSFD=4 "$AUTOFS" lookup 2>/dev/null
	echo "rc2=$?"
	sleep 0.3
	kill $requester_reader $ns
' sh "$T/ns" "$T" 2>&1)
case $out in *"rc1=0"*"rc2=0"*) pass log-setns-lookups ;; *) fail log-setns-lookups "$out" ;; esac
grep -q "autofs\[[0-9]*\]: lookup map=auto.test key=alice .*result=0" "$T/heard-agent" 2>/dev/null &&
	pass log-setns-agent-reader || fail log-setns-agent-reader "$(cat "$T/heard-agent" 2>&1)"
[ -e "$T/heard-requester" ] && [ ! -s "$T/heard-requester" ] && pass log-setns-requester-hears-nothing ||
	fail log-setns-requester-hears-nothing "$(cat "$T/heard-requester" 2>&1)"
# a key anyone can ask for is refused at notice level (<29> is daemon.notice),
# escaped, one datagram per line
case $out in *"rc-badkey=3"*) pass log-refused-key-lookup ;; *) fail log-refused-key-lookup "$out" ;; esac
grep -qF "<29>" "$T/heard-agent" && grep -F "refused key 'a b\nc'" "$T/heard-agent" | grep -q "^<29>" &&
	grep -qF "key=a b\nc offset=/" "$T/heard-agent" && ! grep -qv "^<[0-9]*>" "$T/heard-agent" &&
	pass log-refused-key-escaped-notice || fail log-refused-key-escaped-notice "$(cat "$T/heard-agent")"
# the lookup log line
out=$(run_lookup alice)
case $out in *"lookup map=auto.test key=alice offset=/ uid=$(id -u) source=file:$T/auto.test mounted=bind:$T/src/alice result=0 ms="*) pass lookup-log-line ;;
*) fail lookup-log-line "$out" ;; esac

# list
exec 5>"$T/keys"
MAPNAME=auto.test WRITEFD=5 $AUTOFS list
rc=$?
exec 5>&-
[ $rc = 0 ] && [ "$(cat "$T/keys" | tr '\n' ' ')" = "alice badfs gone local multi rlink rlinkud ro scratch ulink umid " ] &&
	pass list-keys || fail list-keys "rc=$rc keys: $(cat "$T/keys" | tr '\n' ' ')"
expect list-needs-writefd 2 "WRITEFD must be set" env MAPNAME=auto.test $AUTOFS list
finish
