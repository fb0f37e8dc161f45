# SUITE_TIMEOUT=360
# autofsng: the filesystem's traps, the agent call, the negative and
# browse caches, with the test agent test/qemu/progs/autofsng-agent
# standing in for /sbin/autofs.  Measurements go to the console and to
# /run/results/autofsng-measure.txt.  Mount checks read
# /proc/self/mountinfo: findmnt would stat the path and trigger it.
. "$TOP/test/qemu/lib.sh"

PROGS=$BUILDDIR/test/qemu/progs
AGENT=$PROGS/autofsng-agent
HAMMER=$PROGS/autofsng-hammer
AD=/run/autofsng-agent
MEASURE=/run/results/autofsng-measure.txt

measure() {
	echo "MEASURE $*" | tee -a "$MEASURE"
}

# lookups KEY: how many times the agent ran "lookup" for KEY
lookups() {
	grep -c "^lookup .* MAPKEY=$1 " "$AD/log" 2>/dev/null
}

# lists MAP: how many times the agent ran "list" for MAP
lists() {
	grep -c "^list .* MAPNAME=$1 " "$AD/log" 2>/dev/null
}

# mounted PATH: an automounted tmpfs is on PATH
mounted() {
	[ "$(mnt_fstype "$1")" = tmpfs ]
}

not_mounted() {
	[ -z "$(mnt_fstype "$1")" ]
}

# mounted_keys DIR: the names below DIR that have a mount, sorted
mounted_keys() {
	awk -v d="$1/" 'index($5, d) == 1 { print substr($5, length(d) + 1) }' \
		/proc/self/mountinfo | sort -u
}

ms_now() {
	echo $(( $(date +%s%N) / 1000000 ))
}

# fails EXPECTED-ERRNO-TEXT CMD...: CMD fails and says so
fails_with() {
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "'$*' succeeded"
		return 1
	fi
	case "$out" in
	*"$want"*) return 0 ;;
	*) echo "'$*': $out"; return 1 ;;
	esac
}

if [ ! -x "$AGENT" ] || [ ! -x "$HAMMER" ]; then
	t_fail progs "$AGENT or $HAMMER missing: run make in $BUILDDIR"
	exit 0
fi
: > "$MEASURE"
mkdir -p "$AD" /mnt/auto /mnt/direct /mnt/browse /mnt/big /mnt/bad
: > "$AD/log"

# --- sysctls and mount options -------------------------------------------

t_eq sysctl-agent-default /sbin/autofs "$(cat /proc/sys/fs/autofsng/agent)"
t_eq sysctl-timeout-default 60 "$(cat /proc/sys/fs/autofsng/agent_timeout)"
echo "$AGENT" > /proc/sys/fs/autofsng/agent
echo 30 > /proc/sys/fs/autofsng/agent_timeout

bad_option() {
	local name=$1 opts=$2 word=$3
	dmesg -C
	if mount -t autofsng -o "$opts" auto.bad /mnt/bad 2>/dev/null; then
		umount /mnt/bad
		t_fail "option-$name" "mount -o $opts succeeded"
	elif dmesg | grep -q "autofsng.*$word"; then
		t_pass "option-$name"
	else
		t_fail "option-$name" "no kernel log line naming '$word': $(dmesg | tail -2 | tr '\n' ' ')"
	fi
}
bad_option mapkey-indirect indirect,mapkey=k mapkey
bad_option mapoffset-indirect mapoffset=/x mapoffset
bad_option direct-needs-mapoffset direct,mapkey=k mapoffset
bad_option direct-needs-mapkey direct,mapoffset=/x mapkey
bad_option duplicate negative_timeout=1,negative_timeout=2 negative_timeout
bad_option contradiction browse,nobrowse nobrowse
bad_option unknown bogus=1 bogus
bad_option bad-number cache_ttl=soon cache_ttl
t_ok option-opt-value mount -t autofsng -o opt=-rw auto.ok /mnt/bad
t_eq option-show "indirect nobrowse opt=-rw negative_timeout=60 cache_ttl=600" \
	"$(findmnt -no OPTIONS /mnt/bad | tr , '\n' | grep -v -e '^r[ow]$' -e '^relatime$' | tr '\n' ' ' | sed 's/ $//')"
