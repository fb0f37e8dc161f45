# SUITE_TIMEOUT=600
# nfs: the NFS mount module (mount_nfs.so) and the -hosts map (map_hosts.so)
# against the in-guest knfsd, driven by modules/try-module the way the agent
# calls them; then the agent's real path, first run by hand with MOUNTFD and
# then run by the kernel for automounted homes, /net and a multi-mount.
. "$TOP/test/qemu/lib.sh"

TRY=$BUILDDIR/modules/try-module
MODDIR=/usr/lib/autofsng
NFSMOD=$MODDIR/mount_nfs.so
HOSTSMAP=$MODDIR/map_hosts.so
FIG=/run/results/nfs-figures.txt
T=/mnt/t

[ -x "$TRY" ] && [ -f "$NFSMOD" ] || { t_fail setup "no $TRY or $NFSMOD (build and stage first)"; exit 1; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# the module's own "failed after N ms" (without try-module's exec under TCG)
failed_ms() { sed -n 's/.*failed after \([0-9]*\) ms.*/\1/p' /tmp/try.err | tail -1; }
nfs_mounts() { grep -c ' nfs4\? ' /proc/self/mountinfo; }
opt_of() { findmnt -no OPTIONS "$1" | tr , '\n' | sed -n "s/^$2=//p"; }

# try NAME ARGS...: run try-module on $T; its stderr lands in /tmp/try.err
try() { "$TRY" "$@" "$NFSMOD" "$T" "${LOCS[@]}" >/tmp/try.out 2>/tmp/try.err; }
settle() { mountpoint -q "$T" && umount "$T"; mountpoint -q "$T" && umount -l "$T"; true; }

mkdir -p "$T"
nfs_server_start /export /export/a /export/b || { t_fail server "nfs_server_start failed"; exit 1; }
echo "written on the server side" > "$NFS_ROOT/export/hello"
head -c 65536 /dev/urandom > "$NFS_ROOT/export/blob"
echo a > "$NFS_ROOT/export/a/in-a"
echo b > "$NFS_ROOT/export/b/in-b"

# --- every version: mount, read, write back byte for byte ------------------
for v in 3 4.0 4.1 4.2; do
	LOCS=(127.0.0.1:/export)
	if ! try -o "vers=$v"; then
		t_fail "v$v-mount" "$(tail -2 /tmp/try.err | tr '\n' ' ')"
		continue
	fi
	t_eq "v$v-version" "$v" "$(opt_of $T vers)"
	t_eq "v$v-read" "written on the server side" "$(cat $T/hello)"
	head -c 100000 /dev/urandom > /tmp/w.bin
	cp /tmp/w.bin "$T/w-$v.bin" && sync
	t_ok "v$v-write" cmp /tmp/w.bin "$NFS_ROOT/export/w-$v.bin"
	settle
done

# --- negotiation: no vers= settles on the best the server has --------------
LOCS=(127.0.0.1:/export)
if try; then
	t_eq negotiate-4.2 4.2 "$(opt_of $T vers)"
	t_ok negotiate-logged grep -q 'with vers=4.2' /tmp/try.err
else
	t_fail negotiate-4.2 "$(tail -2 /tmp/try.err | tr '\n' ' ')"
fi
settle
if try -T nfs4 -o soft,timeo=50; then
	t_eq nfs4-type-v4-only 4.2 "$(opt_of $T vers)"
	t_ok options-reach-kernel sh -c "findmnt -no OPTIONS $T | grep -q 'soft.*timeo=50'"
else
	t_fail nfs4-type-v4-only "$(tail -2 /tmp/try.err | tr '\n' ' ')"
fi
settle

# --- vers=3 nolock: no lockd for this mount, locks stay local --------------
if try -o vers=3,nolock,nosuid,nodev; then
	t_ok v3-nolock sh -c "findmnt -no OPTIONS $T | tr , '\n' | grep -qx 'nolock\|local_lock=all'"
	t_ok v3-attrs sh -c "findmnt -no VFS-OPTIONS $T | grep -q nosuid && findmnt -no VFS-OPTIONS $T | grep -q nodev"
	t_ok v3-nolock-flock flock "$T/hello" true
else
	t_fail v3-nolock "$(tail -2 /tmp/try.err | tr '\n' ' ')"
fi
settle

# --- refused options are reported by name ---------------------------------
before=$(nfs_mounts)
if try -o vers=4.2,frobnicate=7; then
	t_fail bad-option "an unknown option was accepted"
	settle
else
	t_ok bad-option-named grep -q "frobnicate" /tmp/try.err
	t_ok bad-option-kernel-says grep -qi "unknown parameter" /tmp/try.err
fi
if try -o vers=3,timeo=soon; then
	t_fail bad-value "timeo=soon was accepted"
	settle
else
	t_ok bad-value-named grep -q "timeo=soon" /tmp/try.err
fi
t_eq bad-option-nothing-mounted "$before" "$(nfs_mounts)"

# --- a server that never answers: bounded by mount_timeout, nothing left ---
# Packets routed into lo for an address that is not local are dropped
# without an answer (no forwarding): 10.99.0.0/16 is a silent network.
ip route add 10.99.0.0/16 dev lo src 127.0.0.1
LOCS=(10.99.0.1:/export)
before=$(nfs_mounts)
start=$(now_ms)
if try -t 5000; then
	t_fail silent-server "mounted a server that does not exist"
	settle
else
	took=$(failed_ms)
	echo "silent server failed after $took ms in the module, $(( $(now_ms) - start )) ms with exec" >> "$FIG"
	t_ok silent-server-bounded test "${took:-0}" -ge 4900 -a "${took:-0}" -lt 5500
	t_ok silent-server-logged grep -q 'mount_timeout (5000 ms)' /tmp/try.err
	t_ok silent-server-not-mounted sh -c "! mountpoint -q $T"
	t_eq silent-server-nothing-left "$before" "$(nfs_mounts)"
fi

# a port with no service: the kernel retries refused connections, so this
# too is bounded by mount_timeout, and leaves nothing
LOCS=(127.0.0.1:/export)
start=$(now_ms)
if try -t 5000 -o vers=4.2,port=1; then
	t_fail refused-port "mounted through a port with no service"
	settle
else
	took=$(failed_ms)
	t_ok refused-port-bounded test "${took:-0}" -gt 0 -a "${took:-99999}" -lt 5500
	t_eq refused-port-nothing-left "$before" "$(nfs_mounts)"
fi

# --- replicated: the silent one is dropped, the live one mounts ------------
# replicated-fast: the live server's answer ends the wait, not the silent
# one's 8 s ping timeout (generous for the debug kernel under TCG)
LOCS=(10.99.0.1,127.0.0.1:/export)
start=$(now_ms)
if try -t 20000 -c nfs.ping_timeout_ms=8000; then
	t_eq replicated-live-one "127.0.0.1:/export" "$(findmnt -no SOURCE $T)"
	t_ok replicated-fast test $(( $(now_ms) - start )) -lt 8000
else
	t_fail replicated-live-one "$(tail -2 /tmp/try.err | tr '\n' ' ')"
fi
settle

# --- weights: lower weight wins over a faster or earlier server ------------
LOCS=("127.0.0.1(5),127.0.0.2(1):/export")
try && t_eq weight-low-wins "127.0.0.2:/export" "$(findmnt -no SOURCE $T)" ||
	t_fail weight-low-wins "$(tail -2 /tmp/try.err | tr '\n' ' ')"
settle
LOCS=("127.0.0.2(3):/export" "127.0.0.1(2):/export")
try && t_eq weight-across-locations "127.0.0.1:/export" "$(findmnt -no SOURCE $T)" ||
	t_fail weight-across-locations "$(tail -2 /tmp/try.err | tr '\n' ' ')"
settle
# weight also ranks a dead server behind a live one of worse weight
LOCS=("10.99.0.1(0),127.0.0.1(9):/export")
try -c nfs.ping_timeout_ms=1000 && t_eq weight-dead-dropped "127.0.0.1:/export" "$(findmnt -no SOURCE $T)" ||
	t_fail weight-dead-dropped "$(tail -2 /tmp/try.err | tr '\n' ' ')"
settle

# --- an export of this host becomes a bind mount --------------------------
mkdir -p /srv/export/local && echo here > /srv/export/local/f
LOCS=(127.0.0.1:/srv/export/local)
if try -o ro; then
	t_eq local-bind-type tmpfs "$(findmnt -no FSTYPE $T)"
	t_eq local-bind-read here "$(cat $T/f)"
	t_ok local-bind-ro sh -c "! touch $T/x 2>/dev/null"
	t_ok local-bind-logged grep -q 'bind mount of /srv/export/local' /tmp/try.err
else
	t_fail local-bind "$(tail -2 /tmp/try.err | tr '\n' ' ')"
fi
settle
if try -c nfs.bind_local=no; then
	t_fail local-bind-off "bind_local=no still mounted $(findmnt -no SOURCE,FSTYPE $T)"
	settle
else
	t_pass local-bind-off
fi

# --- IPv6 literal ----------------------------------------------------------
# an NFSv4 client from ::1 walks the pseudo root first: export it to ::1 too
pid=$(pidof -s rpc.mountd)
nsenter -m -t "$pid" exportfs -o ro,no_subtree_check,insecure,fsid=0 "[::1]:/" 2>/tmp/x6
fsid=$(( $(printf %s /export | cksum | cut -d' ' -f1) % 2147483647 + 1 ))	# as nfs_server_start
nsenter -m -t "$pid" exportfs -o "rw,no_root_squash,no_subtree_check,insecure,fsid=$fsid" "[::1]:/export" 2>>/tmp/x6
LOCS=("[::1]:/export")
if try -o vers=4.2 -c nfs.bind_local=no; then
	t_eq ipv6-literal "[::1]:/export" "$(findmnt -no SOURCE $T)"
else
	t_fail ipv6-literal "$(tail -2 /tmp/try.err | tr '\n' ' ') $(cat /tmp/x6)"
fi
settle

# --- -hosts: the server's exports through the MOUNT protocol --------------
entry=$("$TRY" -M "$HOSTSMAP" 127.0.0.1 2>/tmp/hosts.err)
t_ok hosts-lists-export sh -c "echo '$entry' | grep -q ' /export 127.0.0.1:/export'"
t_ok hosts-lists-sub sh -c "echo '$entry' | grep -q ' /export/a 127.0.0.1:/export/a'"
t_ok hosts-unknown-host sh -c "! '$TRY' -M '$HOSTSMAP' no-such-host.invalid 2>/dev/null"
t_eq hosts-no-list "" "$("$TRY" -M -c nfs.hosts_file= "$HOSTSMAP" 2>&1)"
t_eq hosts-list-configured 127.0.0.1 "$("$TRY" -M -c nfs.hosts_list=127.0.0.1 "$HOSTSMAP" | cut -f1)"
LOCS=(127.0.0.1:/export/a)
try && t_eq hosts-offset-mounts a "$(cat $T/in-a)" || t_fail hosts-offset-mounts "$(tail -2 /tmp/try.err)"
settle

# --- the agent's real path: autofs lookup with MOUNTFD --------------------
# MOUNTFD is an O_PATH fd of a plain directory, as the kernel would pass the
# trap's; no autofsng mount is needed for the agent to attach there.
AGENT=$(command -v autofs)
lookup() {	# lookup MAP KEY DIR [VAR=VAL...]: run the agent, exit code out
	local map=$1 key=$2 dir=$3
	shift 3
	mkdir -p "$dir"
	env "$@" python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_PATH | os.O_DIRECTORY)
os.set_inheritable(fd, True)
os.environ.update(MAPNAME=sys.argv[2], MAPKEY=sys.argv[3], MOUNTFD=str(fd))
os.execv(sys.argv[4], [sys.argv[4], "lookup"])' "$dir" "$map" "$key" "$AGENT" 2>/tmp/agent.err
}
if [ -n "$AGENT" ]; then
	mkdir -p "$NFS_ROOT/export/home"
	nfs_server_start /export/home
	for u in alice bob carol; do
		mkdir -p "$NFS_ROOT/export/home/$u"
		echo "home of $u" > "$NFS_ROOT/export/home/$u/.profile"
	done
	cat > /etc/autofs-agent.conf <<-'CONF'
	[general]
	sources = files
	mount_timeout = 5
	log_stderr = yes
	[nfs]
	ping_timeout_ms = 1000
	# the guest's knfsd serves /srv as its root (lib.sh): a bind mount of
	# this host's own path would not be the export
	bind_local = no
	CONF
	cat > /etc/auto.home <<-'MAP'
	alice	-vers=4.2	127.0.0.1:/export/home/alice
	bob	-vers=3,nolock	127.0.0.1:/export/home/bob
	dave	-vers=4.2,frobnicate=1	127.0.0.1:/export/home/alice
	erin	-vers=4.2	10.99.0.1:/export/home/erin
	fred	10.99.0.1,127.0.0.1:/export/home/alice
	*	127.0.0.1:/export/home/&
	MAP
	L=/mnt/lk
	if lookup auto.home alice $L/alice; then
		t_eq agent-v4.2 "4.2 home of alice" "$(opt_of $L/alice vers) $(cat $L/alice/.profile)"
	else
		t_fail agent-v4.2 "exit $?: $(tail -2 /tmp/agent.err | tr '\n' ' ')"
	fi
	if lookup auto.home bob $L/bob; then
		t_eq agent-v3 "3 home of bob" "$(opt_of $L/bob vers) $(cat $L/bob/.profile)"
	else
		t_fail agent-v3 "exit $?: $(tail -2 /tmp/agent.err | tr '\n' ' ')"
	fi
	if lookup auto.home carol $L/carol; then
		t_eq agent-wildcard-negotiates "4.2 home of carol" "$(opt_of $L/carol vers) $(cat $L/carol/.profile)"
		echo "written through the mount" > $L/carol/note && sync
		t_eq agent-write-on-server "written through the mount" "$(cat $NFS_ROOT/export/home/carol/note)"
	else
		t_fail agent-wildcard-negotiates "exit $?: $(tail -2 /tmp/agent.err | tr '\n' ' ')"
	fi
	# NFS is built into the agent, as the file map and bind are: a lookup
	# with no module directory at all still mounts
	if lookup auto.home alice $L/alice-builtin AUTOFS_AGENT_MODULE_DIR=/nonexistent; then
		t_eq agent-nfs-built-in "home of alice" "$(cat $L/alice-builtin/.profile)"
	else
		t_fail agent-nfs-built-in "exit $?: $(tail -2 /tmp/agent.err | tr '\n' ' ')"
	fi
	lookup auto.home dave $L/dave
	rc=$?
	t_eq agent-bad-option-exit 6 "$rc"
	t_ok agent-bad-option-named grep -q frobnicate /tmp/agent.err
	before=$(nfs_mounts)
	start=$(now_ms)
	lookup auto.home erin $L/erin
	rc=$? took=$(( $(now_ms) - start ))
	t_eq agent-silent-exit 6 "$rc"
	# the module's own time against mount_timeout (5 s); the wall clock
	# adds the agent's start, seconds on the debug kernel under TCG
	t_ok agent-silent-bounded test "$(sed -n 's/.*failed after \([0-9]*\) ms.*/\1/p' /tmp/agent.err | tail -1)" -le 5500
	t_ok agent-silent-bounded-wall test "$took" -lt "$([ "$FLAVOR" = base ] && echo 8000 || echo 15000)"
	t_ok agent-silent-nothing-mounted sh -c "! mountpoint -q $L/erin"
	t_eq agent-silent-nothing-left "$before" "$(nfs_mounts)"
	if lookup auto.home fred $L/fred; then
		t_eq agent-replicated "127.0.0.1:/export/home/alice" "$(findmnt -no SOURCE $L/fred)"
	else
		t_fail agent-replicated "exit $?: $(tail -2 /tmp/agent.err | tr '\n' ' ')"
	fi
	if lookup -hosts 127.0.0.1 $L/net; then
		t_eq agent-hosts-root "127.0.0.1:/" "$(findmnt -no SOURCE $L/net)"
		t_eq agent-hosts-read "written on the server side" "$(cat $L/net/export/hello)"
	else
		t_fail agent-hosts-root "exit $?: $(tail -2 /tmp/agent.err | tr '\n' ' ')"
	fi
	for d in $L/*; do umount -R "$d" 2>/dev/null; done
else
	echo "no agent installed: the autofs lookup tests wait for it"
fi

# --- 6.1's own expiry of NFS submounts (MNT_SHRINKABLE) still works --------
# Crossing from the NFSv4 pseudo root into the /export export makes an NFS
# submount, which fs/nfs expires with mark_mounts_for_expiry() after two
# runs of nfs_mountpoint_expiry_timeout (seconds, a writable parameter).
submount_expiry() {
	local p=/sys/module/nfs/parameters/nfs_mountpoint_expiry_timeout old
	old=$(cat $p)
	echo 2 > $p
	mkdir -p /mnt/pr
	mount -t nfs -o vers=4.2 127.0.0.1:/ /mnt/pr
	ls /mnt/pr/export > /dev/null
	t_eq nfs-submount-made nfs4 "$(mnt_fstype /mnt/pr/export)"
	t_ok nfs-submount-expires mnt_gone_within /mnt/pr/export 30
	t_eq nfs-submount-parent-stays nfs4 "$(mnt_fstype /mnt/pr)"
	umount -R /mnt/pr
	echo "$old" > $p
}
submount_expiry

# --- the home-directory scenario, through the kernel's triggers -------------
# autofs start mounts the triggers; every access below is a path walk that
# makes the kernel run the agent, as a user's `cd /home/alice` would.
mnt_id() { awk -v p="$1" '$5 == p { id = $1 } END { print id }' /proc/self/mountinfo; }

scenario() {
	local before n pid i w=/mnt/w/writer
	for u in writer; do
		mkdir -p "$NFS_ROOT/export/home/$u"
	done
	mkdir -p "$NFS_ROOT/export/a/sub"
	cat > /etc/auto.master.nfs <<-'MASTER'
	/home	file:/etc/auto.home	--timeout=4 -browse
	/mnt/net	-hosts
	/mnt/multi	file:/etc/auto.multi	--timeout=4
	/mnt/w	file:/etc/auto.home	--timeout=2
	MASTER
	printf 'tree\t/ 127.0.0.1:/export/a  /sub 127.0.0.1:/export/b\n' > /etc/auto.multi
	echo 1 > /proc/sys/fs/mount_expire_tick
	# triggers an earlier suite of this boot left (the demo's /home)
	autofs stop > /dev/null 2>&1
	t_ok home-start autofs start /etc/auto.master.nfs

	# server-side files read through the mount; a write lands byte for byte
	t_eq home-read "home of alice" "$(cat /home/alice/.profile 2>&1)"
	t_eq home-v4.2 "nfs4 4.2" "$(mnt_fstype /home/alice) $(opt_of /home/alice vers)"
	t_eq home-v3 "nfs 3" "$(ls /home/bob > /dev/null; mnt_fstype /home/bob) $(opt_of /home/bob vers)"
	head -c 300000 /dev/urandom > /tmp/home-w.bin
	cp /tmp/home-w.bin /home/carol/w.bin && sync
	t_ok home-write-on-server cmp /tmp/home-w.bin "$NFS_ROOT/export/home/carol/w.bin"
	t_eq home-wildcard-negotiates 4.2 "$(opt_of /home/carol vers)"
	t_ok home-browse sh -c "ls /home | grep -qx alice && ls /home | grep -qx fred && ! ls /home | grep -qx '[*]'"
	n=$(grep -c frobnicate /run/results/syslog.txt)
	t_ok home-bad-option-enoent sh -c "! ls /home/dave 2>/dev/null"
	t_ok home-bad-option-logged test "$(grep -c frobnicate /run/results/syslog.txt)" -gt "$n"

	# idle homes expire; one with an open file and one with a cwd never do
	exec 7< /home/bob/.profile
	(cd /home/carol && exec sleep 15) &
	pid=$!
	sleep 1
	t_ok home-idle-expires mnt_gone_within /home/alice 12
	t_ok home-open-file-stays test -n "$(mnt_id /home/bob)"
	t_ok home-cwd-stays test -n "$(mnt_id /home/carol)"
	exec 7<&-
	kill $pid
	wait $pid 2>/dev/null
	t_ok home-released-expires-file mnt_gone_within /home/bob 12
	t_ok home-released-expires-cwd mnt_gone_within /home/carol 12
	t_eq home-comes-back "home of bob" "$(cat /home/bob/.profile 2>&1)"

	# -hosts: the server's exports under /mnt/net/HOST (the guest's / is read-only)
	t_ok hosts-net-lists sh -c "ls /mnt/net/127.0.0.1/ | grep -qx export"
	t_eq hosts-net-read "written on the server side" "$(cat /mnt/net/127.0.0.1/export/hello 2>&1)"

	# a multi-mount: the root now, /sub when touched, the tree expires as one
	t_eq multi-root a "$(cat /mnt/multi/tree/in-a 2>&1)"
	t_eq multi-sub-lazy autofsng "$(mnt_fstype /mnt/multi/tree/sub)"
	t_eq multi-sub b "$(cat /mnt/multi/tree/sub/in-b 2>&1)"
	t_eq multi-sub-mounted nfs4 "$(mnt_fstype /mnt/multi/tree/sub)"
	: > /tmp/multi.states
	# one read of mountinfo a state: R = root mounted, S = /sub mounted
	for i in $(seq 20); do
		awk '$5 == "/mnt/multi/tree" && / - nfs4 / { r = "R" }
		     $5 == "/mnt/multi/tree/sub" && / - nfs4 / { s = "S" }
		     END { print r s }' /proc/self/mountinfo >> /tmp/multi.states
		[ -z "$(tail -1 /tmp/multi.states)" ] && break
		sleep 0.5
	done
	t_ok multi-tree-expires test -z "$(mnt_id /mnt/multi/tree)"
	t_ok multi-tree-as-one sh -c "! grep -qx 'R' /tmp/multi.states && ! grep -qx 'S' /tmp/multi.states"

	# data safety: a writer fsyncs through a home for a minute while the tick
	# is 1 s and the timeout 2 ticks; the mount never goes under it
	ls $w > /dev/null
	before=$(mnt_id $w)
	python3 - "$w/log" > /tmp/writer.sha <<-'PY' &
	import hashlib, os, sys, time
	h = hashlib.sha256()
	fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
	end = time.monotonic() + 60
	n = 0
	while time.monotonic() < end:
	    line = ("%08d " % n).encode() + os.urandom(24).hex().encode() + b"\n"
	    os.write(fd, line)
	    os.fsync(fd)
	    h.update(line)
	    n += 1
	    time.sleep(0.2)
	os.close(fd)
	print(h.hexdigest())
	PY
	pid=$!
	: > /tmp/writer.ids
	while kill -0 $pid 2>/dev/null; do
		mnt_id $w >> /tmp/writer.ids
		sleep 2
	done
	wait $pid
	t_eq writer-mount-stayed "$before" "$(sort -u /tmp/writer.ids | grep . | tr '\n' ' ' | sed 's/ $//')"
	t_eq writer-every-byte "$(cat /tmp/writer.sha)" "$(sha256sum < "$NFS_ROOT/export/home/writer/log" | cut -d' ' -f1)"
	t_ok writer-then-expires mnt_gone_within $w 15

	autofs stop > /dev/null 2>&1
	t_eq home-stop-clean "" "$(grep autofsng /proc/self/mountinfo)"
}
[ -n "$AGENT" ] && scenario

# --- figures: access -> first byte, module vs mount(8), one boot -----------
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
measure() {
	local label=$1 i t0; shift
	for i in $(seq 10); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 && head -c1 "$T/hello" >/dev/null
		echo $(( ($(date +%s%N) - t0) / 1000 ))
		settle
	done | median | { read -r m; echo "$label median ${m} us (10 runs)" | tee -a "$FIG"; }
}
for v in 3 4.2; do
	LOCS=(127.0.0.1:/export)
	measure "first-byte v$v try-module+mount_nfs.so" "$TRY" -o "vers=$v" "$NFSMOD" "$T" 127.0.0.1:/export
	measure "first-byte v$v mount(8)" mount -t nfs -o "vers=$v" 127.0.0.1:/export "$T"
done
measure "first-byte replicated (1 silent of 2)" "$TRY" -c nfs.ping_timeout_ms=3000 "$NFSMOD" "$T" 10.99.0.1,127.0.0.1:/export
t_ok figures-recorded test "$(grep -c median "$FIG")" -eq 5
cat "$FIG"
