#!/bin/bash
# `autofs test` and `autofs dump` on real map files and program maps, with
# configuration variations and bad input; nothing is mounted.
. "${srcdir:-.}/test/integration/lib.sh"

cat > "$T/auto.master" <<'M'
/home	auto.home	--timeout=90 -rw
/-	auto.direct
/prog	auto.prog
+auto.master
M
cat > "$T/auto.home" <<'M'
alice	-soft	server:/export/home/alice
*	server:/export/home/&
+auto.extra
M
printf 'extra\tother:/x\n+auto.home\n' > "$T/auto.extra"
printf '/data/x\t:/srv/x\n' > "$T/auto.direct"
cat > "$T/auto.prog" <<'P'
#!/bin/sh
case "$1" in
good) echo "-fstype=tmpfs :tmpfs" ;;
multi) printf -- '/ server:/srv/a \\\n /b server:/srv/b\n' ;;
hang) sleep 30 ;;
detach) exec >&- 2>&-; sleep 41 & sleep 42 ;;
answer-then-hang) echo "server:/a"; exec >&- 2>&-; sleep 43 ;;
leave-child) sleep 44 >/dev/null 2>&1 & echo "server:/left" ;;
env) echo "server:/$AUTOFS_UID/$AUTOFS_USER/$AUTOFS_HOME/$HOST/$FOO/u$USER" ;;
lenv) echo "server:/$host/$os/$byte" ;;
flood) yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx ;;
noisy) echo "looked up $1" >&2; echo "server:/n" ;;
suid) echo "-suid,dev,fstype=tmpfs :tmpfs" ;;
"*") echo "server:/wildcard" ;;
*) exit 1 ;;
esac
P
chmod +x "$T/auto.prog"

expect test-file-key 0 "from server:/export/home/alice" $AUTOFS test auto.home alice
expect test-source-named 0 "source file:$T/auto.home" $AUTOFS test auto.home alice
expect test-wildcard 0 "from server:/export/home/carol" $AUTOFS test auto.home carol
expect test-include 0 "from other:/x" $AUTOFS test auto.home extra
expect test-timeout-option 0 "expire after 90 s" $AUTOFS test auto.home alice --timeout=90
expect test-default-timeout 0 "expire after 600 s" $AUTOFS test auto.home alice
expect test-direct 0 "from /srv/x" $AUTOFS test auto.direct /data/x
# The requester's names (USER GROUP HOME) cost a name-service lookup, which
# on a real site may go to LDAP or SSSD: made only for an entry that uses one
printf 'plain\tserver:/p\nmine\tserver:/home/$USER\nbraced\tserver:/g/${GROUP}\n' > "$T/auto.names"
names_read() {	# KEY: how often /etc/passwd or /etc/group was opened for it
	strace -f -e trace=openat -o "$T/names.strace" $AUTOFS test auto.names "$1" >/dev/null 2>&1
	grep -cE '"/etc/(passwd|group)"' "$T/names.strace"
}
[ "$(names_read plain)" = 0 ] && pass names-not-looked-up ||
	fail names-not-looked-up "an entry without \$USER read $(names_read plain) name files"
[ "$(names_read mine)" -gt 0 ] && pass names-looked-up-for-user ||
	fail names-looked-up-for-user "\$USER expanded without a lookup?"
expect test-names-user 0 "from server:/home/$(id -un)" $AUTOFS test auto.names mine
expect test-names-group 0 "from server:/g/$(id -gn)" $AUTOFS test auto.names braced
# An entry from outside the host (here a program's output) mounts
# nosuid,nodev whatever it says; only the master map's options lift them
expect foreign-nosuid-nodev 0 "options nosuid,nodev" $AUTOFS test auto.prog suid
expect foreign-master-suid 0 "options suid,nodev" $AUTOFS test auto.prog suid -suid
expect foreign-master-suid-dev 0 "options suid,dev" $AUTOFS test auto.prog suid -suid,dev
printf 'own\t-suid,fstype=tmpfs :tmpfs\n' > "$T/auto.local"
expect local-file-suid-kept 0 "options suid" $AUTOFS test auto.local own
# the file map is built into the agent: no map_file.so is opened for it
strace -f -e trace=openat -o "$T/builtin.strace" $AUTOFS test auto.home alice >/dev/null 2>&1
[ "$(grep -c 'map_file\.so' "$T/builtin.strace")" = 0 ] && pass file-map-built-in ||
	fail file-map-built-in "map_file.so was opened"
