#!/bin/bash
# The index of file maps: every lookup through the index answers what the
# scan answers (includes, wildcard, continuations, quoting, duplicates,
# file:line of an error); a map changed with its size and mtime kept, a
# damaged, truncated, foreign or planted index is never used; concurrent
# first lookups leave one good index; a warm lookup reads a few hundred
# bytes of a map of 200,000 keys.
. "${srcdir:-.}/test/integration/lib.sh"

IX=$T/index
printf '[general]\nmap_dir = %s\nsources = files\nlog_stderr = yes\nlog_level = debug\n[file]\nindex_dir = %s\nindex_settle = 0\n' \
	"$T" "$IX" > "$AUTOFS_AGENT_CONF"
printf '[general]\nmap_dir = %s\nsources = files\n[file]\nindex_dir = none\n' "$T" > "$T/scan.conf"

cat > "$T/auto.home" <<'M'
# a comment line
alice	-soft	server:/export/home/alice
	bob	server:/export/home/bob   # trailing comment
"quoted key"	server:/q
carol	-ro \
	server:/export/home/carol
+auto.extra
dave	server:/export/home/dave-here
broken	-fstype=nfs,	server
*	server:/export/home/&
alice	server:/second-alice
+auto.late
M
printf 'dave\tother:/dave-from-extra\nerin\tother:/erin\n+auto.home\n' > "$T/auto.extra"
printf 'frank\tlate:/frank\n' > "$T/auto.late"

