# DEFAULT=no
# SUITE_TIMEOUT=2400
# bench: autofsng + agent side by side with autofs-tools 5.1.8 (automount -f
# and the in-kernel autofs) and the raw mount of the same target, in one
# boot (issue 9, design.md section 7).  Runs only when named:
# `test/qemu/run bench`, or bench/run which also files the results.
#
# Every timing loop runs inside bench/abench (a fork+exec costs ~35 ms
# under TCG and must not enter a figure).  Rows go to $OUT/rows.tsv as
# "id<TAB>label<TAB>unit<TAB>autofsng<TAB>autofs-tools<TAB>raw", a sampled
# cell being "median min max n"; bench/report.sh turns them into the text
# table, the CSV and the PNG chart in $OUT.
#
# Scaled for TCG (see bench/README.md): BENCH_N samples per first-access
# row, BENCH_EXP idle/busy mounts for expiry, BENCH_LDAP keys in the LDAP map.
. "$TOP/test/qemu/lib.sh"

AB=$BUILDDIR/bench/abench
OUT=/run/results/bench
ROWS=$OUT/rows.tsv
B=/run/bench		# maps, configuration, logs
N=${BENCH_N:-20}
PARN=${BENCH_PAR:-9}	# samples of "64 processes, one key"
EXP=${BENCH_EXP:-1000}
LDAPN=${BENCH_LDAP:-1000}
BUSY_S=10		# CPU window with every expiry mount busy
EXP_BUDGET=${BENCH_EXP_BUDGET:-420}	# seconds of TCG for making the expiry mounts
AGENT=/sbin/autofs
AT_PID=

mkdir -p "$OUT" "$B" /mnt/ng /mnt/at /mnt/raw
: > "$ROWS"
[ -x "$AB" ] || { t_fail setup "no $AB (build and stage first)"; exit 1; }
[ -x /usr/sbin/automount ] || { t_fail setup "autofs-tools (/usr/sbin/automount) missing"; exit 1; }
[ -x "$AGENT" ] && grep -qw autofsng /proc/filesystems ||
	{ t_fail setup "no agent or no autofsng filesystem"; exit 1; }

