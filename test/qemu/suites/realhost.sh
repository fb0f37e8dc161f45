# SUITE_TIMEOUT=600
# realhost: the guest as a systemd host makes it, every mount shared
# (the harness's default), with slave and peer namespaces below it as
# container runtimes make them.  Bind, NFS, direct and multi-mount entries
# mount on access and expire whole; an open file anywhere the tree
# propagated to keeps all of it; slave and peer namespaces reach a key
# with no ELOOP and no hang, and `autofs status` there tells each mount's
# expiry as it is; status itself is no use of a mount; the strictexpire
# default of autofs-agent.conf(5); pivot_root moves as a move; the cost of
# the expiry tick for path walks
# (Documentation/filesystems/expire_semantics.rst).
# Presence is read from /proc/self/mountinfo: a stat would be a use.
. "$TOP/test/qemu/lib.sh"
MFD=$BUILDDIR/test/qemu/progs/mfd
D=/srv/rh
T=3	# the maps' timeout, in 1-second ticks

# count_under DIR: mounts on DIR and below it, in this namespace
count_under() {
	awk -v d="$1" '$5 == d || index($5, d "/") == 1' /proc/self/mountinfo | wc -l
}
# gone_but_trigger DIR SECONDS: until only DIR's autofsng trigger is left
gone_but_trigger() {
	local i
	for i in $(seq "$2"); do
		[ "$(count_under "$1")" = 1 ] && [ "$(mnt_fstype "$1")" = autofsng ] && return 0
		sleep 1
	done
	return 1
}
propagation_of() {
	awk -v p="$1" '$5 == p { s = "private"; for (i = 7; $i != "-"; i++) if ($i ~ /^shared:/) s = "shared" }
		END { print s }' /proc/self/mountinfo
}

t_eq root-shared shared "$(propagation_of /)"
echo 1 > /proc/sys/fs/mount_expire_tick

# --- maps --------------------------------------------------------------------
mkdir -p $D/bind $D/direct $D/multi/a $D/multi/b $D/ma $D/mb $D/slave $D/peer $D/held $D/held2
echo hello-bind > $D/bind/hello
echo hello-direct > $D/direct/hello
echo multi-root > $D/multi/root
echo in-a > $D/ma/f
echo hello-slave > $D/slave/hello
echo hello-peer > $D/peer/hello
echo hello-held > $D/held/hello
echo hello-held2 > $D/held2/hello
head -c 200000 /dev/urandom > $D/mb/blob
nfs_server_start /export/rh || { t_fail nfs-server "nfs_server_start failed"; exit 0; }
echo hello-nfs > "$NFS_ROOT/export/rh/hello"
cat > /etc/auto.master.rh <<MASTER
/mnt/rh	file:/etc/auto.rh	--timeout=$T
/-	/etc/auto.rhdirect	--timeout=$T
/mnt/rhs	file:/etc/auto.rhs	--timeout=$T -strictexpire
/mnt/rhn	file:/etc/auto.rhs	--timeout=$T
/mnt/rhc	file:/etc/auto.rhs	--timeout=$T
/mnt/rhl	file:/etc/auto.rhl	--timeout=60
MASTER
printf '%s\t-fstype=bind\t:/srv/rh/bind\n' cp own pp nc > /etc/auto.rhl
printf 'k\t-fstype=bind\t:/srv/rh/bind\n' > /etc/auto.rhs
cat > /etc/auto.rh <<'MAP'
bind	-fstype=bind	:/srv/rh/bind
nfs	127.0.0.1:/export/rh
multi	/ -fstype=bind :/srv/rh/multi \
	/a -fstype=bind :/srv/rh/ma \
	/b -fstype=bind :/srv/rh/mb
held	/ -fstype=bind :/srv/rh/multi \
	/a -fstype=bind :/srv/rh/held
held2	/ -fstype=bind :/srv/rh/multi \
	/a -fstype=bind :/srv/rh/held2
st	-fstype=bind	:/srv/rh/bind
slave	-fstype=bind	:/srv/rh/slave
peer	-fstype=bind	:/srv/rh/peer
MAP
cat > /etc/auto.rhdirect <<'MAP'
/mnt/rhd/d1	-fstype=bind	:/srv/rh/direct
MAP
autofs stop > /dev/null 2>&1
t_ok start autofs start /etc/auto.master.rh
t_eq trigger-shared shared "$(propagation_of /mnt/rh)"

