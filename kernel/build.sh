#!/bin/bash
# Build the patched kernel (6.1 or 6.12) out of tree, incrementally.
#
#   KVER=6.12 kernel/build.sh ...   or   kernel/build.sh --kver 6.12 ...
#                                   the kernel version: 6.1 (the default) or
#                                   6.12 (Debian's linux-source-6.12, series
#                                   kernel/patches/6.12/series, everything
#                                   below under $KBUILD_DIR/6.12/)
#   kernel/build.sh [base|debug]    tree + config + bzImage for that flavour
#   kernel/build.sh vanilla         the unpatched kernel with the base config,
#                                   to compare against (kselftest counts)
#   kernel/build.sh --tree-only     just bring the patched tree up to date
#   kernel/build.sh --config FLAVOUR   configure that flavour again and check
#                                   that every option its fragment asks for
#                                   survived (exit 1 naming those that did not)
#   kernel/build.sh --deb FLAVOUR   Debian packages of the patched kernel
#                                   (the kernel's own bindeb-pkg) into
#                                   $KBUILD_DIR/deb-FLAVOUR/
#   kernel/build.sh --series-objects FLAVOUR   build only the objects the
#                                   series and kernel/fs provide, timed
#   kernel/build.sh --bisect-check  each patch of the series in turn:
#                                   checkpatch, apply, build (base config);
#                                   stops at the first that fails, names it
#
# Flavours: base and debug start from allnoconfig (kernel/config/base.config
# plus FLAVOUR.config); debian starts from Debian's own configuration of this
# kernel (package linux-config-6.1, $DEBIAN_KCONFIG) and adds
# kernel/config/debian.config with olddefconfig.
#
# Layout under $KBUILD_DIR (default: <repo>/_kbuild, ignored by git), for
# 6.1; for 6.12 the same layout under $KBUILD_DIR/6.12/:
#   pristine/   linux-source-KVER as Debian ships it, unpacked once, never written
#   linux/      the patched tree: hard links to pristine, except the files that
#               the series, kernel/{fs,include,Documentation} or
#               kernel/compat/KVER provide
#   out-base/, out-debug/   O= build directories, one per flavour
#   vanilla/linux, vanilla/out-vanilla   the unpatched tree (hard links to
#               pristine) and its build; out-vanilla links there.  The same
#               layout as linux/ and out-*/ gives ccache the same relative
#               paths, so the objects the series does not touch are shared.
#
# Only files whose content changes are rewritten, so make rebuilds what a
# patch really touched and nothing else.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "kernel/build.sh: $*" >&2; exit 1; }
log() { echo "kernel/build.sh: $*"; }

kver=${KVER:-6.1}
if [ "${1:-}" = --kver ]; then
	kver=${2:-}
	shift 2 || die "--kver needs a version"
fi
# shellcheck source=kernel/kbuild-dir.sh
. "$top/kernel/kbuild-dir.sh"
kb=$(kbuild_dir "$top" "$kver") || exit 1
patchdir=$top/kernel/patches
[ "$kver" = 6.1 ] || patchdir=$patchdir/$kver
tarball=${LINUX_TARBALL:-/usr/src/linux-source-$kver.tar.xz}
pristine=$kb/pristine
tree=$kb/linux
debian_kconfig=${DEBIAN_KCONFIG:-/usr/src/linux-config-$kver/config.amd64_none_amd64.xz}

unpack_pristine() {
	local stamp=$pristine/.autofsng-unpacked want
	[ -r "$tarball" ] || die "$tarball missing: apt-get install linux-source-$kver"
	want="$tarball $(stat -c %Y "$tarball")"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		return
	fi
	log "unpacking $tarball (once)"
	rm -rf "$pristine" "$tree" "$kb/managed.list" "$kb"/out-*
	mkdir -p "$kb/unpack.$$"
	tar -xJf "$tarball" -C "$kb/unpack.$$"
	mv "$kb/unpack.$$/linux-source-$kver" "$pristine"
	rmdir "$kb/unpack.$$"
	echo "$want" > "$stamp"
}

