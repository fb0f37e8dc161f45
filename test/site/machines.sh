# shellcheck shell=bash
# test/site/machines.sh -- the site's two machines and the link between
# them, for test/site/run.
#
# The server is the lab guest (test/qemu/run siteserver) with a NIC on the
# site link and its export disk; the client is QEMU booting client.img
# with the kernel package's vmlinuz, systemd as PID 1.  The site link is
# a UDP socket pair on the host's loopback: either end can stop or reboot
# without the other noticing, as on a switched network.  On the client
# the socket reaches its NIC through an emulated hub, so that cutting the
# socket (the monitor's set_link) drops packets as a dead switch would
# while the NIC keeps its carrier (and networkd its address).  The runner reaches the client's sshd through
# QEMU's user network (a host port forwarded), never over the site link.
#
# Sets: RUN (this run's directory), SSH_PORT; reads SITE (image.sh's).

SERVER_MAC=52:54:00:36:00:01
CLIENT_MAC=52:54:00:36:00:02
RUNNER_MAC=52:54:00:36:01:02

# free_ports N: N loopback ports free for TCP and UDP now.
free_ports() {
	python3 - "$1" <<'PY'
import socket, sys
keep = []
for _ in range(int(sys.argv[1])):
    t = socket.socket(); t.bind(("127.0.0.1", 0)); port = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", port))
    keep += [t, u]; print(port)
PY
}

machines_init() {
	local p
	mkdir -p "$RUN"
	p=$(free_ports 3 | paste -sd' ')
	read -r SERVER_PORT CLIENT_PORT SSH_PORT <<< "$p"
	cp --sparse=always "$SITE/server.img" "$RUN/server.img"
	qemu-img create -q -f qcow2 -b "$SITE/client.img" -F raw "$RUN/client.qcow2"
	SERVER_BOOTS=0
}

# site_nic LOCAL-PORT REMOTE-PORT MAC: the QEMU arguments of a NIC on the
# site link, behind a hub (see above).
site_nic() {
	echo "-netdev socket,id=site,udp=127.0.0.1:$2,localaddr=127.0.0.1:$1" \
		"-netdev hubport,id=site-hub,hubid=0,netdev=site" \
		"-netdev hubport,id=site-nic,hubid=0" \
		"-device virtio-net-pci,netdev=site-nic,mac=$3"
}

# server_start: boot the server; returns once it serves (up to 300 s).
server_start() {
	SERVER_BOOTS=$((SERVER_BOOTS + 1))
	SERVER_OUT=$RUN/server-$SERVER_BOOTS
	mkdir -p "$SERVER_OUT"
	QEMU_OUTDIR=$SERVER_OUT SUITE_TIMEOUT=7200 QEMU_TIMEOUT=7500 \
		QEMU_EXTRA="$(site_nic "$SERVER_PORT" "$CLIENT_PORT" $SERVER_MAC) \
		-drive file=$RUN/server.img,format=raw,if=virtio" \
		setsid "$TOP/test/qemu/run" siteserver > "$SERVER_OUT.log" 2>&1 &
	SERVER_PID=$!
	wait_until 300 server_ready
}

# the server serves, or its run has ended (then this fails for good)
server_ready() {
	test -e "$SERVER_OUT/ready" && return 0
	kill -0 "$SERVER_PID" 2>/dev/null || exit_wait
}

# server_stop: an orderly power-off (the guest syncs its disk first).
server_stop() {
	touch "$SERVER_OUT/stop"
	wait "$SERVER_PID"
}

# server_sh CMD: run CMD on the server (its suite polls for it), print
# what it printed.  The exported trees are under /srv/export there.
server_sh() {
	rm -f "$SERVER_OUT/cmd.out"
	printf '%s\n' "$*" > "$SERVER_OUT/cmd.tmp"
	mv "$SERVER_OUT/cmd.tmp" "$SERVER_OUT/cmd"
	wait_until 60 test -e "$SERVER_OUT/cmd.out" && cat "$SERVER_OUT/cmd.out"
}