# --- each kind mounts on access and expires whole on the shared root --------
t_eq bind-read hello-bind "$(cat /mnt/rh/bind/hello 2>&1)"
t_eq nfs-read hello-nfs "$(cat /mnt/rh/nfs/hello 2>&1)"
t_eq direct-read hello-direct "$(cat /mnt/rhd/d1/hello 2>&1)"
t_eq multi-read "multi-root in-a" "$(cat /mnt/rh/multi/root /mnt/rh/multi/a/f 2>&1 | tr '\n' ' ' | sed 's/ $//')"
cmp -s $D/mb/blob /mnt/rh/multi/b/blob && t_pass multi-read-b || t_fail multi-read-b "blob differs"
# the root, a trigger on each offset and a mount on each trigger
t_eq multi-mounted 5 "$(count_under /mnt/rh/multi)"
t_ok multi-shared test "$(propagation_of /mnt/rh/multi)" = shared
t_ok bind-expires mnt_gone_within /mnt/rh/bind $((T * 4))
t_ok nfs-expires mnt_gone_within /mnt/rh/nfs $((T * 4))
t_ok direct-expires gone_but_trigger /mnt/rhd/d1 $((T * 4))
t_ok multi-expires-whole mnt_gone_within /mnt/rh/multi $((T * 4))
t_eq multi-nothing-left 0 "$(count_under /mnt/rh/multi)"

# --- an open file in the deepest mount keeps the whole tree ---------------------
exec 3< /mnt/rh/held/a/hello
n=$(count_under /mnt/rh/held)
sleep $((T * 3 + 2))
t_eq held-tree-kept "$n" "$(count_under /mnt/rh/held)"
t_eq held-data hello-held "$(cat <&3)"
exec 3<&-
t_ok held-released-goes mnt_gone_within /mnt/rh/held $((T * 4))
t_eq held-nothing-left 0 "$(count_under /mnt/rh/held)"

# --- scanners: -strictexpire ----------------------------------------------
# find over both maps every second for three timeouts: with -strictexpire
# it does not keep the idle mount, without it it does.
cat /mnt/rhs/k/hello /mnt/rhn/k/hello > /dev/null
t_eq strict-policy "257 $T" "$("$MFD" getexpire /mnt/rhs/k | cut -d' ' -f1,2)"
for i in $(seq $((T * 3 + 1))); do
	find /mnt/rhs /mnt/rhn -maxdepth 2 > /dev/null 2>&1
	sleep 1
done
t_eq strict-scan-does-not-keep "" "$(mnt_fstype /mnt/rhs/k)"
t_eq scan-keeps-without-strict tmpfs "$(mnt_fstype /mnt/rhn/k)"
t_ok scan-stopped-goes mnt_gone_within /mnt/rhn/k $((T * 4))

# strictexpire = yes in autofs-agent.conf(5) is the default of every master
# entry: /mnt/rhc has no -strictexpire and gets the flag, and the scan does
# not keep its mount (without it, /mnt/rhn above, it does).
cp /etc/autofs-agent.conf /run/rh-agent.conf 2>/dev/null || : > /run/rh-agent.conf
{ cat /run/rh-agent.conf; printf '[general]\nstrictexpire = yes\n'; } > /etc/autofs-agent.conf
cat /mnt/rhc/k/hello > /dev/null
cp /run/rh-agent.conf /etc/autofs-agent.conf
t_eq conf-strict-policy "257 $T" "$("$MFD" getexpire /mnt/rhc/k | cut -d' ' -f1,2)"
for i in $(seq $((T * 3 + 1))); do
	find /mnt/rhc -maxdepth 2 > /dev/null 2>&1
	sleep 1
done
t_eq conf-strict-scan-does-not-keep "" "$(mnt_fstype /mnt/rhc/k)"

# --- autofs status is no use of a mount ------------------------------------
# It reads every mount's expiry without a path walk into it: run every
# second for three timeouts, it keeps neither a single mount nor a tree.
# (held while status first reads them: the debug kernel's status takes
# longer than their timeout)
(cd /mnt/rh/st && exec sleep 600) &
HOLD_ST=$!
(cd /mnt/rh/multi/a && exec sleep 600) &
HOLD_MULTI=$!
for i in $(seq 120); do
	[ -n "$(mnt_fstype /mnt/rh/st)" ] && [ -n "$(mnt_fstype /mnt/rh/multi/a)" ] &&
		[ "$(mnt_fstype /mnt/rh/multi/a)" != autofsng ] && break
	sleep 0.5
