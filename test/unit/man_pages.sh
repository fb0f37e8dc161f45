#!/bin/bash
# The manual pages cannot fall behind the code: every page renders without
# a groff warning, and every name the code accepts (ioctl, mount option,
# subcommand, configuration key) appears in the page that documents it.
# Prints one line per check; exits non-zero when any fails.
set -uo pipefail
top=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
n=0 bad=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); bad=$((bad + 1)); echo "not ok $n - $*"; }

# Names in a page: bold/italic escapes and hyphen escapes removed.
page_text() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\(em/-/g' "$1"; }

# check_names PAGE WHAT NAME...: each NAME must appear in PAGE as a word.
check_names() {
	local page=$1 what=$2 missing=() name text
	shift 2
	text=$(page_text "$page")
	[ $# -gt 0 ] || { not_ok "$what: found no names in the code (extraction broke?)"; return; }
	for name in "$@"; do
		grep -qwF -- "$name" <<<"$text" || missing+=("$name")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		ok "$what: all $# documented in $(basename "$page")"
	else
		not_ok "$what: missing from $(basename "$page"): ${missing[*]}"
	fi
}

for page in "$top"/man/*.[1-8]; do
	[ -e "$page" ] || continue
	warn=$(groff -man -ww -z "$page" 2>&1)
	if [ -z "$warn" ]; then ok "$(basename "$page") renders without warnings"
	else not_ok "$(basename "$page"): $warn"; fi
done

# mountfd(2): every ioctl of the uapi header.
mapfile -t names < <(grep -oE 'MOUNTFD_IOC_[A-Z]+' "$top/kernel/include/uapi/linux/mountfd.h" |
	grep -v '_MAGIC$' | sort -u)
check_names "$top/man/mountfd.2" "mountfd ioctls" "${names[@]}"
mapfile -t names < <(grep -oE 'MOUNTFD_EXPIRE_[A-Z]+\b' "$top/kernel/include/uapi/linux/mountfd.h" | sort -u)
check_names "$top/man/mountfd.2" "mountfd expiry policies" "${names[@]}"

# A filesystem's mount options are its fs_parameter_spec entries, spelled
# out or named in its uapi header (#define AUTOFSNG_OPT_X "name").
fs_options() {
	local uapi=$top/kernel/include/uapi/linux/$2.h
	{
		cat "$1"/*.c | grep -o 'fsparam_[a-z0-9_]*("[a-z_]*"' | sed 's/.*("\(.*\)"/\1/'
		[ -f "$uapi" ] && sed -n 's/^#define [A-Z]*_OPT_[A-Z_]*[[:space:]]*"\([a-z_]*\)".*/\1/p' "$uapi"
	} | sort -u
}
for fs in autofsng trapfs; do
	src=$top/kernel/fs/$fs
	[ -d "$src" ] || continue
	if [ ! -f "$top/man/$fs.5" ]; then not_ok "$fs has no man/$fs.5"; continue; fi
	mapfile -t names < <(fs_options "$src" "$fs")
	check_names "$top/man/$fs.5" "$fs mount options" "${names[@]}"
done

echo "$((n - bad)) of $n checks passed"
[ $bad = 0 ]
