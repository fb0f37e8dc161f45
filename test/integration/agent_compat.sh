#!/bin/bash
# Master maps and map entries written for autofs-tools read the same here:
# comma-joined agent options, -null, blank-separated host lists, and bare
# words that are no location.  `autofs dump` and `autofs test`, nothing mounted.
. "${srcdir:-.}/test/integration/lib.sh"
t_eq() { [ "$2" = "$3" ] && pass "$1" || fail "$1" "expected '$2', got '$3'"; }

printf 'alice\tserver:/export/home/alice\n' > "$T/auto.proj"
cat > "$T/auto.master" <<'M'
/proj	auto.proj	-nobrowse,--timeout=60
/proj2	auto.proj	-rw,soft,--timeout=30,browse
/off	-null
+auto.master.inc
/incoff	-null
/late	auto.proj
/late	-null
M
printf '/off\tauto.proj\n/inc\tauto.proj\n/incoff\tauto.proj\n' > "$T/auto.master.inc"

out=$($AUTOFS dump 2>&1)
case $out in *"master map auto.master: 3 entries"*) pass null-disables ;;
*) fail null-disables "$out" ;; esac
case $out in *"/off "*|*"/late "*) fail null-before-and-after "$out" ;;
*) pass null-before-and-after ;; esac
case $out in *"/inc auto.proj"*) pass null-keeps-others ;; *) fail null-keeps-others "$out" ;; esac
# one that an earlier include defined too (autofs-tools 5.1.8 keeps it)
case $out in *"/incoff "*) fail null-after-include "$out" ;; *) pass null-after-include ;; esac

# the options of the master line come to the lookup as MAPOPTIONS does
expect comma-timeout 0 "expire after 60 s" $AUTOFS test auto.proj alice -nobrowse,--timeout=60
out=$($AUTOFS test auto.proj alice -nobrowse,--timeout=60 2>&1)
case $out in *nobrowse*|*--timeout*) fail comma-not-mount-options "$out" ;;
*) pass comma-not-mount-options ;; esac
expect comma-mount-options 0 "rw,soft" $AUTOFS test auto.proj alice -rw,soft,--timeout=30,browse
# an option nobody knows is named and the line served, as autofs-tools does
expect comma-unknown-option 0 "unknown option '--frob' ignored" $AUTOFS test auto.proj alice -rw,--frob
expect comma-unknown-option-served 0 "rw" $AUTOFS test auto.proj alice -rw,--frob
expect master-nonstrict 0 "expire after" $AUTOFS test auto.proj alice "--ghost --nonstrict"
expect master-mode-value 0 "expire after 5 s" $AUTOFS test auto.proj alice "--mode 0755 -t 5"
# --mode takes an octal value only: it never swallows the next option
expect master-mode-not-octal 0 "options nosuid" $AUTOFS test auto.proj alice "--mode -nosuid"
expect timeout-zero-never 0 "never expires (--timeout=0)" $AUTOFS test auto.proj alice --timeout=0

# autofs-tools' lower-case variables: ${host} in a credentials file name
# and a server, overridden by a parent's -Dhost
printf 'w\t-fstype=cifs,credentials=/root/.smb/${host}.cred\t://${host}/&\nv\t-fstype=bind\t:/srv/${os}/${hostd}/${dollar}x\n' > "$T/auto.lvars"
short=$(uname -n); short=${short%%.*}
expect lower-host 0 "from //$short/w" $AUTOFS test auto.lvars w
expect lower-host-credentials 0 "credentials=/root/.smb/$short.cred" $AUTOFS test auto.lvars w
expect lower-host-define 0 "from //fs1/w" $AUTOFS test auto.lvars w -Dhost=fs1
# the amd variables (${os}) are empty in a sun map, as in autofs-tools 5.1.8
expect lower-os-empty-dollar 0 "from /srv//$short" $AUTOFS test auto.lvars v
expect lower-os-warned 0 '${os} is an amd map variable: empty in a sun map' \
	$AUTOFS test auto.lvars v

# a valid wildcard entry is shown for a sample key, not called malformed
printf '*\t-fstype=nfs\t&:/export\n' > "$T/auto.wild"
printf '/net\t%s\n' "$T/auto.wild" > "$T/auto.master.wild"
expect dump-wildcard-host 0 "location host=key weight=0 path=/export" $AUTOFS dump auto.master.wild
# a long map name is named whole in an error
long=$T/a-map-name-long-enough-to-pass-sixty-characters-of-path.amd.map
printf '/amd\tfile,amd:%s\n' "$long" > "$T/auto.master.amd"
expect error-names-whole-map 0 "file,amd:$long'" $AUTOFS dump auto.master.amd
# an amd map is not read, and the line says so and where to read why
printf '/defaults type:=nfs;opts:=rw\nfoo rhost:=fs1;rfs:=/export/foo\n' > "$long"
expect amd-map-says-not-read 0 "an amd-format map, which autofsng does not read (autofs-maps(5), AMD MAPS), entry skipped" \
	$AUTOFS dump auto.master.amd