done
out=$(autofs status 2>&1)
echo "$out"
kill $HOLD_ST $HOLD_MULTI; wait $HOLD_ST $HOLD_MULTI 2>/dev/null
t_ok status-shows-countdown grep -Eq "/mnt/rh/st .*expires in [0-9]+ s of $T s\$" <<<"$out"
t_ok status-shows-subtree grep -Eq "/mnt/rh/multi/a .*goes with the tree above it" <<<"$out"
for i in $(seq $((T * 3 + 1))); do
	autofs status > /dev/null 2>&1
	sleep 1
done
t_eq status-does-not-keep "" "$(mnt_fstype /mnt/rh/st)"
t_eq status-does-not-keep-tree 0 "$(count_under /mnt/rh/multi)"

# --- a slave namespace (a container's view) ----------------------------------
# It reaches the key itself: the mount is made in its namespace, does not
# propagate back, and expires there on its own.
cat > /tmp/rh-slave.sh <<'SH'
cat /mnt/rh/slave/hello || exit 1
awk '$5 == "/mnt/rh/slave" { n++ } END { print n + 0 }' /proc/self/mountinfo
exec "$1" wait-gone /mnt/rh/slave "$2"
SH
out=$(timeout 30 unshare -m --propagation slave sh /tmp/rh-slave.sh "$MFD" $((T * 4000)) 2>&1)
rc=$?
t_eq slave-access "hello-slave 1" "$(echo "$out" | head -2 | tr '\n' ' ' | sed 's/ $//')"
t_eq slave-expires-there 0 "$rc"
t_eq slave-not-in-parent "" "$(mnt_fstype /mnt/rh/slave)"
# The parent's mount propagates into it; a file held open there keeps the
# parent's mount, which goes once it is closed.
unshare -m --propagation slave sleep 120 &
SLAVE=$!
sleep 1
t_eq slave-sees-parent hello-slave "$(cat /mnt/rh/slave/hello 2>&1)"
nsenter -t $SLAVE -m sh -c 'exec 4< /mnt/rh/slave/hello; sleep '$((T * 3 + 2)) &
HOLD=$!
sleep $((T * 3))
t_eq slave-use-keeps-parent tmpfs "$(mnt_fstype /mnt/rh/slave)"
wait $HOLD
t_ok slave-released-parent-goes mnt_gone_within /mnt/rh/slave $((T * 4))
kill $SLAVE; wait $SLAVE 2>/dev/null

# --- a peer namespace ------------------------------------------------------
# Its mount propagates to the parent; the one tree expires in both views,
# and not while the parent holds a file open in its copy.
unshare -m --propagation shared sleep 120 &
PEER=$!
sleep 1
t_eq peer-access hello-peer "$(timeout 30 nsenter -t $PEER -m cat /mnt/rh/peer/hello 2>&1)"
t_eq peer-in-parent tmpfs "$(mnt_fstype /mnt/rh/peer)"
exec 5< /mnt/rh/peer/hello
sleep $((T * 3 + 2))
t_eq peer-parent-use-keeps bind "$(nsenter -t $PEER -m awk '$5 == "/mnt/rh/peer" { print "bind" }' /proc/self/mountinfo)"
exec 5<&-
t_ok peer-goes-in-parent mnt_gone_within /mnt/rh/peer $((T * 8))
t_eq peer-goes-in-peer 0 "$(nsenter -t $PEER -m awk '$5 == "/mnt/rh/peer"' /proc/self/mountinfo | wc -l)"
kill $PEER; wait $PEER 2>/dev/null

