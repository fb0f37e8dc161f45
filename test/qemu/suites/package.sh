# SUITE_TIMEOUT=240
# package: the Debian packages `make deb` built (_deb/ of the build tree),
# installed with dpkg -i as an administrator would, in place of the staged
# install the other suites use.  The unit's ExecStart and ExecStop commands
# run as written in the installed unit file; an NFS home is mounted through
# the packaged agent; then remove and purge, and nothing of the agent may be
# left running or mounted, the conffile staying on remove and going on purge
# (Debian policy 10.7.3).  The staged install comes back at the end for the
# suites after this one.
. "$TOP/test/qemu/lib.sh"

DEBS=$BUILDDIR/_deb
UNIT=/lib/systemd/system/autofs-agent.service
CONF=/etc/autofs-agent.conf
STAGE=$(sed -n 's/.*harness\.stage=\([^ ]*\).*/\1/p' /proc/cmdline)
deb=$(ls "$DEBS"/autofsng_*.deb 2>/dev/null | head -1)
ldap_deb=$(ls "$DEBS"/autofsng-ldap_*.deb 2>/dev/null | head -1)

if [ -z "$deb" ] || [ -z "$ldap_deb" ]; then
	t_fail setup "no autofsng and autofsng-ldap .deb in $DEBS: run 'make deb' first"
	exit 0
fi

# dpkg's database is the host's, in an overlay: /var/lib is a tmpfs here.
dpkg_db() {
	mkdir -p /run/pkgdb/upper /run/pkgdb/work /var/lib/dpkg
	mount -t overlay overlay -o \
		lowerdir=/run/hostroot/var/lib/dpkg,upperdir=/run/pkgdb/upper,workdir=/run/pkgdb/work \
		/var/lib/dpkg
}

# The staged install out of the way (whiteouts in the /usr and /etc
# overlays), and back again from the stage directory at the end.
stage_files() {
	(cd "$STAGE" && find . ! -type d | sed 's|^\.||')
}
stage_hide() {
	stage_files | while read -r f; do rm -f "$f"; done
}
stage_restore() {
	cp -a "$STAGE/usr/." /usr/ && cp -a "$STAGE/etc/." /etc/
}

# unit_cmd KEY: the command of KEY= in the installed unit file
unit_cmd() {
	sed -n "s/^$1=//p" "$UNIT" | head -1
}

# what of the agent is left: autofsng or NFS mounts on /home or below
# (earlier suites clean up their own), autofs processes
leftovers() {
	awk '{ for (i = 6; i <= NF; i++) if ($i == "-") t = $(i + 1) }
		($5 == "/home" || index($5, "/home/") == 1) && (t == "autofsng" || t ~ /^nfs/) {
			print "mounted " $5 " " t }' /proc/self/mountinfo
	pgrep -a -x autofs | sed 's/^/running /'
	true
}

dpkg_db || { t_fail setup "overlay on /var/lib/dpkg failed"; exit 0; }
stage_hide
t_eq staged-agent-hidden "" "$(ls /usr/sbin/autofs 2>/dev/null; ls -A /usr/lib/autofsng 2>/dev/null)"
cp /etc/auto.master /run/pkg-auto.master 2>/dev/null

# --- install ------------------------------------------------------------------

t_ok install dpkg -i "$deb" "$ldap_deb"
t_eq installed "install ok installed" "$(dpkg-query -W -f='${Status}' autofsng)"
t_ok conffile-registered grep -q "^ $CONF " <(dpkg-query -W -f='${Conffiles}\n' autofsng)
t_ok agent-installed test -x /usr/sbin/autofs
t_ok ldap-module-installed test -f /usr/lib/autofsng/map_ldap.so
# not enabled on installation: the kernel and autofs.service come first
t_eq unit-not-enabled "" "$(find /etc/systemd/system -name autofs-agent.service 2>/dev/null)"

# --- the unit's commands, an NFS home through them ------------------------------

nfs_server_start /export/home || { t_fail server "nfs_server_start failed"; stage_restore; exit 0; }
mkdir -p "$NFS_ROOT/export/home/alice"
echo "alice's notes" > "$NFS_ROOT/export/home/alice/notes.txt"
printf '/home\t/etc/auto.home\t--timeout=60\n' > /etc/auto.master
printf '*\t-fstype=nfs,vers=4.2\t127.0.0.1:/export/home/&\n' > /etc/auto.home
echo "# this site's change" >> "$CONF"

# the unit's command lines, split into words as systemd splits them (none
# of them quotes anything)
start=$(unit_cmd ExecStart)
stop=$(unit_cmd ExecStop)
reload=$(unit_cmd ExecReload)
t_eq unit-start-cmd "/sbin/autofs start" "$start"
t_eq unit-stop-cmd "/sbin/autofs stop" "$stop"
t_eq unit-reload-cmd "/sbin/autofs start" "$reload"

# shellcheck disable=SC2086 # command lines, split on purpose
t_ok exec-start $start
t_eq home-trigger autofsng "$(mnt_fstype /home)"
t_eq nfs-home-read "alice's notes" "$(cat /home/alice/notes.txt 2>&1)"
t_eq nfs-home-mounted nfs4 "$(mnt_fstype /home/alice)"
# shellcheck disable=SC2086
t_ok exec-reload $reload
# shellcheck disable=SC2086
t_ok exec-stop $stop
t_eq stop-leaves-nothing "" "$(leftovers)"

# --- remove, then purge -----------------------------------------------------------

# started again and in use by nothing: remove takes the triggers down itself
# shellcheck disable=SC2086
$start >/dev/null
cat /home/alice/notes.txt >/dev/null 2>&1
t_eq restarted nfs4 "$(mnt_fstype /home/alice)"
t_ok remove dpkg -r autofsng-ldap autofsng
t_eq remove-leaves-nothing "" "$(leftovers)"
t_eq removed-state "deinstall ok config-files" "$(dpkg-query -W -f='${Status}' autofsng)"
t_ok remove-keeps-changed-conffile grep -qx "# this site's change" "$CONF"
t_ok agent-gone test ! -e /usr/sbin/autofs

t_ok purge dpkg -P autofsng-ldap autofsng
t_ok purge-deletes-conffile test ! -e "$CONF"
t_eq purged "" "$(dpkg-query -W -f='${Status}' autofsng 2>/dev/null)"
left=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' |
	while read -r f; do [ -e "$f" ] && echo "$f"; done)
t_eq purge-leaves-no-file "" "$left"
t_eq purge-leaves-nothing "" "$(leftovers)"

# --- the staged install back for the suites after this one --------------------------
cp /run/pkg-auto.master /etc/auto.master 2>/dev/null || rm -f /etc/auto.master
rm -f /etc/auto.home
umount /var/lib/dpkg
t_ok staged-agent-back stage_restore
