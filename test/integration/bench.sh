#!/bin/bash
# Not part of make check: the time of one lookup in a 10,000-key map,
# `autofs test MAP KEY` from exec to exit (nothing is mounted), median of
# 20, for a file map, NIS and LDAP.  Best run on a build without
# sanitizers:  builddir=/path/to/plain/build test/integration/bench.sh
. "$(dirname "$0")/maps_lib.sh"
enter_private_ns "$@"
. "$(dirname "$0")/ldap_lib.sh"
. "$(dirname "$0")/nis_lib.sh"
N=${BENCH_RUNS:-20}

slapd_start
nis_start
mkdir -p "$TMP/maps"
cp "$TMP/auto.big.src" "$TMP/maps/auto.big"

# bench LABEL MAP -- median ms of N lookups of key05000
bench() {
	local i t0 t1
	for i in $(seq 1 "$N"); do
		t0=$(date +%s%N)
		agent test "$2" key05000
		t1=$(date +%s%N)
		[ "$RC" = 0 ] || { echo "$1: autofs test failed ($RC)"; cat "$TMP/err"; return 1; }
		echo $(((t1 - t0) / 1000))
	done > "$TMP/times"
	printf '%-40s median %6.1f ms  (min %.1f, max %.1f, %d runs)\n' "$1" \
		"$(median < "$TMP/times" | awk '{ print $1 / 1000 }')" \
		"$(sort -n "$TMP/times" | head -1 | awk '{ print $1 / 1000 }')" \
		"$(sort -n "$TMP/times" | tail -1 | awk '{ print $1 / 1000 }')" "$N"
}

{
	echo "[general]"
	echo "sources = files"
	echo "map_dir = $TMP/maps"
	echo "[ldap]"
	echo "uri = $LDAP_URI"
	echo "[nis]"
	echo "timeout = 5"
} > "$TMP/agent.conf"
export AUTOFS_AGENT_CONF=$TMP/agent.conf

bench "file (10,000 keys)" "file:$TMP/maps/auto.big"
bench "nis (10,000 keys)" "nis:auto.big"
bench "ldap rfc2307bis (10,000 keys)" "ldap:automountMapName=auto.big,ou=bis,$SUFFIX"
bench "ldap://host:port/DN (10,000 keys)" "ldap://127.0.0.1:$LDAP_PORT/automountMapName=auto.big,ou=bis,$SUFFIX"
