#!/bin/bash
# Lookups and listings through map_ldap.so against a real slapd holding
# the same map in both schemas.
. "$(dirname "$0")/maps_lib.sh"
. "$(dirname "$0")/ldap_lib.sh"

slapd_start
BIS="automountMapName=auto.home,ou=bis,$SUFFIX"
NIS="nisMapName=auto.home,ou=nis,$SUFFIX"

check_map() {	# SCHEMA-LABEL MAP
	local s=$1 map=$2
	probe ldap "$map" lookup alice
	t_eq "$s: lookup alice" "0 -rw server:/export/home/alice" "$RC $(cat "$TMP/out")"
	probe ldap "$map" lookup bob
	t_eq "$s: lookup bob" "-rw,nosuid server:/export/home/bob" "$(cat "$TMP/out")"
	probe ldap "$map" lookup '*'
	t_eq "$s: lookup of the wildcard" "-rw server:/export/home/&" "$(cat "$TMP/out")"
	probe ldap "$map" lookup nobody
	t_eq "$s: a missing key exits 3" "3" "$RC"
	probe ldap "$map" lookup Alice
	t_eq "$s: keys are case-sensitive" "3" "$RC"
	probe ldap "$map" lookup 'a*)(uid=*'
	t_eq "$s: injection key a*)(uid=* matches nothing" "3 " "$RC $(cat "$TMP/out")"
	probe ldap "$map" lookup 'a*'
	t_eq "$s: a key with * is not a pattern" "3" "$RC"
	probe ldap "$map" lookup 'a,b+c'
	t_eq "$s: key with DN specials" "-ro server:/export/specials" "$(cat "$TMP/out")"
	probe ldap "$map" lookup huge
	t_eq "$s: huge value (${#HUGE_VALUE} bytes) intact" "$HUGE_VALUE" "$(cat "$TMP/out")"
	probe ldap "$map" lookup odd
	t_eq "$s: value with odd escapes intact" "$ODD_VALUE" "$(cat "$TMP/out")"
	probe ldap "$map" list
	sort "$TMP/out" > "$TMP/list"
	printf '%s\t%s\n' '*' '-rw server:/export/home/&' \
		'a,b+c' '-ro server:/export/specials' \
		alice '-rw server:/export/home/alice' \
		bob '-rw,nosuid server:/export/home/bob' \
		huge "$HUGE_VALUE" odd "$ODD_VALUE" | sort > "$TMP/want"
	t_eq "$s: list gives every key, wildcard as *" "0 $(cat "$TMP/want")" "$RC $(cat "$TMP/list")"
}

ldap_agent_conf
check_map rfc2307bis "$BIS"
# The first connection of libldap loads every Cyrus SASL plugin installed
# (GSSAPI with Kerberos, DIGEST-MD5 with libcrypto, sasldb with Berkeley DB)
# unless told otherwise: an anonymous or simple bind needs none of them
strace -f -e trace=openat -o "$TMP/strace" "$PROBE" "$MODDIR/map_ldap.so" "$BIS" lookup alice >/dev/null 2>&1
t_eq "an anonymous bind loads no SASL plugin" "0" "$(grep -c '/sasl2/lib' "$TMP/strace")"
check_map rfc2307 "$NIS"

ldap_agent_conf "search_base=ou=nis,$SUFFIX"
probe ldap auto.home lookup alice
t_eq "map found by name under search_base (rfc2307)" "-rw server:/export/home/alice" "$(cat "$TMP/out")"
probe ldap auto.home lookup /
t_eq "rfc2307: the stored / key is the wildcard" "-rw server:/export/home/&" "$(cat "$TMP/out")"
ldap_agent_conf
LDAPBASE= probe ldap auto.home lookup alice
t_eq "no search_base: the server's naming context is searched" "-rw server:/export/home/alice" "$(cat "$TMP/out")"
ldap_agent_conf "search_base=ou=bis,$SUFFIX"
probe ldap auto.home lookup bob
t_eq "map found by name under search_base (rfc2307bis)" "-rw,nosuid server:/export/home/bob" "$(cat "$TMP/out")"
probe ldap auto.nothing lookup bob
t_eq "a map name that does not exist: exit 3" "3" "$RC"
t_grep "... and says which map is missing" 'no map "auto.nothing"' "$TMP/err"

