#!/bin/bash
# An entry's trust follows its bytes (design.md 3a, trust.c): an entry
# from a program map, found directly, through an include line or through
# an include of an include, is foreign, mounts nosuid,nodev, names no
# local path and no nested map but by name; a nested map it names inherits
# that; a key any user chooses adds no option; a program map root does
# not own is not run.  `autofs test` shows it; nothing is mounted.
. "${srcdir:-.}/test/integration/lib.sh"

cat > "$T/auto.prog" <<'P'
#!/bin/sh
case "$1" in
suid) echo "-suid,dev,fstype=tmpfs :tmpfs" ;;
nest) echo "-fstype=autofs program:/tmp/evil" ;;
nestname) echo "-fstype=autofs,suid,dev,-DLD_PRELOAD=/tmp/x auto.sub" ;;
root) echo "-fstype=bind :/" ;;
dev) echo "-fstype=ext4 :/dev/sdb1" ;;
local) echo "127.0.0.1:/srv" ;;
tmp) echo "-fstype=tmpfs :tmpfs" ;;
quoted) echo '-fstype=autofs,"timeout=5 -suid -dev -DFOO=bar" auto.sub' ;;
escaped) echo '-fstype=autofs,timeout=5\ -suid,dev auto.sub' ;;
ng) echo '-fstype=autofsng,indirect,opt=-suid :file:/tmp/attacker.map' ;;
bindhost) echo '-fstype=bind somehost:/' ;;
reldev) echo '-fstype=ext4 :dev/sda1' ;;
label) echo '-fstype=ext4 :LABEL=root' ;;
autoword) echo "-fstype=auto :$1" ;;
overlay) echo '-fstype=overlay,lowerdir=/root,upperdir=/tmp/u :overlay' ;;
esac
P
chmod 0755 "$T/auto.prog"
printf '+%s/auto.prog\n' "$T" > "$T/auto.inc"
printf '+%s/auto.inc\n' "$T" > "$T/auto.inc2"
printf 'own\t-suid,fstype=tmpfs :tmpfs\n+%s/auto.prog\n' "$T" > "$T/auto.mixed"
printf '*\t-fstype=tmpfs,mode=0700,uid=& :tmpfs\n' > "$T/auto.uid"

for map in auto.prog auto.inc auto.inc2; do
	expect "$map-suid-clamped" 0 "options nosuid,nodev" $AUTOFS test "$T/$map" suid
	expect "$map-nest-refused" 5 "refused nested map 'program:/tmp/evil'" \
		$AUTOFS test "$T/$map" nest
	expect "$map-root-refused" 5 "a bind mount from a source outside" $AUTOFS test "$T/$map" root
	expect "$map-device-refused" 5 "a local path or device from a source outside" $AUTOFS test "$T/$map" dev
	expect "$map-local-nfs-stays-nfs" 0 "options nosuid,nodev,nobind" \
		$AUTOFS test "$T/$map" local
	expect "$map-nested-options-dropped" 0 "nested map options --autofsng-foreign" \
		$AUTOFS test "$T/$map" nestname
	expect "$map-pseudo-fs-allowed" 0 "mount /: tmpfs" $AUTOFS test "$T/$map" tmp
	expect "$map-quoted-timeout" 0 "nested map options --autofsng-foreign" \
		$AUTOFS test "$T/$map" quoted
	expect "$map-escaped-timeout" 0 "nested map options --autofsng-foreign" \
		$AUTOFS test "$T/$map" escaped
	expect "$map-autofsng-refused" 5 "fstype=autofsng and trapfs are the agent's own" \
		$AUTOFS test "$T/$map" ng
	expect "$map-bind-host-refused" 5 "a bind mount from a source outside" \
		$AUTOFS test "$T/$map" bindhost
	expect "$map-relative-device-refused" 5 "a local path or device" $AUTOFS test "$T/$map" reldev
	expect "$map-label-refused" 5 "a local path or device" $AUTOFS test "$T/$map" label
	# a bare word with fstype=auto would be probed relative to the agent's cwd
	expect "$map-auto-word-refused" 5 "fstype=auto (a local device) from a source outside" \
		$AUTOFS test "$T/$map" autoword
	expect "$map-path-option-refused" 5 "an option naming a path" $AUTOFS test "$T/$map" overlay
