#!/bin/sh
# Fuzz the sun entry parser, the master map reader, the map lookup (against
# a full read of the map), the config parser and nsswitch.conf's
# automount line, the -hosts entry builder,
# the file map index (built, damaged, read back against a scan) and the
# trust of an entry from outside the map files (through an include or a
# nested map, against the rule of autofs-maps(5), TRUST)
# with clang's libFuzzer under ASan/UBSan, FUZZ_SECONDS each (default 20).
# Skipped (77) without clang.  Seeds: the golden files.
srcdir=${srcdir:-.}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null || { echo "SKIP: no clang"; exit 77; }
secs=${FUZZ_SECONDS:-20}
out=${top_builddir:-.}/test/fuzz
mkdir -p "$out"
core="conf.c expand.c hostname.c log.c maptext.c master.c nsswitch.c sun_parse.c sun_quote.c util.c"
srcs=
for f in $core; do srcs="$srcs $srcdir/agent/$f"; done
fail=0
# the trust target runs the agent's own path from a source's answer on
trust_srcs=
for f in resolve.c trust.c rqvars.c source.c module.c stage.c mapenv.c mapcache.c mapcache_id.c rundir.c; do
	trust_srcs="$trust_srcs $srcdir/agent/$f"
done
for t in 1:sun 2:master 3:conf 4:lookup 5:hosts 6:index 7:trust 8:mapcache; do
	n=${t%%:*}
	name=${t#*:}
	bin=$out/fuzz_$name
	extra=
	[ "$name" = trust ] && extra="$trust_srcs -ldl"
	[ "$name" = mapcache ] && extra="$srcdir/agent/mapcache.c $srcdir/agent/mapcache_id.c $srcdir/agent/rundir.c"
	if ! "$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -DFUZZ_TARGET=$n -DSYSCONFDIR='"/etc"' -DMODULEDIR='"/nonexistent"' \
		-I"$srcdir/agent" -I"$srcdir/kernel/include/uapi" \
		-I"$srcdir/maps" -o "$bin" "$srcdir/test/unit/fuzz_targets.c" $srcs \
		"$srcdir/maps/hosts_entry.c" "$srcdir/maps/file_index.c" $extra 2>"$bin.build.log"; then
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
	conf) cp "$srcdir"/test/unit/golden/*.conf "$srcdir"/test/unit/golden/*.nsswitch "$corpus/" ;;
	index) for f in "$srcdir"/test/unit/golden/*.map; do
		{ printf '\0\0\0\0\0\0'; cat "$f"; } > "$corpus/seed_$(basename "$f")"
		{ printf '\0\0\0\0\0\1\x70\0\0\0\x55'; cat "$f"; } > "$corpus/seed_patched_$(basename "$f")"
		done ;;
	mapcache) printf '\0\0\0\0\0\0alice\t-rw server:/home/alice\nbob\t-ro s:/b\nbob\tagain\nodd\n*\t-rw s:/&\n' \
			> "$corpus/seed_keys"
		printf '\0\0\0\0\0\2\xb0\0\0\0\x55\x20\1\0\0\x01a\tb\nc\td\n' > "$corpus/seed_patched";;
	trust) # flags (0-3: file, NIS, program, hosts answered; 4: through +ldap:), key,
		# master options, entry
		printf '\003fs1\n\n-fstype=nfs,suid / fs1:/x /y :/etc /z -fstype=nfs 127.0.0.1:/\n' > "$corpus/seed_hosts"
		printf '\002u\n-DV=a,suid\n-fstype=tmpfs,uid=&,mode=$V :tmpfs\n' > "$corpus/seed_program_vars"
		printf '\001alice\n\n-fstype=tmpfs,suid,dev :tmpfs\n' > "$corpus/seed_nis_suid"
		printf '\004k\n-suid\n-fstype=autofs,suid,dev,timeout=5 auto.x\n' > "$corpus/seed_include_nested"
		printf '\000k\n--autofsng-foreign -DX=1\n-fstype=ext4 :/dev/sdb1\n' > "$corpus/seed_marker_device"
		printf '\001u1000\n\n-fstype=tmpfs,uid=& /a :tmpfs /b -fstype=nfs h:/x/&\n' > "$corpus/seed_multi_key"
		for f in "$srcdir"/test/unit/golden/*.map; do
			sed -n 's/^\([^#][^ \t]*\)[ \t]\+\(.*\)/\1\n\n\2/p' "$f" | head -40 |
				split -l 3 --filter='{ printf "\\001"; cat; } > $FILE' - "$corpus/seed_$(basename "$f")_"
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