expect test-direct-missing 3 "" $AUTOFS test auto.direct /data/y
expect test-program 0 "tmpfs via module generic" $AUTOFS test auto.prog good
expect test-program-source 0 "source program:$T/auto.prog" $AUTOFS test auto.prog good
expect test-program-multi 0 "mount /b" $AUTOFS test auto.prog multi
expect test-program-nokey 3 "" $AUTOFS test auto.prog nosuch
expect test-program-stderr 0 "stderr: looked up noisy" $AUTOFS test auto.prog noisy
printf '[general]\nmap_dir = %s\nsources = files\nprogram_timeout = 1\nprogram_max_output = 4096\n' "$T" > "$T/short.conf"
start=$(date +%s)
expect test-program-hang 4 "no answer within 1 s, killed" env AUTOFS_AGENT_CONF=$T/short.conf $AUTOFS test auto.prog hang
[ $(($(date +%s) - start)) -le 5 ] && pass program-hang-bounded || fail program-hang-bounded "took $(($(date +%s) - start)) s"
expect test-program-flood 4 "more than 4096 bytes of output" env AUTOFS_AGENT_CONF=$T/short.conf $AUTOFS test auto.prog flood
# program_timeout runs from fork to exit: a map that closes its output and
# keeps running is killed at the deadline with everything in its process
# group, and whatever a map leaves in its group when it exits dies with it
for k in detach:41 answer-then-hang:43; do
	start=$(date +%s%N)
	expect "test-program-$k" 4 "no answer within 1 s, killed" env AUTOFS_AGENT_CONF=$T/short.conf $AUTOFS test auto.prog "${k%:*}"
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $ms -le 2000 ] && pass "program-${k%:*}-within-deadline" || fail "program-${k%:*}-within-deadline" "took $ms ms"
	pgrep -x -f "sleep ${k#*:}" >/dev/null && fail "program-${k%:*}-group-killed" "$(pgrep -a -f "sleep ${k#*:}")" ||
		pass "program-${k%:*}-group-killed"
done
expect test-program-leave-child 0 "from server:/left" $AUTOFS test auto.prog leave-child
pgrep -x -f "sleep 44" >/dev/null && fail program-leave-child-killed "$(pgrep -a -f "sleep 44")" ||
	pass program-leave-child-killed
# the environment autofs-tools gives a program map: the requester's identity
# as AUTOFS_*, the system variables and the -D defines; not USER or HOME
me=$(id -un)
home=$(getent passwd "$me" | cut -d: -f6)
expect test-program-env 0 "from server:/$(id -u)/$me/$home/$(uname -n)/bar/u" \
	$AUTOFS test auto.prog env -DFOO=bar
# and the lower-case ones autofs-tools sets for sun maps (maps read ${host}
# from them); ${os} is amd's, not set
short=$(uname -n); short=${short%%.*}
expect test-program-env-lower 0 "from server:/$short//little" \
	$AUTOFS test auto.prog lenv
expect test-explicit-type 0 "source file:$T/auto.home" $AUTOFS test file:auto.home alice

# bad keys are refused before any map is read
for k in ../etc a/b -oremount . .. $'a\nb' $'tab\tkey'; do
	expect "refuse-key-$k" 3 "refused key" $AUTOFS test auto.home "$k"
done
# ... and logged escaped, on one line: a key cannot forge a log line, or
# send a terminal escape to whoever reads the log
keys=("a
autofs: forged line" "esc$(printf '\033')[2J" "tab$(printf '\t')x" 'back\slash/x' "del$(printf '\177')")
logged=('a\nautofs: forged line' 'esc\x1b[2J' 'tab\tx' 'back\\slash/x' 'del\x7f')
for i in "${!keys[@]}"; do
	out=$($AUTOFS test auto.home "${keys[$i]}" 2>&1 >/dev/null)
	if [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
		printf '%s' "$out" | grep -qF "refused key '${logged[$i]}'" &&
		! printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\001-\037\177]')"; then
		pass "refused-key-escaped-${logged[$i]}"
	else
		fail "refused-key-escaped-${logged[$i]}" "$(printf '%s' "$out" | od -c | head -3)"
	fi
done

# bad input in maps: the key fails alone, with a clear message
{
	printf 'good\tserver:/g\n'
	printf 'quote\t"server:/q\n'
	printf 'long\t'; head -c 1048576 /dev/zero | tr '\0' a; printf '\n'
	printf 'after\tserver:/after\n'
} > "$T/auto.bad"
expect bad-good-key 0 "from server:/g" $AUTOFS test auto.bad good
expect bad-unterminated 5 "malformed entry: unterminated quote" $AUTOFS test auto.bad quote
expect bad-long-line 3 "line longer than 65536 bytes, skipped" $AUTOFS test auto.bad long
expect bad-after-long 0 "from server:/after" $AUTOFS test auto.bad after
printf 'loop\tserver:/l\n+auto.loop2\n' > "$T/auto.loop1"
printf '+auto.loop1\n' > "$T/auto.loop2"
expect include-loop 3 "include loop" $AUTOFS test auto.loop1 nothere
expect include-loop-found 0 "from server:/l" $AUTOFS test auto.loop2 loop
expect missing-map 8 "map auto.nosuch: not found in any source" $AUTOFS test auto.nosuch alice
printf 'x\tserver:/x\n' > "$T/auto.unreadable"
chmod 000 "$T/auto.unreadable"
if [ "$(id -u)" != 0 ]; then
	expect unreadable-map 4 "cannot read map" $AUTOFS test auto.unreadable x
fi
mkdir -p "$T/auto.isdir"
expect unreadable-map-is-unavailable 4 "cannot read map" $AUTOFS test auto.isdir x
expect bad-map-type 2 "unknown map type" $AUTOFS test hesiod:auto.home alice

# a map file truncated and rewritten in place while lookups read it: each
# lookup finds the key or not, and none dies (a mapped file gave SIGBUS)
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "key%d\tserver:/export/key%d\n", i, i }' > "$T/auto.churn.src"
cp "$T/auto.churn.src" "$T/auto.churn"
/usr/bin/python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "r+b") as f:
    while True:
        f.truncate(0)
        f.seek(0)
        f.write(data)
        f.flush()
' "$T/auto.churn.src" "$T/auto.churn" &
churn=$!
found=0 missing=0 bad=
for i in $(seq 200); do
	out=$($AUTOFS test auto.churn key20000 2>&1)
	rc=$?
	case $rc in
	0) found=$((found + 1)) ;;
	3) missing=$((missing + 1)) ;;
	*) bad="lookup $i: exit $rc: $(echo "$out" | tail -2)"; break ;;
	esac