log() { echo "bench: $(date +%T) $*"; }
# stats: samples on stdin -> "median min max n"
stats() {
	sort -n | awk '{a[NR] = $1} END {
		if (!NR) { print "-"; exit }
		m = (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)
		print m, a[1], a[NR], NR }'
}
# row ID LABEL UNIT NG AT RAW
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$ROWS"
	echo "bench: row $1: ng=[$4] at=[$5] raw=[$6] $3"
	case "$4$5$6" in
	*[0-9]*) t_pass "$1" ;;
	*) t_fail "$1" "no figure measured" ;;
	esac
}
# field NAME LINE: the value of NAME=... in LINE
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# below PREFIX: mounts whose mount point is under PREFIX/
below() { awk -v p="$1/" 'index($5, p) == 1' /proc/self/mountinfo | wc -l; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# every kworker thread's utime+stime (a thread that exits takes its share along)
kworker_ticks() { awk '$2 ~ /^\(kworker/ {s += $14 + $15} END {print s + 0}' /proc/[0-9]*/stat 2>/dev/null; }
hz() { getconf CLK_TCK; }

# --- the same targets for everyone -----------------------------------------
log "setup"
mkdir -p /srv/bind /srv/plain
echo "bind target" > /srv/bind/hello
nfs_server_start /export/data || { t_fail setup "nfs_server_start failed"; exit 1; }
echo "nfs target" > "$NFS_ROOT/export/data/hello"
# plain directories at the depth of /mnt/ng/bind/k01/hello
mkdir -p /srv/pl/bind/k01 && echo plain > /srv/pl/bind/k01/hello

# k01..k64, one, and p01..p$PARN for the timed samples of "64 processes, one key"
keys() { local i; for i in $(seq -w 1 64) one $(seq -f 'p%02g' 1 "$PARN"); do printf '%s\t%s\n' "${i/#[0-9]/k&}" "$1"; done; }
keys "-fstype=bind	:/srv/bind" > $B/map.bind
keys "-vers=4.2,nobind	127.0.0.1:/export/data" > $B/map.nfs
seq -f 'e%04g' 1 1000 | awk '{print $1 "\t-fstype=bind\t:/srv/bind"}' > $B/map.exp
for n in 1000 10000 100000; do
	seq -f 'key%06g' 1 $n | awk '{print $1 "\t-fstype=bind\t:/srv/bind"}' > $B/map.b$n
	mkdir -p /srv/pl/b$n && (cd /srv/pl/b$n && seq -f 'key%06g' 1 $n | xargs mkdir)
done
# 100k keys, the looked-up ones last
{ seq -f 'f%06g' 1 99980 | awk '{print $1 "\t-fstype=bind\t:/srv/bind"}'
  keys "-fstype=bind	:/srv/bind" | head -20; } > $B/map.big
# a wrapper set as fs.autofsng.agent for the counting rows: one line per run
cat > $B/agent-count <<EOF
#!/bin/sh
echo "\$1 \$MAPNAME \$MAPKEY" >> $B/agent.log
exec $AGENT "\$@"
EOF
chmod +x $B/agent-count
# and one that leaves an strace of the run, for the traces of slower rows
T=$OUT/trace && mkdir -p $T
cat > $B/agent-strace <<EOF
#!/bin/sh
exec strace -f -tt -T -o $T/strace-ng-\$MAPKEY.txt $AGENT "\$@"
EOF
chmod +x $B/agent-strace
# split_at FILE REGEX: an strace -tt log cut at the first line matching
# REGEX: "ms before, ms from there to the last line"
split_at() {
	awk -v re="$2" 'function t(   i, a) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+:[0-9]+:[0-9.]+$/) {
			split($i, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] } return -1 }
		{ x = t(); if (x < 0) next; if (first == "") first = x; last = x; if (cut == "" && $0 ~ re) cut = x }
		END { if (cut == "") print "no match"; else printf "%.0f ms before, %.0f ms from there to the end\n", (cut - first) * 1000, (last - cut) * 1000 }' "$1"
}

# --- autofsng: the agent's configuration and every trigger at once ----------
cat > /etc/autofs-agent.conf <<EOF
[general]
timeout = 600
negative_timeout = 60
mount_timeout = 30
EOF
cat > $B/ng.master <<EOF
/mnt/ng/bind file:$B/map.bind --timeout=600 -nobrowse
/mnt/ng/nfs file:$B/map.nfs --timeout=600 -nobrowse
/mnt/ng/b1000 file:$B/map.b1000 -browse
/mnt/ng/b10000 file:$B/map.b10000 -browse
/mnt/ng/b100000 file:$B/map.b100000 -browse
/mnt/ng/exp file:$B/map.exp --timeout=5 -nobrowse
/mnt/ng/big file:$B/map.big --timeout=600 -nobrowse
EOF
echo "$AGENT" > /proc/sys/fs/autofsng/agent
t0=$(date +%s%N)
"$AGENT" start $B/ng.master > $B/ng.start 2>&1 || { t_fail ng-start "$(tail -3 $B/ng.start)"; exit 1; }
ng_start_us=$(( ($(date +%s%N) - t0) / 1000 ))	# every trigger of ng.master