index_of() { ls "$IX"/*.idx 2>/dev/null | wc -l; }
# same KEY: `autofs test` answers the same through the index and by scanning
same() {
	local key=$1 a b
	a=$($AUTOFS test auto.home "$key" 2>&1 | grep -v '^autofs: .*index'; echo "rc=${PIPESTATUS[0]}")
	b=$(AUTOFS_AGENT_CONF=$T/scan.conf $AUTOFS test auto.home "$key" 2>&1; echo "rc=$?")
	[ "$a" = "$b" ] && pass "same-as-scan-$key" || fail "same-as-scan-$key" "index: $a / scan: $b"
}

expect first-use-builds 0 "index" $AUTOFS test auto.home alice
[ "$(index_of)" = 1 ] && pass index-written || fail index-written "$(ls -l "$IX")"
[ "$(stat -c %a "$IX")" = 700 ] && pass index-dir-0700 || fail index-dir-0700 "$(stat -c %a "$IX")"
[ -z "$(find "$IX" -type f ! -perm 600)" ] && pass index-files-0600 || fail index-files-0600 "$(ls -l "$IX")"
out=$($AUTOFS test auto.home alice 2>&1)
grep -q "built" <<<"$out" && fail warm-no-rebuild "$out" || pass warm-no-rebuild
for k in alice bob "quoted key" carol dave erin frank broken zed '*' second-alice; do
	same "$k"
done
expect first-record-wins 0 "from server:/export/home/alice" $AUTOFS test auto.home alice
expect include-before-key 0 "from other:/dave-from-extra" $AUTOFS test auto.home dave
expect include-at-end-before-wildcard 0 "from late:/frank" $AUTOFS test auto.home frank
[ "$(index_of)" = 3 ] && pass include-indexes-written || fail include-indexes-written "$(ls -l "$IX")"
expect continuation 0 "from server:/export/home/carol" $AUTOFS test auto.home carol
expect error-names-line 5 "auto.home:9)" $AUTOFS test auto.home broken

# The map rewritten in place with its size, its mtime to the nanosecond and
# its inode kept: only ctime tells, and the moved key is found on its new line.
M=$T/auto.moved
printf 'one\tserver:/one\ntwo\tserver:/two\n' > "$M"
expect moved-before 0 "from server:/two" $AUTOFS test auto.moved two
mtime=$(stat -c %y "$M")
ino=$(stat -c %i "$M")
printf 'two\tserver:/two\none\tserver:/one\n' > "$M"
touch -d "$mtime" "$M"
[ "$(stat -c %y.%s.%i "$M")" = "$mtime.$(stat -c %s "$M").$ino" ] && pass moved-same-size-mtime-inode ||
	fail moved-same-size-mtime-inode "$(stat -c %y.%s.%i "$M")"
out=$($AUTOFS test auto.moved two 2>&1)
grep -q "map $M: index .* made for another version of the map" <<<"$out" && pass moved-index-stale ||
	fail moved-index-stale "$out"
grep -q "auto.moved.*index.*built" <<<"$out" && pass moved-index-rebuilt || fail moved-index-rebuilt "$out"
expect moved-key-new-line 0 "from server:/two" $AUTOFS test auto.moved two
expect moved-other-key 0 "from server:/one" $AUTOFS test auto.moved one
out=$(printf 'broken\t-fstype=nfs,\tserver\n' > "$M"; $AUTOFS test auto.moved broken 2>&1)
grep -q "auto.moved:1)" <<<"$out" && pass moved-error-line || fail moved-error-line "$out"

# The moved key's old line is still a whole record of it: only the identity
# (ctime) tells that a first record of the key now comes before it.
printf 'kb\tserver:/b\nka\tserver:/a\n' > "$M"
expect dup-before 0 "from server:/a" $AUTOFS test auto.moved ka
mtime=$(stat -c %y "$M")
printf 'ka\tserver:/b\nka\tserver:/a\n' > "$M"
touch -d "$mtime" "$M"
expect dup-moved-first-wins 0 "from server:/b" $AUTOFS test auto.moved ka

# Damage: garbled slots, a garbled header, a truncated file, someone else's
# file, a symbolic link.  Each is noticed, the answer is right, it is rebuilt.
$AUTOFS test auto.home alice >/dev/null 2>&1
HX=$(ls -S "$IX"/*.idx | head -1)
damage() {
	local name=$1 want=$2 key=$3 out
	shift 3
	"$@"
	out=$($AUTOFS test auto.home "$key" 2>&1)
	printf '%s' "$out" | grep -qF "$want" && pass "$name-answer" || fail "$name-answer" "$out"
	grep -q "index.*\(damaged\|does not match\|rebuilt\)" <<<"$out" && pass "$name-noticed" ||
		fail "$name-noticed" "$out"
	out=$($AUTOFS test auto.home "$key" 2>&1)
	grep -q "index.*\(damaged\|does not match\|built\)" <<<"$out" && fail "$name-rebuilt" "$out" ||
		pass "$name-rebuilt"
}
garble() { printf "$2" | dd of="$HX" bs=1 seek="$1" conv=notrunc status=none; }
slots=$(($(stat -c %s "$HX") - 104 - 2 * 20))
# every slot of the table (after the 104-byte header and the two include records)
garble_all() { for o in $(seq 144 4 $(($(stat -c %s "$HX") - 4))); do garble "$o" '\x41\x00\x00\x00'; done; }
damage garbled-slots "from server:/export/home/bob" bob garble_all
# a byte of the map's mtime, flipped: writing a fixed 0xff changed nothing
# when the byte already was 0xff (one mtime in 256)
flip() { garble "$1" "$(printf '\\x%02x' $((0x$(od -An -tx1 -j "$1" -N1 "$HX" | tr -d ' ') ^ 0xff)))"; }
damage garbled-header "from other:/dave-from-extra" dave flip 40
damage garbled-include "from other:/dave-from-extra" dave garble 104 '\x00\x00\x00\x00'
damage truncated "from server:/export/home/zed" zed truncate -s $((slots / 2)) "$HX"
damage truncated-header "from server:/export/home/carol" carol truncate -s 50 "$HX"
damage emptied "from other:/erin" erin truncate -s 0 "$HX"
damage foreign-owner "from server:/export/home/bob" bob chown 1:1 "$HX"
damage group-readable "from server:/export/home/bob" bob chmod 640 "$HX"
cp "$HX" "$T/saved.idx"
out=$(rm "$HX"; ln -s "$T/saved.idx" "$HX"; $AUTOFS test auto.home bob 2>&1)
[ -f "$HX" ] && [ ! -L "$HX" ] && pass symlink-replaced || fail symlink-replaced "$(ls -l "$HX")"
grep -q "from server:/export/home/bob" <<<"$out" && pass symlink-answer || fail symlink-answer "$out"
# an index made for another map of the same size is stale, not used
cp "$T/auto.home" "$T/auto.twin"
$AUTOFS test auto.twin bob >/dev/null 2>&1
TX=$(ls -t "$IX"/*.idx | head -1)
cp "$TX" "$HX"
out=$($AUTOFS test auto.home bob 2>&1)
grep -q "made for another version" <<<"$out" && pass foreign-map-stale || fail foreign-map-stale "$out"

# An unsafe directory is not used, and says why.
chmod 755 "$IX"
out=$($AUTOFS test auto.home alice 2>&1)
grep -q "index directory $IX not used: index is owned by uid 0 with mode 0755" <<<"$out" &&
	pass unsafe-dir-refused || fail unsafe-dir-refused "$out"
grep -q "from server:/export/home/alice" <<<"$out" && pass unsafe-dir-answer || fail unsafe-dir-answer "$out"
chmod 700 "$IX"
mkdir "$T/open" && chmod 777 "$T/open"
printf '[general]\nmap_dir = %s\nsources = files\nlog_stderr = yes\n[file]\nindex_dir = %s/open/ix\nindex_settle = 0\n' "$T" "$T" > "$T/open.conf"
expect writable-parent-refused 0 "open is writable by others" env AUTOFS_AGENT_CONF=$T/open.conf $AUTOFS test auto.home alice
[ ! -e "$T/open/ix" ] && pass writable-parent-nothing-written || fail writable-parent-nothing-written "$(ls -R "$T/open")"

# Concurrent first lookups of a changed map: all right, one index, no leftovers.
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "k%d\tserver:/e/%d\n", i, i }' > "$T/auto.big"
rm -f "$IX"/*
for i in 1 2 3 4 5 6; do $AUTOFS test auto.big k19999 > "$T/conc.$i" 2>&1 & done
wait
bad=0
for i in 1 2 3 4 5 6; do grep -q "from server:/e/19999" "$T/conc.$i" || bad=$i; done
[ $bad = 0 ] && pass concurrent-answers || fail concurrent-answers "$(cat "$T/conc.$bad")"
[ "$(ls "$IX")" = "$(ls "$IX" | grep -v tmp)" ] && [ "$(ls "$IX" | wc -l)" = 1 ] &&
	pass concurrent-one-index || fail concurrent-one-index "$(ls "$IX")"
expect concurrent-index-good 0 "from server:/e/0" $AUTOFS test auto.big k0

# A warm lookup reads the header, a window of slots and one record: a few
# hundred bytes of a map of 200,000 keys, not the map.
if command -v strace >/dev/null; then
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "key%d\tserver:/export/%d\n", i, i }' > "$T/auto.huge"
	$AUTOFS test auto.huge key199999 >/dev/null 2>&1
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=read,pread64 -o "$T/strace" \
		$AUTOFS test auto.huge key199999 > "$T/huge.out" 2>&1
	bytes=$(awk -F'= ' '/read/ && $NF + 0 > 0 { s += $NF } END { print s + 0 }' "$T/strace")
	grep -q "from server:/export/199999" "$T/huge.out" && pass huge-answer || fail huge-answer "$(cat "$T/huge.out")"
	[ "$bytes" -lt 200000 ] && pass "huge-reads-little ($bytes bytes)" ||
		fail huge-reads-little "$bytes bytes read for a $(stat -c %s "$T/auto.huge")-byte map"
	expect huge-missing-key 3 "no entry for key nokey" $AUTOFS test auto.huge nokey
fi

# A map with a line the scan skips with a warning is only scanned, so that
# every lookup of that line's key still says why; the index says so.
{ printf 'long\t'; head -c 70000 /dev/zero | tr '\0' a; printf '\nok\tserver:/ok\n'; } > "$T/auto.skip"
expect skipped-line-warns 3 "line longer than 65536 bytes, skipped" $AUTOFS test auto.skip long
expect skipped-line-warns-again 3 "line longer than 65536 bytes, skipped" $AUTOFS test auto.skip long
out=$($AUTOFS test auto.skip ok 2>&1)
grep -q "from server:/ok" <<<"$out" && ! grep -q "index.*built" <<<"$out" && pass skipped-scan-only-kept ||
	fail skipped-scan-only-kept "$out"

# More include records than an index holds (256): scanned, and said so once.
{ for i in $(seq 257); do printf '+auto.none%d\n' "$i"; done; printf 'last\tserver:/last\n'; } > "$T/auto.manyinc"
expect many-includes-answer 0 "from server:/last" $AUTOFS test auto.manyinc last
out=$($AUTOFS test auto.manyinc last 2>&1)
grep -q "from server:/last" <<<"$out" && ! grep -q "index.*built" <<<"$out" && pass many-includes-scan-only-kept ||
	fail many-includes-scan-only-kept "$out"

# SIGTERM (or the agent's own time limit, SIGALRM) while an index is being
# written leaves no private file behind: the write finishes first.
# strace holds the first write of the index for 2 s, and SIGTERM comes then.
# (no log to stderr here: the first write must be the index's)
printf 'k\tserver:/k\n' > "$T/auto.term"
touch -d '1 hour ago' "$T/auto.term"
printf '[general]\nmap_dir = %s\nsources = files\n[file]\nindex_dir = %s\nindex_settle = 0\n' "$T" "$IX" > "$T/term.conf"
AUTOFS_AGENT_CONF=$T/term.conf ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
	-e inject=write,pwrite64:delay_enter=2000000:when=1 $AUTOFS test auto.term k >/dev/null 2>&1 &
sleep 1.5
pkill -TERM -x autofs
wait $! 2>/dev/null
left=$(ls "$IX" | grep -c '\.tmp$')
[ "$left" = 0 ] && pass term-leaves-no-tmp || fail term-leaves-no-tmp "$left private index files left in $IX"

# By default a map is indexed only once its last change is 3 s old: two
# rewrites of the same size within one timestamp tick look the same, and
# an index made between them would answer for the second with the first.
IX2=$T/settle
printf '[general]\nmap_dir = %s\nsources = files\nlog_stderr = yes\nlog_level = debug\n[file]\nindex_dir = %s\n' \
	"$T" "$IX2" > "$T/settle.conf"
printf 'a\tserver:/a\n' > "$T/auto.young"
out=$(AUTOFS_AGENT_CONF=$T/settle.conf $AUTOFS test auto.young a 2>&1)
case $out in *"from server:/a"*"changed less than 3 s ago, not indexed yet"*|*"changed less than 3 s ago, not indexed yet"*"from server:/a"*)
	[ -z "$(ls "$IX2" 2>/dev/null)" ] && pass young-map-not-indexed ||
		fail young-map-not-indexed "indexed: $(ls "$IX2")" ;;
*) fail young-map-not-indexed "$out" ;; esac
printf 'b\tserver:/b\n' > "$T/auto.young"	# same size, in place
expect young-map-rewrite-answers 0 "from server:/b" env AUTOFS_AGENT_CONF=$T/settle.conf $AUTOFS test auto.young b
sleep 3
expect settled-map-answers 0 "from server:/b" env AUTOFS_AGENT_CONF=$T/settle.conf $AUTOFS test auto.young b
[ "$(ls "$IX2" | grep -c '\.idx$')" = 1 ] && pass settled-map-indexed || fail settled-map-indexed "$(ls -l "$IX2")"

# indexes can be turned off; the map still answers
expect index-none 0 "from server:/export/home/alice" env AUTOFS_AGENT_CONF=$T/scan.conf $AUTOFS test auto.home alice
finish