umount /mnt/bad

# --- indirect: trap, walk continues, the environment ----------------------

cat > "$AD/map" <<EOF
alpha ok
beta ok
gamma ok
delta ok
failing fail 3
crashing crash
empty nomount
selfloop selftrap
missing-later fail 1
slow sleep 1
stuck hang
nsk ok
userk ok
pt passthrough /mnt/auto/pt
tkey ok
dkey ok
extra ok
EOF
for i in $(seq 0 63); do echo "k$i sleep 0.5"; done >> "$AD/map"

mount -t autofsng -o indirect,opt=rw,negative_timeout=3 auto.test /mnt/auto ||
	t_fail mount-indirect "mount -t autofsng failed"

t_eq indirect-cat alpha "$(cat /mnt/auto/alpha/hello 2>&1)"
t_ok indirect-mounted mounted /mnt/auto/alpha
t_eq indirect-cd beta "$(cd /mnt/auto/beta 2>&1 && cat hello)"
stat /mnt/auto/gamma >/dev/null 2>&1
t_ok indirect-stat-triggers mounted /mnt/auto/gamma
t_ok indirect-open-dir sh -c 'ls /mnt/auto/delta | grep -qx hello'
cat /mnt/auto/alpha/hello /mnt/auto/alpha/env >/dev/null; stat /mnt/auto/alpha/. >/dev/null
t_eq indirect-one-call 1 "$(lookups alpha)"
t_eq indirect-env "MAPNAME=auto.test
MAPKEY=alpha
MAPOFFSET=
MAPOPTIONS=rw
MOUNTFD=3
MNTNSFD=4
UID=0
GID=0
HOME=/
PATH=/sbin:/bin:/usr/sbin:/usr/bin" "$(cat /mnt/auto/alpha/env)"
t_ok indirect-env-nothing-else grep -q "^lookup .* envc=10 .* MAPKEY=alpha " "$AD/log"
# The agent leads its own session: its process group is what passes the traps.
line=$(grep -m1 "MAPKEY=alpha " "$AD/log")
pid=$(echo "$line" | sed -n 's/.* pid=\([0-9]*\) .*/\1/p')
t_ok agent-own-process-group sh -c "echo '$line' | grep -q ' pgid=$pid sid=$pid '"

# --- failures and the negative cache ---------------------------------------

t_ok missing-enoent fails_with "No such file" stat /mnt/auto/nokey
t_ok missing-enoent-again fails_with "No such file" stat /mnt/auto/nokey
t_eq missing-negative-cached 1 "$(lookups nokey)"
# negative_timeout is 3 s: the repeat comes at once, before TCG eats it up
t_ok failing-enoent fails_with "No such file" ls /mnt/auto/failing
t_ok negative-stat-no-helper fails_with "No such file" stat /mnt/auto/failing
t_eq negative-stat-no-helper-count 1 "$(lookups failing)"
sleep 3.2
t_ok negative-expires fails_with "No such file" stat /mnt/auto/failing
t_eq negative-expires-count 2 "$(lookups failing)"
for k in failing crashing empty; do
	[ $k = failing ] || t_ok "$k-enoent" fails_with "No such file" ls /mnt/auto/$k
	t_ok "$k-nothing-mounted" not_mounted /mnt/auto/$k
	[ $k = failing ] || t_eq "$k-one-call" 1 "$(lookups $k)"
done
t_ok failure-logged sh -c "dmesg | grep -q \"lookup of key 'failing' in map auto.test failed\""
t_ok no-leftover-agents sh -c "! pgrep -x autofsng-agent"

