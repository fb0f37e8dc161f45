# SUITE_TIMEOUT=480
# sss: maps read through SSSD (issue 25).  sssd with the ldap id and autofs
# providers reads the in-guest slapd (rfc2307bis, the LDAP tests' schema);
# the master map and auto.home come from SSSD, the homes over NFS from the
# in-guest knfsd.  Then SSSD hung and stopped: the lookup gives up within
# [sss] timeout and the file map, the next source, answers.
. "$TOP/test/integration/maps_lib.sh"
. "$TOP/test/integration/ldap_lib.sh"
. "$TOP/test/integration/sss_lib.sh"
. "$TOP/test/qemu/lib.sh"	# last: its t_* report to the harness

SSS_TIMEOUT=3

nfs_server_start /export/homes /export/files
for u in alice bob dave proj1 proj2 $(seq -f 'u%g' 1 10) $(seq -f 'l%g' 1 10); do
	mkdir -p "$NFS_ROOT/export/homes/$u"
	echo "home of $u" > "$NFS_ROOT/export/homes/$u/hello"
done
mkdir -p "$NFS_ROOT/export/files/dave"
echo "files home of dave" > "$NFS_ROOT/export/files/dave/hello"
HOME_ENTRY="-fstype=nfs,vers=4.2 127.0.0.1:/export/homes/&"
BIS="ou=bis,$SUFFIX"

sss_ldap_data() {
	local m
	printf 'dn: %s\nobjectClass: dcObject\nobjectClass: organization\no: example\ndc: example\n\n' "$SUFFIX"
	printf 'dn: %s\nobjectClass: organizationalUnit\nou: bis\n\n' "$BIS"
	for m in auto.master auto.home auto.proj; do
		printf 'dn: automountMapName=%s,%s\nobjectClass: automountMap\nautomountMapName: %s\n\n' \
			"$m" "$BIS" "$m"
	done
	bis_entry "automountMapName=auto.master,$BIS" /home /home "auto.home -browse"
	bis_entry "automountMapName=auto.master,$BIS" /mnt/proj /mnt/proj "auto.proj"
	# hostile: a master line putting a trigger over a system directory
	bis_entry "automountMapName=auto.master,$BIS" /etc/cron.d /etc/cron.d "auto.home"
	m="automountMapName=auto.home,$BIS"
	bis_entry "$m" alice alice "-fstype=nfs,vers=4.2 127.0.0.1:/export/homes/alice"
	bis_entry "$m" '*' '*' "$HOME_ENTRY"
	# hostile: a map server naming a file the agent would read as root
	bis_entry "$m" evil evil "-fstype=autofs file:/etc/shadow"
	bis_entry "automountMapName=auto.proj,$BIS" proj1 proj1 \
		"-fstype=nfs,vers=4.2 127.0.0.1:/export/homes/proj1"
}
LDAP_TLS=no LDAP_DATA=sss_ldap_data slapd_start

if sssd_start; then
	t_pass sssd-start
else
	t_fail sssd-start "$(tail -3 /var/log/sssd/*.log 2>&1 | tr '\n' ' ')"
	exit 1
fi

# the kernel runs the agent with no environment of ours: real /etc files.
# [SUCCESS=continue]: the master map is read from the files too after
# SSSD had it, as with autofs-tools (other maps' keys come from both anyway)
cat > /etc/autofs-agent.conf <<CONF
[general]
sources = sss [SUCCESS=continue] files
negative_timeout = 1
[sss]
timeout = $SSS_TIMEOUT
[ldap]
uri = $LDAP_URI
timeout = 10
CONF
# the files source: a master map of its own and the fallback for auto.home
cat > /etc/auto.master <<MASTER
/mnt/ldaphome ldap:automountMapName=auto.home,$BIS
MASTER
printf 'dave -fstype=nfs,vers=4.2 127.0.0.1:/export/files/dave\n' > /etc/auto.home
at_exit "rm -f /etc/auto.home"
mkdir -p /mnt/ldaphome /mnt/proj
unset AUTOFS_AGENT_CONF AUTOFS_AGENT_MODULE_DIR AUTOFS_AGENT_NSSWITCH

autofs stop > /dev/null 2>&1	# triggers an earlier suite of this boot left
autofs start > /tmp/sss-start.txt 2>&1
# the hostile line is skipped, the others start
t_eq start 7 "$?"
t_ok start-refuses-foreign-mount-point grep -q \
	"start /etc/cron.d: a master line from sss:auto.master, outside the map files: /etc/cron.d is not below" \
	/tmp/sss-start.txt
t_eq start-nothing-on-etc "" "$(awk '$5 == "/etc/cron.d" { print $9 }' /proc/self/mountinfo)"
at_exit "autofs stop"
t_eq master-from-sss autofsng "$(mnt_fstype /home)"
t_eq home-explicit-key "home of alice" "$(cat /home/alice/hello 2>&1)"
t_eq home-is-nfs nfs4 "$(mnt_fstype /home/alice)"
t_eq home-wildcard "home of bob" "$(cat /home/bob/hello 2>&1)"
# SSSD's keys and the file map's (dave); the wildcard is no name
t_eq browse-lists-keys "alice dave evil" "$(ls /home | grep -v bob | tr '\n' ' ' | sed 's/ $//')"
autofs dump > /tmp/sss-dump.txt 2>&1
t_ok dump-names-sss grep -q '^  source sss:auto.home$' /tmp/sss-dump.txt
t_ok dump-lists-sss-keys grep -q '^  alice | -fstype=nfs,vers=4.2 127.0.0.1:/export/homes/alice$' /tmp/sss-dump.txt
t_eq test-names-sss "source sss:auto.home" "$(autofs test auto.home alice 2>&1 | grep '^source ')"
if cat /home/evil/x >/dev/null 2>&1; then
	t_fail hostile-nested-map-refused "/home/evil was mounted"
