#!/bin/bash
# Binding and TLS as the auth file (autofs_ldap_auth.conf shape) says, and
# the auth files that must be refused.
. "$(dirname "$0")/maps_lib.sh"
. "$(dirname "$0")/ldap_lib.sh"

LDAP_BIG=no slapd_start
SECURE="automountMapName=auto.secure,ou=bis,$SUFFIX"
TLSMAP="automountMapName=auto.tls,ou=bis,$SUFFIX"
AUTH=$TMP/auth.xml

auth_file() {	# MODE ATTRIBUTES...
	local mode=$1; shift
	printf '<?xml version="1.0" ?>\n<autofs_ldap_sasl_conf\n' > "$AUTH"
	printf '\t%s\n' "$@" >> "$AUTH"
	printf '/>\n' >> "$AUTH"
	chmod "$mode" "$AUTH"
}

ldap_agent_conf
probe ldap "$SECURE" lookup carol
t_eq "anonymous: the protected map shows no keys" "3" "$RC"

auth_file 600 'usetls="no"' 'authrequired="simple"' "user=\"$READER_DN\"" "secret=\"$READER_PW\""
ldap_agent_conf "auth_conf=$AUTH"
probe ldap "$SECURE" lookup carol
t_eq "simple bind with the password from the auth file" "0 -rw server:/export/secure/carol" "$RC $(cat "$TMP/out")"

auth_file 600 'authrequired="yes"' 'authtype="simple"' "user=\"$READER_DN\"" "secret=\"$READER_PW\""
probe ldap "$SECURE" lookup carol
t_eq "authtype=simple binds too" "-rw server:/export/secure/carol" "$(cat "$TMP/out")"

auth_file 600 'authrequired="simple"' "user=\"$READER_DN\"" 'secret="wrong"'
probe ldap "$SECURE" lookup carol
t_eq "a wrong secret: source unavailable (exit 4)" "4" "$RC"
t_grep "... saying the bind failed" "bind as $READER_DN failed: Invalid credentials" "$TMP/err"

auth_file 644 'authrequired="simple"' "user=\"$READER_DN\"" "secret=\"$READER_PW\""
probe ldap "$SECURE" lookup carol
t_eq "a world-readable auth file is refused" "1" "$RC"
t_grep "... with a clear message" "refused, mode 0644 lets others read" "$TMP/err"

printf '<?xml version="1.0" ?>\n<autofs_ldap_sasl_conf usetls="no"\n' > "$AUTH"
chmod 600 "$AUTH"
probe ldap "$SECURE" lookup carol
t_eq "a malformed auth file is refused" "1" "$RC"
t_grep "... saying where" "auth file $AUTH: malformed XML, line" "$TMP/err"

auth_file 600 'usetls="maybe"'
probe ldap "$SECURE" lookup carol
t_eq "usetls=maybe is refused" "1" "$RC"
t_grep "... naming the attribute" 'usetls="maybe" is neither yes nor no' "$TMP/err"

auth_file 600 'authrequired="yes"' 'authtype="EXTERNAL"'
ldap_agent_conf "uri=$LDAPI_URI" "auth_conf=$AUTH"
probe ldap "$SECURE" lookup carol
t_eq "SASL EXTERNAL bind over ldapi" "0 -rw server:/export/secure/carol" "$RC $(cat "$TMP/out")"

ldap_agent_conf
probe ldap "$TLSMAP" lookup dave
t_eq "without TLS the TLS-only map shows no keys" "3" "$RC"

auth_file 600 'usetls="yes"' 'tlsrequired="yes"' 'authrequired="no"'
ldap_agent_conf "auth_conf=$AUTH"
export LDAPTLS_CACERT=$SLAPD_DIR/tls/ca.crt
probe ldap "$TLSMAP" lookup dave
t_eq "StartTLS with the test CA" "0 -rw server:/export/tls/dave" "$RC $(cat "$TMP/out")"

export LDAPTLS_CACERT=$SLAPD_DIR/tls/other.crt
probe ldap "$TLSMAP" lookup dave
t_eq "tlsrequired and a server the CA did not sign: exit 4" "4" "$RC"
t_grep "... saying StartTLS failed" "StartTLS failed" "$TMP/err"

ldap_agent_conf "uri=$LDAPS_URI"
export LDAPTLS_CACERT=$SLAPD_DIR/tls/ca.crt
probe ldap "$TLSMAP" lookup dave
t_eq "ldaps:// with the test CA, no auth file" "0 -rw server:/export/tls/dave" "$RC $(cat "$TMP/out")"
export LDAPTLS_CACERT=$SLAPD_DIR/tls/other.crt
probe ldap "$TLSMAP" lookup dave
t_eq "ldaps:// to a server the CA did not sign: exit 4" "4" "$RC"

ldap_agent_conf "auth_conf=$AUTH"
auth_file 600 'usetls="yes"' 'tlsrequired="no"'
probe ldap "$TLSMAP" lookup dave
t_eq "TLS optional (autofs's tlsrequired=no) and failing: no downgrade, exit 4" "4" "$RC"
t_grep "... saying why and what would allow it" 'StartTLS failed: .*not going on in the clear (only tlsfallback="yes"' "$TMP/err"

auth_file 600 'usetls="yes"' 'tlsfallback="yes"'
probe ldap "$TLSMAP" lookup dave
t_eq "tlsfallback=yes and StartTLS failing: goes on in the clear" "3" "$RC"
t_grep "... and says what that costs" 'going on IN THE CLEAR as tlsfallback="yes" allows: the bind and the maps are open' "$TMP/err"

auth_file 600 'usetls="yes"' 'tlsrequired="yes"' 'tlsfallback="yes"'
probe ldap "$TLSMAP" lookup dave
t_eq "tlsrequired=yes with tlsfallback=yes is refused" "1" "$RC"
t_grep "... naming both" 'tlsrequired="yes" and tlsfallback="yes" contradict' "$TMP/err"

auth_file 600 'usetls="yes"' 'tlsverify="perhaps"'
probe ldap "$TLSMAP" lookup dave
t_eq "tlsverify=perhaps is refused" "1" "$RC"

# ldap.conf's TLS_REQCERT (here through its environment twin) is the
# site's setting for every client; the agent checks certificates anyway
export LDAPTLS_REQCERT=never
auth_file 600 'usetls="yes"' 'tlsrequired="yes"'
probe ldap "$TLSMAP" lookup dave
t_eq "TLS_REQCERT never: StartTLS to a server the CA did not sign still fails" "4" "$RC"
ldap_agent_conf "uri=$LDAPS_URI"
probe ldap "$TLSMAP" lookup dave
t_eq "TLS_REQCERT never: ldaps:// to a server the CA did not sign still fails" "4" "$RC"
unset LDAPTLS_REQCERT

auth_file 600 'usetls="yes"' 'tlsrequired="yes"' 'tlsverify="no"'
ldap_agent_conf "auth_conf=$AUTH"
probe ldap "$TLSMAP" lookup dave
t_eq "tlsverify=no: StartTLS to a server the CA did not sign is accepted" "0 -rw server:/export/tls/dave" "$RC $(cat "$TMP/out")"
auth_file 600 'tlsverify="no"'
ldap_agent_conf "uri=$LDAPS_URI" "auth_conf=$AUTH"
probe ldap "$TLSMAP" lookup dave
t_eq "tlsverify=no: ldaps:// to a server the CA did not sign is accepted" "0 -rw server:/export/tls/dave" "$RC $(cat "$TMP/out")"
unset LDAPTLS_CACERT

t_done
