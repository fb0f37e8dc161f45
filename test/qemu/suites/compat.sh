# SUITE_TIMEOUT=900
# compat: master maps written for autofs-tools, run through real autofsng
# triggers: comma-joined agent options take effect and never reach mount
# options, -null disables its mount point (one an earlier include defined
# too), browse lists a key with a blank and the hosts of /etc/hosts; then
# the differential check against autofs-tools 5.1.8.
. "$TOP/test/qemu/lib.sh"

AGENT=/sbin/autofs
D=/srv/compat
if [ ! -x "$AGENT" ] || ! grep -qw autofsng /proc/filesystems; then
	t_fail setup "$AGENT or the autofsng filesystem missing"
	exit 0
fi
echo 1 > /proc/sys/fs/mount_expire_tick
mkdir -p $D/src
echo hello-compat > $D/src/hello
printf '[general]\ntimeout = 600\nbrowse = yes\n' > /etc/autofs-agent.conf
printf 'b\t-fstype=bind\t:%s/src\n' $D > /etc/auto.compat
# an autofs-tools submount: a nested trigger for its own map
printf 'sub\t-fstype=autofs,timeout=2,nobrowse\tfile:/etc/auto.compat.sub\n' >> /etc/auto.compat
printf 'x\t-fstype=bind\t:%s/src\n' $D > /etc/auto.compat.sub
printf '"dave x"\t-fstype=bind\t:%s/src\n' $D >> /etc/auto.compat
# names -hosts lists as gethostent(3) does: IPv4 and v4-mapped, not fd00::
cat >> /etc/hosts <<'H'
10.255.0.8	fs-compat fs-compat.lab
::ffff:10.255.0.9	mapped-compat
fd00::7	six-compat
H
cat > /etc/auto.master.compat <<'M'
/mnt/comma	/etc/auto.compat	-nobrowse,--timeout=3,ro
/mnt/null	-null
/mnt/null	/etc/auto.compat
+/etc/auto.master.compat.inc
/mnt/incnull	-null
/mnt/browse	/etc/auto.compat	-browse
/mnt/net	-hosts	-browse
M
printf '/mnt/incnull\t/etc/auto.compat\n' > /etc/auto.master.compat.inc
out=$("$AGENT" start /etc/auto.master.compat 2>&1)
echo "$out"
t_eq comma-trigger autofsng "$(mnt_fstype /mnt/comma)"
t_eq null-no-trigger "" "$(mnt_fstype /mnt/null)"
t_eq null-after-include-no-trigger "" "$(mnt_fstype /mnt/incnull)"
t_eq browse-trigger autofsng "$(mnt_fstype /mnt/browse)"
t_eq browse-key-with-blank "b|dave x|sub" "$(ls /mnt/browse | paste -sd'|')"
t_eq key-with-blank-mounts hello-compat "$(cat "/mnt/browse/dave x/hello" 2>&1)"
t_eq hosts-browse-etc-hosts yes "$(ls /mnt/net | grep -qx fs-compat &&
	ls /mnt/net | grep -qx mapped-compat && ! ls /mnt/net | grep -q six-compat && echo yes)"
t_eq comma-nobrowse "" "$(ls /mnt/comma)"
t_eq comma-mounts hello-compat "$(cat /mnt/comma/b/hello 2>&1)"
opts=$(awk '$5 == "/mnt/comma/b" { print $6 }' /proc/self/mountinfo)
case $opts in ro,*|ro) t_pass comma-mount-option-ro ;; *) t_fail comma-mount-option-ro "options '$opts'" ;; esac
# --timeout=3 with a 1 s tick: gone well within 12 s (the default is 600 s)
t_ok comma-timeout-expires mnt_gone_within /mnt/comma/b 12

t_eq submount-mounts hello-compat "$(cat /mnt/comma/sub/x/hello 2>&1)"
t_eq submount-trigger autofsng "$(mnt_fstype /mnt/comma/sub)"
# a bind of a directory of the guest's tmpfs
t_eq submount-inner tmpfs "$(mnt_fstype /mnt/comma/sub/x)"
t_ok submount-inner-expires mnt_gone_within /mnt/comma/sub/x 10
t_eq submount-nobrowse "" "$(ls /mnt/comma/sub)"
t_ok submount-expires mnt_gone_within /mnt/comma/sub 12
"$AGENT" stop >/dev/null 2>&1
t_eq stopped "" "$(mnt_fstype /mnt/comma)"

