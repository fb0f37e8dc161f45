#!/bin/bash
# What a directory server can make the agent read: one value, and per
# lookup or listing the bytes, entries and pages ([ldap] max_value_size,
# max_bytes, max_entries, max_pages).  A server that keeps sending a paging
# cookie cannot be made of slapd: max_pages is tested on real pages.
. "$(dirname "$0")/maps_lib.sh"
. "$(dirname "$0")/ldap_lib.sh"

OVER_VALUE="-rw,$(head -c 70000 /dev/zero | tr '\0' o) server:/export/over"
HUGE2_VALUE="-rw,$(head -c 150000 /dev/zero | tr '\0' o) server:/export/huge2"

limits_data() {
	local bis="ou=bis,$SUFFIX" m
	ldap_data
	m="automountMapName=auto.limits,$bis"
	printf 'dn: %s\nobjectClass: automountMap\nautomountMapName: auto.limits\n\n' "$m"
	bis_entry "$m" small small "-rw server:/export/small"
	bis_entry "$m" over over "$OVER_VALUE"
	bis_entry "$m" huge2 huge2 "$HUGE2_VALUE"
}

LDAP_TLS=no LDAP_DATA=limits_data slapd_start
LIMITS="automountMapName=auto.limits,ou=bis,$SUFFIX"
BIG="automountMapName=auto.big,ou=bis,$SUFFIX"

ldap_agent_conf
probe ldap "$LIMITS" lookup over
t_eq "a value of 70,000 bytes (default bound 65536) fails its lookup" "1 " "$RC $(cat "$TMP/out")"
t_grep "... in one line naming the server, the entry and the bound" \
	"ldap://127.0.0.1:$LDAP_PORT: automountKey=over,$LIMITS: automountInformation of ${#OVER_VALUE} bytes is longer than 65536 (\[ldap\] max_value_size), entry refused" "$TMP/err"
probe ldap "$LIMITS" lookup small
p_small="$RC $(cat "$TMP/out")"
probe ldap "$LIMITS" list
t_eq "... only that key: the others are looked up and listed" \
	"0 -rw server:/export/small|0 small" "$p_small|$RC $(cut -f1 "$TMP/out" | tr '\n' ' ' | sed 's/ $//')"

ldap_agent_conf "max_value_size=100000"
probe ldap "$LIMITS" lookup over
r_over=$RC
probe ldap "$LIMITS" lookup huge2
t_eq "max_value_size=100000: 70,000 bytes pass, 150,000 do not" "0 1" "$r_over $RC"

ldap_agent_conf "max_entries=1000"
probe ldap "$BIG" list
t_eq "max_entries=1000: a 10,000-key listing is cut at 1000 and fails" "1 1000" "$RC $(wc -l < "$TMP/out")"
t_grep "... saying so in one line" \
	"ldap://127.0.0.1:$LDAP_PORT: $BIG: more than 1000 entries (\[ldap\] max_entries), the answer is cut there" "$TMP/err"

ldap_agent_conf "max_bytes=100000"
probe ldap "$BIG" count
t_eq "max_bytes=100000: the 10,000-key listing (~1 MB) fails" "1 " "$RC $(cat "$TMP/out")"
t_grep "... saying so in one line" \
	"ldap://127.0.0.1:$LDAP_PORT: $BIG: more than 100000 bytes (\[ldap\] max_bytes), the answer is cut there" "$TMP/err"

ldap_agent_conf "max_pages=5"
probe ldap "$BIG" list
t_eq "max_pages=5: a listing of 20 pages of 500 ends after 5" "1 2500" "$RC $(wc -l < "$TMP/out")"
t_grep "... saying so in one line" \
	"ldap://127.0.0.1:$LDAP_PORT: $BIG: more than 5 pages (\[ldap\] max_pages) and still a paging cookie, the listing is cut there" "$TMP/err"

# One message longer than max_bytes is refused by liblber before it is
# held whole; libldap drops the connection, the next lookup reconnects.
ldap_agent_conf "max_bytes=120000" "max_value_size=1000000"
probe ldap "$LIMITS" lookup huge2
r_huge2="$RC $(cat "$TMP/out")"
t_grep "max_bytes=120000: a message of 150,000 bytes is not read, saying so in one line" \
	"ldap://127.0.0.1:$LDAP_PORT: $LIMITS: a message longer than 120000 bytes (\[ldap\] max_bytes), not read" "$TMP/err"
probe ldap "$LIMITS" lookup over
t_eq "... its lookup fails, one of 70,000 bytes is read" "1 |0" "$r_huge2|$RC"

t_done