# --- 64 walkers on one key, 64 keys at once --------------------------------

out=$("$HAMMER" same 64 /mnt/auto/slow/hello 2>&1)
t_eq same-key-64-ok "ok=64 fail=0" "$(echo "$out" | tail -1 | cut -d' ' -f1-2)"
t_eq same-key-64-one-agent 1 "$(lookups slow)"
out=$("$HAMMER" keys 64 /mnt/auto/k /hello 2>&1)
t_eq many-keys-64-ok "ok=64 fail=0" "$(echo "$out" | tail -1 | cut -d' ' -f1-2)"
t_eq many-keys-64-agents 64 "$(grep -c '^lookup .* MAPKEY=k[0-9]* ' "$AD/log")"
measure "64 concurrent keys (agent sleeps 0.5 s each): $out"

# --- a hung agent: killable waiters, the time limit -------------------------

echo 6 > /proc/sys/fs/autofsng/agent_timeout
dmesg -C
start=$(ms_now)
stat /mnt/auto/stuck >/dev/null 2>&1 & a=$!
sleep 0.5
stat /mnt/auto/stuck >/dev/null 2>&1 & b=$!
stat /mnt/auto/stuck >/dev/null 2>&1 & c=$!
sleep 1
t0=$(ms_now); kill -9 $a; wait $a 2>/dev/null; ka=$(( $(ms_now) - t0 ))
t0=$(ms_now); kill -9 $b; wait $b 2>/dev/null; kb=$(( $(ms_now) - t0 ))
[ $ka -lt 1000 ] && t_pass kill-first-waiter || t_fail kill-first-waiter "took $ka ms"
[ $kb -lt 1000 ] && t_pass kill-other-waiter || t_fail kill-other-waiter "took $kb ms"
if kill -0 $c 2>/dev/null; then t_pass others-keep-waiting; else t_fail others-keep-waiting "third waiter gone early"; fi
wait $c; rc=$?
took=$(( $(ms_now) - start ))
[ $rc -ne 0 ] && t_pass hung-agent-error || t_fail hung-agent-error "stat succeeded"
[ $took -ge 5000 ] && [ $took -lt 12000 ] && t_pass hung-agent-limit || t_fail hung-agent-limit "ended after $took ms"
t_ok hung-agent-logged sh -c "dmesg | grep -q 'ran past fs.autofsng.agent_timeout'"
t_eq hung-agent-one-call 1 "$(lookups stuck)"
sleep 0.5
t_ok hung-agent-killed sh -c "! pgrep -x autofsng-agent"
echo 30 > /proc/sys/fs/autofsng/agent_timeout

# --- namespaces --------------------------------------------------------------

out=$(unshare -m --propagation private sh -c 'cat /mnt/auto/nsk/hello && grep -c " /mnt/auto/nsk " /proc/self/mountinfo' 2>&1)
t_eq mntns-gets-mount "nsk 1" "$(echo $out)"
t_ok mntns-parent-unaffected not_mounted /mnt/auto/nsk
# a user namespace is served as the host user it is (autofsng(5)): with
# no mount namespace of its own, the mount is the host's
t_eq userns-served userk "$(setpriv --reuid=1000 --regid=1000 --clear-groups \
	unshare -U -r cat /mnt/auto/userk/hello 2>&1)"
t_eq userns-one-agent 1 "$(lookups userk)"
t_ok userns-host-uid grep -q "^lookup .* MAPKEY=userk .*UID=1000 " "$AD/log"

# --- the agent's process group passes through its own trap --------------------

start=$(ms_now)
t_eq passthrough-mounts pt "$(cat /mnt/auto/pt/hello 2>&1)"
took=$(( $(ms_now) - start ))
[ $took -lt 10000 ] && t_pass passthrough-no-deadlock || t_fail passthrough-no-deadlock "took $took ms"
t_ok passthrough-agent-walked grep -q "passthrough open /mnt/auto/pt status 0" "$AD/log"

