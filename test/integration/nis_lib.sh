# test/integration/nis_lib.sh -- a throwaway NIS domain for the NIS tests.
#
# The test runs in private namespaces (enter_private_ns): its own loopback
# and domainname, tmpfs over /run and /var/yp, so rpcbind, ypserv and
# ypbind started there touch nothing on the host and die with the test.
# nis_start builds the maps with makedbm from source text and starts the
# three servers.  NIS_PRIVATE=no (a throwaway guest) mounts nothing and
# reuses a running rpcbind.
#
# Maps of domain $NIS_DOMAIN:
#   auto_home   alice, bob, the * wildcard, a huge value, odd escapes
#               (served under the underscore spelling only)
#   auto.big    10,000 keys
#   auto.master /home -> auto.home

NIS_DOMAIN=autofsng.test
HUGE_VALUE="-rw,$(printf 'opt%04d,' $(seq 1 120))sync server:/export/huge"
ODD_VALUE='-fstype=nfs,rw server:/export/odd\ dir/with\"quote\\back&$HOME'

nis_home_source() {
	printf '%s %s\n' alice "-rw server:/export/home/alice" \
		bob "-rw,nosuid server:/export/home/bob" \
		'*' "-rw server:/export/home/&" \
		huge "$HUGE_VALUE" odd "$ODD_VALUE"
}

# The maps nis_start serves; a test with other maps defines its own.
nis_maps() {
	nis_home_source > "$TMP/auto_home.src"
	seq 1 10000 | awk '{ printf "key%05d -rw server:/export/big/%05d\n", $1, $1 }' > "$TMP/auto.big.src"
	/usr/lib/yp/makedbm "$TMP/auto_home.src" "/var/yp/$NIS_DOMAIN/auto_home"
	/usr/lib/yp/makedbm "$TMP/auto.big.src" "/var/yp/$NIS_DOMAIN/auto.big"
	echo "/home auto.home --timeout=60" > "$TMP/auto.master.src"
	/usr/lib/yp/makedbm "$TMP/auto.master.src" "/var/yp/$NIS_DOMAIN/auto.master"
}

nis_start() {
	need /usr/sbin/rpcbind /usr/sbin/ypserv /usr/sbin/ypbind /usr/lib/yp/makedbm ip
	domainname "$NIS_DOMAIN"
	if [ "${NIS_PRIVATE:-yes}" = yes ]; then
		mount -t tmpfs tmpfs /run
		mount -t tmpfs tmpfs /var/yp
	fi
	mkdir -p "/var/yp/$NIS_DOMAIN" /var/yp/binding /run/rpcbind
	nis_maps
	printf 'domain %s server 127.0.0.1\n' "$NIS_DOMAIN" > "$TMP/yp.conf"

	if ! rpcinfo -p 127.0.0.1 >/dev/null 2>&1; then
		/usr/sbin/rpcbind -f -w & RPCBIND_PID=$!
		at_exit "kill $RPCBIND_PID"
		wait_for "rpcbind" rpcinfo -p 127.0.0.1
	fi
	/usr/sbin/ypserv -f & YPSERV_PID=$!
	at_exit "kill -CONT $YPSERV_PID; kill $YPSERV_PID"
	wait_for "ypserv" rpcinfo -u 127.0.0.1 ypserv
	/usr/sbin/ypbind -n -f "$TMP/yp.conf" & YPBIND_PID=$!
	at_exit "kill $YPBIND_PID"
	wait_for "ypbind" ypwhich
}

# wait_for WHAT COMMAND... -- up to 10 s for COMMAND to succeed
wait_for() {
	local what=$1 i; shift
	for i in $(seq 1 100); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "$what did not come up" >&2
	exit 1
}

# nis_agent_conf [KEY=VALUE...] -- [nis] settings in $TMP/agent.conf; the
# agent reads maps from $NIS_SOURCES (default nis), file maps in $TMP/maps,
# and keeps its cache of NIS maps in $TMP/mapcache (NIS_MAP_CACHE=none: none).
nis_agent_conf() {
	local kv
	mkdir -p "$TMP/maps"
	{
		echo "[general]"
		echo "sources = ${NIS_SOURCES:-nis}"
		echo "map_dir = $TMP/maps"
		echo "map_cache_dir = ${NIS_MAP_CACHE:-$TMP/mapcache}"
		echo "log_stderr = yes"
		echo "[nis]"
		echo "timeout = 2"
		for kv; do echo "${kv%%=*} = ${kv#*=}"; done
	} > "$TMP/agent.conf"
	export AUTOFS_AGENT_CONF=$TMP/agent.conf
}
