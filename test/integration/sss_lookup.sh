#!/bin/bash
# Lookups and listings through map_sss.so: sssd (ldap provider) against a
# real slapd in private namespaces, then sssd hung and stopped.
. "$(dirname "$0")/maps_lib.sh"
enter_private_ns "$@"
. "$(dirname "$0")/ldap_lib.sh"
. "$(dirname "$0")/sss_lib.sh"

# sssd writes /run/sssd.pid: keep the host's /run out of it
mount -t tmpfs sss-run /run
LDAP_TLS=no LDAP_BIG=no slapd_start
sssd_start || { t_fail "sssd started"; t_done; exit 1; }
SSS_TIMEOUT=2
{
	echo "[general]"
	echo "sources = sss files"
	echo "map_dir = $TMP/maps"
	echo "log_stderr = yes"
	echo "[sss]"
	echo "timeout = $SSS_TIMEOUT"
} > "$TMP/agent.conf"
export AUTOFS_AGENT_CONF=$TMP/agent.conf
mkdir -p "$TMP/maps"
printf 'carol -rw files:/export/carol\n' > "$TMP/maps/auto.home"

probe sss auto.home lookup alice
t_eq "lookup alice" "0 -rw server:/export/home/alice" "$RC $(cat "$TMP/out")"
probe sss auto.home lookup '*'
t_eq "lookup of the wildcard" "-rw server:/export/home/&" "$(cat "$TMP/out")"
probe sss auto.home lookup 'a,b+c'
t_eq "key with DN specials" "-ro server:/export/specials" "$(cat "$TMP/out")"
probe sss auto.home lookup huge
t_eq "huge value (${#HUGE_VALUE} bytes) intact" "$HUGE_VALUE" "$(cat "$TMP/out")"
probe sss auto.home lookup odd
t_eq "value with odd escapes intact" "$ODD_VALUE" "$(cat "$TMP/out")"
probe sss auto.home lookup nobody
t_eq "a missing key exits 3" "3" "$RC"
probe sss auto.nothere lookup alice
t_eq "a missing map exits 3" "3" "$RC"
probe sss auto.home list
t_eq "list gives every key" "0 * a,b+c alice bob huge odd" \
	"$RC $(cut -f1 "$TMP/out" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"
probe sss auto.master list
t_eq "the master map through sss" "/home	auto.home --timeout=60" "$(grep '^/home' "$TMP/out")"

agent test auto.home alice
t_eq "agent: sources = sss files, from sss" "source sss:auto.home" "$(grep '^source ' "$TMP/out")"
agent test auto.home carol
t_eq "agent: a key only the file map has" "source file:$TMP/maps/auto.home" \
	"$(grep '^source ' "$TMP/out")"

# a stopped responder accepts the connection and never answers
kill -STOP "$(sssd_autofs_pid)"
t0=$(now_ms)
probe sss auto.home lookup alice
t1=$(now_ms)
t_eq "hung sssd: source unavailable (4)" 4 "$RC"
[ $((t1 - t0)) -lt $(((SSS_TIMEOUT + 2) * 1000)) ] && t_ok "hung sssd: $((t1 - t0)) ms, within [sss] timeout" ||
	t_fail "hung sssd: $((t1 - t0)) ms, more than [sss] timeout $SSS_TIMEOUT s"
t_eq "hung sssd: logged" 1 "$(grep -c "did not answer within $SSS_TIMEOUT s" "$TMP/err")"
agent test auto.home carol
t_eq "hung sssd: the file map answers" "source file:$TMP/maps/auto.home" \
	"$(grep '^source ' "$TMP/out")"
kill -CONT "$(sssd_autofs_pid)"

sssd_stop
t0=$(now_ms)
probe sss auto.home lookup alice
t1=$(now_ms)
t_eq "stopped sssd: source unavailable (4)" 4 "$RC"
[ $((t1 - t0)) -lt 1000 ] && t_ok "stopped sssd: $((t1 - t0)) ms" ||
	t_fail "stopped sssd: $((t1 - t0)) ms, more than 1 s"
t_eq "stopped sssd: logged" 1 "$(grep -c 'SSSD is not running' "$TMP/err")"
agent test auto.home alice
t_eq "stopped sssd, key only in sss: exit 4" 4 "$RC"
t_done