# Files the series touches, one path per line, relative to the tree root.
series_files() {
	local p
	while read -r p; do
		sed -n -e 's|^--- a/||p' -e 's|^+++ b/||p' "$patchdir/$p"
	done < <(series_list) | sed 's/\t.*//'
}

series_list() {
	[ -f "$patchdir/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patchdir/series"
}

# Overlay files: kernel/<dir>/X becomes <dir>/X in the tree.
# kernel/patches/KVER/overlay.exclude names the ones a kernel does not take
# (6.12 has no mountfd(2), so no <linux/mountfd.h>).
overlay_files() {
	local d exclude=$patchdir/overlay.exclude
	for d in fs include Documentation; do
		[ -d "$top/kernel/$d" ] || continue
		(cd "$top/kernel" && find "$d" -type f ! -name '.*')
	done | if [ -f "$exclude" ]; then
		grep -v -x -F -f <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$exclude")
	else
		cat
	fi
}

# What differs between the kernels, for kernel/fs: kernel/compat/KVER/X
# becomes X in the tree (include/linux/autofsng_compat.h).
compat_files() {
	[ -d "$top/kernel/compat/$kver" ] || return 0
	(cd "$top/kernel/compat/$kver" && find . -type f ! -name '.*' | sed 's|^\./||')
}

# Build the wanted content of every managed file in $1.
stage_files() {
	local stage=$1 f p
	while read -r f; do
		if [ -f "$pristine/$f" ]; then
			mkdir -p "$stage/$(dirname "$f")"
			cp "$pristine/$f" "$stage/$f"
		fi
	done < <(series_files | sort -u)
	while read -r p; do
		apply_patch "$stage" "$p"
	done < <(series_list)
	lay_whole_files "$stage"
}

# Patch P of the series applied to the tree DEST, exactly (no fuzz).
apply_patch() {
	patch -s -p1 -F0 -N --no-backup-if-mismatch -d "$1" \
		< "$patchdir/$2" || die "patch $2 does not apply"
}

# The files kernel/ provides whole (overlays, this kernel's compat files),
# laid into the tree DEST.
lay_whole_files() {
	local dest=$1 f
	while read -r f; do
		mkdir -p "$dest/$(dirname "$f")"
		cp "$top/kernel/$f" "$dest/$f"
	done < <(overlay_files)
	while read -r f; do
		mkdir -p "$dest/$(dirname "$f")"
		cp "$top/kernel/compat/$kver/$f" "$dest/$f"
	done < <(compat_files)
}

# Replace a tree file without writing through the hard link to pristine.
put_file() {
	local src=$1 dst=$2
	if [ -f "$dst" ] && cmp -s "$src" "$dst"; then
		return
	fi
	mkdir -p "$(dirname "$dst")"
	rm -f "$dst"
	cp "$src" "$dst"
	echo "$dst" >> "$kb/changed.list"
}

sync_tree() {
	local stage f
	[ -d "$tree" ] || { log "linking tree"; cp -al "$pristine" "$tree"; }
	stage=$(mktemp -d "$kb/stage.XXXXXX")
	stage_files "$stage"
	: > "$kb/changed.list"
	(cd "$stage" && find . -type f | sed 's|^\./||' | sort) > "$kb/managed.new"
	while read -r f; do
		put_file "$stage/$f" "$tree/$f"
	done < "$kb/managed.new"
	# Files an earlier series managed and this one does not: back to pristine.
	if [ -f "$kb/managed.list" ]; then
		comm -23 "$kb/managed.list" "$kb/managed.new" | while read -r f; do
			rm -f "$tree/$f"
			if [ -f "$pristine/$f" ]; then ln "$pristine/$f" "$tree/$f"; fi
			echo "$tree/$f" >> "$kb/changed.list"
		done
	fi
	mv "$kb/managed.new" "$kb/managed.list"
	rm -rf "$stage"
	log "tree up to date ($(wc -l < "$kb/changed.list") files changed)"
}

# The options the project's own Kconfig files define (not in a vanilla tree).
own_symbols() {
	overlay_files | { grep Kconfig || true; } | while read -r f; do
		sed -n 's/^config \([A-Z0-9_]*\)$/CONFIG_\1/p' "$top/kernel/$f"
	done
}

# The fragments serve both kernels; kernel/config/KVER.drop names the
# options this kernel no longer has.
drop_gone_options() {
	local frag=$1 drop=$top/kernel/config/$kver.drop
	[ -f "$drop" ] || return 0
	grep -v -E -f <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' \
		-e 's/.*/^(# )?&[= ]/' "$drop") "$frag" > "$frag.kept" || true
	mv "$frag.kept" "$frag"
}

configure_flavour() {
	local flavour=$1 out=$2 src=${3:-$tree} frag sum
	frag=$out/fragment.config
	mkdir -p "$out"
	if [ "$flavour" = vanilla ]; then
		grep -v -F -f <(own_symbols) "$top/kernel/config/base.config" > "$frag.new"
	elif [ "$flavour" = debian ]; then
		[ -r "$debian_kconfig" ] || die "$debian_kconfig missing: apt-get install linux-config-$kver"
		: > "$frag.new"
	else
		cat "$top/kernel/config/base.config" > "$frag.new"
	fi
	case $flavour in base | vanilla) ;; *) cat "$top/kernel/config/$flavour.config" >> "$frag.new" ;; esac
	drop_gone_options "$frag.new"
	# Patches and overlay Kconfig files can add options: they count too.
	sum=$( (cat "$frag.new"
		[ "$flavour" != debian ] || xzcat "$debian_kconfig"
		series_list | while read -r p; do cat "$patchdir/$p"; done
		overlay_files | { grep Kconfig || true; } | while read -r f; do cat "$top/kernel/$f"; done
		) | sha1sum)
	mv "$frag.new" "$frag"
	if [ -f "$out/.config" ] && [ "$(cat "$out/.fragment.sum" 2>/dev/null)" = "$sum" ]; then
		return
	fi
	log "configuring $flavour"
	if [ "$flavour" = debian ]; then
		# a later assignment in .config overrides an earlier one
		(xzcat "$debian_kconfig"; cat "$frag") > "$out/.config"
		make -s -C "$src" O="$out" olddefconfig >"$out/olddefconfig.log" 2>&1 ||
			{ cat "$out/olddefconfig.log" >&2; die "olddefconfig failed"; }
	else
		make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null
	fi
	check_config "$frag" "$out/.config"
	echo "$sum" > "$out/.fragment.sum"
}