# --- the differential check against autofs-tools ------------------------------
# Both automounters read the corpus of test/compat/, starting from Debian's
# default /etc/auto.master as autofs 5.1.8 installs it (auto.master.debian):
# its +dir:/etc/auto.master.d reads the corpus's *.autofs files, its
# +auto.master includes itself and is skipped by both.  autofs-tools
# (automount -f -d) logs, for each key accessed, the mount it attempts;
# `autofs test` prints what a lookup here would mount.  compare.py puts them
# side by side: the servers are unreachable (10.255/16), so nothing needs to
# succeed.  A -hosts key needs a MOUNT server to be mounted: the corpus only
# compares keys both refuse (an unreachable and a malformed host), and the
# hosts each lists for browsing, below; the nfs and hosts suites mount it.
C=$TOP/test/compat
W=/tmp/compat
if [ ! -x /usr/sbin/automount ]; then
	t_fail differential "autofs-tools (/usr/sbin/automount) missing"
	exit 0
fi
mkdir -p /etc/compat $W/ours /srv/compat/a /srv/compat/b /etc/auto.master.d
cp "$C"/auto.* /etc/compat/ 2>/dev/null
cp "$C/auto.compat.inner" /etc/
cp "$C/auto.master.debian" /etc/auto.master
rm -f /etc/auto.master.d/* /etc/auto.master.d/.[!.]*
cp -a "$C/auto.master.d/." /etc/auto.master.d/
printf '[ autofs ]\ntimeout = 600\nbrowse_mode = no\nmount_wait = 5\n' > /etc/autofs.conf
printf '[general]\nmaster = /etc/auto.master\nsources = files\nmap_dir = /etc\n' \
	> /etc/compat/agent.conf
# its own process group: autofs passes the daemon's group through its traps
setsid automount -f -d /etc/auto.master > $W/at.log 2>&1 &
AT_PID=$!
for i in $(seq 100); do
	[ "$(awk '$5 == "/mnt/c/quote"' /proc/self/mountinfo | wc -l)" -ge 1 ] && break
	sleep 0.1
done
n=0
while read -r line; do
	case $line in ''|'#'*) continue ;; esac
	n=$((n + 1))
	set -- $line
	mp=$1
	shift
	key=
	while [ $# -gt 0 ] && [ "${1#/}" = "$1" ]; do key="$key${key:+ }$1"; shift; done
	# "/." follows into the mount point: a browsed key or an offset's
	# trigger is only mounted when something is looked up inside it
	timeout 10 stat "$mp/$key/." >/dev/null 2>&1
	for off in "$@"; do timeout 10 stat "$mp/$key$off/." >/dev/null 2>&1; done
	{ AUTOFS_AGENT_CONF=/etc/compat/agent.conf "$AGENT" test "$mp" "$key" 2>&1
	  echo "rc=$?"; } > "$W/ours/$n.txt"
done < "$C/keys"
# -hosts: the hosts autofs-tools lists (automount -m, from gethostent) and
# the ones this agent lists for the kernel's WRITEFD request (a browse)
at_hosts=$(automount -m 2>/dev/null | awk '/^Mount point: / { on = $3 == "/mnt/c/net"; next }
	on && $2 == "|" { print $1 }' | sort | paste -sd' ')
ours_hosts=$(AUTOFS_AGENT_CONF=/etc/compat/agent.conf MAPNAME=-hosts WRITEFD=5 \
	"$AGENT" list 5>&1 >/dev/null 2>&1 | sort | paste -sd' ')
echo "hosts listed by automount -m: $at_hosts; by a browse of autofs-tools: $(ls /mnt/c/net | paste -sd' ')"
case " $at_hosts " in *" fs-compat "*) t_eq hosts-listing-as-autofs-tools "$at_hosts" "$ours_hosts" ;;
*) t_fail hosts-listing-as-autofs-tools "automount -m listed '$at_hosts'" ;; esac
echo "browse of /mnt/c/wild under autofs-tools: $(ls /mnt/c/wild | paste -sd' ')"
kill -TERM $AT_PID
for i in $(seq 100); do kill -0 $AT_PID 2>/dev/null || break; sleep 0.1; done
kill -KILL $AT_PID 2>/dev/null
awk 'index($5, "/mnt/c/") == 1 { print $5 }' /proc/self/mountinfo | sort -r | xargs -r umount -l
cp $W/at.log /run/results/compat-autofs-tools.log 2>/dev/null
cp -r $W/ours /run/results/compat-ours 2>/dev/null
python3 "$C/compare.py" "$C/keys" $W/at.log $W/ours "$C/differences" > $W/compare.txt
cp $W/compare.txt /run/results/compat-compare.txt 2>/dev/null
grep -v '^same ' $W/compare.txt | head -150
summary=$(tail -1 $W/compare.txt)
echo "differential: $summary"
compared=$(( $(echo "$summary" | awk '{ print $1 + $3 + $5 }') ))
[ "$compared" -ge 150 ] && t_pass differential-150-keys ||
	t_fail differential-150-keys "only $compared mounts compared"
case $summary in
*", 0 unexplained") t_pass differential-unexplained ;;
*) t_fail differential-unexplained "$summary" ;;
esac