ldap_agent_conf "schema=rfc2307"
probe ldap "$BIS" lookup alice
t_eq "schema forced to rfc2307 on rfc2307bis data finds nothing" "3" "$RC"
ldap_agent_conf "schema=rfc2307bis"
probe ldap "$BIS" lookup alice
t_eq "schema forced to rfc2307bis" "-rw server:/export/home/alice" "$(cat "$TMP/out")"
ldap_agent_conf "map_object_class=nisMap" "entry_object_class=nisObject" \
	"map_attribute=nisMapName" "entry_attribute=cn" "value_attribute=nisMapEntry" \
	"search_base=ou=nis,$SUFFIX"
probe ldap auto.home lookup bob
t_eq "class and attribute names from the configuration" "-rw,nosuid server:/export/home/bob" "$(cat "$TMP/out")"

unset AUTOFS_AGENT_CONF
probe ldap "//127.0.0.1:$LDAP_PORT/$BIS" lookup alice
t_eq "ldap://host:port/DN map name, no configuration" "-rw server:/export/home/alice" "$(cat "$TMP/out")"
probe ldap "$LDAPI_URI/$NIS" lookup alice
t_eq "ldapi:// socket map name" "-rw server:/export/home/alice" "$(cat "$TMP/out")"

ldap_agent_conf
probe ldap "automountMapName=auto.big,ou=bis,$SUFFIX" count
t_eq "10,000-key map listed in full past the server's 500 cap" "0 10000" "$RC $(cat "$TMP/out")"
probe ldap "automountMapName=auto.big,ou=bis,$SUFFIX" list
t_eq "... every key once" "10000" "$(cut -f1 "$TMP/out" | sort -u | wc -l)"
probe ldap "automountMapName=auto.big,ou=bis,$SUFFIX" lookup key09999
t_eq "lookup in the 10,000-key map" "-rw server:/export/big/09999" "$(cat "$TMP/out")"

# The same maps as a user sees them through the agent.
ldap_agent_conf "search_base=ou=bis,$SUFFIX"
agent test "ldap:$BIS" alice
t_eq "autofs test ldap:DN alice" "0 entry -rw server:/export/home/alice" "$RC $(grep '^entry' "$TMP/out")"
t_grep "... would mount it from the server" "from server:/export/home/alice" "$TMP/out"
agent test "ldap:$NIS" zed
t_eq "autofs test: rfc2307 wildcard (stored as /) answers any key" \
	"0 from server:/export/home/zed" "$RC $(grep -o 'from .*' "$TMP/out")"
agent test "ldap:automountMapName=auto.big,ou=bis,$SUFFIX" nokey
t_eq "autofs test: a missing key exits 3" "3" "$RC"
agent test "ldap://127.0.0.1:$LDAP_PORT/$BIS" bob
t_eq "autofs test ldap://host:port/DN" "0 entry -rw,nosuid server:/export/home/bob" "$RC $(grep '^entry' "$TMP/out")"
agent test auto.home bob
t_eq "autofs test auto.home: found by name under search_base" "0 entry -rw,nosuid server:/export/home/bob" "$RC $(grep '^entry' "$TMP/out")"
agent test auto.home 'a*)(uid=*'
t_eq "autofs test: the injection key gets only the wildcard" "0 from server:/export/home/a*)(uid=*" "$RC $(grep -o 'from .*' "$TMP/out")"
# a master line from LDAP puts its trigger only below foreign_mount_points
sed -i '/^\[general\]/a foreign_mount_points = /home /big' "$TMP/agent.conf"
agent dump
t_eq "autofs dump: the master map comes from LDAP" "0" "$RC"
t_grep "... with /home from LDAP by name" "auto.home" "$TMP/out"
t_grep "... and its entries" "server:/export/home/alice" "$TMP/out"
t_grep "... and /big by DN, 10,000 keys" "key09999" "$TMP/out"

t_done