# --- unmount and trigger again ----------------------------------------------

t_ok umount-key umount /mnt/auto/alpha
t_eq retrigger alpha "$(cat /mnt/auto/alpha/hello 2>&1)"
t_eq retrigger-count 2 "$(lookups alpha)"

# --- direct ------------------------------------------------------------------

mount -t autofsng -o direct,mapkey=dkey,mapoffset=/sub,opt=ro auto.direct /mnt/direct ||
	t_fail mount-direct "mount failed"
t_eq direct-cat dkey "$(cat /mnt/direct/hello 2>&1)"
t_ok direct-env sh -c 'grep -qx MAPOFFSET=/sub /mnt/direct/env && grep -qx MAPKEY=dkey /mnt/direct/env && grep -qx MAPNAME=auto.direct /mnt/direct/env && grep -qx MAPOPTIONS=ro /mnt/direct/env'
t_ok direct-umount-tmpfs umount /mnt/direct
t_eq direct-trap-left autofsng "$(mnt_fstype /mnt/direct)"
t_eq direct-retrigger dkey "$(cat /mnt/direct/hello 2>&1)"
umount /mnt/direct; umount /mnt/direct
mount -t autofsng -o direct,mapkey=nodkey,mapoffset=/ auto.direct /mnt/direct
t_ok direct-missing-enoent fails_with "No such file" ls /mnt/direct/
t_eq direct-missing-once 1 "$(lookups nodkey)"
umount /mnt/direct

# --- browse --------------------------------------------------------------------

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds; the ms
# it took on stdout, nothing (and failure) when SECONDS run out
wait_for() {
	local limit=$(( $1 * 10 )) i=0 start
	shift
	start=$(ms_now)
	while ! "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -ge $limit ] && return 1
		sleep 0.1
	done
	echo $(( $(ms_now) - start ))
}

# browse_is DIR WORDS: ls DIR lists exactly WORDS
browse_is() {
	[ "$(ls "$1" | tr '\n' ' ' | sed 's/ $//')" = "$2" ]
}

lists_are() {
	[ "$(lists "$1")" = "$2" ]
}

printf 'b1\nb2\nb1\nbad/key\nstar*\n.\n..\n%s\nnul\0x\n\nb3' "$(head -c 300 /dev/zero | tr '\0' a)" > "$AD/list"
echo 7 > "$AD/chunk"
touch "$AD/late"
# Mounting a browse map lists it in the background: the first ls waits
# for that run at most, and runs no agent of its own.
mount -t autofsng -o browse,cache_ttl=3,negative_timeout=3 auto.browse /mnt/browse
t_eq browse-keys "b1 b2 b3" "$(ls /mnt/browse | tr '\n' ' ' | sed 's/ $//')"
t_eq browse-one-list 1 "$(lists auto.browse)"
ls -l /mnt/browse >/dev/null
t_eq browse-ls-l-mounts-nothing 0 "$(lookups b1)"
t_eq browse-extra extra "$(cat /mnt/browse/extra/hello 2>&1)"
t_eq browse-lists-mounted "b1 b2 b3 extra" "$(ls /mnt/browse | tr '\n' ' ' | sed 's/ $//')"
sleep 1.2
t_ok browse-writefd-closed grep -q "late write: Bad file descriptor" "$AD/log"
rm -f "$AD/late" "$AD/chunk"

# Filled at mount: the first ls finds the keys without running the agent.
printf 'f1\nf2\n' > "$AD/list"
mkdir -p /mnt/filled
mount -t autofsng -o browse auto.filled /mnt/filled
t_ok browse-fill-at-mount wait_for 20 lists_are auto.filled 1
t_eq browse-fill-first-ls "f1 f2" "$(ls /mnt/filled | tr '\n' ' ' | sed 's/ $//')"
t_eq browse-fill-first-ls-no-agent 1 "$(lists auto.filled)"
umount /mnt/filled

