#!/bin/sh
# Every subcommand the agent dispatches and every [general] key the config
# parser accepts is documented; every page is groff -ww clean.
srcdir=${srcdir:-.}
fail=0
cmds=$(sed -n 's/.*strcmp(cmd, "\([a-z]*\)").*/\1/p' "$srcdir/agent/main.c" | sort -u)
keys=$({ sed -n '/^static int conf_general/,/^}/s/.*strcmp(key, "\([a-z_]*\)").*/\1/gp' "$srcdir/agent/conf.c"
	# the keys of seconds, from their table
	sed -n 's/^\t{ "\([a-z_]*\)", offsetof(struct am_conf.*/\1/p' "$srcdir/agent/conf.c"; } | sort -u)
[ -n "$cmds" ] && [ -n "$keys" ] || { echo "FAIL: found no commands or keys in the sources"; exit 1; }
for c in $cmds; do
	if grep -q "^\.B[IR]* \"*\(autofs \)*$c" "$srcdir/man/autofs-agent.8"; then
		echo "ok command $c"
	else
		echo "FAIL command $c is not in autofs-agent.8"; fail=1
	fi
done
for k in $keys; do
	if grep -q "^\.B $k$" "$srcdir/man/autofs-agent.conf.5"; then
		echo "ok key $k"
	else
		echo "FAIL key $k is not in autofs-agent.conf.5"; fail=1
	fi
	grep -q "^#*$k = " "$srcdir/agent/autofs-agent.conf" ||
		{ echo "FAIL key $k is not in the sample autofs-agent.conf"; fail=1; }
done
if command -v groff >/dev/null; then
	for p in "$srcdir"/man/autofs-agent.8 "$srcdir"/man/autofs-agent.conf.5 "$srcdir"/man/autofs-maps.5; do
		w=$(groff -man -ww -z "$p" 2>&1)
		[ -z "$w" ] && echo "ok groff $(basename "$p")" || { echo "FAIL groff $(basename "$p"): $w"; fail=1; }
	done
fi
exit $fail
