#!/bin/bash
# The cache of LDAP maps ([general] map_cache_dir, maps/README.md): the
# first lookup of a map keeps a snapshot of it, and the lookups after it
# are answered from there, without the server, for cache_ttl seconds; a key
# the snapshot lacks is missing for negative_timeout seconds.  The answers
# are the server's, byte for byte; a damaged, truncated, foreign or
# loosely-kept snapshot is never used; a change of configuration is a miss.
. "$(dirname "$0")/maps_lib.sh"
. "$(dirname "$0")/ldap_lib.sh"

# the usual maps, and auto.many: 600 keys, more than one page of 500
many_data() {
	ldap_data
	printf 'dn: automountMapName=auto.many,ou=bis,%s\nobjectClass: automountMap\nautomountMapName: auto.many\n\n' "$SUFFIX"
	seq 1 600 | awk -v m="automountMapName=auto.many,ou=bis,$SUFFIX" '{
		printf "dn: automountKey=k%d,%s\nobjectClass: automount\nautomountKey: k%d\nautomountInformation: -rw s:/many/%d\n\n", $1, m, $1, $1 }'
}
LDAP_TLS=no LDAP_BIG=no LDAP_DATA=many_data slapd_start
ldap_agent_conf "search_base=ou=bis,$SUFFIX" "max_value_size=4096"
sed -i '/^\[general\]/a cache_ttl = 600\nnegative_timeout = 60' "$TMP/agent.conf"
MC=$TMP/mapcache
admin() { "$@" -x -H "$LDAP_URI" -D "cn=admin,$SUFFIX" -w admin-secret >/dev/null; }
home="automountMapName=auto.home,ou=bis,$SUFFIX"
secure="automountMapName=auto.secure,ou=bis,$SUFFIX"
# slapd again on the same port and data, after slapd_stop
slapd_again() {
	/usr/sbin/slapd -f "$SLAPD_DIR/slapd.conf" -h "$LDAP_URI/ $LDAPI_URI/"
	for _ in $(seq 1 100); do
		ldapsearch -x -H "$LDAP_URI" -b "$SUFFIX" -s base dn >/dev/null 2>&1 && return
		sleep 0.1
	done
}
answer() { agent test auto.home "$1"; echo "key=$1 rc=$RC"; cat "$TMP/out"; }

# --- the same answers as the server's --------------------------------------
keys="alice bob a,b+c zed huge odd"
cp "$TMP/agent.conf" "$TMP/cached.conf"
sed 's|^map_cache_dir = .*|map_cache_dir = none|' "$TMP/cached.conf" > "$TMP/none.conf"
for k in $keys; do AUTOFS_AGENT_CONF=$TMP/none.conf answer "$k"; done > "$TMP/live.txt"
for k in $keys; do answer "$k"; done > "$TMP/first.txt"
for k in $keys; do answer "$k"; done > "$TMP/cached.txt"
t_eq "the lookup that makes the snapshot answers as the server" "" \
	"$(diff "$TMP/live.txt" "$TMP/first.txt")"
t_eq "lookups from the snapshot answer as the server, byte for byte" "" \
	"$(diff "$TMP/live.txt" "$TMP/cached.txt")"
t_eq "... a value over max_value_size: asked of the server, its wildcard as before" \
	"key=huge rc=0 wildcard" \
	"$(grep '^key=huge' "$TMP/cached.txt") $(grep -A2 '^key=huge' "$TMP/cached.txt" | grep -o wildcard)"
t_eq "one snapshot file, the agent's own, mode 0600" "1 0 600" \
	"$(ls "$MC" | grep -c '\.map$') $(stat -c '%u %a' "$MC"/*.map)"
