# DEFAULT=no
# SUITE_TIMEOUT=2400
# bench: autofsng + agent side by side with autofs-tools 5.1.8 (automount -f
# and the in-kernel autofs) and the raw mount of the same target, in one
# boot (issue 9, design.md section 7).  Runs only when named:
# `test/qemu/run bench`, or bench/run which also files the results.
#
# Every timing loop runs inside bench/abench (a fork+exec costs ~35 ms
# under TCG and must not enter a figure), and every sampled row takes its
# samples of autofsng, autofs-tools and raw in turn (A B C A B C ...), so a
# change in the machine's load lands on every side alike.  The whole set of
# rows is measured ROUNDS times in this one boot (bench/run -r); rows go to
# $OUT/rows.tsv as "round<TAB>id<TAB>label<TAB>unit<TAB>autofsng<TAB>
# autofs-tools<TAB>raw", a sampled cell being "median min max n", and
# bench/report.sh turns them into the text table (medians over the rounds,
# each ratio with its spread), the CSV and the PNG chart in $OUT.
#
# Scaled for TCG (see bench/README.md): BENCH_N samples per first-access
# row, BENCH_EXP idle/busy mounts for expiry, BENCH_LDAP keys in the LDAP
# map; bench/run writes BENCH_ROUNDS into $BUILDDIR/bench.conf.
. "$TOP/test/qemu/lib.sh"

AB=$BUILDDIR/bench/abench
FLOOR=$BUILDDIR/bench/floor
OUT=/run/results/bench
ROWS=$OUT/rows.tsv
B=/run/bench		# maps, configuration, logs
N=${BENCH_N:-20}
PARN=${BENCH_PAR:-9}	# samples of "64 processes, one key"
EXP=${BENCH_EXP:-1000}
LDAPN=${BENCH_LDAP:-1000}
ROUNDS=1
BUSY_S=10		# CPU window with every expiry mount busy
EXP_BUDGET=${BENCH_EXP_BUDGET:-420}	# seconds of TCG for making the expiry mounts, all rounds
TTL=5			# cache_ttl of the browse triggers (row ls-N-ttl)
BIG="1000 100000 1000000"	# sizes of the file maps of the big-file rows
PHASES="first count browse expiry big ldap stages traces"	# bench/run -p: a subset
ASLR=2			# bench/run -A: 0, the guest's randomize_va_space (README)
AGENT=/sbin/autofs
AT_PID=
[ -f "$BUILDDIR/bench.conf" ] && . "$BUILDDIR/bench.conf"
ROUND=0

mkdir -p "$OUT" "$B" /mnt/ng /mnt/at /mnt/raw
: > "$ROWS"
[ -x "$AB" ] && [ -x "$FLOOR" ] || { t_fail setup "no $AB or $FLOOR (build and stage first)"; exit 1; }
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
# side K FILE: the samples of side K in the output of "abench first"
side() { awk -v k="$1" '$1 == k {print $2}' "$2" | stats; }
# row ID LABEL UNIT NG AT RAW (of this round)
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$ROUND" "$@" >> "$ROWS"
	echo "bench: round $ROUND row $1: ng=[$4] at=[$5] raw=[$6] $3"
	case "$4$5$6" in
	*[0-9]*) t_pass "$1-r$ROUND" ;;
	*) t_fail "$1-r$ROUND" "no figure measured" ;;
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
echo "$ASLR" > /proc/sys/kernel/randomize_va_space
log "kernel.randomize_va_space = $(cat /proc/sys/kernel/randomize_va_space)"
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
# file maps of every size in BIG, the looked-up keys (k01..k20) last
for n in $BIG; do
	{ seq -f 'f%07g' 1 $((n - 20)) | awk '{print $1 "\t-fstype=bind\t:/srv/bind"}'
	  keys "-fstype=bind	:/srv/bind" | head -20; } > $B/map.big$n