# --- autofs status in slave and peer namespaces ------------------------------
# /mnt/rhl has a 60 s timeout: nothing expires while these look.  In a
# slave namespace: a mount it received from the parent is a propagated
# copy that goes with the parent's mount, with the parent's countdown; one
# it made itself and one it copied when it was made count down there.
cat /mnt/rhl/nc/hello > /dev/null
unshare -m --propagation slave sleep 120 &
SLAVE=$!
sleep 1
cat /mnt/rhl/cp/hello > /dev/null
nsenter -t $SLAVE -m cat /mnt/rhl/own/hello > /dev/null
out=$(nsenter -t $SLAVE -m autofs status 2>&1)
echo "$out"
t_ok status-slave-copy grep -Eq '/mnt/rhl/cp .*a propagated copy: goes with its original, in [0-9]+ s of 60 s$' <<<"$out"
t_ok status-slave-own grep -Eq '/mnt/rhl/own .*expires in [0-9]+ s of 60 s$' <<<"$out"
t_ok status-slave-namespace-copy grep -Eq '/mnt/rhl/nc .*expires in [0-9]+ s of 60 s$' <<<"$out"
out=$(autofs status 2>&1)
t_ok status-parent-original grep -Eq '/mnt/rhl/cp .*expires in [0-9]+ s of 60 s$' <<<"$out"
t_ok status-parent-no-slave-mount test -z "$(grep /mnt/rhl/own <<<"$out")"
# In a peer namespace: its own mount is the original there, and the
# parent's copy goes with it.
unshare -m --propagation shared sleep 120 &
PEER=$!
sleep 1
nsenter -t $PEER -m cat /mnt/rhl/pp/hello > /dev/null
out=$(nsenter -t $PEER -m autofs status 2>&1)
echo "$out"
t_ok status-peer-own grep -Eq '/mnt/rhl/pp .*expires in [0-9]+ s of 60 s$' <<<"$out"
out=$(autofs status 2>&1)
t_ok status-parent-peer-copy grep -Eq '/mnt/rhl/pp .*a propagated copy: goes with its original, in [0-9]+ s of 60 s$' <<<"$out"
autofs status --json > /run/rh-status.json 2>&1
t_ok status-json-propagated python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {m["path"]: m["expire"] for t in d["triggers"] for m in t["mounts"]}
assert m["/mnt/rhl/pp"]["propagated"] and m["/mnt/rhl/pp"]["timeout"] == 60, m
assert not m["/mnt/rhl/cp"]["propagated"] and m["/mnt/rhl/cp"]["policy"] == 1, m
' /run/rh-status.json
kill $SLAVE $PEER; wait $SLAVE $PEER 2>/dev/null
echo "realhost: after the peer namespace ended: $(autofs status 2>&1 | grep /mnt/rhl/pp)"

# --- a multi-mount tree held open from a slave namespace ----------------------
# The slave exists before the parent mounts the tree (root and offset), so
# it holds propagated copies; a file open in its copy of the offset mount
# keeps the parent's whole tree, which goes once the file is closed.
unshare -m --propagation slave sleep 120 &
SLAVE=$!
sleep 1
t_eq held2-read hello-held2 "$(cat /mnt/rh/held2/a/hello 2>&1)"
n=$(count_under /mnt/rh/held2)
nsenter -t $SLAVE -m sh -c 'exec 4< /mnt/rh/held2/a/hello; sleep '$((T * 3 + 2)) &
HOLD=$!
sleep $((T * 3))
t_eq held2-slave-keeps-tree "$n" "$(count_under /mnt/rh/held2)"
wait $HOLD
t_ok held2-released-goes mnt_gone_within /mnt/rh/held2 $((T * 4))
t_eq held2-nothing-left 0 "$(count_under /mnt/rh/held2)"
kill $SLAVE; wait $SLAVE 2>/dev/null
autofs stop > /dev/null 2>&1

# --- pivot_root is a move ----------------------------------------------------
# The new root was SUBTREEEXPIRE below an EXPIRE mount: moved, it is
# NOEXPIRE; the old root, NOEXPIRE, stays so.
mkdir -p /mnt/ptp
unshare -m --propagation private bash -c '
	mount -t tmpfs ptp /mnt/ptp && mkdir /mnt/ptp/n && mount -t tmpfs ptn /mnt/ptp/n || exit 1
	"$1" setexpire /mnt/ptp mount 100 && "$1" setexpire /mnt/ptp/n subtree || exit 1
	echo "before $("$1" getexpire /mnt/ptp/n)"
	cd /mnt/ptp/n && mkdir old && for l in usr bin lib lib64 sbin; do ln -s /old/$l $l; done
	pivot_root . old || exit 1
	echo pivoted
	exec sleep 30' sh "$MFD" > /tmp/pivot.out 2>&1 &
