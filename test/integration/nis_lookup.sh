#!/bin/bash
# Lookups and listings through map_nis.so against real rpcbind, ypserv
# and ypbind in private namespaces, and the three ways NIS can fail.
. "$(dirname "$0")/maps_lib.sh"
enter_private_ns "$@"
. "$(dirname "$0")/nis_lib.sh"

nis_start
nis_agent_conf

probe nis auto.home lookup alice
t_eq "lookup alice (auto.home served as auto_home)" "0 -rw server:/export/home/alice" "$RC $(cat "$TMP/out")"
probe nis auto_home lookup bob
t_eq "lookup bob by the underscore name" "-rw,nosuid server:/export/home/bob" "$(cat "$TMP/out")"
probe nis auto.home lookup '*'
t_eq "lookup of the wildcard" "-rw server:/export/home/&" "$(cat "$TMP/out")"
probe nis auto.home lookup nobody
t_eq "a missing key exits 3" "3" "$RC"
probe nis auto.home lookup huge
t_eq "huge value (${#HUGE_VALUE} bytes) intact" "$HUGE_VALUE" "$(cat "$TMP/out")"
probe nis auto.home lookup odd
t_eq "value with odd escapes intact" "$ODD_VALUE" "$(cat "$TMP/out")"
probe nis auto.home list
sort "$TMP/out" > "$TMP/list"
nis_home_source | sed 's/ /\t/' | sort > "$TMP/want"
t_eq "list gives every key" "0 $(cat "$TMP/want")" "$RC $(cat "$TMP/list")"
probe nis auto.big count
t_eq "10,000-key map listed in full" "0 10000" "$RC $(cat "$TMP/out")"
probe nis auto.big lookup key09999
t_eq "lookup in the 10,000-key map" "-rw server:/export/big/09999" "$(cat "$TMP/out")"

probe nis auto.nothing lookup alice
t_eq "a missing map exits 3" "3" "$RC"
t_grep "... logged as a missing map" "has no map auto.nothing" "$TMP/err"

nis_agent_conf "domain=other.domain"
probe nis auto.home lookup alice
t_eq "an unbound domain exits 4 (try the next source)" "4" "$RC"
t_grep "... logged as not bound" "domain other.domain is not bound" "$TMP/err"

# The same maps as a user sees them through the agent.
nis_agent_conf
agent test auto.home alice
t_eq "autofs test auto.home alice" "0 entry -rw server:/export/home/alice" "$RC $(grep '^entry' "$TMP/out")"
t_grep "... from NIS" "^source nis:auto.home" "$TMP/out"
agent test nis:auto.home zed
t_eq "autofs test: the wildcard answers any key" "0 from server:/export/home/zed" "$RC $(grep -o 'from .*' "$TMP/out")"
agent test nis:auto.big nokey
t_eq "autofs test: a missing key exits 3" "3" "$RC"
agent dump
t_eq "autofs dump: the master map comes from NIS" "0" "$RC"
t_grep "... with /home" "^/home auto.home" "$TMP/out"
t_grep "... and its entries" "server:/export/home/alice" "$TMP/out"
echo "alice -rw fileserver:/home/alice" > "$TMP/maps/auto.home"
NIS_SOURCES="nis files" nis_agent_conf
kill -STOP "$YPSERV_PID"
agent test auto.home alice
kill -CONT "$YPSERV_PID"
t_eq "NIS silent: the next source (files) answers" "0 entry -rw fileserver:/home/alice" "$RC $(grep '^entry' "$TMP/out")"
t_grep "... after NIS said why it was skipped" "did not answer within" "$TMP/err"

# the cache of NIS maps: what the server said, then without it
keys="alice bob zed huge odd key00042"
for m in auto.home auto.big; do
	for k in $keys; do
		NIS_MAP_CACHE=none nis_agent_conf
		agent test $m "$k"; echo "$m $k rc=$RC"; cat "$TMP/out"
	done
done > "$TMP/nis-live.txt"
nis_agent_conf
for pass in first cached; do
	for m in auto.home auto.big; do
		for k in $keys; do agent test $m "$k"; echo "$m $k rc=$RC"; cat "$TMP/out"; done
	done > "$TMP/nis-$pass.txt"
done
t_eq "the cache of NIS maps answers as the server, making it and from it" "" \
	"$(diff "$TMP/nis-live.txt" "$TMP/nis-first.txt"; diff "$TMP/nis-live.txt" "$TMP/nis-cached.txt")"
kill -STOP "$YPSERV_PID"
t0=$(now_ms)
agent test auto.home bob
t1=$(now_ms)
kill -CONT "$YPSERV_PID"
t_eq "NIS silent: a key of a map read before comes from its snapshot" "0" "$RC"
t_eq "... at once, not after the [nis] timeout" "yes" "$([ $((t1 - t0)) -lt 1500 ] && echo yes)"
NIS_MAP_CACHE=none nis_agent_conf
kill -STOP "$YPSERV_PID"
t0=$(now_ms)
probe nis auto.home lookup alice
t1=$(now_ms)
kill -CONT "$YPSERV_PID"
t_eq "a silent server exits 4" "4" "$RC"
t_grep "... logged as a timeout" "did not answer within 2 s" "$TMP/err"
sed "s/^/  # /" "$TMP/err"
if [ $((t1 - t0)) -lt 4000 ]; then
	t_ok "... after the 2 s [nis] timeout ($((t1 - t0)) ms)"
else
	t_fail "... after the 2 s [nis] timeout ($((t1 - t0)) ms)"
fi

kill "$YPBIND_PID"; wait "$YPBIND_PID" 2>/dev/null
probe nis auto.home lookup alice
t_eq "no ypbind exits 4" "4" "$RC"
t_grep "... logged as ypbind not running" "ypbind is not running" "$TMP/err"

t_done
