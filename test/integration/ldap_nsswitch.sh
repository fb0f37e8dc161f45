#!/bin/bash
# The sources of nsswitch.conf's automount line, read as autofs-tools and
# nsswitch.conf(5) read them: the master map comes whole from the first
# source that has it, any other map (a direct map, a browse listing) from
# every source, a key from the first that has it; an action after a source
# ("[NOTFOUND=return]", "[SUCCESS=continue]") changes where the search
# ends.  A site whose master map is in LDAP, with NIS after it for other
# maps, must not ask NIS for the master map at boot: its ypbind may not
# have bound yet, and autofs start logged that as an error.
. "$(dirname "$0")/maps_lib.sh"
. "$(dirname "$0")/ldap_lib.sh"

LDAP_TLS=no slapd_start
ldap_agent_conf "search_base=ou=bis,$SUFFIX"
# the sources come from the nsswitch file below, as on a site's client
sed -i '/^sources =/d' "$TMP/agent.conf"
export AUTOFS_AGENT_NSSWITCH=$TMP/nsswitch.conf
nss() { printf 'passwd: files\nautomount: %s\n' "$1" > "$TMP/nsswitch.conf"; }
printf '/local\t%s/maps/auto.local\n+auto.master\n' "$TMP" > "$TMP/maps/auto.master"
printf 'k\t-fstype=tmpfs\t:tmpfs\n' > "$TMP/maps/auto.local"
printf 'alice\t-fstype=tmpfs\t:tmpfs\n' > "$TMP/maps/auto.home"
lines() { grep -c "^$1 " "$TMP/out"; }
# autofs start in a mount namespace of its own
start() {
	RC=0
	unshare -m --propagation private env AUTOFS_AGENT_MODULE_DIR=$MODDIR "$AUTOFS" start \
		>"$TMP/out" 2>"$TMP/err" || RC=$?
}

# the site's client: files, then LDAP, then NIS (no ypbind here)
nss "files ldap nis"
start
t_nogrep "files ldap nis: start does not ask NIS once LDAP has the master map" "nis" "$TMP/err"
agent dump
t_eq "... the file's own master line" "1" "$(lines /local)"
t_eq "... the directory's lines, read once" "1 1" "$(lines /home) $(lines /big)"
t_grep "... a map's keys: the file's" "^  alice | -fstype=tmpfs" "$TMP/out"
t_grep "... and the directory's after them" "^  bob | -rw,nosuid" "$TMP/out"

# a key the first source lacks is still asked of the next
agent test auto.home bob
t_eq "a key the file lacks: found in LDAP" "0" "$RC"
t_grep "... and said so" "^source ldap:auto.home" "$TMP/out"

# [NOTFOUND=return]: the search ends at the file that lacks the key
nss "files [NOTFOUND=return] ldap"
agent test auto.home bob
t_eq "[NOTFOUND=return]: a key the file lacks is not found" "3" "$RC"
t_grep "... and said so" "^map auto.home: no entry for key bob" "$TMP/out"
agent test auto.home alice
t_eq "... the file's own key still is" "0" "$RC"
# ... a program map's too, the directory's wildcard included
mv "$TMP/maps/auto.home" "$TMP/auto.home.file"
printf '#!/bin/sh\n[ "$1" = alice ] && echo "-fstype=tmpfs :tmpfs"\nexit 0\n' > "$TMP/maps/auto.home"
chmod 755 "$TMP/maps/auto.home"
agent test auto.home zed
t_eq "[NOTFOUND=return] after a program map: not the directory's wildcard" "3" "$RC"
rm "$TMP/maps/auto.home"
mv "$TMP/auto.home.file" "$TMP/maps/auto.home"

# without the include, a master map file is the whole master map
printf '/local\t%s/maps/auto.local\n' "$TMP" > "$TMP/maps/auto.master"
nss "files ldap"
agent dump
t_eq "files ldap: a master map file without +auto.master is all" "1 0" "$(lines /local) $(lines /home)"
# ... unless the administrator asks for more
nss "files [SUCCESS=continue] ldap"
agent dump
t_eq "[SUCCESS=continue]: the directory's master lines too" "1 1" "$(lines /local) $(lines /home)"

# a source that is down or lacks the map passes the search on
rm "$TMP/maps/auto.master"
nss "files ldap"
agent dump
t_eq "no master map file: LDAP's" "0 1" "$(lines /local) $(lines /home)"
nss "nis ldap"
agent dump
t_eq "NIS unavailable: LDAP's" "1" "$(lines /home)"
nss "nis [UNAVAIL=return] ldap"
agent dump
t_eq "[UNAVAIL=return]: nothing" "0" "$(lines /home)"

# a source that fails outright leaves the others' keys listed
printf '/local\t%s/maps/auto.local\n' "$TMP" > "$TMP/maps/auto.master"
nss "files ldap"
printf 'secret\n' > "$TMP/auth.conf"
chmod 644 "$TMP/auth.conf"
cp "$TMP/agent.conf" "$TMP/agent.conf.good"
sed -i "/^\[ldap\]/a auth_conf = $TMP/auth.conf" "$TMP/agent.conf"
printf '/home\tauto.home\n' > "$TMP/maps/auto.master.home"
agent dump "$TMP/maps/auto.master.home"
t_eq "LDAP refusing its configuration: the file's keys are still listed" "0" "$RC"
t_grep "... the file's key" "^  alice |" "$TMP/out"
t_grep "... and the directory's failure said" "ldap" "$TMP/err"
cp "$TMP/agent.conf.good" "$TMP/agent.conf"

# a direct key given twice (two sources, or one twice) gets one trigger:
# the first entry's, as a lookup finds it
printf '/-\t%s/maps/auto.direct\n' "$TMP" > "$TMP/maps/auto.master"
printf '/x/d1\t-fstype=tmpfs\t:tmpfs\n/x/d1\t-fstype=tmpfs,size=1m\t:tmpfs\n' > "$TMP/maps/auto.direct"
start
t_grep "a direct key listed twice: one trigger tried" "direct map .*auto.direct: 0 started, 0 running, 1 failed" "$TMP/out"

t_done
