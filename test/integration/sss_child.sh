#!/bin/bash
# The child of map_sss.so that talks to SSSD: it alone loads SSSD's
# library, holds none of the agent's descriptors, dies with the agent, and
# the whole answer has one deadline.  sssd (ldap provider) against a real
# slapd in private namespaces, hung (SIGSTOP) or slowed by strace's delay
# injection on its replies.
. "$(dirname "$0")/maps_lib.sh"
enter_private_ns "$@"
need strace
. "$(dirname "$0")/ldap_lib.sh"
. "$(dirname "$0")/sss_lib.sh"

mount -t tmpfs sss-run /run
# auto.big (10,000 keys) stays cached for the whole test: no refresh from
# LDAP in the middle of a timed listing
SSS_CACHE=600
LDAP_TLS=no slapd_start
sssd_start || { t_fail "sssd started"; t_done; exit 1; }
SSS_TIMEOUT=3
# agent_conf TIMEOUT
agent_conf() {
	{
		echo "[general]"
		echo "sources = sss files"
		echo "map_dir = $TMP/maps"
		echo "log_stderr = yes"
		echo "[sss]"
		echo "timeout = $1"
	} > "$TMP/agent.conf"
}
agent_conf $SSS_TIMEOUT
export AUTOFS_AGENT_CONF=$TMP/agent.conf
mkdir -p "$TMP/maps"

# ---- the library is loaded by the child, never by the agent ------------
# A wrapper records the agent's pid before it becomes the agent.
ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
AUTOFS_AGENT_MODULE_DIR=$MODDIR strace -f -qq -e trace=openat -o "$TMP/strace" \
	bash -c 'echo $$ > "$1"; shift; exec "$@"' - "$TMP/agent.pid" \
	"$AUTOFS" test auto.home alice >"$TMP/out" 2>"$TMP/err"
t_eq "strace: the agent answers from sss" "source sss:auto.home" "$(grep '^source ' "$TMP/out")"
apid=$(cat "$TMP/agent.pid")
lib_pids=$(grep -F "${SSS_LIBRARY##*/}" "$TMP/strace" | grep -v ' = -1 ' |
	awk '{ print $1 }' | sort -u | tr '\n' ' ')
[ -n "$lib_pids" ] && t_ok "strace: libsss_autofs.so opened, by pids $lib_pids" ||
	t_fail "strace: libsss_autofs.so never opened"
case " $lib_pids " in
*" $apid "*) t_fail "strace: the agent ($apid) opened libsss_autofs.so itself" ;;
*) t_ok "strace: the agent ($apid) never opened libsss_autofs.so" ;;
esac

# ---- a child blocked on a hung SSSD ------------------------------------
# The agent is given descriptors as the kernel gives them (MOUNTFD,
# MNTNSFD); the child must hold none of them, and die with the agent.

# fd_list PID -- "FD:TARGET" for each descriptor from 3 up, with pipe and
# socket inodes kept (to compare), one a line
fd_list() {
	local f
	for f in /proc/$1/fd/*; do
		[ "${f##*/}" -ge 3 ] 2>/dev/null || continue
		echo "${f##*/}:$(readlink "$f")"
	done | sort -t: -n -k1
}

kill -STOP "$(sssd_autofs_pid)"
MOUNTFD=7 MNTNSFD=8 AUTOFS_AGENT_MODULE_DIR=$MODDIR "$AUTOFS" test auto.home alice \
	7</ 8</proc/self/ns/mnt >"$TMP/out" 2>"$TMP/err" &
apid=$!
child=
for _ in $(seq 1 100); do
	child=$(pgrep -P "$apid" | head -1)
	# in the library: connected to SSSD's socket
	[ -n "$child" ] && ls -l "/proc/$child/fd" 2>/dev/null | grep -q 'socket:' && break
	sleep 0.05
done
if [ -z "$child" ]; then
	t_fail "hung sssd: the agent started a child"
else
	fd_list "$apid" | cut -d: -f2- | sort -u > "$TMP/agent.fds"
	fd_list "$child" > "$TMP/child.fds"
	pipe=$(sed -n 's/^3:\(pipe:.*\)/\1/p' "$TMP/child.fds")
	t_eq "child: its pipe to the agent at fd 3" yes \
		"$([ -n "$pipe" ] && grep -qxF "$pipe" "$TMP/agent.fds" && echo yes)"
	t_eq "child: nothing else of the agent's (MOUNTFD, MNTNSFD, ...)" "" \
		"$(cut -d: -f2- "$TMP/child.fds" | grep -vxF "$pipe" |
			grep -xF -f "$TMP/agent.fds" | tr '\n' ' ')"
	t_eq "child: from fd 4 up only the library's socket to SSSD" "" \
		"$(awk -F: '$1 >= 4' "$TMP/child.fds" | grep -v '^[0-9]*:socket:' | tr '\n' ' ')"
	kill -KILL "$apid"
	wait "$apid" 2>/dev/null
	for _ in $(seq 1 20); do
		[ -e "/proc/$child" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$child/stat" 2>/dev/null ||
			break
		sleep 0.05
	done
	if [ -e "/proc/$child" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$child/stat" 2>/dev/null; then
		t_fail "child: still alive 1 s after the agent was killed"
		kill -KILL "$child"
	else
		t_ok "child: gone with the agent (killed -9)"
	fi
fi
kill -CONT "$(sssd_autofs_pid)"

# ---- one deadline for the whole answer ---------------------------------
# Fill sssd's cache with auto.big first (the first listing makes sssd read
# 10,000 entries from LDAP), then delay each of sssd_autofs's replies by
# 0.5 s: the listing comes 512 entries a reply, ~20 replies, each well
# within [sss] timeout but all of them far beyond it.
agent_conf 300
probe sss auto.big count
t_eq "auto.big: all 10000 keys through sss" "0 10000" "$RC $(cat "$TMP/out")"
agent_conf $SSS_TIMEOUT
strace -qq -p "$(sssd_autofs_pid)" -e trace=sendto -e inject=sendto:delay_enter=500000 \
	-o /dev/null &
slow=$!
at_exit "kill $slow"
sleep 1
t0=$(now_ms)
probe sss auto.big list
t1=$(now_ms)
kill "$slow"
wait "$slow" 2>/dev/null
t_eq "dripping sssd: source unavailable (4)" 4 "$RC"
# open (3 replies, 1.5 s) has its own deadline, the listing one more
[ $((t1 - t0)) -lt $(((2 * SSS_TIMEOUT + 2) * 1000)) ] &&
	t_ok "dripping sssd: $((t1 - t0)) ms, the listing ended at its deadline" ||
	t_fail "dripping sssd: $((t1 - t0)) ms, more than [sss] timeout $SSS_TIMEOUT s for the listing"
t_grep "dripping sssd: logged with the timeout" \
	"list: SSSD did not answer within $SSS_TIMEOUT s" "$TMP/err"
t_done
