# Sourced by every guest suite.  A test reports exactly one line to
# /run/results/results.txt, "PASS suite/name" or "FAIL suite/name: why",
# and echoes it to the console for the human reading the log.
RESULTS=/run/results/results.txt

t_pass() {
	echo "PASS $SUITE/$1" | tee -a "$RESULTS"
}

t_fail() {
	local name=$1
	shift
	echo "FAIL $SUITE/$name: $*" | tee -a "$RESULTS"
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

# nfs_server_start DIR...: the in-guest knfsd exports each DIR to 127.0.0.1
# (rw, no_root_squash), NFSv3 and v4.x, with a 10 s grace period so a test
# does not wait the default 90 s.
nfs_server_start() {
	local d i=1
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	rpcbind -w 2>/dev/null || rpcbind
	rpc.statd --no-notify 2>/dev/null
	for d in "$@"; do
		exportfs -o "rw,no_root_squash,no_subtree_check,insecure,fsid=$i" "127.0.0.1:$d"
		i=$((i + 1))
	done
	rpc.mountd
	echo 10 > /proc/fs/nfsd/nfsv4leasetime
	echo 10 > /proc/fs/nfsd/nfsv4gracetime
	rpc.nfsd 4
}