client_start() {
	# shellcheck disable=SC2046 # site_nic prints arguments
	qemu-system-x86_64 -machine pc -accel tcg -cpu max -smp 2 -m 2048 \
		-nodefaults -display none \
		-kernel "$SITE/vmlinuz" -append "root=/dev/vda rw console=ttyS0 panic=-1" \
		-drive "file=$RUN/client.qcow2,format=qcow2,if=virtio" \
		$(site_nic "$CLIENT_PORT" "$SERVER_PORT" $CLIENT_MAC) \
		-netdev "user,id=runner,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:$SSH_PORT-:22" \
		-device "virtio-net-pci,netdev=runner,mac=$RUNNER_MAC" \
		-serial "file:$RUN/client-console.log" \
		-monitor "unix:$RUN/client.mon,server=on,wait=off" &
	CLIENT_PID=$!
	wait_until 600 client_up
}

# sshd answers and systemd has finished booting (the units ordered after
# remote-fs.target, Debian's autofs among them, have started)
client_up() {
	kill -0 "$CLIENT_PID" 2>/dev/null || exit_wait
	c_ssh systemctl is-system-running --wait | grep -qx 'running\|degraded'
}

client_stop() {
	c_ssh systemctl poweroff
	wait_until 300 sh -c "! kill -0 $CLIENT_PID 2>/dev/null"
}

# link off|on: cut or restore the site link at the client's NIC.
link() {
	python3 - "$RUN/client.mon" "set_link site $1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode()); time.sleep(0.5); s.close()
PY
}

SSH_OPTS=(-q -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
	-o ConnectTimeout=10 -o LogLevel=ERROR)

# No command of the runner's waits longer than this on the client: a
# scenario that hangs fails, and the run goes on.
SSH_LIMIT=600

# c_ssh CMD: CMD as root on the client.
c_ssh() {
	timeout -k 5 $SSH_LIMIT ssh "${SSH_OPTS[@]}" -o BatchMode=yes -i "$SITE/ssh/id" -p "$SSH_PORT" root@127.0.0.1 "$@"
}

# user_ssh USER PASSWORD CMD: a password login, as a user makes one.
user_ssh() {
	local u=$1 pw=$2
	shift 2
	timeout -k 5 $SSH_LIMIT sshpass -p "$pw" ssh "${SSH_OPTS[@]}" -o PubkeyAuthentication=no -p "$SSH_PORT" "$u@127.0.0.1" "$@"
}

# wait_until SECS CMD...: poll CMD every half second; CMD may end the wait
# early with exit_wait (status 2), when what it waits for cannot come.
wait_until() {
	local end=$((SECONDS + $1)) rc
	shift
	while true; do
		("$@") >/dev/null 2>&1
		rc=$?
		[ $rc -eq 0 ] && return 0
		[ $rc -eq 2 ] && return 1
		[ $SECONDS -lt $end ] || return 1
		sleep 0.5
	done
}
exit_wait() { exit 2; }

# Both machines go, whatever state the run left them in: the client's
# QEMU, and the server's session (test/qemu/run, its timeout and QEMU).
machines_cleanup() {
	[ -n "${CLIENT_PID:-}" ] && kill "$CLIENT_PID" 2>/dev/null
	[ -n "${SERVER_PID:-}" ] && pkill -s "$SERVER_PID" 2>/dev/null
	wait 2>/dev/null
}

# console_mark: where the client's console log ends now.
console_mark() { stat -c %s "$RUN/client-console.log"; }

# console_since MARK PATTERN...: each PATTERN (an ERE) is on the console
# after MARK, in this order.
console_since() {
	local mark=$1
	shift
	tail -c +"$((mark + 1))" "$RUN/client-console.log" | tr -d '\r' |
		awk -v pats="$(printf '%s\n' "$@")" '
			BEGIN { n = split(pats, p, "\n"); i = 1 }
			i <= n && $0 ~ p[i] { i++ }
			END { exit i <= n }'
}

# client_reboot: an orderly reboot; returns once the new boot is up.
client_reboot() {
	local mark
	mark=$(console_mark)
	c_ssh systemctl reboot
	wait_until 900 console_since "$mark" 'Linux version' ' login: ' &&
		wait_until 300 client_up
}
