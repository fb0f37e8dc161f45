# SUITE_TIMEOUT=400
# hosts: the -hosts map behind a real /mnt/hostile trigger, against
# mountd-hostile, a MOUNT server that answers EXPORT with names made to be
# misread (quotes, backslashes, blanks, ':', control characters, '..', a
# "\/" that once became a bind mount of this machine's root) and with a
# 500-export filer.  NFS itself is the in-guest knfsd.  Nothing of this
# machine may be mounted, every NFS mount is nosuid,nodev, and all 500
# exports get their trigger.  Mount checks read /proc/self/mountinfo: a
# stat would trigger the path.
. "$TOP/test/qemu/lib.sh"

SERVER=$BUILDDIR/test/integration/mountd-hostile
M=/mnt/hostile
export LSAN_OPTIONS=suppressions=$TOP/test/integration/lsan.supp

[ -x "$SERVER" ] || { t_fail setup "no $SERVER (build first)"; exit 1; }

# mounts_under DIR: "fstype source root" of every mount below DIR
mounts_under() {
	awk -v d="$1/" 'index($5, d) == 1 {
		for (i = 7; $i != "-"; i++) ; print $(i + 1), $(i + 2), $4 }' /proc/self/mountinfo
}

# serve FILE: mountd-hostile answers with the NUL-ended names in FILE
serve() {
	[ -n "${SERVER_PID:-}" ] && { kill "$SERVER_PID"; wait "$SERVER_PID"; } 2>/dev/null
	"$SERVER" "$1" > "$1.server" 2>&1 & SERVER_PID=$!
	for i in $(seq 100); do grep -q ready "$1.server" && return 0; sleep 0.1; done
	return 1
}

nfs_server_start /export/pub /export/vol001 || { t_fail server "nfs_server_start failed"; exit 1; }
echo "from the server" > "$NFS_ROOT/export/pub/hello"
echo "volume one" > "$NFS_ROOT/export/vol001/hello"
mountd_v3=$(rpcinfo -p 127.0.0.1 | awk '$1 == 100005 && $2 == 3 && $3 == "tcp" { print $4 }')

# /etc exists here and would be a bind mount of it with bind_local; "\/"
# was a hostless "/" before.
printf '%s\0' /export/pub '\/' /etc '/"q" b' '/back\slash' '/a:b' '/x/../etc' \
	"/nl$(printf '\nx')" "/cr$(printf '\r')x" ' /lead' ':/local' /export/pub > /tmp/hostile
serve /tmp/hostile || { t_fail setup "mountd-hostile did not start"; exit 1; }

autofs stop > /dev/null 2>&1
echo "$M	-hosts	--timeout=60" > /etc/auto.master.hosts
t_ok start autofs start /etc/auto.master.hosts

t_eq listing "\"q\" b a:b back\\slash etc export" "$(ls "$M/127.0.0.1" | sort | paste -sd' ')"
t_eq export-read "from the server" "$(cat "$M/127.0.0.1/export/pub/hello" 2>&1)"
t_eq export-is-nfs nfs4 "$(mounts_under "$M/127.0.0.1/export" | awk '$1 ~ /^nfs/ { print $1 }')"
t_ok export-nosuid-nodev sh -c "grep ' $M/127.0.0.1/export/pub ' /proc/self/mountinfo | grep -q 'nosuid,nodev'"
t_ok etc-not-local sh -c "! ls '$M/127.0.0.1/etc/' 2>/dev/null | grep -q passwd"
t_ok a-colon-b-no-local sh -c "! ls '$M/127.0.0.1/a:b' 2>/dev/null | grep -q ."
# only the agent's own kinds of mount: triggers, its read-only tmpfs for
# offsets, NFS from the server; a bind mount would show a root other than /
t_eq nothing-local "" "$(mounts_under "$M" | awk '!(($1 == "autofsng") ||
	($1 == "tmpfs" && $2 == "autofs" && $3 == "/") || ($1 ~ /^nfs4?$/ && $2 ~ /^127\.0\.0\.1:/))')"
t_ok skip-logged logged -F "server 127.0.0.1: export '\\\\/' skipped: it does not start with '/'"
t_ok skip-escaped logged -F "export '/nl\\nx' skipped: it contains a control character"
t_eq log-no-raw-cr 0 "$(suite_log | grep -c $'\r')"

# A filer with 500 exports: a trigger for each, and one of them mounts.
seq -f '/export/vol%03g' 1 500 | tr '\n' '\0' > /tmp/filer
serve /tmp/filer || t_fail filer-server "mountd-hostile did not start"
t_eq filer-500 500 "$(ls "$M/localhost/export" | grep -c '^vol[0-9][0-9][0-9]$')"
t_eq filer-triggers 500 "$(mounts_under "$M/localhost/export" | grep -c '^autofsng ')"
t_eq filer-mounts "volume one" "$(cat "$M/localhost/export/vol001/hello" 2>&1)"
t_ok filer-nosuid-nodev sh -c "grep ' $M/localhost/export/vol001 ' /proc/self/mountinfo | grep -q 'nosuid,nodev'"

kill "$SERVER_PID"; wait "$SERVER_PID"
t_eq mountd-back "$mountd_v3" \
	"$(rpcinfo -p 127.0.0.1 | awk '$1 == 100005 && $2 == 3 && $3 == "tcp" { print $4 }')"
autofs stop > /dev/null 2>&1
umount -R "$M" 2>/dev/null
true
