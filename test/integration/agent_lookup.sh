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
M

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
out=$(run_lookup gone)
case $out in *"rc=6"*) pass lookup-bind-missing-source ;; *) fail lookup-bind-missing-source "$out" ;; esac
out=$(run_lookup alice MAPKEY=../x)
case $out in *"refused key"*"rc=3"*) pass lookup-refuses-bad-key ;; *) fail lookup-refuses-bad-key "$out" ;; esac
out=$(run_lookup alice MOUNTFD=97)
case $out in *"MOUNTFD=97 is not an open file descriptor"*"rc=2"*) pass lookup-bad-mountfd ;; *) fail lookup-bad-mountfd "$out" ;; esac
out=$(run_lookup alice 'MAPOPTIONS=--timeout=45 -ro')
case $out in *"rc=0"*" ro,"*) pass lookup-master-options ;; *) fail lookup-master-options "$out" ;; esac
# a multi-mount without a root: a read-only tmpfs holds the offsets; the
# offsets are autofsng triggers, which this host kernel does not have
out=$(run_lookup multi)
case $out in *"rc=0"*"mounted: tmpfs"*"file: a"*"file: b"*) pass lookup-multi-holder ;; *) fail lookup-multi-holder "$out" ;; esac
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
# the lookup log line
out=$(run_lookup alice)
case $out in *"lookup map=auto.test key=alice offset=/ source=file:$T/auto.test mounted=bind:$T/src/alice result=0 ms="*) pass lookup-log-line ;;
*) fail lookup-log-line "$out" ;; esac

# list
exec 5>"$T/keys"
MAPNAME=auto.test WRITEFD=5 $AUTOFS list
rc=$?
exec 5>&-
[ $rc = 0 ] && [ "$(cat "$T/keys" | tr '\n' ' ')" = "alice badfs gone local multi ro scratch " ] &&
	pass list-keys || fail list-keys "rc=$rc keys: $(cat "$T/keys" | tr '\n' ' ')"
expect list-needs-writefd 2 "WRITEFD must be set" env MAPNAME=auto.test $AUTOFS list
finish