home_snap=$(ls "$MC"/*.map)
t_eq "... in a directory of mode 0700" "700" "$(stat -c %a "$MC")"

# a map that cannot be listed whole (one page at most): its lookups ask the server
sed 's|^\[ldap\]|[ldap]\nmax_pages = 1|' "$TMP/cached.conf" > "$TMP/onepage.conf"
AUTOFS_AGENT_CONF=$TMP/onepage.conf agent test auto.many k600
t_eq "a map cut short by the paging bound: the key is still found" "0" "$RC"
t_grep "... from the server, after the listing said why it stopped" "max_pages" "$TMP/err"
t_grep "... its entry" "many/600" "$TMP/out"
AUTOFS_AGENT_CONF=$TMP/onepage.conf agent test auto.many k7
t_nogrep "... and it is not listed again on the next lookup" "max_pages" "$TMP/err"
t_eq "... which the server answers" "0" "$RC"
agent test auto.many k600
t_eq "the whole map (paged) is kept: its 600th key from the snapshot" "0" "$RC"

# --- without the server -------------------------------------------------------
slapd_stop
AUTOFS_AGENT_CONF=$TMP/onepage.conf agent test auto.many k7
t_eq "server stopped: the map that could not be listed is not answered" "4" "$RC"
agent test auto.many k599
t_eq "... the paged one is" "0" "$RC"
agent test auto.home bob
t_eq "server stopped: a key is answered from the snapshot" "0" "$RC"
t_grep "... with the server's entry, said to come from LDAP" "^source ldap:auto.home" "$TMP/out"
agent test auto.home zed
t_eq "... the wildcard too" "0" "$RC"
agent test auto.home huge
t_eq "... not a key whose entry the lookup refuses: asked of the server" "4" "$RC"
t_nogrep "... and not given the wildcard instead" "^source" "$TMP/out"
AUTOFS_AGENT_CONF=$TMP/none.conf agent test auto.home bob
t_eq "... and without the cache the lookup fails (the server is down)" "4" "$RC"
agent test auto.secure carol
t_eq "... a map never read is not answered" "4" "$RC"

# a change of configuration is another identity: a miss
sed 's|^timeout = 5|timeout = 6|' "$TMP/cached.conf" > "$TMP/other.conf"
AUTOFS_AGENT_CONF=$TMP/other.conf agent test auto.home bob
t_eq "another configuration does not use the snapshot" "4" "$RC"

# --- never trusted -----------------------------------------------------------
snap=$home_snap
cp "$snap" "$TMP/good.map"
# a byte of bob's entry
printf 'N' | dd of="$snap" bs=1 seek="$(grep -abo 'nosuid' "$snap" | head -1 | cut -d: -f1)" \
	conv=notrunc 2>/dev/null
agent test auto.home bob
t_eq "a damaged record is not used (server stopped: the lookup fails)" "4" "$RC"
t_nogrep "... nor the wildcard of a source that could not answer for the key" "^source" "$TMP/out"
t_grep "... and said so" "map cache .* is damaged" "$TMP/err"
cp "$TMP/good.map" "$snap"
printf 'X' | dd of="$snap" bs=1 seek=20 conv=notrunc 2>/dev/null
agent test auto.home alice
t_eq "a damaged header: not used" "4" "$RC"
cp "$TMP/good.map" "$snap"
truncate -s -1 "$snap"
agent test auto.home bob
t_eq "a truncated snapshot is not used" "4" "$RC"
cp "$TMP/good.map" "$snap"
chown 1000 "$snap"
agent test auto.home bob
t_eq "a snapshot owned by another user is not used" "4" "$RC"
t_grep "... and said so" "is not the agent's own file of mode 0600, ignored" "$TMP/err"
chown 0 "$snap"
chmod 0640 "$snap"
agent test auto.home bob
t_eq "a snapshot others may read is not used" "4" "$RC"
chmod 0600 "$snap"
chmod 0755 "$MC"
agent test auto.home bob
t_eq "a snapshot in a directory others may list is not used" "4" "$RC"
t_grep "... and the directory is named" "map cache directory $MC not used" "$TMP/err"
chmod 0700 "$MC"
agent test auto.home bob
t_eq "the good snapshot put back is used again" "0" "$RC"

# --- how stale it may be --------------------------------------------------------
slapd_again
rm -f "$MC"/*
sed -i 's|^cache_ttl = .*|cache_ttl = 6|; s|^negative_timeout = .*|negative_timeout = 3|' \
	"$TMP/agent.conf"
agent test auto.secure carol >/dev/null	# auto.secure is closed to anonymous reads
# what is left of other configurations goes once older than cache_ttl
touch -d '-2 hours' "$MC/0123456789abcdef.map" "$MC/0123456789abcdef.map.99.tmp"
touch "$MC/fedcba9876543210.map"
agent test auto.home alice
t_grep "a new snapshot after the files were removed" "export/home/alice" "$TMP/out"
there() { [ -e "$MC/$1" ] && echo kept || echo gone; }
t_eq "... and what was older than cache_ttl of others removed, the younger kept" \
	"gone gone kept" \
	"$(there 0123456789abcdef.map) $(there 0123456789abcdef.map.99.tmp) $(there fedcba9876543210.map)"
made=$(date +%s)
admin ldapmodify <<EOF
dn: automountKey=alice,$home
changetype: modify
replace: automountInformation
automountInformation: -rw server:/export/home/alice2
EOF
admin ldapdelete "automountKey=bob,$home"
admin ldapadd <<EOF
dn: automountKey=erin,$home
objectClass: automount
automountKey: erin
automountInformation: -rw server:/export/home/erin-own
EOF
agent test auto.home alice
t_grep "an entry changed on the server: the old one until cache_ttl" "export/home/alice\$" "$TMP/out"
agent test auto.home erin
t_grep "a key added on the server: not yet (the wildcard's) within negative_timeout" \
	"export/home/erin\$" "$TMP/out"
while [ $(($(date +%s) - made)) -lt 4 ]; do sleep 0.2; done
agent test auto.home erin
t_grep "... its own entry after negative_timeout" "export/home/erin-own" "$TMP/out"
while [ $(($(date +%s) - made)) -lt 7 ]; do sleep 0.2; done
agent test auto.home alice
t_grep "the changed entry after cache_ttl" "export/home/alice2" "$TMP/out"
agent test auto.home bob
t_grep "a key removed on the server is gone after cache_ttl (the wildcard's)" \
	"export/home/bob\$" "$TMP/out"
t_nogrep "... not its old entry" "^entry -rw,nosuid" "$TMP/out"

t_done
