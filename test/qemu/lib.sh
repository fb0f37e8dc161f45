# Sourced by every guest suite.  A test reports exactly one line to
# /run/results/results.txt, "PASS suite/name" or "FAIL suite/name: why"
# (or "SKIP suite/name (why)" for one this kernel cannot run),
# and echoes it to the console for the human reading the log.
RESULTS=/run/results/results.txt

# The guest's syslog (test/qemu/syslogd reads /dev/log), and suite_log,
# this suite's part of it: the agent's lines, for tests that count lookups.
SYSLOG=/run/results/syslog.txt
LOG_FROM=$(( $(wc -l 2>/dev/null < "$SYSLOG" || echo 0) + 1 ))
suite_log() { tail -n +"$LOG_FROM" "$SYSLOG"; }

# logged [-F] PATTERN: within 3 s, this suite's syslog has PATTERN (a
# regular expression, or a fixed string with -F): the reader may lag.
logged() {
	local i f=
	[ "$1" = -F ] && { f=F; shift; }
	for i in $(seq 30); do
		suite_log | grep -q$f -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

t_pass() {
	[ -z "$T_SKIP_WHY" ] || { t_skip "$1" "$T_SKIP_WHY"; return; }
	echo "PASS $SUITE/$1" | tee -a "$RESULTS"
}

t_fail() {
	local name=$1
	shift
	[ -z "$T_SKIP_WHY" ] || { t_skip "$name" "$T_SKIP_WHY"; return; }
	echo "FAIL $SUITE/$name: $*" | tee -a "$RESULTS"
}

# t_skip NAME WHY: a test this kernel cannot run, reported as a "SKIP" line
# that counts neither as passed nor as failed (test/qemu/run lists them).
t_skip() {
	echo "SKIP $SUITE/$1 ($2)" | tee -a "$RESULTS"
}

# The expiry interface of the running kernel (mfd api): "mountfd" on the
# 6.1 series, "setattr" (mount_setattr and statmount) on the 6.12 one.
mount_api() {
	"$BUILDDIR/test/qemu/progs/mfd" api /
}

# mountfd_only: on a kernel without mountfd(2) (the 6.12 series) the tests
# that follow, up to any_kernel, report SKIP whatever their outcome: they
# drive operations only the 6.1 series has (mfd fails them with ENOSYS and
# never calls syscall 451 there, cachestat on 6.12).
T_SKIP_WHY=
mountfd_only() {
	T_SKIP_WHY=
	[ "$(mount_api)" = mountfd ] || T_SKIP_WHY="6.12: no mountfd, see mountfd(2)"
}

any_kernel() {
	T_SKIP_WHY=
}

# t_ok NAME CMD...: passes when CMD exits 0; a failure shows CMD's output.
t_ok() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_pass "$name"
	else
		t_fail "$name" "'$*' failed: $(echo "$out" | tail -3 | tr '\n' ' ')"
	fi
}

# t_eq NAME EXPECTED ACTUAL
t_eq() {
	if [ "$2" = "$3" ]; then
		t_pass "$1"
	else
		t_fail "$1" "expected '$2', got '$3'"
	fi
}

# nfs_server_start EXPORT...: the in-guest knfsd exports each EXPORT (a path
# such as /export/home) to $NFS_CLIENTS, rw and no_root_squash, over NFSv3 and
# v4.x, with a 10 s grace period instead of the default 90 s.
#
# knfsd's NFSv4 pseudo root is "/", which must be exportable, and the guest's
# root is 9p, which is not.  So the server runs in a mount namespace of its
# own whose root is the guest's /srv tmpfs: the server's /export is the
# guest's /srv/export, and tests write server-side files under $NFS_ROOT.
NFS_ROOT=/srv
# Who may mount the exports: the guest itself, or the site's network
# (test/qemu/suites/siteserver.sh sets it before the first export).
NFS_CLIENTS=${NFS_CLIENTS:-127.0.0.1}

nfs_server_boot() {
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	rpcbind -w 2>/dev/null || rpcbind
	rpc.statd --no-notify 2>/dev/null
	echo 10 > /proc/fs/nfsd/nfsv4leasetime
	echo 10 > /proc/fs/nfsd/nfsv4gracetime
	mkdir -p /var/lib/nfs && touch /var/lib/nfs/etab
	unshare -m --propagation private bash -c '
		set -e
		cd '"$NFS_ROOT"'
		for d in usr etc var run proc sys dev tmp; do
			mkdir -p $d && mount --rbind /$d $d
		done
		for l in bin sbin lib lib64; do [ -e $l ] || ln -s usr/$l $l; done
		mkdir -p .oldroot && pivot_root . .oldroot && umount -l /.oldroot && rmdir /.oldroot
		exportfs -o ro,no_subtree_check,insecure,fsid=0 '"$NFS_CLIENTS"':/
		rpc.mountd
		rpc.nfsd 4
	'
}

# Idempotent: a second call (another suite in the same boot) adds exports.
# Each export is bind-mounted onto itself in the server's namespace: knfsd
# gives an export that is no mount point of its own the flags of the export
# above it, and the pseudo root "/" is exported ro (NFSv4 clients got EROFS).
nfs_server_start() {
	local e fsid pid
	pidof rpc.mountd >/dev/null || nfs_server_boot || return 1
	pid=$(pidof -s rpc.mountd)
	for e in "$@"; do
		fsid=$(printf %s "$e" | cksum | cut -d' ' -f1)
		mkdir -p "$NFS_ROOT$e"
		nsenter -m -t "$pid" sh -c 'mountpoint -q "$1" || mount --bind "$1" "$1"' sh "$e" ||
			return 1
		nsenter -m -t "$pid" exportfs -o \
			"rw,no_root_squash,no_subtree_check,insecure,fsid=$((fsid % 2147483647 + 1))" \
			"$NFS_CLIENTS:$e" || return 1
	done
}

# mnt_fstype PATH: the type of the topmost mount on PATH, if any.  It reads
# mountinfo: a stat of PATH would be a use, and would trigger an automount.
mnt_fstype() {
	awk -v p="$1" '$5 == p { for (i = 6; i <= NF; i++) if ($i == "-") t = $(i + 1) }
		END { print t }' /proc/self/mountinfo
}

# mnt_gone_within PATH SECONDS: true once PATH has no mount of its own,
# checked every second for SECONDS.
mnt_gone_within() {
	local i
	for i in $(seq "$2"); do
		[ -z "$(mnt_fstype "$1")" ] && return 0
		sleep 1
	done
	[ -z "$(mnt_fstype "$1")" ]
}
