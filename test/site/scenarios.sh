# shellcheck shell=bash
# test/site/scenarios.sh -- what the site does to an automounter (issue
# 36), for test/site/run.  Each sc_NAME runs with $AM (autofsng, or
# Debian's autofs) serving the maps, prints PASS/FAIL lines named
# site/$AM/NAME-..., and files its times with figure().
#
# The maps: the client's /etc/auto.master holds /local (its own file map,
# a bind, 20 s) and includes the directory's auto.master
# (test/qemu/suites/siteserver.sh): /home from LDAP (wildcard, NFSv4.2,
# hard, 60 s) and /proj from NIS (NFSv3, 60 s).
#
# A check that asks the client something fails when ssh itself fails:
# negations are made on the client, never of ssh's status.

SCENARIOS="boot login linkdown expiry serverreboot restart shutdown"

# result LINE: a PASS or FAIL line, shown and kept for the count.  Debian's
# autofs is the reference the table compares with: its lines read
# REF-PASS and REF-FAIL, and the count is autofsng's alone.
result() {
	local line=$*
	[ "$AM" = autofs ] && line=REF-$line
	echo "$line" | tee -a "$RUN/results.txt"
}

# check NAME CMD...: passes when CMD exits 0; a failure shows CMD's output.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		result "PASS site/$AM/$name"
	else
		result "FAIL site/$AM/$name: '$*': $(echo "$out" | tail -3 | tr '\n' ' ')"
	fi
}

# figure NAME VALUE: one row of the comparison table.
figure() {
	printf '%s\t%s\t%s\n' "$AM" "$1" "$2" | tee -a "$RUN/figures.tsv"
}

unit() { if [ "$AM" = autofsng ]; then echo autofs-agent; else echo autofs; fi; }
other_unit() { if [ "$AM" = autofsng ]; then echo autofs; else echo autofs-agent; fi; }

use_automounter() {
	c_ssh "systemctl disable --now $(other_unit); systemctl enable --now $(unit)" >/dev/null 2>&1
}

mounted() { c_ssh "grep -q ' $1 ' /proc/self/mounts"; }
not_mounted() { c_ssh "! grep -q ' $1 ' /proc/self/mounts"; }
now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{ printf "%.1f", $1 - $2 }'; }

# systemd-analyze verify says nothing of the unit (man pages not checked:
# the client has no man-db, as many servers have none)
unit_verifies() {
	c_ssh "systemd-analyze verify --man=no $(unit).service 2>&1 | { ! grep -F $(unit).service; }"
}
no_ordering_cycle() { c_ssh "journalctl -b | { ! grep -i 'ordering cycle'; }"; }
# the unit logged nothing at priority err or above this boot
no_unit_error() { c_ssh "journalctl -b -q -u $(unit) -p err | { ! grep .; }"; }
journal_names() { c_ssh "journalctl -b -t autofs | grep -q '$1'"; }

sc_boot() {
	check boot-active test "$(c_ssh systemctl is-active "$(unit)")" = active
	check boot-unit-verifies unit_verifies
	check boot-no-ordering-cycle no_ordering_cycle
	check boot-no-unit-error no_unit_error
	check boot-home-mounts c_ssh cat /home/alice/.site
	[ "$AM" = autofsng ] || return 0
	check boot-journal-names-key journal_names alice
}

sc_login() {
	local out
	out=$(user_ssh alice alice-pw 'pwd; echo "alice was here" > login-file; cat .site')
	check login-starts-in-home test "$(echo "$out" | head -1)" = /home/alice
	check login-reads-server test "$(echo "$out" | tail -1)" = "alice's home on the server"
	check login-file-on-server test "$(server_sh cat /srv/export/home/alice/login-file)" = "alice was here"
	check login-bob-not-mounted not_mounted /home/bob
}

# timed VAR CMD...: run CMD, put its wall time in VAR.
timed() {
	local var=$1 t0 rc
	shift
	t0=$(now)
	"$@" >/dev/null 2>&1
	rc=$?
	printf -v "$var" %s "$(since "$t0")"
	return $rc
}

