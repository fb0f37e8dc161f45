#!/bin/bash
# make lint: checkpatch.pl --strict from the unpacked 6.1 tree over the
# series (and the 6.12 one) and over the new filesystems, cppcheck over the userspace C.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kb=${KBUILD_DIR:-$top/_kbuild}
# FILE_PATH_CHANGES only asks whether MAINTAINERS needs an entry for a new
# file; the series adds one MAINTAINERS patch for all its files instead of
# touching MAINTAINERS in every patch.  EMBEDDED_FILENAME is a substring
# match: 'source "fs/trapfs/Kconfig"' in fs/Kconfig contains "fs/Kconfig".
checkpatch="$kb/linux/scripts/checkpatch.pl --strict --quiet --no-tree --show-types --ignore FILE_PATH_CHANGES,EMBEDDED_FILENAME"
bad=0

for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel/patches/series"); do
	$checkpatch "$top/kernel/patches/$p" || { echo "checkpatch: $p"; bad=1; }
done
# The 6.12 series, with 6.12's checkpatch once that tree is unpacked
# (make kernel KVER=6.12); 6.1's otherwise.
cp612=$checkpatch
[ -x "$kb/6.12/linux/scripts/checkpatch.pl" ] && cp612=${checkpatch/"$kb/linux"/"$kb/6.12/linux"}
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel/patches/6.12/series"); do
	$cp612 "$top/kernel/patches/6.12/$p" || { echo "checkpatch: 6.12/$p"; bad=1; }
done
while read -r f; do
	$checkpatch -f "$f" || { echo "checkpatch: $f"; bad=1; }
done < <(find "$top/kernel/fs" "$top/kernel/include" "$top/kernel/compat" -name '*.[ch]' 2>/dev/null)

mapfile -t csrc < <(find "$top/agent" "$top/maps" "$top/modules" -name '*.c' 2>/dev/null)
if [ ${#csrc[@]} -gt 0 ] && command -v cppcheck >/dev/null; then
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--inline-suppr -I "$top/agent" -I "$top/kernel/include/uapi" \
		"${csrc[@]}" || bad=1
fi
[ $bad = 0 ] && echo "lint: clean"
exit $bad
