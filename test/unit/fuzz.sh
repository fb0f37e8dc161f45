#!/bin/sh
# Fuzz the sun entry parser, the master map reader, the map lookup (against
# a full read of the map), the config parser, the -hosts entry builder and
# the file map index (built, damaged, read back against a scan)
# with clang's libFuzzer under ASan/UBSan, FUZZ_SECONDS each (default 20).
# Skipped (77) without clang.  Seeds: the golden files.
srcdir=${srcdir:-.}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null || { echo "SKIP: no clang"; exit 77; }
secs=${FUZZ_SECONDS:-20}
out=${top_builddir:-.}/test/fuzz
mkdir -p "$out"
core="conf.c expand.c hostname.c log.c maptext.c master.c sun_parse.c sun_quote.c util.c"
srcs=
for f in $core; do srcs="$srcs $srcdir/agent/$f"; done
fail=0
for t in 1:sun 2:master 3:conf 4:lookup 5:hosts 6:index; do
	n=${t%%:*}
	name=${t#*:}
	bin=$out/fuzz_$name
	if ! "$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -DFUZZ_TARGET=$n -DSYSCONFDIR='"/etc"' -I"$srcdir/agent" -I"$srcdir/kernel/include/uapi" \
		-I"$srcdir/maps" -o "$bin" "$srcdir/test/unit/fuzz_targets.c" $srcs \
		"$srcdir/maps/hosts_entry.c" "$srcdir/maps/file_index.c" 2>"$bin.build.log"; then
		echo "FAIL $name: build (see $bin.build.log)"
		fail=1
		continue
	fi
	corpus=$out/corpus_$name
	mkdir -p "$corpus"
	case $name in
	sun) for f in "$srcdir"/test/unit/golden/*.map; do
		sed -n 's/^\([^#][^ \t]*\)[ \t]\+\(.*\)/\1\n\2/p' "$f" | split -l 2 - "$corpus/seed_$(basename "$f")_"; done ;;
	master) cp "$srcdir"/test/unit/golden/*.master "$corpus/" ;;
	lookup) for f in "$srcdir"/test/unit/golden/*.map; do
		for k in $(awk '/^[^#[:space:]]/ {print $1}' "$f" | head -5); do
			{ echo "$k"; cat "$f"; } > "$corpus/seed_$(basename "$f")_$k"
		done; done 2>/dev/null ;;
	conf) cp "$srcdir"/test/unit/golden/*.conf "$corpus/" ;;
	index) for f in "$srcdir"/test/unit/golden/*.map; do
		{ printf '\0\0\0\0\0\0'; cat "$f"; } > "$corpus/seed_$(basename "$f")"
		{ printf '\0\0\0\0\0\1\x70\0\0\0\x55'; cat "$f"; } > "$corpus/seed_patched_$(basename "$f")"
		done ;;
	hosts) printf 'fs1\0/pub\0\\/\0/a b\0/q"x\0/\0/pub\0/x/../y\0/a:b&$c' > "$corpus/seed_attack"
		printf '[fd00::2]\0/export/home\0/srv/x,y(1)' > "$corpus/seed_v6" ;;
	esac
	if "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
		-artifact_prefix="$out/crash_${name}_" "$corpus" >"$bin.log" 2>&1; then
		echo "ok $name: $(grep -o 'Done [0-9]* runs' "$bin.log" | tail -1) in ${secs} s"
	else
		echo "FAIL $name: see $bin.log"
		tail -30 "$bin.log"
		fail=1
	fi
done
exit $fail