# After cache_ttl (3 s, from the end of the last refresh) a listing gets
# the old keys and starts a refresh: the change shows within cache_ttl
# plus one refresh of the change, with one agent run.  The runs are
# counted from here: on a debug kernel the steps above can outlast
# cache_ttl, and a listing among them rightly refreshed once more.
n0=$(lists auto.browse)
printf 'b1\nb4\n' > "$AD/list"
took=$(wait_for 20 browse_is /mnt/browse "b1 b4 extra")
if [ -n "$took" ] && [ "$took" -le 6000 ]; then
	t_pass browse-ttl-refresh
else
	t_fail browse-ttl-refresh "new keys not listed within 6 s (cache_ttl 3 s + one refresh): '${took:-never}' ms"
fi
measure "browse map change listed after $took ms (cache_ttl 3 s)"
t_eq browse-ttl-two-lists $((n0 + 1)) "$(lists auto.browse)"

# A refresh that fails keeps the old keys, and says so.
touch "$AD/list-fail"
dmesg -C
sleep 3.5
t_eq browse-failed-refresh-serves-old "b1 b4 extra" "$(ls /mnt/browse | tr '\n' ' ' | sed 's/ $//')"
t_ok browse-failed-refresh-ran wait_for 10 lists_are auto.browse $((n0 + 2))
t_eq browse-failed-refresh-keeps "b1 b4 extra" "$(ls /mnt/browse | tr '\n' ' ' | sed 's/ $//')"
t_ok browse-failed-refresh-logged sh -c "dmesg | grep -q 'listing map auto.browse failed'"
rm -f "$AD/list-fail"

# A slow agent: listings during its refresh get the old keys at once,
# and there is one refresh in flight, whoever lists.
printf 'b1\nb5\n' > "$AD/list"
echo 4 > "$AD/list-sleep"
sleep 3.5
start=$(ms_now)
t_eq browse-slow-refresh-old "b1 b4 extra" "$(ls /mnt/browse | tr '\n' ' ' | sed 's/ $//')"
took=$(( $(ms_now) - start ))
[ $took -lt 2000 ] && t_pass browse-slow-refresh-at-once ||
	t_fail browse-slow-refresh-at-once "ls took $took ms with a 4 s list agent"
wait_for 10 grep -q "^list-start .* MAPNAME=auto.browse " "$AD/log" >/dev/null
for i in 1 2 3; do ls /mnt/browse >/dev/null; done
t_eq browse-slow-refresh-one-run 1 "$(grep -c "^list-start .* MAPNAME=auto.browse " "$AD/log")"
t_ok browse-slow-refresh-lands wait_for 20 browse_is /mnt/browse "b1 b5 extra"
t_eq browse-slow-refresh-lists $((n0 + 3)) "$(lists auto.browse)"

# umount while a refresh runs: it succeeds, the refresh ends on its own
# (holding the superblock, not the mount), and the map mounts again.
sleep 3.5
ls /mnt/browse >/dev/null
refreshing() {
	[ "$(grep -c "^list-start .* MAPNAME=auto.browse " "$AD/log")" = 2 ]
}
umount /mnt/browse/extra
t_ok browse-umount-refresh-running wait_for 10 refreshing
t_ok browse-umount-during-refresh umount /mnt/browse
t_ok browse-umount-gone not_mounted /mnt/browse
t_ok browse-umount-refresh-ends wait_for 20 lists_are auto.browse $((n0 + 4))
rm -f "$AD/list-sleep"
t_ok browse-umount-mounts-again mount -t autofsng -o browse,cache_ttl=3 auto.browse /mnt/browse
t_eq browse-umount-again-keys "b1 b5" "$(ls /mnt/browse | tr '\n' ' ' | sed 's/ $//')"
umount /mnt/browse

