# test/integration/ldap_lib.sh -- a throwaway slapd for the LDAP tests.
#
# slapd_start writes a slapd.conf into $TMP/slapd, loads both schemas'
# maps with slapadd (or what the function named by $LDAP_DATA prints) and
# starts slapd on a free loopback port (or LDAP_HOST:LDAP_PORT) and on an
# ldapi socket; LDAP_TLS=no leaves out the test CA and TLS (and the
# ldaps:// listener on a second port), LDAP_BIG=no the 10,000-key map.  It sets LDAP_PORT, LDAP_URI,
# LDAPI_URI, LDAPS_URI, SUFFIX.  The server is stopped by the test's EXIT
# trap.
#
# Data (see ldap_data):
#   ou=bis,SUFFIX   rfc2307bis: automountMap auto.master (/home by name,
#                   /big by DN), auto.home, auto.big (10,000
#                   keys), auto.secure (readable only after a bind) and
#                   auto.tls (readable only over TLS)
#   ou=nis,SUFFIX   rfc2307: nisMap auto.home
# Both auto.home maps have alice, bob, the wildcard (bis stores "*",
# rfc2307 stores "/"), a key with DN specials, a huge value and a value
# with odd escapes.

need /usr/sbin/slapd slapadd ldapsearch openssl python3

SUFFIX="dc=example,dc=org"
SLAPD_DIR=$TMP/slapd
READER_DN="cn=reader,$SUFFIX"
READER_PW="reader-secret"
HUGE_VALUE="-rw,$(printf 'opt%05d,' $(seq 1 6000))sync server:/export/huge"
ODD_VALUE='-fstype=nfs,rw server:/export/odd\ dir/with\"quote\\back&$HOME'

ldap_schema() {
	cat <<'SCHEMA'
attributetype ( 1.3.6.1.1.1.1.31 NAME 'automountMapName'
	EQUALITY caseExactIA5Match SUBSTR caseExactIA5SubstringsMatch
	SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )
attributetype ( 1.3.6.1.1.1.1.32 NAME 'automountKey'
	EQUALITY caseExactIA5Match SUBSTR caseExactIA5SubstringsMatch
	SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )
attributetype ( 1.3.6.1.1.1.1.33 NAME 'automountInformation'
	EQUALITY caseExactIA5Match SUBSTR caseExactIA5SubstringsMatch
	SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )
objectclass ( 1.3.6.1.1.1.2.16 NAME 'automountMap' SUP top STRUCTURAL
	MUST automountMapName MAY description )
objectclass ( 1.3.6.1.1.1.2.17 NAME 'automount' SUP top STRUCTURAL
	MUST ( automountKey $ automountInformation ) MAY description )
SCHEMA
}

# bis_entry MAPDN KEY-RDN KEY VALUE
bis_entry() {
	printf 'dn: automountKey=%s,%s\nobjectClass: automount\nautomountKey: %s\nautomountInformation: %s\n\n' \
		"$2" "$1" "$3" "$4"
}

nis_entry() {
	printf 'dn: cn=%s,%s\nobjectClass: nisObject\ncn: %s\nnisMapName: auto.home\nnisMapEntry: %s\n\n' \
		"$2" "$1" "$3" "$4"
}

ldap_data() {
	local bis="ou=bis,$SUFFIX" nis="ou=nis,$SUFFIX" m
	printf 'dn: %s\nobjectClass: dcObject\nobjectClass: organization\no: example\ndc: example\n\n' "$SUFFIX"
	printf 'dn: %s\nobjectClass: person\ncn: reader\nsn: reader\nuserPassword: %s\n\n' "$READER_DN" "$READER_PW"
	printf 'dn: ou=bis,%s\nobjectClass: organizationalUnit\nou: bis\n\n' "$SUFFIX"
	printf 'dn: ou=nis,%s\nobjectClass: organizationalUnit\nou: nis\n\n' "$SUFFIX"
	for m in auto.master auto.home auto.big auto.secure auto.tls; do
		printf 'dn: automountMapName=%s,%s\nobjectClass: automountMap\nautomountMapName: %s\n\n' "$m" "$bis" "$m"
	done
	bis_entry "automountMapName=auto.master,$bis" '/home' /home "auto.home --timeout=60"
	bis_entry "automountMapName=auto.master,$bis" '/big' /big "ldap:automountMapName=auto.big,$bis"
	m="automountMapName=auto.home,$bis"
	bis_entry "$m" alice alice "-rw server:/export/home/alice"
	bis_entry "$m" bob bob "-rw,nosuid server:/export/home/bob"
	bis_entry "$m" '*' '*' "-rw server:/export/home/&"
	bis_entry "$m" 'a\,b\+c' 'a,b+c' "-ro server:/export/specials"
	bis_entry "$m" huge huge "$HUGE_VALUE"
	bis_entry "$m" odd odd "$ODD_VALUE"
	bis_entry "automountMapName=auto.secure,$bis" carol carol "-rw server:/export/secure/carol"
	bis_entry "automountMapName=auto.tls,$bis" dave dave "-rw server:/export/tls/dave"
	[ "${LDAP_BIG:-yes}" = yes ] && seq 1 10000 | awk -v m="automountMapName=auto.big,$bis" '{
		printf "dn: automountKey=key%05d,%s\nobjectClass: automount\nautomountKey: key%05d\nautomountInformation: -rw server:/export/big/%05d\n\n", $1, m, $1, $1 }'
	printf 'dn: nisMapName=auto.home,%s\nobjectClass: nisMap\nnisMapName: auto.home\n\n' "$nis"
	m="nisMapName=auto.home,$nis"
	nis_entry "$m" alice alice "-rw server:/export/home/alice"
	nis_entry "$m" bob bob "-rw,nosuid server:/export/home/bob"
	nis_entry "$m" / / "-rw server:/export/home/&"
	nis_entry "$m" 'a\,b\+c' 'a,b+c' "-ro server:/export/specials"
	nis_entry "$m" huge huge "$HUGE_VALUE"
	nis_entry "$m" odd odd "$ODD_VALUE"
}