PIV=$!
for i in $(seq 40); do grep -q pivoted /tmp/pivot.out && break; sleep 0.5; done
sleep 0.5
t_eq pivot-before "before 2 0 0" "$(head -1 /tmp/pivot.out)"
t_eq pivot-new-root-noexpire "0 0 0" "$("$MFD" getexpire /proc/$PIV/root 2>&1)"
t_eq pivot-old-root-noexpire "0 0 0" "$("$MFD" getexpire /proc/$PIV/root/old 2>&1)"
kill $PIV; wait $PIV 2>/dev/null
# An EXPIRE mount that pivot_root makes the new root starts its countdown
# again.  The root is busy afterwards, and a busy mount's countdown starts
# again at every tick too: so the tick is made 10 s long once the mount
# has counted down a few 1 s ticks, the move is read right after a tick,
# and fs.mount_expire_runs says none ran in between.
echo 1 > /proc/sys/fs/mount_expire_tick
unshare -m --propagation private bash -c '
	runs() { cat /proc/sys/fs/mount_expire_runs; }
	mount -t tmpfs ptx /mnt/ptp && "$1" setexpire /mnt/ptp mount 100 || exit 1
	mkdir /mnt/ptp/old && for l in usr bin lib lib64 sbin; do ln -s /old/$l /mnt/ptp/$l; done
	sleep 3.5
	echo 10 > /proc/sys/fs/mount_expire_tick
	r=$(runs)
	for i in $(seq 100); do [ "$(runs)" != "$r" ] && break; sleep 0.1; done
	echo "before $(runs) $("$1" getexpire /mnt/ptp)"
	cd /mnt/ptp && pivot_root . old || exit 1
	echo pivoted
	exec sleep 30' sh "$MFD" > /tmp/pivot2.out 2>&1 &
PIV=$!
for i in $(seq 80); do grep -q pivoted /tmp/pivot2.out && break; sleep 0.25; done
after=$("$MFD" getexpire /proc/$PIV/root 2>&1)
runs=$(cat /proc/sys/fs/mount_expire_runs)
set -- $(head -1 /tmp/pivot2.out)
if [ "$1" != before ] || [ "$2" != "$runs" ]; then
	t_fail pivot-expire-restarts "no tick-free window: '$(head -1 /tmp/pivot2.out)', runs now $runs"
elif [ "$4" = 1000 ] && [ "$5" -lt 1000 ] && [ "$after" = "1 1000 1000" ]; then
	t_pass pivot-expire-restarts
else
	t_fail pivot-expire-restarts "before pivot '$3 $4 $5', after '$after'"
fi
kill $PIV; wait $PIV 2>/dev/null
echo 1 > /proc/sys/fs/mount_expire_tick

# --- the tick and path walks ---------------------------------------------------
# stat of an unrelated path on CPU 1 for 6 s: with nothing to expire (no
# tick runs), then with 10,000 EXPIRE mounts none of which is idle long
# enough to go (a tick every second scans them all), then with four user
# namespaces that copied them all (unshare -Urm, as any user may).
mkdir -p /run/lat && : > /run/lat/f
mkdir -p /mnt/tk
# best of two rounds of each: the host's own load moves single figures
best() { printf '%s\n%s\n' "$1" "$2" | sort -t= -k4,4n | head -1; }	# by p99_ns
walk() { "$MFD" walklat /run/lat/f 6 1; }
round() {
	base=$(walk)
	mount -t tmpfs tk /mnt/tk
	# made on CPU 0: the tick is queued there and stays there, the walks
	# run on CPU 1
	taskset -c 0 "$MFD" mass-keep /mnt/tk 10000 3600 || t_fail tick-setup "mass-keep failed"
	sleep 2
	load=$(walk)
}
round; base1=$base; load1=$load
# four user namespaces, each with a locked copy of the 10,000.  Each
# copy holds namespace_sem for write while it is made, and a tick waits
# for it: the walks start once all four exist (a file each makes after
# unshare(2) returned), and the better of two is kept, as for the others.
USERNS=
rm -f /run/userns-ready.*
for i in 1 2 3 4; do
	unshare -Urm sh -c ": > /run/userns-ready.$i; exec sleep 120" &
	USERNS="$USERNS $!"
