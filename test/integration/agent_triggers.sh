#!/bin/bash
# start, stop and status on this host, whose kernel has no autofsng: the
# mount table comes from a file (AUTOFS_AGENT_MOUNTINFO) so that running
# triggers, automounted mounts below them and nested offset triggers can be
# shown; every real mount attempt fails and must be reported.
. "${srcdir:-.}/test/integration/lib.sh"

if ! unshare -m true 2>/dev/null; then
	echo "SKIP: unshare -m not permitted"
	exit 77
fi
R=$T/root
mkdir -p "$R"
cat > "$T/auto.master" <<M
$R/home	auto.home	--timeout=60 -browse
$R/new	auto.new	-nobrowse
/-	auto.direct
M
printf 'alice\tserver:/home/alice\n' > "$T/auto.home"
printf 'x\tserver:/x\n' > "$T/auto.new"
printf '%s/d1\t:/srv/d1\n%s/d2\t:/srv/d2\n' "$R" "$R" > "$T/auto.direct"
esc_r=$(printf '%s' "$R" | sed 's/ /\\040/g')
cat > "$T/mountinfo" <<MI
1 0 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
20 1 0:30 / $esc_r/home rw,relatime shared:5 - autofsng auto.home rw,indirect,browse
21 20 0:31 / $esc_r/home/alice rw,relatime shared:6 - nfs4 server:/home/alice rw,vers=4.2
22 21 0:32 / $esc_r/home/alice/sub rw,relatime shared:7 - autofsng auto.home rw,direct,mapkey=alice,mapoffset=/sub
23 1 0:33 / $esc_r/d1 rw,relatime shared:8 - autofsng auto.direct rw,direct,mapkey=$esc_r/d1
MI
export AUTOFS_AGENT_MOUNTINFO=$T/mountinfo

# start: running triggers are left alone; new ones fail on this kernel and
# are reported while the others are still tried
out=$(unshare -m $AUTOFS start 2>&1)
rc=$?
[ $rc = 7 ] && pass start-partial-exit || fail start-partial-exit "exit $rc: $out"
case $out in *"running $R/home: auto.home (browse)"*) pass start-idempotent ;; *) fail start-idempotent "$out" ;; esac
case $out in *"autofsng trigger for auto.new"*"kernel without autofsng"*) pass start-reports-failure ;; *) fail start-reports-failure "$out" ;; esac
case $out in *"direct map auto.direct: 0 started, 1 running, 1 failed"*) pass start-direct-counts ;; *) fail start-direct-counts "$out" ;; esac
[ -d "$R/new" ] && [ -d "$R/d2" ] && pass start-makes-mount-points || fail start-makes-mount-points "missing"
printf '%s/home\tauto.home\n' "$R" > "$T/auto.master.running"
expect start-all-running 0 "running $R/home" unshare -m $AUTOFS start auto.master.running
printf '/bad/../x\tauto.x\n' > "$T/auto.master.bad"
expect start-bad-master-line 0 "is not a clean absolute path" unshare -m $AUTOFS start auto.master.bad
expect start-no-master 2 "not found in any source" $AUTOFS start auto.master.none

# status: triggers, the mounts below them; nested offset triggers belong to
# their tree; expiry cannot be read without mountfd
out=$($AUTOFS status 2>&1)
case $out in *"$R/home auto.home rw,indirect,browse"*) pass status-trigger ;; *) fail status-trigger "$out" ;; esac
case $out in *"$R/home/alice"*nfs4*"server:/home/alice"*"expiry unknown"*) pass status-mount-below ;; *) fail status-mount-below "$out" ;; esac
case $out in *"$R/home/alice/sub auto.home"*) fail status-nested-not-a-trigger "$out" ;; *) pass status-nested-not-a-trigger ;; esac
case $out in *"$R/d1 auto.direct"*) pass status-direct ;; *) fail status-direct "$out" ;; esac
$AUTOFS status --json > "$T/status.json" 2>/dev/null
if python3 - "$T/status.json" "$R" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = sys.argv[2]
t = {x["trigger"]: x for x in d["triggers"]}
assert set(t) == {r + "/home", r + "/d1"}, t
m = t[r + "/home"]["mounts"]
assert [x["path"] for x in m] == [r + "/home/alice"], m
assert m[0]["fstype"] == "nfs4" and m[0]["expire"] is None
PY
then pass status-json; else fail status-json "$(cat "$T/status.json")"; fi
AUTOFS_AGENT_MOUNTINFO=$T/none expect status-no-mountinfo 1 "reading the mount table" $AUTOFS status
printf '1 0 8:1 / / rw - ext4 /dev/sda1 rw\n' > "$T/mi.empty"
AUTOFS_AGENT_MOUNTINFO=$T/mi.empty expect status-none 0 "no autofsng triggers" $AUTOFS status

# stop: the table names triggers that are not really mounted here, so every
# unmount fails, is reported, and the exit says "partial"
out=$(unshare -m $AUTOFS stop 2>&1)
rc=$?
[ $rc = 7 ] && pass stop-partial-exit || fail stop-partial-exit "exit $rc: $out"
case $out in *"failed $R/d1 (auto.direct)"*"failed $R/home (auto.home)"*) pass stop-reports-each ;; *) fail stop-reports-each "$out" ;; esac
case $out in *"$R/home/alice/sub"*) fail stop-leaves-nested "$out" ;; *) pass stop-leaves-nested ;; esac
AUTOFS_AGENT_MOUNTINFO=$T/mi.empty expect stop-nothing 0 "" $AUTOFS stop
finish