done
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
# agent_conf [EXTRA-LINE...]: the agent's configuration, and the [ldap]
# section once slapd runs
agent_conf() {
	{ printf '[general]\ntimeout = 600\nnegative_timeout = 60\nmount_timeout = 30\n'
	  printf 'map_cache_dir = /run/autofsng/maps\n'
	  printf '%s\n' "$@"
	  [ -n "${LDAP_URI:-}" ] && printf '[ldap]\nuri = %s\ntimeout = 5\nnetwork_timeout = 2\n' "$LDAP_URI"
	} > /etc/autofs-agent.conf
}
agent_conf
{
	echo "/mnt/ng/bind file:$B/map.bind --timeout=600 -nobrowse"
	echo "/mnt/ng/floor file:$B/map.bind --timeout=600 -nobrowse"
	echo "/mnt/ng/nfs file:$B/map.nfs --timeout=600 -nobrowse"
	echo "/mnt/ng/exp file:$B/map.exp --timeout=5 -nobrowse"
	for n in $BIG; do echo "/mnt/ng/big$n file:$B/map.big$n --timeout=600 -nobrowse"; done
} > $B/ng.master
for n in 1000 10000 100000; do
	echo "/mnt/ng/b$n file:$B/map.b$n -browse" > $B/ng.b$n.master
done
echo "$AGENT" > /proc/sys/fs/autofsng/agent
"$AGENT" start $B/ng.master > $B/ng.start 2>&1 || { t_fail ng-start "$(tail -3 $B/ng.start)"; exit 1; }

# --- autofs-tools: automount -f with its own master map, one per phase ------
cat > /etc/autofs.conf <<EOF
[ autofs ]
timeout = 600
negative_timeout = 60
browse_mode = no
mount_wait = -1
EOF
# at_start MASTER-LINES... [-d]: (re)start automount -f; waits for its mounts
# (AT_WAIT seconds, default 60: automount reads a file map whole first)
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
	# each mount point of the master lines an autofs mount of this daemon
	for i in $(seq $((${AT_WAIT:-60} * 10))); do
		[ "$(printf '%s\n' "$@" | awk 'NR == FNR { want[$1] = 1; next }
			{ for (i = 7; $i != "-"; i++); }
			$(i + 1) == "autofs" && ($5 in want) && !seen[$5]++ { n++ }
			END { print n + 0 }' - /proc/self/mountinfo)" -ge "$want" ] &&
			return 0
		kill -0 "$AT_PID" 2>/dev/null || break
		sleep 0.1
	done
	log "automount did not come up: $(tail -3 $B/at.log)"
	at_stop
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

# --- LDAP: slapd with a map of LDAPN keys, started once ---------------------
SUFFIX=dc=example,dc=org
M="automountMapName=auto.bench,$SUFFIX"
ldap_setup() {
	local S=$B/slapd i
	[ -x /usr/sbin/slapd ] || { t_fail ldap "no slapd"; return 1; }
	mkdir -p $S/db
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
# pages past the size limit: the agent's cache and autofs-tools' browse
# read the whole map
sizelimit size.soft=500 size.hard=500 size.prtotal=unlimited
maxsize 268435456
index automountKey eq
access to * by * read
EOF
	{ printf 'dn: %s\nobjectClass: dcObject\nobjectClass: organization\no: example\ndc: example\n\n' "$SUFFIX"
	  printf 'dn: %s\nobjectClass: automountMap\nautomountMapName: auto.bench\n\n' "$M"
	  { seq -f 'f%06g' 1 "$LDAPN"; seq -f 'k%02g' 1 10; } | awk -v m="$M" '{
		printf "dn: automountKey=%s,%s\nobjectClass: automount\nautomountKey: %s\nautomountInformation: -fstype=proc :proc\n\n", $1, m, $1 }'
	} > $S/data.ldif
	slapadd -q -f $S/slapd.conf -l $S/data.ldif && /usr/sbin/slapd -f $S/slapd.conf -h ldap://127.0.0.1:3890/ ||
		{ t_fail ldap "slapd did not start"; return 1; }
	for i in $(seq 100); do ldapsearch -x -H ldap://127.0.0.1:3890 -b "$SUFFIX" -s base dn >/dev/null 2>&1 && break; sleep 0.2; done
	[ -f /usr/lib/x86_64-linux-gnu/autofs/lookup_ldap.so ] ||
		t_fail at-ldap "autofs-tools' LDAP lookup (Debian package autofs-ldap) is missing"
	LDAP_URI=ldap://127.0.0.1:3890
	agent_conf
	echo "/mnt/ng/ldap ldap:$M --timeout=600 -nobrowse" > $B/ng.ldap.master
	"$AGENT" start $B/ng.ldap.master > $B/ng.ldap.start 2>&1
}
ldap_setup

