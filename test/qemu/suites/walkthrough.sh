# walkthrough: autofs-agent(8)'s "Setting up NFS home directories", run as
# written.  The commands are taken from the page itself (its .EX blocks), so
# the page cannot drift from what works.  What the page assumes is provided
# here: a server named fileserver (the in-guest knfsd, on 127.0.0.1) that
# exports /export/home with alice's directory in it, and this machine's own
# /etc/auto.master and installed agent configuration, as a newcomer has them.
. "$TOP/test/qemu/lib.sh"

PAGE=$TOP/man/autofs-agent.8
W=/tmp/walkthrough
mkdir -p "$W"

# The walk-through's commands: the .EX blocks of its subsection, groff
# escapes undone, the "# " prompt taken off.  Other lines are heredoc text.
walkthrough_script() {
	awk '
		/^\.SS Setting up NFS home directories/ { on = 1; next }
		on && /^\.S[SH] / { exit }
		on && /^\.EX/ { ex = 1; next }
		on && /^\.EE/ { ex = 0; next }
		on && ex { print }
	' "$PAGE" | sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/^# //'
}

# --- what the page assumes --------------------------------------------------
nfs_server_start /export/home || { t_fail server "nfs_server_start failed"; exit 1; }
mkdir -p "$NFS_ROOT/export/home/alice"
echo "alice's notes" > "$NFS_ROOT/export/home/alice/notes.txt"
echo "127.0.0.1 fileserver" >> /etc/hosts

# earlier suites of this boot wrote their own master map and configuration
autofs stop >/dev/null 2>&1
# /run/hostroot (test/qemu/init): the host's /etc, not the guest's overlay
cp /run/hostroot/etc/auto.master /etc/auto.master 2>/dev/null || rm -f /etc/auto.master
stage=$(sed -n 's/.*harness\.stage=\([^ ]*\).*/\1/p' /proc/cmdline)
cp "$stage/etc/autofs-agent.conf" /etc/autofs-agent.conf
rm -f /etc/auto.home

# --- the page, as written ---------------------------------------------------
walkthrough_script > "$W/script.sh"
echo "--- the walk-through from $(basename "$PAGE")"
cat "$W/script.sh"
t_ok walkthrough-found grep -q '^autofs start$' "$W/script.sh"
echo "--- running it"
if bash -e -x "$W/script.sh" > "$W/out" 2>&1; then
	t_pass walkthrough-runs
else
	t_fail walkthrough-runs "exit $?: $(tail -3 "$W/out" | tr '\n' ' ')"
fi
cat "$W/out"

# --- what the newcomer should now see -----------------------------------------
t_ok walkthrough-test-shows-source grep -q 'from fileserver:/export/home/alice' "$W/out"
t_ok walkthrough-ls-lists grep -qx 'notes.txt' "$W/out"
t_eq walkthrough-home-is-nfs nfs4 "$(findmnt -no FSTYPE /home/alice)"
t_eq walkthrough-home-source fileserver:/export/home/alice "$(findmnt -no SOURCE /home/alice)"
t_eq walkthrough-read "alice's notes" "$(cat /home/alice/notes.txt 2>&1)"
t_ok walkthrough-status-shows grep -q '/home/alice' "$W/out"
autofs stop >/dev/null 2>&1
exit 0
