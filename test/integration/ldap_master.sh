#!/bin/bash
# A master map read from LDAP is not the administrator's (trust.c): its
# lines name maps the sources look up, never a file, a program or a
# server, put triggers only below [general] foreign_mount_points, and every
# lookup through them is foreign, even of a local map file.  A spoofed or
# plaintext directory would otherwise cover /etc/cron.d or /root/.ssh, or
# lift nosuid from a map file's entries.
. "$(dirname "$0")/maps_lib.sh"
. "$(dirname "$0")/ldap_lib.sh"

master_data() {
	local bis="ou=bis,$SUFFIX" m
	ldap_data
	m="automountMapName=auto.master2,$bis"
	printf 'dn: %s\nobjectClass: automountMap\nautomountMapName: auto.master2\n\n' "$m"
	bis_entry "$m" /home /home "auto.home"
	bis_entry "$m" /etc/cron.d /etc/cron.d "auto.home"
	bis_entry "$m" /mnt/file /mnt/file "$TMP/maps/auto.local"
	bis_entry "$m" /mnt/prog /mnt/prog "program:/usr/bin/env"
	bis_entry "$m" /mnt/srv /mnt/srv "ldap://attacker.example/automountMapName=x,$bis"
	bis_entry "$m" /mnt/local /mnt/local "auto.local -suid,dev -DSZ=1m"
	bis_entry "$m" "$TMP/allowed/u/l/cron.d" "$TMP/allowed/u/l/cron.d" "auto.home"
	m="automountMapName=auto.master3,$bis"
	printf 'dn: %s\nobjectClass: automountMap\nautomountMapName: auto.master3\n\n' "$m"
	bis_entry "$m" /home /home "-null"
	bis_entry "$m" /mnt/more /mnt/more "auto.home"
	m="automountMapName=auto.master4,$bis"
	printf 'dn: %s\nobjectClass: automountMap\nautomountMapName: auto.master4\n\n' "$m"
	bis_entry "$m" /home /home "-null"
	bis_entry "$m" /srv /srv "auto.evil"
}

LDAP_TLS=no LDAP_DATA=master_data slapd_start
MASTER="ldap:automountMapName=auto.master2,ou=bis,$SUFFIX"
LDAP_SOURCES="files ldap" ldap_agent_conf
printf 'k\t-fstype=tmpfs,suid\t:tmpfs\nv\t-fstype=tmpfs,size=${SZ}\t:tmpfs\n' > "$TMP/maps/auto.local"

agent dump "$MASTER"
t_eq "autofs dump of an LDAP master map: the refused lines fail it" "5" "$RC"
dumped() { sed -n "\\|^$1 |,/^\\//p" "$TMP/out"; }
t_grep "... /home: foreign, and served" "trust foreign (a master line from ldap:" <(dumped /home)
t_nogrep "... /home not refused" refused <(dumped /home)
t_grep "... /etc/cron.d: not below foreign_mount_points" \
	"refused: /etc/cron.d is not below \[general\] foreign_mount_points (/home /net" <(dumped /etc/cron.d)
t_grep "... a map file named by path: refused" "refused: map '$TMP/maps/auto.local' is not a plain map name" <(dumped /mnt/file)
t_grep "... a program map: refused" "refused: map 'program:/usr/bin/env' is not a plain map name" <(dumped /mnt/prog)
t_grep "... an LDAP map on another server: refused" "refused: map 'ldap://attacker.example/.*' is an LDAP map that names a server" <(dumped /mnt/srv)

# a local map file's entry through the LDAP line: foreign, its suid gives
# way, the line's suid,dev and -D are not the administrator's
echo "master = $MASTER" > "$TMP/master.conf"
sed -i "/^\[general\]/r $TMP/master.conf" "$TMP/agent.conf"
agent test /mnt/local k
t_eq "autofs test through the LDAP line" "0" "$RC"
t_grep "... trust foreign" "^trust foreign (a map named by a foreign entry or master line)" "$TMP/out"
t_grep "... mounted nosuid,nodev" "options .*nosuid,nodev" "$TMP/out"
agent test /mnt/local v
t_grep "... a -D of the LDAP line defines nothing" "options .*size=\(,\|$\)" "$TMP/out"

# The file's own lines stay its own when a directory is included after
# them: the directory's -null does not switch /home off, and only the
# directory's lines are foreign.
printf '/home\tauto.home\n/opt/tools\tauto.tools\t-suid\n+ldap:automountMapName=auto.master3,ou=bis,%s\n' \
	"$SUFFIX" > "$TMP/maps/auto.master.local"
agent dump "$TMP/maps/auto.master.local"
t_grep "a directory's -null: refused, and said" \
	"/home: a -null read from ldap:automountMapName=auto.master3,ou=bis,$SUFFIX may not disable the master map file's own line" "$TMP/err"
t_grep "... /home is still served" "^/home auto.home" "$TMP/out"
t_nogrep "... the file's last line is not marked foreign" "trust foreign" <(dumped /opt/tools)
t_grep "... the directory's own line is" "trust foreign (a master line from ldap:" <(dumped /mnt/more)

# ... and when the directory is included first, its lines for the same
# mount points give way to the file's that follow
printf '+ldap:automountMapName=auto.master4,ou=bis,%s\n/home\tauto.home\n/srv\tauto.tools\t-suid\n' \
	"$SUFFIX" > "$TMP/maps/auto.master.first"
agent dump "$TMP/maps/auto.master.first"
t_grep "an earlier -null of the directory: the file's /home stays" "^/home auto.home" "$TMP/out"
t_grep "an earlier line of the directory: the file's /srv replaces it" "^/srv auto.tools -suid" "$TMP/out"
t_nogrep "... nothing of the directory's is left" "auto.evil\|trust foreign" "$TMP/out"

# The mount point is checked as text below foreign_mount_points: a user's
# link below that root must not carry it elsewhere (the review's attack:
# ~/l -> / and a line /home/alice/l/etc/cron.d).  autofs start follows no
# link for such a line; on this host it then stops at fsopen("autofsng"),
# so what it made on the way is what tells.
mkdir -p "$TMP/allowed/u" "$TMP/victim"
ln -s "$TMP/victim" "$TMP/allowed/u/l"
chown -h 1000:1000 "$TMP/allowed/u" "$TMP/allowed/u/l"
sed -i "/^\[general\]/a foreign_mount_points = $TMP/allowed" "$TMP/agent.conf"
RC=0
unshare -m --propagation private env AUTOFS_AGENT_MODULE_DIR=$MODDIR "$AUTOFS" start \
	>"$TMP/out" 2>"$TMP/err" || RC=$?
t_eq "autofs start: the line through a user's link fails" "7" "$RC"
t_grep "... and says no link is followed" \
	"start $TMP/allowed/u/l/cron.d: the mount point: Too many levels of symbolic links (a line from outside the map files follows no symbolic link)" "$TMP/err"
if [ -e "$TMP/victim/cron.d" ]; then t_fail "... nothing made where the link points" "$(ls -l "$TMP/victim")"; else t_ok "... nothing made where the link points"; fi

t_done