# --- 1. first access -> first byte; 2. access to a mounted key ------------
NG_BIND="auto,-,/mnt/ng/bind,$AGENT"
phase_first() {
	local fs src raw
	at_start "/mnt/at/bind $B/map.bind -nobrowse" "/mnt/at/nfs $B/map.nfs -nobrowse" ||
		{ t_fail at-start "automount -f did not start"; return 1; }
	for fs in bind nfs; do
		src=/srv/bind
		[ $fs = nfs ] && src=127.0.0.1:/export/data
		raw="$fs,$src,/mnt/raw/$fs"
		mkdir -p /mnt/raw/$fs && (cd /mnt/raw/$fs && seq -f 'k%02g' 1 "$N" | xargs mkdir -p)
		# one untimed round of every side: the NFS client module state,
		# the page cache of the programs, the agent's binary
		if [ $fs = bind ]; then
			"$AB" first 1 hello "$NG_BIND" "auto,-,/mnt/ng/floor,$FLOOR" \
				"auto,-,/mnt/at/bind" "$raw" >/dev/null
			"$AB" first "$N" hello "$NG_BIND" "auto,-,/mnt/at/bind" "$raw" \
				"auto,-,/mnt/ng/floor,$FLOOR" > $B/first.$fs
			echo "$AGENT" > /proc/sys/fs/autofsng/agent
			row floor-bind "first access to first byte, bind, by a static program that only attaches (the floor)" us \
				"$(side 3 $B/first.$fs)" "$(side 1 $B/first.$fs)" "$(side 2 $B/first.$fs)"
		else
			"$AB" first 1 hello auto,-,/mnt/ng/nfs auto,-,/mnt/at/nfs "$raw" >/dev/null
			"$AB" first "$N" hello auto,-,/mnt/ng/nfs auto,-,/mnt/at/nfs "$raw" > $B/first.$fs
		fi
		row first-$fs "first access to first byte, $fs" us \
			"$(side 0 $B/first.$fs)" "$(side 1 $B/first.$fs)" "$(side 2 $B/first.$fs)"
	done
	phase_walk
	phase_par
	at_stop
	ng_clear /mnt/ng/bind
	ng_clear /mnt/ng/nfs
}
# the mounted key vs a plain directory at the same depth
phase_walk() {
	local ng at raw
	cat /mnt/ng/bind/k01/hello /mnt/at/bind/k01/hello >/dev/null
	ng=$("$AB" walk /mnt/ng/bind/k01/hello 20000 11 | stats)
	at=$("$AB" walk /mnt/at/bind/k01/hello 20000 11 | stats)
	raw=$("$AB" walk /srv/pl/bind/k01/hello 20000 11 | stats)
	row walk-mounted "stat of a file in a mounted key (raw: plain dir, same depth)" ns "$ng" "$at" "$raw"
}
# 64 processes on one key, PARN samples a side taking turns, a fresh key each,
# neither side instrumented (the counted run is in phase_count).  "wake": from
# the first stat() that returned to the last, the waiters' share.
phase_par() {
	local i who r
	: > $B/par.ng; : > $B/par.at
	for i in $(seq -f 'p%02g' 1 "$PARN"); do
		for who in ng at; do
			r=$("$AB" par 64 /mnt/$who/bind/$i/hello)
			echo "bench: par-one $who $i $r"
			[ "$(field failed "$r")" = 0 ] || t_fail par-one-ok-$who-$i-r$ROUND "failed stats: $r"
			echo "$(field us "$r") $(field first "$r") $(field last "$r")" >> $B/par.$who
			umount /mnt/$who/bind/$i
		done
	done
	row par-one-time "64 processes, one key: total" us "$(col 1 $B/par.ng)" "$(col 1 $B/par.at)" -
	row par-one-first "64 processes, one key: until the first stat returns" us "$(col 2 $B/par.ng)" "$(col 2 $B/par.at)" -
	row par-one-wake "64 processes, one key: first to last stat returned" us \
		"$(awk '{print $3 - $2}' $B/par.ng | stats)" "$(awk '{print $3 - $2}' $B/par.at | stats)" -
}
col() { awk -v c="$1" '{print $c}' "$2" | stats; }