# A test CA and a server certificate for 127.0.0.1, and a second CA that
# signed nothing (a client trusting only it must refuse the server).
ldap_tls_certs() {
	local d=$SLAPD_DIR/tls
	mkdir -p "$d"
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=autofsng test CA" \
		-keyout "$d/ca.key" -out "$d/ca.crt" 2>/dev/null
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other CA" \
		-keyout "$d/other.key" -out "$d/other.crt" 2>/dev/null
	openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
		-keyout "$d/server.key" -out "$d/server.csr" 2>/dev/null
	printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > "$d/ext"
	openssl x509 -req -in "$d/server.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" \
		-CAcreateserial -days 2 -extfile "$d/ext" -out "$d/server.crt" 2>/dev/null
}

ldap_conf_tls() {
	[ "${LDAP_TLS:-yes}" = yes ] || return 0
	echo "TLSCACertificateFile $SLAPD_DIR/tls/ca.crt"
	echo "TLSCertificateFile $SLAPD_DIR/tls/server.crt"
	echo "TLSCertificateKeyFile $SLAPD_DIR/tls/server.key"
}

ldap_conf() {
	cat <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/nis.schema
include $SLAPD_DIR/automount.schema
pidfile $SLAPD_DIR/slapd.pid
argsfile $SLAPD_DIR/slapd.args
modulepath /usr/lib/ldap
moduleload back_mdb
$(ldap_conf_tls)
# a site's usual cap on one answer: big maps must be read in pages
sizelimit size.soft=500 size.hard=500 size.prtotal=unlimited
database mdb
suffix "$SUFFIX"
rootdn "cn=admin,$SUFFIX"
rootpw admin-secret
directory $SLAPD_DIR/db
maxsize 268435456
access to dn.subtree="automountMapName=auto.secure,ou=bis,$SUFFIX"
	by dn.exact="$READER_DN" read
	by dn.exact="gidNumber=0+uidNumber=0,cn=peercred,cn=external,cn=auth" read
	by * none
access to dn.subtree="automountMapName=auto.tls,ou=bis,$SUFFIX"
	by tls_ssf=128 read
	by * none
access to attrs=userPassword
	by anonymous auth
	by * none
access to * by * read
CONF
}

# urlencode PATH -- for ldapi:// URIs
urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }

slapd_start() {
	mkdir -p "$SLAPD_DIR/db"
	ldap_schema > "$SLAPD_DIR/automount.schema"
	[ "${LDAP_TLS:-yes}" = yes ] && ldap_tls_certs
	ldap_conf > "$SLAPD_DIR/slapd.conf"
	"${LDAP_DATA:-ldap_data}" > "$SLAPD_DIR/data.ldif"
	slapadd -q -f "$SLAPD_DIR/slapd.conf" -l "$SLAPD_DIR/data.ldif" ||
		{ echo "slapadd failed" >&2; exit 1; }
	LDAP_PORT=${LDAP_PORT:-$(free_port)}
	LDAP_URI="ldap://${LDAP_HOST:-127.0.0.1}:$LDAP_PORT"
	LDAPI_URI="ldapi://$(urlencode "$SLAPD_DIR/ldapi")"
	LDAPS_URI=
	[ "${LDAP_TLS:-yes}" = yes ] && LDAPS_URI="ldaps://127.0.0.1:$(free_port)"
	/usr/sbin/slapd -f "$SLAPD_DIR/slapd.conf" -h "$LDAP_URI/ $LDAPI_URI/${LDAPS_URI:+ $LDAPS_URI/}" ||
		{ echo "slapd did not start" >&2; exit 1; }
	at_exit slapd_stop
	local i
	for i in $(seq 1 100); do
		ldapsearch -x -H "$LDAP_URI" -b "$SUFFIX" -s base dn >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "slapd does not answer on $LDAP_URI" >&2
	exit 1
}

slapd_stop() {
	local pid
	pid=$(cat "$SLAPD_DIR/slapd.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	rm -f "$SLAPD_DIR/slapd.pid"
}

# ldap_agent_conf [KEY=VALUE...] -- write $TMP/agent.conf with an [ldap]
# section and point AUTOFS_AGENT_CONF at it.  The agent reads maps from
# $LDAP_SOURCES (default ldap) with file maps in $TMP/maps, and keeps
# its cache of LDAP maps in $TMP/mapcache (LDAP_MAP_CACHE=none: none).
ldap_agent_conf() {
	local kv
	mkdir -p "$TMP/maps"
	{
		echo "[general]"
		echo "sources = ${LDAP_SOURCES:-ldap}"
		echo "map_dir = $TMP/maps"
		echo "map_cache_dir = ${LDAP_MAP_CACHE:-$TMP/mapcache}"
		echo "log_stderr = yes"
		echo "[ldap]"
		echo "uri = $LDAP_URI"
		echo "timeout = 5"
		echo "network_timeout = 2"
		for kv; do echo "${kv%%=*} = ${kv#*=}"; done
	} > "$TMP/agent.conf"
	export AUTOFS_AGENT_CONF=$TMP/agent.conf
}