done
kill $churn
wait $churn 2>/dev/null
[ -z "$bad" ] && pass "map-truncated-200-lookups" || fail map-truncated-200-lookups "$bad"
echo "# truncated map: key found $found times, missing $missing times"

# configuration
printf '[general]\ntimeout = 12\nmap_dir = %s\n' "$T" > "$T/t.conf"
expect conf-timeout 0 "expire after 12 s" env AUTOFS_AGENT_CONF=$T/t.conf $AUTOFS test auto.home alice
# strictexpire: the configuration default applies to every master entry,
# and without it (or with "no") a mount is made without the strict flag
printf '[general]\nmap_dir = %s\nstrictexpire = yes\nmaster = auto.master.strict\n' "$T" > "$T/strict.conf"
printf '[general]\nmap_dir = %s\nstrictexpire = no\nmaster = auto.master.strict\n' "$T" > "$T/nostrict.conf"
printf '/s\tauto.home\t--timeout=30\n/o\tauto.home\t-strictexpire\n' > "$T/auto.master.strict"
STRICT="strictexpire: only references keep it"
expect conf-strictexpire-applies 0 "expire after 30 s, $STRICT" env AUTOFS_AGENT_CONF=$T/strict.conf $AUTOFS test /s alice
expect conf-strictexpire-map 0 "expire after 600 s, $STRICT" env AUTOFS_AGENT_CONF=$T/strict.conf $AUTOFS test auto.home alice
for c in t nostrict; do
	out=$(env AUTOFS_AGENT_CONF=$T/$c.conf $AUTOFS test auto.home alice 2>&1)
	case $out in
	*strictexpire*) fail "conf-strictexpire-off-$c" "$out" ;;
	*"expire after "*) pass "conf-strictexpire-off-$c" ;;
	*) fail "conf-strictexpire-off-$c" "$out" ;;
	esac