# Every option the fragment asks for must have survived Kconfig's dependency
# resolution; otherwise a typo or a missing dependency goes unnoticed.
check_config() {
	local frag=$1 cfg=$2 line bad=0 sym
	while read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$cfg" || { echo "  wanted $line, got: $(grep -E "^(# )?${line%%=*}[= ]" "$cfg" || echo unset)" >&2; bad=1; } ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			! grep -q "^$sym=" "$cfg" || { echo "  wanted $sym off" >&2; bad=1; } ;;
		esac
	done < "$frag"
	[ $bad = 0 ] || die "config fragment not satisfied (see above)"
}

# kmake OUT SRC MAKE-ARGS...: make in the tree with the compiler and nm
# every build of it uses (a change of CC would rebuild everything).
kmake() {
	local out=$1 src=$2 cc=gcc nm=nm plugin
	shift 2
	command -v ccache >/dev/null && cc="ccache gcc"
	# clang's Debian package puts LLVM's gold plugin in /usr/lib/bfd-plugins,
	# and GNU nm loads every plugin there before it reads a file: 65 ms and
	# 3,200 page faults a run, against under 10 ms and 180 faults, and
	# scripts/check-local-export runs nm once per object.  Naming gcc's own
	# LTO plugin keeps libLLVM out.
	plugin=$(gcc -print-file-name=liblto_plugin.so)
	[ -f "$plugin" ] && nm="nm --plugin $plugin"
	# Depend mode hashes the compiler's own -MMD list instead of running the
	# preprocessor a second time on a miss: a cold build took 523 s against
	# 637 s, one run each, but later cold builds with it took up to 671 s on
	# this machine, so the gain is within its noise.  A warm build hits as
	# before.
	export CCACHE_BASEDIR=$kb CCACHE_NOHASHDIR=1 CCACHE_DEPEND=${CCACHE_DEPEND:-1}
	make -s -C "$src" O="$out" CC="$cc" NM="$nm" -j"$(nproc)" "$@"
}

