# SUITE_TIMEOUT=7200
# DEFAULT=no
# LEAVES_MOUNTS=/run/site-export /srv/export/* /var/lib/nfs /var/yp
# siteserver: the site's file server (test/site/run, issue 36).  On the
# site's link (the NIC with MAC 52:54:00:36:00:01) as 10.36.0.1: knfsd
# exports /export/home and /export/proj from the disk test/site/image.sh
# made (/dev/vda, which outlives the server's reboots, and so does the
# NFS state knfsd keeps there), slapd serves auto.master (/home, /proj)
# and auto.home, ypserv serves auto.proj in domain "site".
# It serves, and runs the runner's commands, until the runner creates
# "stop" in the results directory; it is the boot's only suite, and its
# mounts (the disk and the trees knfsd exports) stay until the power-off.
. "$TOP/test/integration/maps_lib.sh"
. "$TOP/test/integration/ldap_lib.sh"
. "$TOP/test/integration/nis_lib.sh"
. "$TOP/test/qemu/lib.sh"	# last: its t_* report to the harness

SITE_NET=10.36.0
SERVER=server.site.test
SUFFIX="dc=site,dc=test"

site_link() {
	local dev
	dev=$(ip -o link | awk '/52:54:00:36:00:01/ { sub(":$", "", $2); print $2 }')
	[ -n "$dev" ] || return 1
	ip addr add "$SITE_NET.1/24" dev "$dev" && ip link set "$dev" up
}

# auto.master and auto.home, rfc2307bis, under ou=automount
site_ldap_data() {
	local am="ou=automount,$SUFFIX" m
	printf 'dn: %s\nobjectClass: dcObject\nobjectClass: organization\no: site\ndc: site\n\n' "$SUFFIX"
	printf 'dn: %s\nobjectClass: organizationalUnit\nou: automount\n\n' "$am"
	for m in auto.master auto.home; do
		printf 'dn: automountMapName=%s,%s\nobjectClass: automountMap\nautomountMapName: %s\n\n' "$m" "$am" "$m"
	done
	m="automountMapName=auto.master,$am"
	bis_entry "$m" /home /home "auto.home --timeout=60"
	bis_entry "$m" /proj /proj "auto.proj --timeout=60"
	bis_entry "automountMapName=auto.home,$am" '*' '*' "-fstype=nfs,vers=4.2,hard $SERVER:/export/home/&"
}

# auto.proj: the NIS map
nis_maps() {
	printf 'data -fstype=nfs,vers=3,hard %s:/export/proj/data\n' "$SERVER" > "$TMP/auto.proj.src"
	/usr/lib/yp/makedbm "$TMP/auto.proj.src" "/var/yp/$NIS_DOMAIN/auto.proj"
}

# The export disk, and on it what knfsd, mountd and statd keep across a
# reboot (the clients' NFSv4 records, so that they reclaim their state).
# The disk is mounted outside the NFS root and its trees bound to the
# exported paths: knfsd's pseudo root (fsid=0 on /) does not cross into a
# file system it does not export, so /export must stay a directory of the
# root's own file system, as in the lab.
DISK=/run/site-export
site_disk() {
	mkdir -p "$DISK" && mount /dev/vda "$DISK" &&
		mkdir -p "$DISK/nfs-state/sm" "$DISK/nfs-state/v4recovery" &&
		mount --bind "$DISK/nfs-state" /var/lib/nfs || return 1
	for e in home proj/data; do
		mkdir -p "$NFS_ROOT/export/$e" && mount --bind "$DISK/$e" "$NFS_ROOT/export/$e" || return 1
	done
}

t_ok link site_link
t_ok disk site_disk
NFS_CLIENTS=$SITE_NET.0/24
t_ok nfs nfs_server_start /export/home /export/proj/data
LDAP_TLS=no LDAP_BIG=no LDAP_HOST=$SITE_NET.1 LDAP_PORT=389 LDAP_DATA=site_ldap_data slapd_start
t_pass ldap
mount -t tmpfs nis-maps /var/yp
NIS_DOMAIN=site NIS_PRIVATE=no nis_start
t_pass nis

# The runner's questions (test/site/machines.sh server_sh): a command
# file in, its output out.
R=/run/results
echo ready > $R/ready
while [ ! -e $R/stop ]; do
	if [ -e $R/cmd ]; then
		bash $R/cmd > $R/cmd.out.tmp 2>&1
		rm -f $R/cmd
		mv $R/cmd.out.tmp $R/cmd.out
	fi
	sleep 0.2
done
sync