# --- 3. 64 processes, one key / 64 keys; 5. negative lookups --------------
# Counting: the agent through the wrapper, automount with -d
ngl() { grep -c "^lookup .* $1\$" $B/agent.log; }
atl() { grep -c "attempting to mount entry /mnt/at/bind/$1\$" $B/at.log; }
atl_all() { grep -c 'attempting to mount entry /mnt/at/bind/' $B/at.log; }
phase_count() {
	local ng at before
	at_start -d "/mnt/at/bind $B/map.bind -nobrowse" || { t_fail at-start "automount -d did not start"; return 1; }
	echo $B/agent-count > /proc/sys/fs/autofsng/agent
	: > $B/agent.log
	ng=$("$AB" par 64 /mnt/ng/bind/one/hello)
	at=$("$AB" par 64 /mnt/at/bind/one/hello)
	row par-one-lookups "64 processes, one key: lookups run (autofs-tools: requests to the daemon)" n "$(ngl one)" "$(atl one)" -
	[ "$(field failed "$ng")$(field failed "$at")" = 00 ] || t_fail par-one-ok-r$ROUND "failed stats: ng $ng, at $at"
	: > $B/agent.log
	before=$(atl_all)
	ng=$("$AB" par 64 '/mnt/ng/bind/k%02d/hello')
	at=$("$AB" par 64 '/mnt/at/bind/k%02d/hello')
	row par-64-time "64 processes, 64 keys: total" us "$(field us "$ng")" "$(field us "$at")" -
	row par-64-lookups "64 processes, 64 keys: lookups run (autofs-tools: requests to the daemon)" n "$(grep -c '^lookup ' $B/agent.log)" "$(( $(atl_all) - before ))" -
	[ "$(field failed "$ng")$(field failed "$at")" = 00 ] || t_fail par-64-ok-r$ROUND "failed stats: ng $ng, at $at"
	: > $B/agent.log
	ng=$("$AB" neg /mnt/ng/bind/nokey$ROUND/hello 10)
	at=$("$AB" neg /mnt/at/bind/nokey$ROUND/hello 10)
	row neg-ops "missing key for 10 s: stat calls done" n "$(field ops "$ng")" "$(field ops "$at")" -
	row neg-lookups "missing key for 10 s: lookups run (autofs-tools: requests to the daemon)" n "$(ngl nokey$ROUND)" "$(atl nokey$ROUND)" -
	echo $AGENT > /proc/sys/fs/autofsng/agent
	at_stop
	ng_clear /mnt/ng/bind
}

