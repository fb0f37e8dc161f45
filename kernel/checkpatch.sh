#!/bin/bash
# checkpatch.pl --strict, with the project's options, from the unpacked
# tree of one kernel: the one place kernel/lint.sh and
# kernel/build.sh --bisect-check take them from.
#
#   kernel/checkpatch.sh KVER [-f] FILE...
#
# FILE_PATH_CHANGES only asks whether MAINTAINERS needs an entry for a new
# file; the series adds one MAINTAINERS patch for all its files instead of
# touching MAINTAINERS in every patch.  EMBEDDED_FILENAME is a substring
# match: 'source "fs/trapfs/Kconfig"' in fs/Kconfig contains "fs/Kconfig".
# Without KVER's tree (make kernel KVER=6.12 unpacks it), 6.1's serves.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=kernel/kbuild-dir.sh
. "$top/kernel/kbuild-dir.sh"
kb=$(kbuild_dir "$top" "${1:?usage: checkpatch.sh KVER [-f] FILE...}") || exit 2
shift
cp=$kb/pristine/scripts/checkpatch.pl
[ -x "$cp" ] || cp=$(kbuild_dir "$top" 6.1)/pristine/scripts/checkpatch.pl
[ -x "$cp" ] || { echo "checkpatch.sh: no unpacked kernel tree (make kernel-tree)" >&2; exit 2; }
exec "$cp" --strict --quiet --no-tree --show-types \
	--ignore FILE_PATH_CHANGES,EMBEDDED_FILENAME "$@"
