#!/bin/bash
# URI failover: a first server that refuses, one that accepts and stays
# silent, one whose packets vanish; and the server dying between lookups.
# Runs in private namespaces so the vanishing address is a private tun link.
. "$(dirname "$0")/maps_lib.sh"
enter_private_ns "$@"
. "$(dirname "$0")/ldap_lib.sh"

LDAP_TLS=no LDAP_BIG=no slapd_start
BIS="automountMapName=auto.home,ou=bis,$SUFFIX"

# a listener that never accepts: the kernel completes the handshake, the
# LDAP bind then gets no answer
SILENT_PORT=$(free_port)
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8)
print("ready", flush=True); time.sleep(600)' "$SILENT_PORT" > "$TMP/silent.out" &
SILENT_PID=$!
at_exit "kill $SILENT_PID"
for i in $(seq 1 50); do grep -q ready "$TMP/silent.out" && break; sleep 0.1; done

# packets to 10.99.0.1 leave by a tun device nobody reads: lost
ip tuntap add dev afstun0 mode tun
ip addr add 10.99.0.2/24 dev afstun0
ip link set afstun0 up

# What one lookup costs with a good first URI: the failover limits below
# are on top of it, so a loaded machine does not fail the test.
ldap_agent_conf
t0=$(now_ms)
probe ldap "$BIS" lookup alice
BASE_MS=$(($(now_ms) - t0))
echo "# one lookup, first URI good: $BASE_MS ms (map-probe)"

# failover CASE FIRST-URI LIMIT-MS -- LIMIT-MS beyond BASE_MS
failover() {
	local t0 t1 limit=$(($3 + BASE_MS))
	ldap_agent_conf "uri=$2 $LDAP_URI" "timeout=2" "network_timeout=1"
	t0=$(now_ms)
	probe ldap "$BIS" lookup alice
	t1=$(now_ms)
	t_eq "first URI $1: the second answers" "0 -rw server:/export/home/alice" "$RC $(cat "$TMP/out")"
	t_grep "... after saying the first is unavailable" "$2: unavailable" "$TMP/err"
	if [ $((t1 - t0)) -le "$limit" ]; then
		t_ok "... within $3 ms more than a plain lookup ($((t1 - t0)) ms)"
	else
		t_fail "... within $3 ms more than a plain lookup ($((t1 - t0)) ms)"
	fi
	echo "# failover, first URI $1: $((t1 - t0)) ms (map-probe)"
	t0=$(now_ms)
	agent test "ldap:$BIS" alice
	t1=$(now_ms)
	t_eq "... and through autofs test" "0 entry -rw server:/export/home/alice" "$RC $(grep '^entry' "$TMP/out")"
	echo "# failover, first URI $1: $((t1 - t0)) ms (autofs test, exec to exit)"
}

failover refused "ldap://127.0.0.1:$(free_port)" 500
failover "silent (accepts, never answers; timeout=2)" "ldap://127.0.0.1:$SILENT_PORT" 3000
failover "unreachable (SYN lost; network_timeout=1)" "ldap://10.99.0.1:389" 2000

ldap_agent_conf "uri=ldap://127.0.0.1:$(free_port) ldap://10.99.0.1:389" "network_timeout=1"
probe ldap "$BIS" lookup alice
t_eq "no URI answers: source unavailable (exit 4)" "4" "$RC"
t_grep "... saying so" "no LDAP server of" "$TMP/err"

# the server stops between two lookups of one open map
ldap_agent_conf
mkfifo "$TMP/pause"
"$PROBE" "$MODDIR/map_ldap.so" "$BIS" lookup alice --pause bob \
	< "$TMP/pause" > "$TMP/out" 2> "$TMP/err" &
PROBE_PID=$!
exec 9> "$TMP/pause"
for i in $(seq 1 50); do [ -s "$TMP/out" ] && break; sleep 0.1; done
slapd_stop
echo go >&9
exec 9>&-
RC=0; wait "$PROBE_PID" || RC=$?
t_eq "server stopped mid-run: first lookup answered, then exit 4" \
	"4 -rw server:/export/home/alice" "$RC $(cat "$TMP/out")"

# with LDAP gone, the agent's next source answers
echo "alice -rw fileserver:/home/alice" > "$TMP/maps/auto.home"
LDAP_SOURCES="ldap files" ldap_agent_conf "search_base=ou=bis,$SUFFIX"
agent test auto.home alice
t_eq "LDAP stopped: the next source (files) answers" "0 entry -rw fileserver:/home/alice" "$RC $(grep '^entry' "$TMP/out")"
t_grep "... after LDAP said it is unavailable" "no LDAP server of" "$TMP/err"

t_done
