# SUITE_TIMEOUT=120
# compat: master maps written for autofs-tools, run through real autofsng
# triggers: comma-joined agent options take effect and never reach mount
# options, -null disables its mount point.
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
cat > /etc/auto.master.compat <<'M'
/mnt/comma	/etc/auto.compat	-nobrowse,--timeout=3,ro
/mnt/null	-null
/mnt/null	/etc/auto.compat
M
out=$("$AGENT" start /etc/auto.master.compat 2>&1)
echo "$out"
t_eq comma-trigger autofsng "$(mnt_fstype /mnt/comma)"
t_eq null-no-trigger "" "$(mnt_fstype /mnt/null)"
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