# administrators name the mount point, not the map
expect test-mount-point 0 "expire after 60 s" $AUTOFS test /proj alice
expect test-mount-point-map 0 "mount point /proj: map auto.proj" $AUTOFS test /proj alice
expect test-mount-point-options 0 "expire after 5 s" $AUTOFS test /proj alice --timeout=5
expect test-null-mount-point 8 "map /off: not found in any source" $AUTOFS test /off alice

cat > "$T/auto.rep" <<'M'
blank	host1(5) host2(1):/export/data
bare	-fstype=nfs	server
M
# autofs-tools 5.1.8 refuses blank-separated hosts ("invalid character") too
expect replicas-blank 5 "replicated hosts are separated by commas" $AUTOFS test auto.rep blank
expect bare-word-malformed 5 "location 'server' is neither an absolute path nor host:path" \
	$AUTOFS test auto.rep bare

# fstype=autofs: a nested trigger for a map; from outside the host (here a
# program map) the nested map may only be named, never a file or program
printf 'sub\t-fstype=autofs,timeout=30\tfile:%s/auto.rep\n' "$T" > "$T/auto.withsub"
expect submount-file 0 "via module autofsng (a nested trigger)" $AUTOFS test auto.withsub sub
cat > "$T/auto.subprog" <<'P'
#!/bin/sh
case "$1" in
named) echo "-fstype=autofs auto.rep" ;;
dn) echo "-fstype=autofs ldap:ou=auto.sub,dc=example,dc=org" ;;
prog) echo "-fstype=autofs program:/tmp/evil" ;;
path) echo "-fstype=autofs /tmp/evil" ;;
server) echo "-fstype=autofs ldap://evil.example.org/ou=x" ;;
esac
P
chmod +x "$T/auto.subprog"
expect submount-remote-named 0 "from auto.rep" $AUTOFS test auto.subprog named
expect submount-remote-dn 0 "from ldap:ou=auto.sub" $AUTOFS test auto.subprog dn
for k in prog server; do
	expect "submount-remote-$k-refused" 5 "refused nested map" $AUTOFS test auto.subprog $k
done
expect submount-remote-path-refused 5 "malformed entry" $AUTOFS test auto.subprog path

# keys with blanks and quotes mount as autofs-tools mounts them; '&' keeps
# them one literal word
printf '"dave x"\tserver:/export/dave\n*\tserver:/export/&\n' > "$T/auto.blank"
expect key-blank-entry 0 "from server:/export/dave" $AUTOFS test auto.blank "dave x"
expect key-blank-wildcard 0 "from server:/export/erin y" $AUTOFS test auto.blank "erin y"
expect key-quote-wildcard 0 'from server:/export/a"b' $AUTOFS test auto.blank 'a"b'
expect key-blank-not-an-option 0 "from server:/export/x -ro" $AUTOFS test auto.blank "x -ro"

# every parse error names the file and line, of an included map too
printf 'good\tserver:/g\n+auto.errinc\n' > "$T/auto.err"
printf '\nbad\t-fstype=bind\t"/unterminated\n' > "$T/auto.errinc"
expect parse-error-file-line 5 "map auto.err ($T/auto.errinc:2): key bad: malformed entry" \
	$AUTOFS test auto.err bad
printf '/err\tauto.err\n/opt\tauto.proj\t-rw,--frob\n' > "$T/auto.master.dumperr"
expect dump-error-file-line 5 "malformed: $T/auto.errinc:2: unterminated quote" \
	$AUTOFS dump auto.master.dumperr
expect dump-options-file-line 5 "unknown option '--frob' ignored: $T/auto.master.dumperr:2" \
	$AUTOFS dump auto.master.dumperr
printf '/ok\tauto.proj\n+auto.master.errinc\n' > "$T/auto.master.err"
printf '# an included master map\n/bad/../x\tauto.proj\n' > "$T/auto.master.errinc"
expect master-error-file-line 0 "master map $T/auto.master.errinc:2: mount point '/bad/../x'" \
	$AUTOFS dump auto.master.err