# --- autofs-tools: automount -f with its own master map, one per phase ------
cat > /etc/autofs.conf <<EOF
[ autofs ]
timeout = 600
negative_timeout = 60
browse_mode = no
mount_wait = -1
EOF
# at_start MASTER-LINES... [-d]: (re)start automount -f; waits for its mounts
at_start() {
	local debug="" i want
	[ "$1" = -d ] && { debug=-d; shift; }
	printf '%s\n' "$@" > $B/at.master
	want=$#
	: > $B/at.log
	# a process group of its own: the kernel takes every process of the
	# daemon's group for the daemon itself and never traps their lookups
	setsid automount -f $debug $B/at.master >> $B/at.log 2>&1 &
	AT_PID=$!
	for i in $(seq 600); do
		[ "$(awk '{ for (i = 7; $i != "-"; i++); }
			$(i + 1) == "autofs" && index($5, "/mnt/at/") == 1' /proc/self/mountinfo | wc -l)" -ge "$want" ] &&
			return 0
		sleep 0.1
	done
	log "automount did not come up: $(tail -3 $B/at.log)"
	return 1
}
at_stop() {
	local i
	[ -n "$AT_PID" ] || return 0
	kill -TERM "$AT_PID" 2>/dev/null
	for i in $(seq 300); do kill -0 "$AT_PID" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$AT_PID" 2>/dev/null
	wait "$AT_PID" 2>/dev/null
	AT_PID=
	awk 'index($5, "/mnt/at/") == 1 {print $5}' /proc/self/mountinfo | sort -r | xargs -r umount -l
}
trap at_stop EXIT
# ng_clear DIR: unmount what the agent mounted under an autofsng trigger
ng_clear() { awk -v p="$1/" 'index($5, p) == 1 {print $5}' /proc/self/mountinfo | sort -r | xargs -r umount; }

# --- 1. first access -> first byte; 2. access to a mounted key ------------
log "phase 1: first access, mounted access"
at_start "/mnt/at/bind $B/map.bind -nobrowse" "/mnt/at/nfs $B/map.nfs -nobrowse" ||
	{ t_fail at-start "automount -f did not start"; exit 1; }
for fs in bind nfs; do
	src=/srv/bind
	[ $fs = nfs ] && src=127.0.0.1:/export/data
	mkdir -p /mnt/raw/$fs && (cd /mnt/raw/$fs && seq -f 'k%02g' 1 "$N" | xargs mkdir -p)
	# one untimed round each: the NFS client module state, the page cache of
	# the programs, the agent's binary
	cat /mnt/ng/$fs/one/hello /mnt/at/$fs/one/hello >/dev/null
	umount /mnt/ng/$fs/one; umount /mnt/at/$fs/one
	"$AB" first $fs $src /mnt/raw/$fs hello 1 >/dev/null
	ng=$("$AB" first auto - /mnt/ng/$fs hello "$N" | stats)
	at=$("$AB" first auto - /mnt/at/$fs hello "$N" | stats)
	raw=$("$AB" first $fs $src /mnt/raw/$fs hello "$N" | stats)
	row first-$fs "first access to first byte, $fs" us "$ng" "$at" "$raw"
	[ $fs = bind ] && exp_cost=$(( ${ng%% *} + ${at%% *} ))
done
# Making the expiry mounts costs EXP first accesses on each side: keep that
# within EXP_BUDGET seconds of TCG, in steps of 100 mounts (said in the rows).
if [ -n "${exp_cost:-}" ] && [ "$exp_cost" -gt 0 ] && [ $((EXP * exp_cost / 1000000)) -gt "$EXP_BUDGET" ]; then
	fit=$(( EXP_BUDGET * 1000000 / exp_cost / 100 * 100 ))
	[ "$fit" -ge 100 ] || fit=100
	log "expiry scaled from $EXP to $fit mounts (one bind lookup on each side: $exp_cost us)"
	EXP=$fit
fi
# the mounted key vs a plain directory at the same depth
cat /mnt/ng/bind/k01/hello /mnt/at/bind/k01/hello >/dev/null
ng=$("$AB" walk /mnt/ng/bind/k01/hello 20000 11 | stats)
at=$("$AB" walk /mnt/at/bind/k01/hello 20000 11 | stats)
raw=$("$AB" walk /srv/pl/bind/k01/hello 20000 11 | stats)
row walk-mounted "stat of a file in a mounted key (raw: plain dir, same depth)" ns "$ng" "$at" "$raw"
# 64 processes on one key, PARN samples a side taking turns, a fresh key each,
# neither side instrumented (the counted run is in phase 2).  "wake": from
# the first stat() that returned to the last, the waiters' share.
: > $B/par.ng; : > $B/par.at
for i in $(seq -f 'p%02g' 1 "$PARN"); do
	for who in ng at; do
		r=$("$AB" par 64 /mnt/$who/bind/$i/hello)
		echo "bench: par-one $who $i $r"
		[ "$(field failed "$r")" = 0 ] || t_fail par-one-ok-$who-$i "failed stats: $r"
		echo "$(field us "$r") $(field first "$r") $(field last "$r")" >> $B/par.$who
		umount /mnt/$who/bind/$i
	done
done
col() { awk -v c="$1" '{print $c}' "$2" | stats; }
row par-one-time "64 processes, one key: total" us "$(col 1 $B/par.ng)" "$(col 1 $B/par.at)" -
row par-one-first "64 processes, one key: until the first stat returns" us "$(col 2 $B/par.ng)" "$(col 2 $B/par.at)" -
row par-one-wake "64 processes, one key: first to last stat returned" us \
	"$(awk '{print $3 - $2}' $B/par.ng | stats)" "$(awk '{print $3 - $2}' $B/par.at | stats)" -
at_stop
ng_clear /mnt/ng/bind
ng_clear /mnt/ng/nfs

# --- 3. 64 processes, one key / 64 keys; 5. negative lookups --------------
# Counting: the agent through the wrapper, automount with -d
log "phase 2: concurrency and negative lookups"
at_start -d "/mnt/at/bind $B/map.bind -nobrowse" || { t_fail at-start "automount -d did not start"; exit 1; }
echo $B/agent-count > /proc/sys/fs/autofsng/agent
: > $B/agent.log
ngl() { grep -c "^lookup .* $1\$" $B/agent.log; }
atl() { grep -c "attempting to mount entry /mnt/at/bind/$1\$" $B/at.log; }
atl_all() { grep -c 'attempting to mount entry /mnt/at/bind/' $B/at.log; }
ng=$("$AB" par 64 /mnt/ng/bind/one/hello)
at=$("$AB" par 64 /mnt/at/bind/one/hello)
row par-one-lookups "64 processes, one key: lookups run (autofs-tools: requests to the daemon)" n "$(ngl one)" "$(atl one)" -
[ "$(field failed "$ng")$(field failed "$at")" = 00 ] || t_fail par-one-ok "failed stats: ng $ng, at $at"
: > $B/agent.log
before=$(atl_all)
ng=$("$AB" par 64 '/mnt/ng/bind/k%02d/hello')
at=$("$AB" par 64 '/mnt/at/bind/k%02d/hello')
row par-64-time "64 processes, 64 keys: total" us "$(field us "$ng")" "$(field us "$at")" -
row par-64-lookups "64 processes, 64 keys: lookups run (autofs-tools: requests to the daemon)" n "$(grep -c '^lookup ' $B/agent.log)" "$(( $(atl_all) - before ))" -
[ "$(field failed "$ng")$(field failed "$at")" = 00 ] || t_fail par-64-ok "failed stats: ng $ng, at $at"
: > $B/agent.log
before=$(atl_all)
ng=$("$AB" neg /mnt/ng/bind/nokey/hello 10)
at=$("$AB" neg /mnt/at/bind/nokey/hello 10)
row neg-ops "missing key for 10 s: stat calls done" n "$(field ops "$ng")" "$(field ops "$at")" -
row neg-lookups "missing key for 10 s: lookups run (autofs-tools: requests to the daemon)" n "$(ngl nokey)" "$(atl nokey)" -
echo $AGENT > /proc/sys/fs/autofsng/agent
at_stop
ng_clear /mnt/ng/bind

# --- 4. ls of browse maps -------------------------------------------------
log "phase 3: browse"
for n in 1000 10000 100000; do
	t0=$(date +%s%N)
	at_start "/mnt/at/b$n $B/map.b$n -browse" || { t_fail at-start-b$n "automount -f did not start"; continue; }
	# autofs-tools makes the browse directories after the mount: wait for all
	for i in $(seq 360); do
		[ "$(field entries "$("$AB" ls /mnt/at/b$n)")" = $n ] && break
		sleep 0.5
	done
	at_ready=$(( ($(date +%s%N) - t0) / 1000 ))
	echo 3 > /proc/sys/vm/drop_caches
	ngc=$("$AB" ls /mnt/ng/b$n); ngw=$("$AB" ls /mnt/ng/b$n)
	atc=$("$AB" ls /mnt/at/b$n); atw=$("$AB" ls /mnt/at/b$n)
	rc=$("$AB" ls /srv/pl/b$n)
	[ "$(field entries "$ngc")" = $n ] || t_fail browse-ng-$n "ls /mnt/ng/b$n: $ngc"
	[ "$(field entries "$atc")" = $n ] || t_fail browse-at-$n "ls /mnt/at/b$n: $atc"
	row ls-$n-cold "ls of a $n-key browse map, first (raw: plain dir)" us \
		"$(field us "$ngc")" "$(field us "$atc")" "$(field us "$rc")"
	row ls-$n-warm "ls of a $n-key browse map, again" us \
		"$(field us "$ngw")" "$(field us "$atw")" "$(field us "$("$AB" ls /srv/pl/b$n)")"
	row ls-$n-start "$n-key browse map: start until ls shows every key (ng: start of all triggers + first ls)" us \
		"$(( ${ng_start_us:-0} + $(field us "$ngc") ))" "$at_ready" -
	at_stop
done
# autofs start's own cost is the same for every map size: measure it once
t0=$(date +%s%N); "$AGENT" start $B/ng.master >/dev/null 2>&1
echo "bench: autofs start (idempotent, triggers present) took $(( ($(date +%s%N) - t0) / 1000 )) us"

# --- 6. expiry of EXP mounts ----------------------------------------------
# Each mount is held busy for BUSY_S seconds (CPU of the expiry mechanism:
# the VFS tick's kworkers vs automount's process), then released: the time
# until all are gone.  Timeout 5 s both, VFS tick 1 s.
log "phase 4: expiry of $EXP mounts"
echo 1 > /proc/sys/fs/mount_expire_tick
expiry() {	# DIR PID-OR-kworker -> sets E_CREATE E_CPU E_GONE
	local dir=$1 who=$2 c0 c1 i
	"$AB" hold "$dir/e%04d" "$EXP" $((BUSY_S + 3)) > $B/hold.out &
	local hp=$!
	for i in $(seq 6000); do [ -s $B/hold.out ] && break; sleep 0.1; done
	E_CREATE=$(field us "$(cat $B/hold.out)")
	sleep 1
	if [ "$who" = kworker ]; then c0=$(kworker_ticks); else c0=$(ticks "$who"); fi
	sleep "$BUSY_S"
	if [ "$who" = kworker ]; then c1=$(kworker_ticks); else c1=$(ticks "$who"); fi
	E_CPU=$(( (c1 - c0) * 1000 / $(hz) ))
	E_BUSY=$(below "$dir")
	wait $hp
	E_GONE=$(field ms "$("$AB" gone "$dir" 300)")
	E_LEFT=$(below "$dir")
}
expiry /mnt/ng/exp kworker
ngx=("$E_CREATE" "$E_CPU" "$E_GONE" "$E_BUSY" "$E_LEFT")
at_start "/mnt/at/exp $B/map.exp --timeout=5 -nobrowse" || t_fail at-start-exp "automount -f did not start"
expiry /mnt/at/exp "$AT_PID"
atx=("$E_CREATE" "$E_CPU" "$E_GONE" "$E_BUSY" "$E_LEFT")
at_stop
echo 10 > /proc/sys/fs/mount_expire_tick
row exp-create "$EXP mounts made by one process, one after the other" us "${ngx[0]}" "${atx[0]}" -
row exp-busy-cpu "CPU of the expiry mechanism over ${BUSY_S} s, $EXP busy mounts" ms "${ngx[1]}" "${atx[1]}" -
row exp-idle-gone "$EXP idle mounts (timeout 5 s): release until all gone" ms "${ngx[2]}" "${atx[2]}" -
t_eq exp-busy-kept "$EXP $EXP" "${ngx[3]} ${atx[3]}"
t_eq exp-all-gone "0 0" "${ngx[4]} ${atx[4]}"

# --- 7. lookup in a 100k-key file map and in an LDAP map ------------------
log "phase 5: big maps"
at_start "/mnt/at/big $B/map.big -nobrowse" || t_fail at-start-big "automount -f did not start"
ng=$("$AB" first auto - /mnt/ng/big hello 10 | stats)
at=$("$AB" first auto - /mnt/at/big hello 10 | stats)
at_stop
row big-file "first access, key at the end of a 100k-key file map (bind)" us "$ng" "$at" -

SUFFIX=dc=example,dc=org
if [ -x /usr/sbin/slapd ]; then
	S=$B/slapd && mkdir -p $S/db
	cat > $S/automount.schema <<'EOF'
attributetype ( 1.3.6.1.1.1.1.31 NAME 'automountMapName' EQUALITY caseExactIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )
attributetype ( 1.3.6.1.1.1.1.32 NAME 'automountKey' EQUALITY caseExactIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )
attributetype ( 1.3.6.1.1.1.1.33 NAME 'automountInformation' EQUALITY caseExactIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )
objectclass ( 1.3.6.1.1.1.2.16 NAME 'automountMap' SUP top STRUCTURAL MUST automountMapName MAY description )
objectclass ( 1.3.6.1.1.1.2.17 NAME 'automount' SUP top STRUCTURAL MUST ( automountKey $ automountInformation ) MAY description )
EOF
	cat > $S/slapd.conf <<EOF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/nis.schema
include $S/automount.schema
pidfile $S/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
suffix "$SUFFIX"
rootdn "cn=admin,$SUFFIX"
rootpw admin-secret
directory $S/db
maxsize 268435456
index automountKey eq
access to * by * read
EOF
	M="automountMapName=auto.bench,$SUFFIX"
	{ printf 'dn: %s\nobjectClass: dcObject\nobjectClass: organization\no: example\ndc: example\n\n' "$SUFFIX"
	  printf 'dn: %s\nobjectClass: automountMap\nautomountMapName: auto.bench\n\n' "$M"
	  { seq -f 'f%06g' 1 "$LDAPN"; seq -f 'k%02g' 1 10; } | awk -v m="$M" '{
		printf "dn: automountKey=%s,%s\nobjectClass: automount\nautomountKey: %s\nautomountInformation: -fstype=bind :/srv/bind\n\n", $1, m, $1 }'
	} > $S/data.ldif
	if slapadd -q -f $S/slapd.conf -l $S/data.ldif && /usr/sbin/slapd -f $S/slapd.conf -h ldap://127.0.0.1:3890/; then
		for i in $(seq 100); do ldapsearch -x -H ldap://127.0.0.1:3890 -b "$SUFFIX" -s base dn >/dev/null 2>&1 && break; sleep 0.2; done
		printf '[ldap]\nuri = ldap://127.0.0.1:3890\ntimeout = 5\nnetwork_timeout = 2\n' >> /etc/autofs-agent.conf
		echo "/mnt/ng/ldap ldap:$M --timeout=600 -nobrowse" > $B/ng.ldap.master
		"$AGENT" start $B/ng.ldap.master > $B/ng.ldap.start 2>&1
		ng=$("$AB" first auto - /mnt/ng/ldap hello 10 | stats)
		echo $B/agent-strace > /proc/sys/fs/autofsng/agent
		cat /mnt/ng/ldap/k01/hello >/dev/null
		echo $AGENT > /proc/sys/fs/autofsng/agent
		mv $T/strace-ng-k01.txt $T/strace-ng-ldap-agent.txt 2>/dev/null
		umount /mnt/ng/ldap/k01
		echo "bench: the agent's LDAP lookup, cut at its connect(): $(split_at $T/strace-ng-ldap-agent.txt 'connect\(.*3890')"
		at=-
		if [ -f /usr/lib/x86_64-linux-gnu/autofs/lookup_ldap.so ] &&
		   at_start "/mnt/at/ldap ldap://127.0.0.1:3890/$M -nobrowse"; then
			at=$("$AB" first auto - /mnt/at/ldap hello 10 | stats)
			# where one LDAP lookup's time goes on each side
			strace -f -tt -T -o $T/strace-at-ldap-daemon.txt -p "$AT_PID" & sp=$!
			sleep 2
			cat /mnt/at/ldap/k01/hello >/dev/null
			sleep 1; kill $sp; wait $sp
			echo "bench: automount's LDAP lookup, cut at its connect(): $(split_at $T/strace-at-ldap-daemon.txt 'connect\(')"
			at_stop
		else
			t_fail at-ldap "autofs-tools' LDAP lookup (Debian package autofs-ldap) did not start"
		fi
		row ldap "first access, LDAP map of $LDAPN keys (bind)" us "$ng" "$at" -
		kill "$(cat $S/slapd.pid)"
	else
		t_fail ldap "slapd did not start"
	fi