done
userns_made() { [ "$(ls /run/userns-ready.* 2>/dev/null | wc -l)" = 4 ]; }
for i in $(seq 240); do userns_made && break; sleep 0.25; done
userns_made || t_fail tick-userns-setup "the four user namespaces were not made within 60 s"
sleep 2
userns1=$(walk); userns2=$(walk)
kill $USERNS; wait $USERNS 2>/dev/null
umount -l /mnt/tk
round; load2=$load
base=$(best "$base1" "$base"); load=$(best "$load1" "$load2"); userns=$(best "$userns1" "$userns2")
umount -l /mnt/tk
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
echo "realhost: walk, no EXPIRE mounts:    $base"
echo "realhost: walk, 10000 EXPIRE mounts: $load"
echo "realhost: walk, and 4 user namespaces: $userns"
{
	echo "base $base"; echo "load $load"; echo "userns $userns"
} > /run/results/realhost-tick.txt
b99=$(field "$base" p99_ns); l99=$(field "$load" p99_ns)
b50=$(field "$base" p50_ns); l50=$(field "$load" p50_ns)
# the cheapest tick of both windows: the host preempting the guest only adds
tmin() { printf '%s\n%s\n' "$(field "$1" tick_min_ns)" "$(field "$2" tick_min_ns)" | grep -v '^0*$' | sort -n | head -1; }
lt=$(tmin "$load1" "$load2"); ut=$(tmin "$userns1" "$userns2")
# bench rows, as bench/results/rows.tsv has them (the raw column is the
# baseline the ratio is taken against)
{
	printf 'exp-tick-10000\tone expiry tick (cheapest of a window), 10,000 EXPIRE mounts none idle long enough\tns\t%s\t-\t-\n' "$lt"
	printf 'exp-tick-userns\tthe same tick with 4 user namespaces holding copies (raw: without)\tns\t%s\t-\t%s\n' "$ut" "$lt"
	printf 'exp-tick-walk-p99\tstat p99 on the other CPU while those ticks run (raw: no EXPIRE mounts)\tns\t%s\t-\t%s\n' "$l99" "$b99"
	printf 'exp-tick-walk-max\tstat max, the same (raw: no EXPIRE mounts)\tns\t%s\t-\t%s\n' \
		"$(field "$load" max_ns)" "$(field "$base" max_ns)"
} > /run/results/realhost-rows.tsv
# A stat over 2 ms is the host preempting the guest: none to 7 in a walk
# on a quiet host, 50 to 500 on a loaded one, where p99 doubled with or
# without ticks.  The tick adds at most one such stat per tick (a walk
# waits for a tick's locks once), so more than that in either walk means
# the host was too busy for the p99s to be compared: they are filed, and
# the ratio is not asserted.  A host that slows the whole guest for one
# of the two walks moves its median as much as its tail (a CI run: p50
# 6.5 -> 9.2 us, p99 26.7 -> 45.7 us, 5 stats over 2 ms); a tick, 3 ms a
# second on the other CPU, cannot move the median.  So each p99 is taken
# in units of its own walk's p50.
bo=$(field "$base" over_2ms) lo=$(field "$load" over_2ms) lk=$(field "$load" ticks)
noisy=$(( ${bo:-0} > 20 || ${lo:-0} > ${lk:-0} + 20 ))
# The debug kernel's KASAN makes a stat 100 us and leaves its tails to the
# host's load (two runs failed one figure each, not the same one): its
# figures are printed, the targets are the base kernel's.
if [ "$FLAVOR" = debug ]; then
	echo "realhost: debug kernel, tick and walk figures not asserted"
elif [ "$noisy" = 1 ]; then
	t_skip tick-walk-p99-within-1.5x "host too busy to compare p99s: $bo and $lo stats over 2 ms"
elif [ -n "$b99" ] && [ -n "$l99" ] && [ -n "$b50" ] && [ -n "$l50" ] &&
	[ "${lk:-0}" -ge 3 ] && [ $((l99 * b50 * 2)) -le $((b99 * l50 * 3)) ]; then
	t_pass tick-walk-p99-within-1.5x
else
	t_fail tick-walk-p99-within-1.5x "p99/p50 of base '$base' against with ticks '$load'"
fi
# four namespaces hold four times the mounts: scanning their copies made
# the tick over 3x dearer; 2x leaves room for the host's noise.  The same
# busy host that spoils the p99s spoils the cheapest tick too: a walk sees
# a few ticks (5 to 7, not 20) and a guest CPU given a quarter of a host
# core stretches each (CI and a quickstart run here: 3.8 against 9.7 ms,
# 450 stats over 2 ms).  Then the ticks are filed, not compared.
uo=$(field "$userns" over_2ms) uk=$(field "$userns" ticks)
noisy=$(( noisy || ${uo:-0} > ${uk:-0} + 20 ))
if [ "$FLAVOR" = debug ]; then
	:
elif [ "$noisy" = 1 ]; then
	t_skip tick-userns-no-dearer "host too busy to compare ticks: ${lt} ns without, ${ut} ns with the user namespaces, $uo stats over 2 ms"
elif [ -n "$lt" ] && [ -n "$ut" ] && [ "$ut" -le $((lt * 2)) ]; then
	t_pass tick-userns-no-dearer
else
	t_fail tick-userns-no-dearer "tick ${lt} ns without, ${ut} ns with the user namespaces"
fi
echo 10 > /proc/sys/fs/mount_expire_tick