# -hosts lists what autofs-tools lists (gethostent: the first name of each
# IPv4 line, ::1 and ::ffff:a.b.c.d included), without asking any host
cat > "$T/hosts" <<'H'
127.0.0.1	localhost
127.0.1.1	debian.example.org debian
::1	localhost ip6-localhost ip6-loopback
ff02::1	ip6-allnodes
10.255.0.3  fs1 fs1.lab	# a comment
# 10.255.0.9 commented
::ffff:10.255.0.4 mapped
fd00::5	six
10.255.0.5	fs1
1.2.3	short
10.255.0.6	under_score
H
printf '/net\t-hosts\n' > "$T/auto.master.net"
conf_hosts() { cp "$AUTOFS_AGENT_CONF" "$T/hosts.conf"; printf '[nfs]\n%s\n' "$1" >> "$T/hosts.conf"; }
hosts_listed() {
	exec 5>"$T/listed"
	AUTOFS_AGENT_CONF=$T/hosts.conf MAPNAME=-hosts WRITEFD=5 $AUTOFS list 2>/dev/null
	exec 5>&-
	tr '\n' ' ' < "$T/listed"
}
want="debian.example.org fs1 localhost mapped "
conf_hosts "hosts_file = $T/hosts"
t0=$(date +%s)
t_eq hosts-browse-list "$want" "$(hosts_listed)"
expect hosts-dump 0 "  fs1 | 
    (its exports are asked of the host at lookup)" \
	env AUTOFS_AGENT_CONF=$T/hosts.conf $AUTOFS dump auto.master.net
expect hosts-invalid-name-logged 0 "'under_score' not listed: " \
	env AUTOFS_AGENT_CONF=$T/hosts.conf $AUTOFS dump auto.master.net
[ $(( $(date +%s) - t0 )) -lt 5 ] && pass hosts-asks-no-host || fail hosts-asks-no-host "listing took $(( $(date +%s) - t0 )) s"
conf_hosts "hosts_list = fs9, fs8"
t_eq hosts-list-replaces-file "fs8 fs9 " "$(hosts_listed)"
conf_hosts "hosts_file = $T/no-such-hosts"
t_eq hosts-file-missing "" "$(hosts_listed)"
conf_hosts "hosts_file ="
t_eq hosts-file-empty-lists-none "" "$(hosts_listed)"
# the same names as glibc's gethostent and autofs-tools' `automount -m`,
# with the test's hosts file over /etc/hosts in a private mount namespace
conf_hosts "hosts_file = /etc/hosts"
if unshare -m true 2>/dev/null; then
	got=$(unshare -m sh -c 'mount --bind "$1/hosts" /etc/hosts && getent hosts' sh "$T" |
	      awk '{ print $2 }' | sort -u | grep -v _ | tr '\n' ' ')
	t_eq hosts-as-gethostent "$want" "$got"
	got=$(unshare -m sh -c 'mount --bind "$1/hosts" /etc/hosts && "$2" dump auto.master.net' \
	      sh "$T" "$AUTOFS" 2>&1 | sed -n 's/^  \([^ ]*\) | $/\1/p' | tr '\n' ' ')
	t_eq hosts-default-file-etc-hosts "$want" "$got"
else
	echo "skip hosts-as-gethostent: no private mount namespace (not root)"
fi
if [ -x /usr/sbin/automount ] && unshare -m true 2>/dev/null; then
	got=$(unshare -m sh -c 'mount --bind "$1/hosts" /etc/hosts &&
		mount --bind "$1/auto.master.net" /etc/auto.master && timeout 20 automount -m' sh "$T" 2>&1 |
	      sed -n 's/^  \([^ ]*\) | (null)$/\1/p' | sort | grep -v _ | tr '\n' ' ')
	t_eq hosts-as-automount-m "$want" "$got"
else
	echo "skip hosts-as-automount-m: autofs-tools not installed or not root"
fi

# a map no source has is its own error, not "no entry for key"
expect map-not-found 8 "map auto.nosuch: not found in any source" $AUTOFS test auto.nosuch alice
expect map-found-no-key 3 "no entry for key nobody" $AUTOFS test auto.proj nobody

# `autofs test MOUNTPOINT KEY` runs a program map in the mount point, as a
# lookup does (and autofs-tools): the map learns which trigger asked
mkdir -p "$T/mp/prog"
printf '#!/bin/sh\necho "-fstype=nfs 10.255.0.6:/export/$(basename "$PWD")/$1"\n' > "$T/auto.pwd"
chmod 755 "$T/auto.pwd"
printf '%s\t%s\n' "$T/mp/prog" "$T/auto.pwd" > "$T/auto.master.pwd"
printf '[general]\nmaster = %s\nsources = files\n' "$T/auto.master.pwd" > "$T/pwd.conf"
expect test-program-in-mount-point 0 "from 10.255.0.6:/export/prog/k" \
	env AUTOFS_AGENT_CONF="$T/pwd.conf" $AUTOFS test "$T/mp/prog" k
finish