else
	t_fail ldap "no slapd"
fi

# --- evidence for the rows where autofsng is slower: where a lookup's time goes
# strace of one lookup on each side (the agent through a wrapper, automount
# attached by pid), and a system-wide perf profile (cpu-clock: TCG has no
# hardware counters) of 10 first accesses, by command and object.
log "phase 6: traces"
at_start "/mnt/at/bind $B/map.bind -nobrowse" "/mnt/at/nfs $B/map.nfs -nobrowse" || t_fail at-start-trace "automount -f did not start"
for fs in bind nfs; do
	echo $B/agent-strace > /proc/sys/fs/autofsng/agent
	strace -tt -T -e trace=openat,read -o $T/strace-ng-$fs-access.txt cat /mnt/ng/$fs/k01/hello >/dev/null
	mv $T/strace-ng-k01.txt $T/strace-ng-$fs-agent.txt 2>/dev/null
	echo $AGENT > /proc/sys/fs/autofsng/agent
	strace -f -tt -T -o $T/strace-at-$fs-daemon.txt -p "$AT_PID" & sp=$!
	sleep 2
	strace -tt -T -e trace=openat,read -o $T/strace-at-$fs-access.txt cat /mnt/at/$fs/k01/hello >/dev/null
	sleep 1; kill $sp; wait $sp
	ng_clear /mnt/ng/$fs; umount /mnt/at/$fs/k01
	if command -v perf >/dev/null; then
		for who in ng at; do
			timeout 120 perf record -q -a -e cpu-clock -F 499 -o /tmp/perf.$who -- \
				"$AB" first auto - /mnt/$who/$fs hello 10 > $T/perf-$who-$fs.samples 2>/dev/null
			timeout 90 perf report -q -i /tmp/perf.$who --stdio --sort comm,dso 2>/dev/null | head -40 > $T/perf-$who-$fs.txt
		done
	fi
done
at_stop
for f in $T/strace-*-daemon.txt $T/strace-ng-*-agent.txt; do
	[ -f "$f" ] && echo "bench: $(basename $f): $(grep -c execve "$f") execve, $(wc -l < "$f") syscalls"
done

# --- the table, the CSV, the chart ------------------------------------------
{
	echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) vCPU, QEMU TCG"
	echo "kernel: $(uname -r)"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "scale: N=$N first-access samples, $EXP expiry mounts, $LDAPN LDAP keys"
} > "$OUT/machine.txt"
bash "$TOP/bench/report.sh" "$OUT" && t_pass report || t_fail report "bench/report.sh failed"
log "done"