done
printf 'ng\t-fstype=trapfs :x\n' > "$T/auto.ng"
expect local-trapfs-refused 5 "fstype=autofsng and trapfs are the agent's own" \
	$AUTOFS test "$T/auto.ng" ng
expect trust-direct 0 "trust foreign (answered by program:$T/auto.prog)" $AUTOFS test "$T/auto.prog" suid
expect trust-via-include 0 "trust foreign (via +program:$T/auto.prog)" \
	$AUTOFS test "$T/auto.inc" suid
expect trust-via-two-includes 0 "trust foreign (via +program:$T/auto.prog)" \
	$AUTOFS test "$T/auto.inc2" suid
expect trust-own-line-local 0 "trust local (map files only)" $AUTOFS test "$T/auto.mixed" own
expect trust-own-line-keeps-suid 0 "options suid" $AUTOFS test "$T/auto.mixed" own
expect trust-included-line-foreign 0 "trust foreign (via +program:" \
	$AUTOFS test "$T/auto.mixed" suid
# the nested map a foreign entry named is foreign too, whatever serves it
printf 'k\t-suid,fstype=tmpfs :tmpfs\n' > "$T/auto.sub"
expect nested-inherits-foreign 0 "trust foreign (a map named by a foreign entry or master line)" \
	$AUTOFS test "$T/auto.sub" k --autofsng-foreign
expect nested-inherits-clamp 0 "options nodev,nosuid" \
	$AUTOFS test "$T/auto.sub" k --autofsng-foreign
expect nested-admin-local 0 "options suid" $AUTOFS test "$T/auto.sub" k
# options that say suid, dev or -D beside the marker are not the administrator's
expect nested-marker-no-suid 0 "options nosuid,nodev" \
	$AUTOFS test "$T/auto.sub" k '-suid -dev --autofsng-foreign'
printf 'd\tsrv:/$FOO\n' > "$T/auto.subd"
expect nested-marker-no-defines 0 "from srv:/" $AUTOFS test "$T/auto.subd" d '-DFOO=bar --autofsng-foreign'
expect nested-marker-no-defines-value 0 "from srv:/bar" $AUTOFS test "$T/auto.subd" d '-DFOO=bar' 

# a key any user chooses, put into an option word, adds no option
expect key-in-option-refused 5 "stands in an option with '&'" \
	$AUTOFS test "$T/auto.uid" '1000,suid,dev' -nosuid,nodev
expect key-in-option-plain 0 "options nosuid,nodev,mode=0700,uid=1000" \
	$AUTOFS test "$T/auto.uid" 1000 -nosuid,nodev

# a requester the host has no name for: $USER and $GROUP fail the lookup,
# never expand to nothing (srv:/scratch/$USER is not srv:/scratch/)
printf 'k\tsrv:/scratch/$USER\ng\tsrv:/g/${GROUP}\n' > "$T/auto.names"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$T"
	chmod 644 "$T/auto.names" "$AUTOFS_AGENT_CONF"
	expect unknown-uid-fails 5 "variable USER: the requester's user id has no name" \
		setpriv --reuid 4242 --regid 4242 --clear-groups $AUTOFS test "$T/auto.names" k
	expect unknown-gid-fails 5 "variable GROUP: the requester's group id has no name" \
		setpriv --reuid 4242 --regid 4242 --clear-groups $AUTOFS test "$T/auto.names" g
	# a group too large for a 4 KiB buffer (ERANGE) is still named
	{ cat /etc/group; printf 'biggroup:x:4243:'; seq -f 'member%05g' 1 3000 | paste -sd,; } > "$T/group"
	# a user name from the name service is data: "x,suid" adds no option
	{ cat /etc/passwd; echo 'x,suid,dev:x:4244:4244::/home/x:/bin/sh'; } > "$T/passwd"
	printf '*\t-nosuid,nodev,fstype=cifs,username=$USER ://srv/&\n' > "$T/auto.user"
	chmod 644 "$T/auto.user"
	expect user-with-comma-refused 5 "holds ','" unshare -m sh -c \
		'mount --bind "$1" /etc/passwd && exec setpriv --reuid 4244 --regid 4244 --clear-groups "$2" test "$3" share' \
		sh "$T/passwd" "$AUTOFS" "$T/auto.user"
	expect large-group-named 0 "from srv:/g/biggroup" unshare -m sh -c \
		'mount --bind "$1" /etc/group && exec setpriv --reuid 4242 --regid 4243 --clear-groups "$2" test "$3" g' \
		sh "$T/group" "$AUTOFS" "$T/auto.names"