# What a lookup of a server's map may take with the server gone: the LDAP
# connect (network_timeout, 8 s) and the NIS call (timeout, 10 s) in
# nsswitch.conf's order, and 4 s for ssh (1.4 s measured) and the
# agent's start under emulation.
LINKDOWN_BOUND=22
within() { awk -v s="$1" -v b="$2" 'BEGIN { exit !(s <= b) }'; }

# A lookup of a key on the server while the link is down fails within the
# bound; a local key looked up meanwhile is not slowed; the key mounts
# once the link is back.  The remote lookup's status is taken on the
# client, so that a failed ssh is not a failed lookup.
sc_linkdown() {
	local rc fail_s local_s ssh_s back_s bg
	timed ssh_s c_ssh true
	link off
	(t0=$(now)
		c_ssh 'ls /home/bob/ >/dev/null 2>&1; echo $?' > "$RUN/linkdown.rc"
		since "$t0" > "$RUN/linkdown.s") &
	bg=$!
	sleep 2
	timed local_s c_ssh ls /local/scratch/
	check linkdown-local-served mounted /local/scratch
	check linkdown-remote-still-waiting kill -0 "$bg"
	wait "$bg"
	rc=$(cat "$RUN/linkdown.rc")
	fail_s=$(cat "$RUN/linkdown.s")
	check linkdown-lookup-fails test -n "$rc" -a "$rc" != 0
	check linkdown-fails-within-bound within "$fail_s" $LINKDOWN_BOUND
	link on
	timed back_s wait_until 180 c_ssh cat /home/bob/.site
	check linkdown-mounts-after mounted /home/bob
	figure ssh-round-trip-s "$ssh_s"
	figure linkdown-lookup-failed-after-s "$fail_s"
	figure linkdown-local-lookup-s "$local_s"
	figure linkdown-mounts-after-link-back-s "$back_s"
}

# tasks in D state on the client (the kernel's among them)
d_tasks() { c_ssh "ps -eo stat=,comm= | awk '\$1 ~ /^D/ { print \$2 }' | sort | uniq -c | paste -sd' '"; }
no_d_tasks() { [ -z "$(d_tasks)" ]; }

# An idle mount of a server that is gone reaches its timeout: the local
# map's expiry and other users' lookups go on meanwhile, and a local mount
# made after it expires too; what becomes of the dead mount, and which
# tasks wait on the server, is reported, not judged.  Once the link is
# back, nothing waits any more.
sc_expiry() {
	local local_s state=unmounted t0 end
	c_ssh 'cat /home/bob/.site; ls /local/scratch/ /proj/data/' >/dev/null
	link off
	t0=$(now)
	end=$((SECONDS + 120))
	check expiry-local-goes wait_until 120 not_mounted /local/scratch
	timed local_s c_ssh ls /local/scratch/
	# /home's 60 s and the tick past it, twice over
	while [ $SECONDS -lt $end ]; do sleep 1; done
	check expiry-mount-table-readable c_ssh timeout 10 cat /proc/self/mounts
	mounted /home/bob && state=mounted
	figure expiry-dead-home-after-s "$(since "$t0")"
	figure expiry-waiting-tasks "$(d_tasks)"
	c_ssh ls /local/scratch/ >/dev/null
	check expiry-local-after-dead-goes wait_until 120 not_mounted /local/scratch
	link on
	check expiry-nothing-waits-after-link-back wait_until 120 no_d_tasks
	figure expiry-local-lookup-while-server-gone-s "$local_s"
	figure expiry-dead-home-state "$state"
}