# --- 4. ls of browse maps -------------------------------------------------
# ls_until DIR N: list DIR until it shows N keys (at most 3 minutes)
ls_until() {
	local i
	for i in $(seq 360); do
		[ "$(field entries "$("$AB" ls "$1")")" = "$2" ] && return 0
		sleep 0.5
	done
	return 1
}
# ng_trigger_fresh N: the browse trigger of N keys unmounted, cache and all
ng_trigger_fresh() { umount /mnt/ng/b$1 2>/dev/null; ! mountpoint -q /mnt/ng/b$1; }
# The rows of one map size.  ls-N-start: from starting until every key is
# listed (autofsng: autofs start and the first ls right after it).  Then a
# fresh start, left alone while autofs-tools starts, as after a boot:
# ls-N-cold is the first ls after drop_caches, -warm the next, -ttl the first
# once cache_ttl has passed (autofs-tools: the same ls again).
browse_one() {
	local n=$1 t0 ngs ngc ngw ngt atc atw att rc at_ready
	ng_trigger_fresh $n || { t_fail browse-ng-$n-r$ROUND "trigger /mnt/ng/b$n busy"; return; }
	t0=$(date +%s%N)
	"$AGENT" start $B/ng.b$n.master >/dev/null 2>&1
	ngs=$("$AB" ls /mnt/ng/b$n)
	[ "$(field entries "$ngs")" = $n ] || t_fail browse-ng-start-$n-r$ROUND "ls /mnt/ng/b$n right after start: $ngs"
	ngs=$(( ($(date +%s%N) - t0) / 1000 ))
	ng_trigger_fresh $n
	"$AGENT" start $B/ng.b$n.master >/dev/null 2>&1
	t0=$(date +%s%N)
	at_start "/mnt/at/b$n $B/map.b$n -browse" || { t_fail at-start-b$n "automount -f did not start"; return; }
	# autofs-tools makes the browse directories after the mount: wait for all
	ls_until /mnt/at/b$n $n || t_fail browse-at-$n-r$ROUND "not every key listed in 3 minutes"
	at_ready=$(( ($(date +%s%N) - t0) / 1000 ))
	echo 3 > /proc/sys/vm/drop_caches
	ngc=$("$AB" ls /mnt/ng/b$n); atc=$("$AB" ls /mnt/at/b$n); rc=$("$AB" ls /srv/pl/b$n)
	ngw=$("$AB" ls /mnt/ng/b$n); atw=$("$AB" ls /mnt/at/b$n)
	[ "$(field entries "$ngc")" = $n ] || t_fail browse-ng-$n-r$ROUND "ls /mnt/ng/b$n: $ngc"
	[ "$(field entries "$atc")" = $n ] || t_fail browse-at-$n-r$ROUND "ls /mnt/at/b$n: $atc"
	row ls-$n-cold "ls of a $n-key browse map after start, first (raw: plain dir)" us \
		"$(field us "$ngc")" "$(field us "$atc")" "$(field us "$rc")"
	row ls-$n-warm "ls of a $n-key browse map, again" us \
		"$(field us "$ngw")" "$(field us "$atw")" "$(field us "$("$AB" ls /srv/pl/b$n)")"
	sleep $((TTL + 1))
	ngt=$("$AB" ls /mnt/ng/b$n); att=$("$AB" ls /mnt/at/b$n)
	row ls-$n-ttl "ls of a $n-key browse map once cache_ttl ($TTL s) has passed" us \
		"$(field us "$ngt")" "$(field us "$att")" -
	row ls-$n-start "$n-key browse map: start until ls shows every key (ng: autofs start + first ls)" us \
		"$ngs" "$at_ready" -
	at_stop
}
phase_browse() {
	local n
	agent_conf "cache_ttl = $TTL"
	for n in 1000 10000 100000; do browse_one $n; done
	agent_conf
}

