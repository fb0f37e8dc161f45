# maps: /home backed by an LDAP map and /mnt/nishome by a NIS map, mounted
# under the kernel's call: the trigger asks the agent, the agent asks
# slapd or ypserv, the home comes over NFS from the in-guest knfsd.
. "$TOP/test/integration/maps_lib.sh"
. "$TOP/test/integration/ldap_lib.sh"
. "$TOP/test/integration/nis_lib.sh"
. "$TOP/test/qemu/lib.sh"	# last: its t_* report to the harness

nfs_server_start /export/homes
for u in alice bob; do
	mkdir -p "$NFS_ROOT/export/homes/$u"
	echo "home of $u" > "$NFS_ROOT/export/homes/$u/hello"
done
HOME_ENTRY="-fstype=nfs,vers=4.2 127.0.0.1:/export/homes/&"

guest_ldap_data() {
	local bis="ou=bis,$SUFFIX" m="automountMapName=auto.home,ou=bis,$SUFFIX"
	printf 'dn: %s\nobjectClass: dcObject\nobjectClass: organization\no: example\ndc: example\n\n' "$SUFFIX"
	printf 'dn: %s\nobjectClass: organizationalUnit\nou: bis\n\n' "$bis"
	printf 'dn: %s\nobjectClass: automountMap\nautomountMapName: auto.home\n\n' "$m"
	bis_entry "$m" alice alice "-fstype=nfs,vers=4.2 127.0.0.1:/export/homes/alice"
	bis_entry "$m" '*' '*' "$HOME_ENTRY"
}
LDAP_TLS=no LDAP_DATA=guest_ldap_data slapd_start

# hostile entries a NIS server (unauthenticated UDP) may give, read below
# through a map file's include line
nis_home_source() {
	printf '%s %s\n' suid '-fstype=tmpfs,suid,dev :tmpfs' \
		pwn '-fstype=autofs program:/tmp/nis-evil' \
		nest '-fstype=autofs,suid,dev auto.nislocal' \
		'*' "$HOME_ENTRY"
}
# the guest's root is read-only: ypserv's maps live on a tmpfs
mount -t tmpfs nis-maps /var/yp
at_exit "umount -l /var/yp"
NIS_PRIVATE=no nis_start

# the kernel runs the agent with no environment of ours: real /etc files
cat > /etc/autofs-agent.conf <<CONF
[general]
sources = files
[ldap]
uri = $LDAP_URI
timeout = 10
[nis]
domain = $NIS_DOMAIN
timeout = 10
CONF
cat > /etc/auto.master <<MASTER
/home ldap:automountMapName=auto.home,ou=bis,$SUFFIX
/mnt/nishome nis:auto.home
/mnt/nisinc /etc/auto.nisinc
MASTER
mkdir -p /mnt/nishome /mnt/nisinc
# the standard layout: a map file that includes the directory's map
printf '+nis:auto.home\n' > /etc/auto.nisinc
printf 'k\t-fstype=tmpfs,suid,dev\t:tmpfs\n' > /etc/auto.nislocal
printf '#!/bin/sh\ntouch /tmp/nis-evil-ran\n' > /tmp/nis-evil
chmod 755 /tmp/nis-evil
rm -f /tmp/nis-evil-ran
at_exit "rm -f /etc/auto.nisinc /etc/auto.nislocal /tmp/nis-evil /tmp/nis-evil-ran"
unset AUTOFS_AGENT_CONF AUTOFS_AGENT_MODULE_DIR

autofs stop > /dev/null 2>&1	# triggers an earlier suite of this boot left
t_ok start autofs start
at_exit "autofs stop"
t_eq ldap-home-explicit-key "home of alice" "$(cat /home/alice/hello 2>&1)"
t_eq ldap-home-is-nfs nfs4 "$(findmnt -no FSTYPE /home/alice)"
t_eq ldap-home-wildcard "home of bob" "$(cat /home/bob/hello 2>&1)"
t_eq nis-home-wildcard "home of alice" "$(cat /mnt/nishome/alice/hello 2>&1)"
t_eq nis-home-is-nfs nfs4 "$(findmnt -no FSTYPE /mnt/nishome/alice)"
if ls /home/nobody >/dev/null 2>&1; then
	t_fail ldap-home-without-export "/home/nobody exists"
else
	t_pass ldap-home-without-export
fi

# --- a NIS answer through an include is foreign (issue 33, items 1, 2, 4) ----
opts() { awk -v p="$1" '$5 == p { print $6 }' /proc/self/mountinfo; }
ls /mnt/nisinc/suid >/dev/null 2>&1
case ",$(opts /mnt/nisinc/suid)," in
*,nosuid,*nodev,*|*,nodev,*nosuid,*) t_pass nis-include-nosuid-nodev ;;
*) t_fail nis-include-nosuid-nodev "options '$(opts /mnt/nisinc/suid)'" ;;
esac
ls /mnt/nisinc/pwn/x >/dev/null 2>&1
t_ok nis-include-program-not-run test ! -e /tmp/nis-evil-ran
t_eq nis-include-program-no-trigger "" "$(opts /mnt/nisinc/pwn)"
ls /mnt/nisinc/nest/k >/dev/null 2>&1
case ",$(opts /mnt/nisinc/nest/k)," in
*,nosuid,*nodev,*|*,nodev,*nosuid,*) t_pass nis-include-nested-foreign ;;
*) t_fail nis-include-nested-foreign "options '$(opts /mnt/nisinc/nest/k)' of a map file's entry named by a NIS entry" ;;
esac