done
expect conf-strictexpire-master-option 0 "$STRICT" env AUTOFS_AGENT_CONF=$T/nostrict.conf $AUTOFS test /o alice
printf '[general]\nstrictexpire = sometimes\n' > "$T/badstrict.conf"
expect conf-strictexpire-bad 2 "strictexpire: 'sometimes' is not yes or no" env AUTOFS_AGENT_CONF=$T/badstrict.conf $AUTOFS test auto.home alice
printf '[general]\ntimeout = never\n' > "$T/bad.conf"
expect conf-error 2 "bad.conf:2: timeout: 'never' is not a number" env AUTOFS_AGENT_CONF=$T/bad.conf $AUTOFS test auto.home alice
expect conf-missing 2 "cannot read configuration" env AUTOFS_AGENT_CONF=$T/none.conf $AUTOFS test auto.home alice
printf 'passwd: files\nautomount: nis [NOTFOUND=return] files\n' > "$T/nsswitch.conf"
printf '[general]\nmap_dir = %s\n' "$T" > "$T/ns.conf"
expect nsswitch-order 0 "source file:$T/auto.home" env AUTOFS_AGENT_CONF=$T/ns.conf AUTOFS_AGENT_NSSWITCH=$T/nsswitch.conf $AUTOFS test auto.home alice
mkdir -p "$T/other"
printf 'alice\tthere:/a\n' > "$T/other/auto.home"
printf '[general]\nmap_dir = %s/other\n' "$T" > "$T/md.conf"
expect conf-map-dir 0 "from there:/a" env AUTOFS_AGENT_CONF=$T/md.conf $AUTOFS test auto.home alice

# dump
expect dump-master 0 "master map auto.master: 3 entries" $AUTOFS dump
expect dump-entry 0 "location host=server weight=0 path=/export/home/alice" $AUTOFS dump
expect dump-program 0 "cannot list its keys" $AUTOFS dump
printf '/bad\tauto.bad\n' > "$T/auto.badmaster"
expect dump-malformed 5 "malformed: $T/auto.bad:2: unterminated quote" $AUTOFS dump auto.badmaster
mkdir -p "$T/master.d"
printf '/fromdir\tauto.home\n' > "$T/master.d/10-site.autofs"
printf '/ignored\tauto.home\n' > "$T/master.d/README"
printf '+dir:%s/master.d\n/home\tauto.home\n' "$T" > "$T/auto.master.withdir"
out=$($AUTOFS dump auto.master.withdir 2>&1)
case $out in *"master map auto.master.withdir: 2 entries"*"/fromdir auto.home"*) pass master-include-dir ;;
*) fail master-include-dir "$out" ;; esac
case $out in *ignored*) fail master-include-dir-only-autofs "$out" ;; *) pass master-include-dir-only-autofs ;; esac
$AUTOFS test auto.prog noisy <&- >&- 2>&-
rc=$?
[ $rc = 0 ] && pass closed-stdio || fail closed-stdio "exit $rc with stdin, stdout and stderr closed"
expect usage 2 "usage: autofs" $AUTOFS frobnicate

# SIGTERM ends the agent at once, even while it waits for a hung program map
printf '[general]\nmap_dir = %s\nsources = files\nprogram_timeout = 60\n' "$T" > "$T/long.conf"
AUTOFS_AGENT_CONF=$T/long.conf $AUTOFS test auto.prog hang >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
start=$(date +%s)
wait $pid
rc=$?
[ $rc = 1 ] && [ $(($(date +%s) - start)) -le 2 ] && pass sigterm-ends-agent ||
	fail sigterm-ends-agent "rc=$rc after $(($(date +%s) - start)) s"
sleep 0.5
pgrep -f "$T/auto.prog hang" >/dev/null && fail sigterm-kills-program "program map still running" ||
	pass sigterm-kills-program
finish
