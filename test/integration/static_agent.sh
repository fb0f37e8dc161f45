#!/bin/bash
# The static agent (agent/am_dynamic.h) run by an administrator: every
# command is handed to the dynamic agent found in the module path, with its
# arguments and environment, and prints what the dynamic agent prints
# alone; without a dynamic agent it fails and names what is missing.  The
# kernel's runs are the guest's (test/qemu/suites/static_agent.sh).
. "$(dirname "$0")/lib.sh"

STATIC=$top_builddir/agent/autofs-static
if [ ! -x "$STATIC" ]; then
	echo "SKIP: no $STATIC (this C library links no static-pie program)"
	exit 77
fi
mkdir -p "$T/dyn" "$T/src"
ln -s "$(cd "$top_builddir/agent" && pwd)/autofs" "$T/dyn/autofs-dynamic"
printf 'k1 -fstype=bind :%s/src\nk2 -rw,soft server:/export/&\n' "$T" > "$T/auto.t"
MODS=$AUTOFS_AGENT_MODULE_DIR

want=$("$AUTOFS" test "$T/auto.t" k2 2>&1)
AUTOFS_AGENT_MODULE_DIR=$T/dyn:$MODS expect test-handed-over 0 "$want" \
	"$STATIC" test "$T/auto.t" k2
AUTOFS_AGENT_MODULE_DIR=$T/dyn:$MODS expect test-handed-over-verbose 0 \
	"autofs test: handing over to $T/dyn/autofs-dynamic" "$STATIC" -v test "$T/auto.t" k1
want=$("$AUTOFS" dump "$T/auto.t" 2>&1)
AUTOFS_AGENT_MODULE_DIR=$T/dyn:$MODS expect dump-handed-over 0 "$want" \
	"$STATIC" dump "$T/auto.t"
expect no-dynamic-agent 1 "autofs test needs the dynamic agent: no autofs-dynamic in $MODS" \
	"$STATIC" test "$T/auto.t" k1
expect help-is-static 0 "usage: autofs" "$STATIC" help

# The dynamic agent sees the environment and the arguments as given, and
# only the descriptors 0-2 (none the static run opened)
rm "$T/dyn/autofs-dynamic"	# a link to this build's agent: not written through
cat > "$T/dyn/autofs-dynamic" <<EOF
#!/bin/sh
echo "args: \$*"
echo "env: \$AUTOFS_STATIC_PROBE"
echo "fds: \$(ls /proc/self/fd | sort -n | tr '\n' ' ')end"
EOF
chmod 755 "$T/dyn/autofs-dynamic"
AUTOFS_STATIC_PROBE=seen AUTOFS_AGENT_MODULE_DIR=$T/dyn expect args-as-given 0 \
	"args: -v status" "$STATIC" -v status
AUTOFS_STATIC_PROBE=seen AUTOFS_AGENT_MODULE_DIR=$T/dyn expect env-as-given 0 \
	"env: seen" "$STATIC" status
# (3 is ls's own directory); 7 is open here, and not for the dynamic agent
AUTOFS_AGENT_MODULE_DIR=$T/dyn expect fds-0-2-only 0 "fds: 0 1 2 3 end" "$STATIC" status 7</dev/null

# An autofs-dynamic that is the static agent is run once, and refuses
mkdir -p "$T/loop"
ln -s "$(cd "$top_builddir/agent" && pwd)/autofs-static" "$T/loop/autofs-dynamic"
AUTOFS_AGENT_MODULE_DIR=$T/loop expect no-hand-over-loop 1 \
	"handed over once already: autofs-dynamic is not the dynamic agent" timeout 10 "$STATIC" status

# A kernel's run that needs a module (a program map) is handed over with
# the kernel's descriptors kept open: MOUNTFD here
printf '#!/bin/sh\necho -fstype=tmpfs :tmpfs\n' > "$T/auto.prog"
chmod 755 "$T/auto.prog"
MAPNAME=auto.prog MAPKEY=k1 MOUNTFD=7 AUTOFS_AGENT_MODULE_DIR=$T/dyn:$MODS \
	expect lookup-handed-over-with-mountfd 0 "fds: 0 1 2 3 7 end" "$STATIC" lookup 7</dev/null
finish
