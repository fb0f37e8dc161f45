#!/bin/bash
# The sources of nsswitch.conf's automount line, read as autofs-tools and
# nsswitch.conf(5) read them: a map comes whole from the first source that
# has it, a key from the first that has the key, and an action after a
# source ("[NOTFOUND=return]", "[SUCCESS=continue]") changes where the
# search ends.  A site whose master map is in LDAP, with NIS after it for
# other maps, must not ask NIS for the master map at boot: its ypbind may
# not have bound yet, and autofs start logged that as an error.
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

# the site's client: files, then LDAP, then NIS (no ypbind here)
nss "files ldap nis"
agent dump
t_eq "files ldap nis: the file's own line" "1" "$(lines /local)"
t_eq "... the directory's lines, read once" "1 1" "$(lines /home) $(lines /big)"
t_nogrep "... NIS is not asked once LDAP has the master map" "nis\|domain" "$TMP/err"
t_grep "... /home's map comes from the first source that has it" \
	"^  source file:$TMP/maps/auto.home" "$TMP/out"
t_grep "... and its keys are that source's" "^  alice | -fstype=tmpfs" "$TMP/out"
t_nogrep "... the directory's keys are not listed after the file's" "^  bob |" "$TMP/out"

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

t_done