else
	t_pass hostile-nested-map-refused
fi

# first access through SSSD against the direct LDAP module, interleaved
sss_ms=() ldap_ms=()
for i in $(seq 1 10); do
	t0=$(now_ms); cat "/home/u$i/hello" >/dev/null 2>&1; t1=$(now_ms)
	cat "/mnt/ldaphome/l$i/hello" >/dev/null 2>&1; t2=$(now_ms)
	sss_ms+=($((t1 - t0))) ldap_ms+=($((t2 - t1)))
done
sss_med=$(printf '%s\n' "${sss_ms[@]}" | median)
ldap_med=$(printf '%s\n' "${ldap_ms[@]}" | median)
echo "FIGURE sss: first access median ${sss_med} ms through sss, ${ldap_med} ms through ldap (10 samples each, interleaved)"
# the map part alone: autofs test reads the map and mounts nothing
sss_ms=() ldap_ms=()
for i in $(seq 1 10); do
	t0=$(now_ms); autofs test auto.home "t$i" >/dev/null 2>&1; t1=$(now_ms)
	autofs test "ldap:automountMapName=auto.home,$BIS" "t$i" >/dev/null 2>&1; t2=$(now_ms)
	sss_ms+=($((t1 - t0))) ldap_ms+=($((t2 - t1)))
done
echo "FIGURE sss: autofs test median $(printf '%s\n' "${sss_ms[@]}" | median) ms through sss, $(printf '%s\n' "${ldap_ms[@]}" | median) ms through ldap (10 samples each, interleaved)"
t_eq first-access-all-mounted 20 "$(grep -c ' /home/u[0-9]* \| /mnt/ldaphome/l[0-9]* ' /proc/self/mountinfo)"

# a key added in LDAP appears once SSSD's 5 s cache has expired
autofs test auto.proj proj2 > /dev/null 2>&1
t_eq new-key-absent 3 "$?"
ldapadd -x -H "$LDAP_URI" -D "cn=admin,$SUFFIX" -w admin-secret >/dev/null 2>&1 <<LDIF
$(bis_entry "automountMapName=auto.proj,$BIS" proj2 proj2 "-fstype=nfs,vers=4.2 127.0.0.1:/export/homes/proj2")
LDIF
sleep 7
t_eq new-key-after-cache-expiry "home of proj2" "$(cat /mnt/proj/proj2/hello 2>&1)"

# sssd_autofs stopped (SIGSTOP): the lookup gives up after [sss] timeout
# and the file map answers
# within_deadline NAME MS: MS is at most [sss] timeout and 6 s of slack
# for the agent under TCG (the library alone would wait 300 s)
within_deadline() {
	if [ "$2" -lt $(((SSS_TIMEOUT + 6) * 1000)) ]; then
		t_pass "$1"
	else
		t_fail "$1" "took $2 ms, [sss] timeout is $SSS_TIMEOUT s"
	fi
}
kill -STOP "$(sssd_autofs_pid)"
t0=$(now_ms)
out=$(cat /home/dave/hello 2>&1)
t1=$(now_ms)
t_eq hung-sssd-falls-through-to-files "files home of dave" "$out"
within_deadline hung-sssd-within-deadline $((t1 - t0))
echo "sss: hung sssd: the kernel's lookup of /home/dave took $((t1 - t0)) ms"
t0=$(now_ms)
autofs test sss:auto.home alice > /tmp/sss-hung.out 2>&1
rc=$?
t1=$(now_ms)
t_eq hung-sssd-status 4 "$rc"
t_eq hung-sssd-logged 1 "$(grep -c "SSSD did not answer within $SSS_TIMEOUT s" /tmp/sss-hung.out)"
within_deadline hung-sssd-status-within-deadline $((t1 - t0))
kill -CONT "$(sssd_autofs_pid)"

# "automount: sss files" in nsswitch.conf, no sources = in the configuration
printf '[general]\n' > /tmp/sss-nosources.conf
printf 'automount: sss files\n' > /tmp/sss-nsswitch.conf
t_eq nsswitch-sss-files "source sss:auto.home" "$(AUTOFS_AGENT_CONF=/tmp/sss-nosources.conf \
	AUTOFS_AGENT_NSSWITCH=/tmp/sss-nsswitch.conf autofs test auto.home alice 2>&1 | grep '^source ')"

# sssd not running: status 4 (source unavailable), without waiting for it
sssd_stop
t0=$(now_ms)
autofs test sss:auto.home alice > /tmp/sss-stopped.out 2>&1
rc=$?
t1=$(now_ms)
t_eq stopped-sssd-status 4 "$rc"
t_eq stopped-sssd-logged 1 "$(grep -c 'SSSD is not running' /tmp/sss-stopped.out)"
within_deadline stopped-sssd-within-deadline $((t1 - t0))
echo "sss: stopped sssd: autofs test took $((t1 - t0)) ms"
t_eq stopped-sssd-files-answer "source file:/etc/auto.home" \
	"$(autofs test auto.home dave 2>/dev/null | grep '^source ')"