acked() { c_ssh 'tail -1 /tmp/acked' | cut -d' ' -f1; }
acked_at_least() { [ "$(acked)" -ge "$1" ] 2>/dev/null; }
writer_gone() { c_ssh '! pgrep -x site-writer'; }
# every record 1..N on the server's disk, in order, none missing
records_on_server() {
	server_sh "awk '\$1 == \"rec\" { if (\$2 != ++n) { bad = 1; exit } }
		END { exit bad || n < $1 }' /srv/export/home/alice/records"
}
# the longest wait between two fsynced records
longest_wait() {
	c_ssh "awk 'NR > 1 && \$2 - t > g { g = \$2 - t } { t = \$2 } END { printf \"%.1f\", g }' /tmp/acked"
}

# alice writes and fsyncs in a loop while the server reboots: the writer
# blocks (hard mount), resumes, and every fsynced record is on the server.
sc_serverreboot() {
	local n
	c_ssh 'rm -f /tmp/site-writer.stop /tmp/acked /home/alice/records'
	c_ssh "su alice -c 'setsid site-writer /home/alice/records /tmp/acked </dev/null >/dev/null 2>&1 &'"
	check serverreboot-writing wait_until 60 acked_at_least 5
	server_stop
	server_start
	n=$(acked)
	check serverreboot-writer-resumes wait_until 300 acked_at_least $((n + 5))
	c_ssh touch /tmp/site-writer.stop
	check serverreboot-writer-ends wait_until 60 writer_gone
	n=$(acked)
	check serverreboot-records-on-server records_on_server "$n"
	figure serverreboot-records "$n"
	figure serverreboot-write-blocked-s "$(longest_wait)"
}

# the size of the holder's open file, as its own descriptor sees it
held_size() { c_ssh 'stat -L -c %s /proc/$(cat /tmp/site-hold.pid)/fd/3'; }
# the holder still writes through the file it opened before
holder_writes() {
	local s
	s=$(held_size) && sleep 3 && [ "$(held_size)" -gt "$s" ]
}

switch_to() {
	c_ssh "systemctl disable --now $1 && systemctl enable --now $2" >/dev/null 2>&1
}

# A restart of the unit with a busy mount unmounts nothing busy; so does a
# switch to the other automounter (maps unchanged) and back.
sc_restart() {
	c_ssh "su alice -c 'setsid site-hold /home/alice/hold.log </dev/null >/dev/null 2>&1 &'"
	check restart-holder-writes wait_until 10 holder_writes
	c_ssh systemctl restart "$(unit)"
	check restart-busy-kept mounted /home/alice
	check restart-open-file-works holder_writes
	switch_to "$(unit)" "$(other_unit)"
	check switch-busy-kept mounted /home/alice
	check switch-open-file-works holder_writes
	check switch-other-serves c_ssh ls /proj/data/
	switch_to "$(other_unit)" "$(unit)"
	check switch-back-open-file-works holder_writes
	c_ssh 'kill $(cat /tmp/site-hold.pid)'
}

# What a reboot with the server gone may take: umount_wait (12 s) at most
# for the agent's unmounts, seconds for the rest.  Before umount_wait it
# took 184 s, with it but the unit beside the mount units' stops 24 s
# (their umount(8) walked into the triggers and asked the maps again).
SHUTDOWN_BOUND=30

# systemctl reboot with the server dead and a busy mount: the time from
# the command to the end of the shutdown (the kernel's "reboot:" line),
# and to the next boot's login prompt (the link is back for that boot).
sc_shutdown() {
	local mark t0
	c_ssh "su alice -c 'setsid sh -c \"cd /home/alice && exec sleep 100000\" </dev/null >/dev/null 2>&1 &'"
	c_ssh cat /home/bob/.site >/dev/null
	link off
	mark=$(console_mark)
	t0=$(now)
	c_ssh systemctl reboot
	check shutdown-ends wait_until 900 console_since "$mark" 'reboot: Restarting system'
	figure shutdown-dead-server-s "$(since "$t0")"
	check shutdown-within-bound within "$(since "$t0")" $SHUTDOWN_BOUND
	link on
	check shutdown-boots-again wait_until 900 console_since "$mark" 'Linux version' ' login: '
	figure shutdown-dead-server-to-login-s "$(since "$t0")"
	wait_until 300 client_up
}
