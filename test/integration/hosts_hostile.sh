#!/bin/bash
# The -hosts map against a MOUNT server under an attacker's control
# (mountd-hostile, registered with a real rpcbind in private namespaces):
# every export name is mounted literally from that server or skipped with
# a log line, never read as syntax, never turned into a local location.
. "$(dirname "$0")/maps_lib.sh"
enter_private_ns "$@"
. "$(dirname "$0")/nis_lib.sh"

SERVER=$builddir/test/integration/mountd-hostile
need /usr/sbin/rpcbind rpcinfo "$SERVER" "$AUTOFS"
mount -t tmpfs tmpfs /run
mkdir -p /run/rpcbind
/usr/sbin/rpcbind -f -w & RPCBIND_PID=$!
at_exit "kill $RPCBIND_PID"
wait_for "rpcbind" rpcinfo -p 127.0.0.1
{
	echo "[general]"
	echo "sources = files"
	echo "map_dir = $TMP"
	echo "log_stderr = yes"
	echo "[nfs]"
	echo "hosts_timeout_ms = 3000"
} > "$TMP/agent.conf"
export AUTOFS_AGENT_CONF=$TMP/agent.conf

# serve NAME-FILE -- (re)start the server with the NUL-ended names in it
serve() {
	[ -n "${SERVER_PID:-}" ] && { kill "$SERVER_PID"; wait "$SERVER_PID"; } 2>/dev/null
	"$SERVER" "$1" > "$1.server" 2>&1 & SERVER_PID=$!
	at_exit "kill $SERVER_PID"
	wait_for "mountd-hostile" grep -q ready "$1.server"
}

# offsets_and_sources -- "OFFSET SOURCE" per mount of `autofs test` output
offsets_and_sources() {
	awk '/^mount / { o = $0; sub(/^mount /, "", o); sub(/: [a-z0-9]+ via module .*/, "", o) }
	     /^  from / { print o " " substr($0, 8) }' "$TMP/out"
}

# The reproduction of issue 21: "\/" gave /pub a second location "/",
# which mount_nfs.so bind-mounted from this machine.
printf '%s\0' /pub '\/' > "$TMP/repro"
serve "$TMP/repro"
agent test -hosts 127.0.0.1
t_eq "exports /pub and \\/: /pub from the server only" "0 /pub 127.0.0.1:/pub" \
	"$RC $(offsets_and_sources)"

LONG=/$(printf 'x%.0s' $(seq 1 1100))
COMPONENT=/$(printf 'c%.0s' $(seq 1 300))
# what the attacker sends, and what must come out of it
printf '%s\0' /pub '\/' '/"quoted" name' '/back\slash' '/with blank' '/a:b' \
	'/amp&$HOME' '/srv,x(1)' '/-opt' '/x/../etc' '/./etc' '/trailing/' '//two' \
	"/ff$(printf '\f')x" "/vt$(printf '\v')x" "/cr$(printf '\r')x" "/nl$(printf '\nx')" \
	"/tab$(printf '\t')x" ':/local' '-fstype=bind' ' /lead' "$LONG" "$COMPONENT" \
	/pub > "$TMP/hostile"
printf '%s\n' '/"quoted" name' '/-opt' '/a:b' '/amp&$HOME' '/back\slash' /pub \
	'/srv,x(1)' '/with blank' | LC_ALL=C sort > "$TMP/want"
serve "$TMP/hostile"

agent test -hosts 127.0.0.1
t_eq "autofs test -hosts 127.0.0.1 succeeds" 0 "$RC"
offsets_and_sources | LC_ALL=C sort > "$TMP/got"
# (autofs test escapes what it prints as the log does: a backslash doubled)
t_eq "only the clean names are offsets, each from 127.0.0.1 at its own name" \
	"$(sed 's|.*|& 127.0.0.1:&|; s|\\|\\\\|g' "$TMP/want")" "$(cat "$TMP/got")"
t_eq "no location without a host" "" "$(grep '^  from [^:]*$' "$TMP/out")"
t_eq "no mount of / or of a local path" "" "$(grep -E '^mount /: nfs|via module bind|^  from /' "$TMP/out")"
t_eq "every mount nosuid,nodev,nobind" "8" \
	"$(grep -c '^mount .*options nosuid,nodev,nobind$' "$TMP/out")"
t_eq "16 names skipped, each with one log line" "16" "$(grep -c 'skipped: it ' "$TMP/err")"
t_grep "... naming the server and the escaped name" \
	"server 127.0.0.1: export '\\\\\\\\/' skipped: it does not start with '/'" "$TMP/err"
t_grep "... a newline is escaped" "export '/nl\\\\nx' skipped: it contains a control character" "$TMP/err"
t_grep "... '..' is refused" "export '/x/../etc' skipped: it has a '.' or '..' component" "$TMP/err"
t_grep "... a long name is cut in the log" "export '/xxxx*\\.\\.\\.' skipped: it is longer than 1024 bytes" "$TMP/err"
t_grep "... a repeat is skipped" "export '/pub' skipped: it is listed twice" "$TMP/err"
t_eq "no raw control character reaches the log" "0" "$(tr -d '\n' < "$TMP/err" | grep -c $'[\f\v\r\t]')"

agent test -hosts 127.0.0.1 "-suid"
t_eq "an explicit suid in the master map options wins" "8" \
	"$(grep -c '^mount .*options nodev,suid,nobind$' "$TMP/out")"
agent test -hosts localhost
t_eq "the same exports under the name localhost" "0 8" "$RC $(grep -c '^  from localhost:/' "$TMP/out")"

agent test -hosts 'h1,h2'
t_eq "key h1,h2 is not a host: no such key" 3 "$RC"
t_grep "... logged as not a host name" "key 'h1,h2' is not a host name" "$TMP/err"
agent test -hosts 'x(0)'
t_eq "key x(0) is not a host: no such key" 3 "$RC"
agent test -hosts nosuchhost.invalid
t_eq "an unknown host: no such key" 3 "$RC"
t_eq "... and the hosts map is not asked for '*'" "" "$(grep "'\\*'\\|host named \\*\\|\\*: " "$TMP/err")"

# A filer with 500 exports: all of them, no limit on offsets.
seq -f '/export/vol%03g' 1 500 | tr '\n' '\0' > "$TMP/filer"
serve "$TMP/filer"
agent test -hosts 127.0.0.1
t_eq "500 exports give 500 offsets" "0 500" "$RC $(grep -c '^mount /export/vol' "$TMP/out")"
t_grep "... under a tmpfs root" "^mount /: read-only tmpfs holding the offsets" "$TMP/out"

# A name past what the map decodes (4096 bytes) loses the whole answer.
{ printf '/ok\0'; printf '/%05000d\0' 0; } > "$TMP/huge"
serve "$TMP/huge"
agent test -hosts 127.0.0.1
t_eq "a name over 4096 bytes: source unavailable, nothing mounted" "4 0" \
	"$RC $(grep -c '^mount' "$TMP/out")"
t_grep "... logged as a failed EXPORT call" "EXPORT call to 127.0.0.1 failed" "$TMP/err"
t_done
