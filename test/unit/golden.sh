#!/bin/sh
# Golden files of the agent core: every test/unit/golden/NAME.{map,conf,master,nsswitch,keys}
# goes through am_unit, and the output must equal NAME.*.out exactly.
# UPDATE_GOLDEN=1 rewrites the .out files (review the diff before committing).
srcdir=${srcdir:-.}
dir=$srcdir/test/unit/golden
unit=./test/unit/am_unit
fail=0
n=0
for in in "$dir"/*.map "$dir"/*.conf "$dir"/*.master "$dir"/*.nsswitch "$dir"/*.keys; do
	case $in in
	*.keys) mode=log ;;
	*.map) mode=parse ;;
	*.conf) mode=conf ;;
	*.master) mode=master ;;
	*.nsswitch) mode=nsswitch ;;
	esac
	out=$in.out
	got=$(cd "$dir" && "$OLDPWD/$unit" $mode "$(basename "$in")" 2>&1)
	n=$((n + 1))
	if [ -n "$UPDATE_GOLDEN" ]; then
		printf '%s\n' "$got" > "$out"
		continue
	fi
	if [ "$got" != "$(cat "$out" 2>/dev/null)" ]; then
		echo "FAIL $(basename "$in"):"
		printf '%s\n' "$got" | diff -u "$out" - | head -40
		fail=$((fail + 1))
	else
		echo "ok $(basename "$in")"
	fi
done
echo "$n golden files, $fail failed"
[ $fail -eq 0 ]