t_eq nobrowse-lists-mounted "$(mounted_keys /mnt/auto | tr '\n' ' ')" \
	"$(ls /mnt/auto | sort | tr '\n' ' ')"
t_eq nobrowse-no-list 0 "$(lists auto.test)"

seq -f 'key%06g' 0 99999 > "$AD/list"
mount -t autofsng -o browse,cache_ttl=5 auto.big /mnt/big
cold=$("$HAMMER" readdir /mnt/big)
warm=$("$HAMMER" readdir /mnt/big)
t_eq browse-100k-cold 100000 "${cold%% *}"
t_eq browse-100k-warm 100000 "${warm%% *}"
t_eq browse-100k-ls 100000 "$(ls /mnt/big | wc -l)"
measure "100k-key browse readdir (getdents64 loop): first ${cold#* } ms (waits for the fill started at mount), again ${warm#* } ms"
start=$(ms_now); ls /mnt/big >/dev/null; measure "100k-key browse ls (warm, sorted): $(( $(ms_now) - start )) ms"
rm -f /tmp/go /tmp/go.started
"$HAMMER" readdir-pause /mnt/big /tmp/go > /tmp/paused & p=$!
while [ ! -e /tmp/go.started ] && kill -0 $p 2>/dev/null; do sleep 0.1; done
seq -f 'new%06g' 0 49999 > "$AD/list"
big_is_new() { [ "$(ls /mnt/big | wc -l)" = 50000 ]; }
t_ok browse-refresh-during-listing-new wait_for 30 big_is_new
touch /tmp/go
wait $p
t_eq browse-refresh-during-listing-old 100000 "$(cat /tmp/paused)"
umount /mnt/big

# --- a trap attached onto its own trap -----------------------------------
# What an agent leaves when a source resolves through a trigger: a clone
# of the trap on the trap.  The walk would enter it and fire again, one
# more clone each time; the kernel fails it with ELOOP after one run, and
# every later walk through it too, without running the agent.
dmesg -C
out=$(timeout 20 stat /mnt/auto/selfloop/x 2>&1)
t_ok selftrap-eloop grep -q 'Too many levels of symbolic links' <<<"$out"
t_eq selftrap-one-run 1 "$(lookups selfloop)"
out=$(timeout 20 ls /mnt/auto/selfloop 2>&1)
t_ok selftrap-again-eloop grep -q 'Too many levels of symbolic links' <<<"$out"
t_eq selftrap-again-no-run 1 "$(lookups selfloop)"
t_eq selftrap-one-clone 1 "$(awk '$5 == "/mnt/auto/selfloop"' /proc/self/mountinfo | wc -l)"
t_ok selftrap-logged sh -c "dmesg | grep -q \"key 'selfloop' .*its trigger is mounted on a trigger\""
t_ok selftrap-umount umount /mnt/auto/selfloop

# --- figures ---------------------------------------------------------------------

us=$("$HAMMER" time /mnt/auto/tkey/hello)
measure "access to mounted (stat of tkey/hello, trivial tmpfs agent): $us us"
mkdir -p /tmp/plain/dir && echo x > /tmp/plain/dir/hello
mkdir -p /mnt/auto2 && mount -t tmpfs tmpfs /mnt/auto2 && mkdir /mnt/auto2/tkey && echo x > /mnt/auto2/tkey/hello
ns_key=$("$HAMMER" statloop 20000 /mnt/auto/tkey/hello)
ns_plain=$("$HAMMER" statloop 20000 /mnt/auto2/tkey/hello)
ns_key2=$("$HAMMER" statloop 20000 /mnt/auto/tkey/hello)
ns_plain2=$("$HAMMER" statloop 20000 /mnt/auto2/tkey/hello)
measure "stat of a mounted key: $ns_key / $ns_key2 ns; same depth through a plain tmpfs dir + mount: $ns_plain / $ns_plain2 ns"
umount /mnt/auto2
umount -l /mnt/auto
