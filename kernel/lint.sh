#!/bin/bash
# make lint: checkpatch.pl --strict (kernel/checkpatch.sh) over both
# series, each with its own kernel's checkpatch, and over the new
# filesystems; cppcheck over the userspace C.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
checkpatch=$top/kernel/checkpatch.sh
bad=0

for kver in 6.1 6.12; do
	dir=$top/kernel/patches
	[ "$kver" = 6.1 ] || dir=$dir/$kver
	while read -r p; do
		"$checkpatch" "$kver" "$dir/$p" || { echo "checkpatch: $kver/$p"; bad=1; }
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series")
done
while read -r f; do
	"$checkpatch" 6.1 -f "$f" || { echo "checkpatch: $f"; bad=1; }
done < <(find "$top/kernel/fs" "$top/kernel/include" "$top/kernel/compat" -name '*.[ch]' 2>/dev/null)

mapfile -t csrc < <(find "$top/agent" "$top/maps" "$top/modules" -name '*.c' 2>/dev/null)
if [ ${#csrc[@]} -gt 0 ] && command -v cppcheck >/dev/null; then
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--inline-suppr -I "$top/agent" -I "$top/kernel/include/uapi" \
		"${csrc[@]}" || bad=1
fi
[ $bad = 0 ] && echo "lint: clean"
exit $bad