# --- 6. expiry of EXP mounts ----------------------------------------------
# Each mount is held busy for BUSY_S seconds (CPU of the expiry mechanism:
# the VFS tick's kworkers vs automount's process), then released: the time
# until all are gone.  Timeout 5 s both, VFS tick 1 s.
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
# Making the expiry mounts costs EXP first accesses on each side: keep that
# within EXP_BUDGET seconds of TCG over all rounds, in steps of 100 mounts
# (said in the rows), from one bind lookup on each side.
expiry_scale() {
	local cost fit
	cost=$(( $(awk '$1 == 0 || $1 == 1 {s += $2; n++} END {print n ? int(2 * s / n) : 0}' $B/first.bind) ))
	[ "$cost" -gt 0 ] || return 0
	fit=$(( EXP_BUDGET * 1000000 / ROUNDS / cost / 100 * 100 ))
	[ "$fit" -ge 100 ] || fit=100
	[ "$fit" -lt "$EXP" ] || return 0
	log "expiry scaled from $EXP to $fit mounts a round (one bind lookup on each side: $cost us)"
	EXP=$fit
}
phase_expiry() {
	local ngx atx
	echo 1 > /proc/sys/fs/mount_expire_tick
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
	t_eq exp-busy-kept-r$ROUND "$EXP $EXP" "${ngx[3]} ${atx[3]}"
	t_eq exp-all-gone-r$ROUND "0 0" "${ngx[4]} ${atx[4]}"
}

# --- 7. lookup in big file maps and in an LDAP map ------------------------
phase_big() {
	local n
	for n in $BIG; do
		# a map of a million keys takes automount minutes to read under TCG
		AT_WAIT=600 at_start "/mnt/at/big$n $B/map.big$n -nobrowse" ||
			{ t_fail at-start-big$n-r$ROUND "automount -f did not start"; continue; }
		# one untimed access a side: autofsng builds the map's index on
		# its first lookup, automount reads the map into its cache
		"$AB" first 1 hello "auto,-,/mnt/ng/big$n" "auto,-,/mnt/at/big$n" > /dev/null
		"$AB" first 10 hello "auto,-,/mnt/ng/big$n" "auto,-,/mnt/at/big$n" > $B/first.big
		row big-file-$n "first access, key at the end of a $n-key file map (bind)" us \
			"$(side 0 $B/first.big)" "$(side 1 $B/first.big)" -
		at_stop
	done
}
phase_ldap() {
	[ -n "${LDAP_URI:-}" ] || return 0
	at_start "/mnt/at/ldap ldap://127.0.0.1:3890/$M -nobrowse" ||
		{ t_fail at-ldap-r$ROUND "autofs-tools' LDAP lookup did not start"; return; }
	"$AB" first 10 version auto,-,/mnt/ng/ldap auto,-,/mnt/at/ldap > $B/first.ldap ||
		t_fail ldap-access-r$ROUND "a first access failed; automount said: $(tail -5 $B/at.log | tr '\n' ' ')"
	row ldap "first access, LDAP map of $LDAPN keys (proc)" us "$(side 0 $B/first.ldap)" "$(side 1 $B/first.ldap)" -
	at_stop
}

# --- 8. where the agent's time goes: its per-stage timings (debug level) --
# The "stages" line each lookup logs (agent/stage.c), from the guest's
# syslog, set beside the access that ran it: "before" is from the access
# to the agent's main (the kernel's call, the exec, the dynamic loader;
# "exec" is the CPU time of that part), "after" from the agent's last
# stage to the first byte read (its exit, the kernel's wakeup of the
# requester, the walk into the mount).  Medians of 10 first accesses.
STAGES="exec before init map module names parse mount attach expire end after whole"
# stage_rows WHAT ACCESSES STAGELINES: one row per stage
stage_rows() {
	local what=$1 st
	awk 'NR == FNR { us[FNR] = $2; t0[FNR] = $3; n = FNR; next }
	     { i++; for (f = 1; f <= NF; f++) if (split($f, kv, "=") == 2) v[kv[1]] = kv[2]
	       if (i > n) next
	       printf "exec %d\nbefore %d\nafter %d\nwhole %d\n", v["exec"], v["main_at"] - t0[i],
			t0[i] + us[i] - v["main_at"] - v["total"], us[i]
	       split("init map module names parse mount attach expire end", names, " ")
	       for (k = 1; k <= 9; k++) printf "%s %d\n", names[k], v[names[k]] }' "$2" "$3" > $B/stages.$what.kv
	for st in $STAGES; do
		row stage-$what-$st "agent stage $st, first access, $what" us \
			"$(awk -v s=$st '$1 == s {print $2}' $B/stages.$what.kv | stats)" - -
	done
}
phase_stages() {
	local what dir from
	agent_conf "log_level = debug"
	for what in bind nfs ldap; do
		dir=/mnt/ng/$what
		mountpoint -q $dir || continue
		from=$(($(wc -l < /run/results/syslog.txt) + 1))
		"$AB" first 10 "$([ $what = ldap ] && echo version || echo hello)" "auto,-,$dir" \
			> $B/stages.$what.first
		sleep 1
		tail -n +$from /run/results/syslog.txt | grep 'stages lookup us:' > $B/stages.$what
		stage_rows $what $B/stages.$what.first $B/stages.$what
	done
	agent_conf
}