else
	echo "SKIP unknown-uid (not root or no setpriv)"
fi

# what a map or server wrote reaches the administrator's terminal escaped:
# ESC and the C1 control CSI (U+009B) would drive the terminal
printf 'esc\tsrv:/a\033[31mred\302\233x\n' > "$T/auto.esc"
expect test-output-escaped 0 'from srv:/a\x1b[31mred\xc2\x9bx' $AUTOFS test "$T/auto.esc" esc
out=$($AUTOFS test "$T/auto.esc" esc 2>&1; $AUTOFS dump "$T/auto.master.esc" 2>&1)
printf '/mnt/e\t%s/auto.esc\n' "$T" > "$T/auto.master.esc"
out+=$($AUTOFS dump "$T/auto.master.esc" 2>&1)
if printf '%s' "$out" | LC_ALL=C grep -q $'[\033\302]'; then
	fail no-raw-control "raw ESC or C1 in: $(printf '%s' "$out" | od -c | head -3)"
else
	pass no-raw-control
fi
expect dump-escaped 0 'srv:/a\x1b[31mred' $AUTOFS dump "$T/auto.master.esc"

# a program map root does not own, or others may write, is not run
if [ "$(id -u)" = 0 ]; then
	chown 1000 "$T/auto.prog"
	expect prog-not-root-owned 4 "not owned by root" $AUTOFS test "$T/auto.prog" tmp
	chown 0 "$T/auto.prog"
	chmod 0757 "$T/auto.prog"
	expect prog-world-writable 4 "writable by others than root" $AUTOFS test "$T/auto.prog" tmp
	chmod 0755 "$T/auto.prog"
else
	echo "SKIP prog-ownership (not root)"
fi

# A program map that writes a map per server and names it (issue 35, 8):
# refused as program output, with the opt-in named; trusted as a map file
# with --trusted-program on its master line, but never through options a
# foreign entry or a directory's master line gave.
cat > "$T/auto.gen" <<P
#!/bin/sh
printf 'd\t-fstype=tmpfs,suid :tmpfs\n' > "$T/gen.\$1"
echo "-fstype=autofs file:$T/gen.\$1"
P
chmod 0755 "$T/auto.gen"
expect gen-refused-names-opt-in 5 "--trusted-program on its master map line" \
	$AUTOFS test "$T/auto.gen" srv1
expect gen-trusted 0 "trust local (program:$T/auto.gen, trusted: --trusted-program)" \
	$AUTOFS test "$T/auto.gen" srv1 --trusted-program
expect gen-trusted-nested 0 "from file:$T/gen.srv1" $AUTOFS test "$T/auto.gen" srv1 --trusted-program
expect gen-trusted-not-from-foreign 5 "refused nested map" \
	$AUTOFS test "$T/auto.gen" srv1 "--trusted-program --autofsng-foreign"
expect gen-trusted-program-only 0 "options nosuid,nodev" \
	$AUTOFS test "$T/auto.inc" suid --trusted-program
finish
