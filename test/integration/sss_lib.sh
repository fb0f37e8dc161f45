# test/integration/sss_lib.sh -- sssd for the SSSD map tests, on the host
# (in the test's private namespaces) and in the guest (suite sss).
#
# sssd_start runs sssd with the ldap id and autofs providers against the
# slapd of ldap_lib.sh ($LDAP_URI, rfc2307bis maps under ou=bis,$SUFFIX),
# with a cache of $SSS_CACHE seconds (default 5), so a key added in LDAP
# shows soon.  Its configuration, databases, sockets and logs live on
# tmpfs mounts over /etc/sssd, /var/lib/sss and /var/log/sssd, so the
# host's are never touched; its pid file is /run/sssd.pid, so the caller
# keeps /run private too.  sssd_stop ends it (also a stopped one).

need /usr/sbin/sssd
# the library map_sss.so loads by default: configure's, in the multiarch
# directory of the build
SSS_LIBRARY=$(sed -n 's/^SSS_AUTOFS_LIB = //p' "$builddir/Makefile" 2>/dev/null)
[ -n "$SSS_LIBRARY" ] || SSS_LIBRARY=/usr/lib/$(gcc -print-multiarch 2>/dev/null ||
	echo x86_64-linux-gnu)/sssd/modules/libsss_autofs.so
[ -e "$SSS_LIBRARY" ] ||
	t_skip "$SSS_LIBRARY not found (sssd-common, see the PACKAGES list of ./quickstart)"

sssd_conf() {
	cat <<CONF
[sssd]
services = nss, autofs
domains = lab
[autofs]
[domain/lab]
id_provider = ldap
autofs_provider = ldap
ldap_uri = $LDAP_URI
ldap_search_base = $SUFFIX
ldap_schema = rfc2307bis
ldap_autofs_search_base = ou=bis,$SUFFIX
entry_cache_timeout = ${SSS_CACHE:-5}
entry_cache_autofs_timeout = ${SSS_CACHE:-5}
CONF
}

sssd_start() {
	local d i
	for d in /etc/sssd /var/lib/sss /var/log/sssd; do
		mkdir -p "$d" && mount -t tmpfs -o mode=0755 sss-test "$d" || return 1
		at_exit "umount -l $d"
	done
	mkdir -p /var/lib/sss/db /var/lib/sss/pipes/private /var/lib/sss/mc \
		/var/lib/sss/pubconf
	sssd_conf > /etc/sssd/sssd.conf
	chmod 600 /etc/sssd/sssd.conf
	/usr/sbin/sssd -D || return 1
	at_exit sssd_stop
	for i in $(seq 1 150); do
		[ -S /var/lib/sss/pipes/autofs ] && return 0
		sleep 0.2
	done
	echo "sssd did not open /var/lib/sss/pipes/autofs" >&2
	return 1
}

# The pid of sssd's autofs responder, the process the agent talks to.
sssd_autofs_pid() { pgrep -P "$(cat /run/sssd.pid)" -x sssd_autofs; }

# Ends sssd and waits for its responders too: one still shutting down
# would accept the agent's connection and not answer.
sssd_stop() {
	local pid all p
	pid=$(cat /run/sssd.pid 2>/dev/null) || return 0
	all="$pid $(pgrep -P "$pid")"
	kill -CONT $all 2>/dev/null
	kill "$pid" 2>/dev/null || return 0
	for p in $all; do
		for _ in $(seq 1 100); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$p" 2>/dev/null && kill -KILL "$p"
	done
	return 0
}