build_image() {
	local out=$1 src=${2:-$tree} start
	start=$(date +%s)
	kmake "$out" "$src" bzImage
	# piggy.S pulls the compressed kernel in with .incbin, which no
	# dependency list names: when the sizes it records match an earlier
	# build, ccache returns that build's piggy.o and bzImage boots an older
	# kernel.  Assemble it again past the cache (a second or two).
	rm -f "$out/arch/x86/boot/compressed/piggy.o"
	CCACHE_DISABLE=1 kmake "$out" "$src" bzImage
	log "bzImage built in $(( $(date +%s) - start )) s: $out/arch/x86/boot/bzImage"
}

# The kernel's own bindeb-pkg: linux-image-<release> (the release ends in
# -autofsng, patch 0001), linux-libc-dev, and linux-headers when the
# flavour has modules.  The image is built first as `make kernel` builds it;
# bindeb-pkg then relinks with the package's version past the cache, for
# the same reason as piggy.o above.
build_deb() {
	local flavour=$1 out=$kb/out-$1 dest=$kb/deb-$1 start
	start=$(date +%s)
	build_image "$out"
	# modules through the cache too: bindeb-pkg's own make runs past it
	if grep -qx CONFIG_MODULES=y "$out/.config"; then kmake "$out" "$tree" modules; fi
	rm -f "$out/arch/x86/boot/compressed/piggy.o"
	rm -f "$out"/../*.deb "$out"/../*.buildinfo "$out"/../*.changes
	DEBFULLNAME=${DEBFULLNAME:-autofsng developers} DEBEMAIL=${DEBEMAIL:-dev@autofsng.invalid} \
	CCACHE_DISABLE=1 kmake "$out" "$tree" bindeb-pkg KDEB_SOURCENAME=linux-autofsng \
		>"$out/bindeb-pkg.log" 2>&1 || { tail -20 "$out/bindeb-pkg.log" >&2; die "bindeb-pkg failed (see $out/bindeb-pkg.log)"; }
	rm -rf "$dest" && mkdir -p "$dest"
	mv "$out"/../*.deb "$out"/../*.buildinfo "$out"/../*.changes "$dest"/
	log "packages built in $(( $(date +%s) - start )) s:"
	ls -l "$dest"/*.deb
}

# The objects whose source the series or kernel/fs provides: the .c files
# it changes or adds, and the x86 system call tables (syscall_*.tbl).
series_objects() {
	{ series_files; overlay_files; } | sort -u | sed -n \
		-e 's|^\(.*\)\.c$|\1.o|p' \
		-e 's|^arch/x86/entry/syscalls/\(syscall_[0-9]*\)\.tbl$|arch/x86/entry/\1.o|p'
}

# Build only the series' objects with a flavour's configuration (the
# debian one would take hours in full on two cores), at the lowest priority.
build_series_objects() {
	local out=$1 start objs
	objs=$(series_objects | tr '\n' ' ')
	renice -n 19 -p $$ >/dev/null
	start=$(date +%s)
	kmake "$out" "$tree" prepare
	log "prepare took $(( $(date +%s) - start )) s"
	# shellcheck disable=SC2086 # a list of make targets
	kmake "$out" "$tree" $objs
	log "series objects built in $(( $(date +%s) - start )) s with $out/.config: $objs"
}

# A copy of pristine/FILE at TREE/FILE, so that a patch writes no hard link
# and make sees every file the series touches as new.
unlink_file() {
	local tree=$1 f=$2
	[ -f "$pristine/$f" ] || return 0
	rm -f "$tree/$f"
	cp "$pristine/$f" "$tree/$f"
}

# The base configuration of the tree as far as the series has come: the
# options of kernel/fs exist only once its Kconfig is hooked in (0050), so
# the fragment is checked whole only after the last patch.
bisect_configure() {
	local btree=$1 bout=$2 last=$3 frag=$2/fragment.config
	mkdir -p "$bout"
	cp "$top/kernel/config/base.config" "$frag"
	drop_gone_options "$frag"
	make -s -C "$btree" O="$bout" KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null 2>&1 ||
		die "allnoconfig failed"
	[ "$last" = 0 ] || check_config "$frag" "$bout/.config"
}

# Build after one patch; a compiler warning in a file the series or the
# overlays provide fails it as an error would.
bisect_build() {
	local btree=$1 bout=$2 p=$3 log=$2/build.log
	kmake "$bout" "$btree" bzImage >"$log" 2>&1 ||
		{ tail -30 "$log" >&2; die "$p: the kernel does not build (see $log)"; }
	if grep -E 'warning:' "$log" | grep -F -f <({ series_files; overlay_files; } | sort -u) >&2; then
		die "$p: the compiler warns (above)"
	fi
}

# Each patch of the series in turn: checkpatch, apply, build.  The overlay
# files (kernel/fs, kernel/include, kernel/Documentation, compat) are in
# the tree from the start: nothing builds kernel/fs before the patch that
# hooks it into fs/Kconfig and fs/Makefile.  The tree is linked afresh from
# pristine each run, its own output directory kept for ccache's sake.
bisect_check() {
	local bk=$kb/bisect p f n total start t
	local btree=$bk/linux bout=$bk/out-base
	start=$(date +%s)
	total=$(series_list | wc -l)
	mkdir -p "$bk"
	rm -rf "$btree"
	cp -al "$pristine" "$btree"
	series_files | sort -u | while read -r f; do unlink_file "$btree" "$f"; done
	lay_whole_files "$btree"
	n=0
	while read -r p; do
		n=$((n + 1))
		t=$(date +%s)
		"$top/kernel/checkpatch.sh" "$kver" "$patchdir/$p" || die "$p: checkpatch (above)"
		apply_patch "$btree" "$p"
		bisect_configure "$btree" "$bout" $((n == total))
		bisect_build "$btree" "$bout" "$p"
		log "[$n/$total] $p: checkpatch clean, built in $(( $(date +%s) - t )) s"
	done < <(series_list)
	log "bisect check of $kver: $total patches in $(( $(date +%s) - start )) s"
}

main() {
	local flavour=${1:-base}
	mkdir -p "$kb"
	unpack_pristine
	if [ "$flavour" = --bisect-check ]; then
		bisect_check
		return
	fi
	sync_tree
	[ "$flavour" = --tree-only ] && return
	case $flavour in
	--config | --deb | --series-objects)
		local mode=$flavour
		flavour=${2:-base}
		[ -f "$top/kernel/config/$flavour.config" ] || die "no kernel/config/$flavour.config"
		[ "$mode" != --config ] || rm -f "$kb/out-$flavour/.fragment.sum"
		configure_flavour "$flavour" "$kb/out-$flavour"
		case $mode in
		--config) log "$flavour: every option of its fragment survived" ;;
		--deb) build_deb "$flavour" ;;
		--series-objects) build_series_objects "$kb/out-$flavour" ;;
		esac
		return ;;
	esac
	if [ "$flavour" = vanilla ]; then
		[ -d "$kb/vanilla/linux" ] || { mkdir -p "$kb/vanilla"; cp -al "$pristine" "$kb/vanilla/linux"; }
		configure_flavour vanilla "$kb/vanilla/out-vanilla" "$kb/vanilla/linux"
		ln -sfn vanilla/out-vanilla "$kb/out-vanilla"
		build_image "$kb/vanilla/out-vanilla" "$kb/vanilla/linux"
		return
	fi
	[ -f "$top/kernel/config/$flavour.config" ] || die "no kernel/config/$flavour.config"
	configure_flavour "$flavour" "$kb/out-$flavour"
	build_image "$kb/out-$flavour"
}

main "$@"