# --- evidence for the rows where autofsng is slower: where a lookup's time goes
# strace of one lookup on each side (the agent through a wrapper, automount
# attached by pid), and a system-wide perf profile (cpu-clock: TCG has no
# hardware counters) of 10 first accesses, by command and object.
phase_traces() {
	at_start "/mnt/at/bind $B/map.bind -nobrowse" "/mnt/at/nfs $B/map.nfs -nobrowse" || t_fail at-start-trace "automount -f did not start"
	local fs who f sp
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
					"$AB" first 10 hello "auto,-,/mnt/$who/$fs" > $T/perf-$who-$fs.samples 2>/dev/null
				timeout 90 perf report -q -i /tmp/perf.$who --stdio --sort comm,dso 2>/dev/null | head -40 > $T/perf-$who-$fs.txt
			done
		fi
	done
	at_stop
	if [ -n "${LDAP_URI:-}" ]; then
		echo $B/agent-strace > /proc/sys/fs/autofsng/agent
		cat /mnt/ng/ldap/k01/hello >/dev/null
		echo $AGENT > /proc/sys/fs/autofsng/agent
		mv $T/strace-ng-k01.txt $T/strace-ng-ldap-agent.txt 2>/dev/null
		umount /mnt/ng/ldap/k01
		echo "bench: the agent's LDAP lookup, cut at its connect(): $(split_at $T/strace-ng-ldap-agent.txt 'connect\(.*3890')"
		if at_start "/mnt/at/ldap ldap://127.0.0.1:3890/$M -nobrowse"; then
			strace -f -tt -T -o $T/strace-at-ldap-daemon.txt -p "$AT_PID" & sp=$!
			sleep 2
			cat /mnt/at/ldap/k01/hello >/dev/null
			sleep 1; kill $sp; wait $sp
			echo "bench: automount's LDAP lookup, cut at its connect(): $(split_at $T/strace-at-ldap-daemon.txt 'connect\(')"
			at_stop
		fi
		kill "$(cat $B/slapd/slapd.pid)"
	fi
	for f in $T/strace-*-daemon.txt $T/strace-ng-*-agent.txt; do
		[ -f "$f" ] && echo "bench: $(basename $f): $(grep -c execve "$f") execve, $(wc -l < "$f") syscalls"
	done
}

phase() { case " $PHASES " in *" $1 "*) log "round $ROUND of $ROUNDS: $1"; "phase_$1" ;; esac; }
for ROUND in $(seq "$ROUNDS"); do
	phase first
	[ "$ROUND" = 1 ] && [ -f $B/first.bind ] && expiry_scale
	for p in count browse expiry big ldap stages; do phase $p; done
done
phase traces

# --- the table, the CSV, the chart ------------------------------------------
{
	echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) vCPU, QEMU TCG"
	echo "kernel: $(uname -r)"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "scale: $ROUNDS rounds; a round: N=$N first-access samples a side, taken in turn, $EXP expiry mounts, $LDAPN LDAP keys"
} > "$OUT/machine.txt"
bash "$TOP/bench/report.sh" "$OUT" && t_pass report || t_fail report "bench/report.sh failed"
log "done"
