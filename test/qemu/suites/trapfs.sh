# trapfs: the lookup-trap filesystem (issue 10).  Ramfs behaviour, the
# helper protocol, the two example helpers end to end, and the helper
# round-trip time for a miss.
. "$TOP/test/qemu/lib.sh"

PROGS=$TOP/test/qemu/progs
W=/tmp/trapfs-work
mkdir -p "$W" /mnt/tr /mnt/tt /mnt/th /mnt/auto /mnt/dev /mnt/rt

# mount(8) keeps "helper=" for itself (libmount's umount helper option)
# and never passes it to the kernel: these mounts go through mount(2);
# the automount example mounts with mount(8) and trap_helper=, as
# trapfs(5) tells an administrator to.
tmount() {
	python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.mount(sys.argv[1].encode(), sys.argv[2].encode(), b"trapfs", 0, sys.argv[3].encode()):
	e = ctypes.get_errno()
	sys.exit("mount %s: %s" % (sys.argv[2], os.strerror(e)))
' "$1" "$2" "${3:-}"
}

runs() { grep -cx "$1" "$W/runs" 2>/dev/null; }

# ---------------------------------------------------------------- ramfs
ramfs_tests() {
	local m=/mnt/tr
	t_ok plain-mount tmount plain $m
	t_eq plain-fstype trapfs "$(findmnt -no FSTYPE $m)"
	t_eq statfs-magic 74726170 "$(stat -f -c %t $m)"

	echo data > $m/f
	t_eq file-read data "$(cat $m/f)"
	echo more >> $m/f
	t_eq file-append "data more" "$(cat $m/f | tr '\n' ' ' | sed 's/ $//')"
	dd if=/dev/zero of=$m/big bs=64k count=16 2>/dev/null
	t_eq file-size 1048576 "$(stat -c %s $m/big)"
	truncate -s 100 $m/big
	t_eq file-truncate 100 "$(stat -c %s $m/big)"

	mkdir -p $m/d/e
	t_ok dir-mkdir test -d $m/d/e
	t_eq dir-nlink 3 "$(stat -c %h $m/d)"
	if rmdir $m/d 2>/dev/null; then t_fail rmdir-nonempty "removed a non-empty dir"; else t_pass rmdir-nonempty; fi
	t_ok dir-rmdir sh -c "rmdir $m/d/e $m/d && ! test -e $m/d"

	mknod $m/null c 1 3
	t_eq mknod-char "1:3" "$(stat -c '%t:%T' $m/null)"
	t_ok mknod-write sh -c "echo x > $m/null"
	mkfifo $m/fifo
	t_eq mknod-fifo "fifo" "$(stat -c %F $m/fifo)"

	ln -s f $m/l
	t_eq symlink-readlink f "$(readlink $m/l)"
	t_eq symlink-follow data "$(head -1 $m/l)"

	mv $m/f $m/g
	t_ok rename sh -c "! test -e $m/f && test \"\$(head -1 $m/g)\" = data"
	ln $m/g $m/h
	t_eq hardlink-nlink 2 "$(stat -c %h $m/g)"
	rm $m/g
	t_eq unlink-keeps-link data "$(head -1 $m/h)"
	rm $m/h
	t_ok unlink sh -c "! test -e $m/g && ! test -e $m/h"
	t_ok missing-enoent sh -c "! stat $m/nothing 2>/dev/null"
	t_ok plain-umount umount $m
}

# ------------------------------------------------------- mount options
option_tests() {
	local opt seen
	for opt in helper=relative/path helper=/nonexistent/helper helper=/etc/passwd \
		helper_timeout=0 negative_timeout=x bogus=1; do
		seen=$(dmesg | wc -l)
		if tmount bad /mnt/tr "$opt" 2>/dev/null; then
			umount /mnt/tr
			t_fail "option-${opt%%=*}-${opt#*=}" "mount -o $opt succeeded"
		elif dmesg | tail -n +$((seen + 1)) | grep -q "trapfs: .*${opt%%=*}"; then
			t_pass "option-rejected-$(echo "$opt" | tr -c 'a-z0-9_\n' -)"
		else
			t_fail "option-rejected-$(echo "$opt" | tr -c 'a-z0-9_\n' -)" "no log line naming ${opt%%=*}: $(dmesg | tail -2)"
		fi
	done
}

# ----------------------------------------------------- the test helper
write_helper() {
	cat > "$W/helper" <<'EOF'
#!/bin/sh
W=/tmp/trapfs-work
d=/proc/self/fd/$TRAPFS_DIRFD
n=$TRAPFS_NAME
echo "$TRAPFS_DIR/$n" >> $W/runs
{ env | grep -E '^(TRAPFS_[A-Z]*|HOME|PATH)=' | sort; readlink "$d"; } > "$W/env.$n"
case $n in
make-*) echo "$n" > "$d/$n" ;;
slow-*)
	i=0
	while [ ! -e $W/go ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	echo "$n" > "$d/$n" ;;
hang-*) sleep 1000 ;;
crash-*) kill -SEGV $$ ;;
other-*) echo other > "$d/x-$n" ;;
self-*)
	if [ -e "$d/$n" ]; then echo yes; else echo no; fi > "$W/self.$n"
	stat "$d/nothere-$n" > /dev/null 2>&1
	echo $? >> "$W/self.$n"
	echo "$n" > "$d/$n" ;;
mv-*) echo "$n" > "$d/t-$n" && mv "$d/t-$n" "$d/$n" ;;
dir-*) mkdir "$d/$n" && echo inside > "$d/$n/file" ;;
esac
exit 0
EOF
	chmod 755 "$W/helper"
}

helper_tests() {
	local m=/mnt/tt i
	t_ok helper-mount tmount trap $m "helper=$W/helper,negative_timeout=3,helper_timeout=60"
	t_ok helper-show-options sh -c "findmnt -no OPTIONS $m | grep -q 'helper=$W/helper,negative_timeout=3,helper_timeout=60'"

	t_eq helper-creates make-a "$(cat $m/make-a 2>&1)"
	t_eq helper-env "HOME=/
PATH=/sbin:/bin:/usr/sbin:/usr/bin
TRAPFS_DIR=.
TRAPFS_DIRFD=3
TRAPFS_NAME=make-a
$m" "$(cat $W/env.make-a)"
	cat $m/make-a > /dev/null
	t_eq helper-once-for-existing 1 "$(runs ./make-a)"

	mkdir $m/sub
	t_eq mkdir-no-trigger 0 "$(runs ./sub)"
	t_eq helper-in-subdir make-b "$(cat $m/sub/make-b 2>&1)"
	t_ok helper-env-subdir grep -qx TRAPFS_DIR=sub "$W/env.make-b"
	t_eq helper-env-subdir-path "$m/sub" "$(tail -1 $W/env.make-b)"
	t_ok helper-dir-then-walk test "$(cat $m/dir-a/file)" = inside

	: > $m/make-c
	mkdir $m/make-d
	mknod $m/make-e c 1 3
	ln -sT x $m/make-f
	ln -T $m/make-a $m/make-g
	echo y > $m/make-i
	t_eq create-no-trigger 0 "$(grep -c -e 'make-[cdefgi]' $W/runs)"

	# 64 lookups of one name: one run, and all 64 see the file
	rm -f $W/go $W/c.rc
	for i in $(seq 64); do
		(cat $m/slow-x > $W/c.$i 2>&1; echo $? >> $W/c.rc) &
	done
	for i in $(seq 400); do
		[ "$(pgrep -cx cat)" -ge 64 ] && break
		sleep 0.1
	done
	sleep 1
	touch $W/go
	wait
	t_eq concurrent-one-run 1 "$(runs ./slow-x)"
	t_eq concurrent-all-ok "64" "$(grep -cx 0 $W/c.rc)"
	t_eq concurrent-all-see "64" "$(cat $W/c.* | grep -cx slow-x)"

	# a miss is cached for negative_timeout (3 s), then asked again
	stat $m/miss-a > /dev/null 2>&1
	for i in 1 2 3 4 5; do stat $m/miss-a > /dev/null 2>&1; done
	t_eq negative-cached 1 "$(runs ./miss-a)"
	sleep 3.5
	t_ok negative-expired-enoent sh -c "! stat $m/miss-a 2>/dev/null"
	t_eq negative-expired-asks-again 2 "$(runs ./miss-a)"

	t_ok crash-enoent sh -c "! stat $m/crash-a 2>/dev/null"
	t_eq crash-one-run 1 "$(runs ./crash-a)"
	t_ok other-enoent sh -c "! stat $m/other-a 2>/dev/null"
	t_ok other-created test -e $m/x-other-a

	t_eq self-creates self-s "$(cat $m/self-s 2>&1)"
	t_eq self-lookup-results "no 1" "$(tr '\n' ' ' < $W/self.self-s | sed 's/ $//')"
	t_eq self-no-recursion 0 "$(runs ./nothere-self-s)"

	t_eq rename-over-trap mv-a "$(cat $m/mv-a 2>&1)"

	rm $m/make-a
	cat $m/make-a > /dev/null
	t_eq unlinked-asks-again 2 "$(runs ./make-a)"

	t_ok helper-umount umount $m
}

# ----------------------------------------------- hang, kill, time limit
hang_tests() {
	local m=/mnt/th t0 t1 pid
	t_ok hang-mount tmount hang $m "helper=$W/helper,helper_timeout=2"
	t0=$(date +%s%N)
	stat $m/hang-a > /dev/null 2>&1
	t1=$(date +%s%N)
	t_ok hang-enoent-within-limit test $(( (t1 - t0) / 1000000 )) -lt 3500 -a $(( (t1 - t0) / 1000000 )) -ge 1500
	sleep 0.5
	t_ok hang-helper-killed sh -c "! pgrep -f '^sleep 1000$'"

	stat $m/hang-b > /dev/null 2>&1 &
	pid=$!
	sleep 0.5
	t0=$(date +%s%N)
	kill -9 $pid
	wait $pid 2>/dev/null
	t1=$(date +%s%N)
	t_ok hang-waiter-killable test $(( (t1 - t0) / 1000000 )) -lt 500
	sleep 2.5
	t_ok hang-helper-killed-after-waiter sh -c "! pgrep -f '^sleep 1000$'"
	t_ok hang-umount umount $m
}

# ------------------------------------------------- the example helpers
automount_tests() {
	local m=/mnt/auto
	nfs_server_start /export/alice || t_fail automount-nfs-server "knfsd did not start"
	echo "alice's file" > "$NFS_ROOT/export/alice/hello"
	cat > /etc/trapfs-automount.map <<'EOF'
# key	fstype	source			options
scratch	tmpfs	tmpfs			size=8m,mode=0700
*	nfs	127.0.0.1:/export/&	vers=4.2
EOF
	t_ok automount-mount mount -t trapfs -o "trap_helper=$PROGS/trapfs-automount" auto $m
	t_eq automount-tmpfs tmpfs "$(stat -f -c %T $m/scratch)"
	t_eq automount-tmpfs-mode 700 "$(stat -c %a $m/scratch)"
	t_eq automount-nfs "alice's file" "$(cat $m/alice/hello 2>&1)"
	t_eq automount-nfs-fstype nfs4 "$(findmnt -no FSTYPE $m/alice)"
	t_ok automount-unknown-enoent sh -c "! ls $m/bob 2>/dev/null && ! test -e $m/bob"
	umount $m/alice $m/scratch
	t_ok automount-umount umount $m
}

devfs_tests() {
	local m=/mnt/dev d
	t_ok devfs-mount tmount devfs $m "helper=$PROGS/trapfs-devfs"
	t_eq devfs-empty "" "$(ls -A $m)"
	for d in null zero tty; do
		t_eq "devfs-$d" "$(stat -c '%F %t:%T' /dev/$d)" "$(stat -c '%F %t:%T' $m/$d 2>&1)"
	done
	t_ok devfs-write-null sh -c "echo x > $m/null"
	t_eq devfs-read-zero 4 "$(head -c 4 $m/zero | wc -c)"
	t_ok devfs-unknown-enoent sh -c "! stat $m/no-such-device 2>/dev/null"
	t_eq devfs-lists-used "null tty zero" "$(ls $m | tr '\n' ' ' | sed 's/ $//')"
	# a node in a subdirectory, when this kernel has one (net/tun, input/...)
	d=$(grep -h '^DEVNAME=.*/' /sys/dev/char/*/uevent | sed 's/^DEVNAME=//' | head -n 1)
	if [ -n "$d" ]; then
		t_eq devfs-subdir "$(stat -c '%F %t:%T' "/dev/$d")" "$(stat -c '%F %t:%T' "$m/$d" 2>&1)"
	fi
	t_ok devfs-umount umount $m
}

# ------------------------------------------- round trip for a miss, ms
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

roundtrip() {
	local helper=$1 tag=$2 m=/mnt/rt i t0 t1 med
	tmount rt $m "helper=$helper,negative_timeout=0" || { t_fail "roundtrip-$tag" "mount failed"; return; }
	for i in $(seq 21); do
		t0=$EPOCHREALTIME
		[ -e $m/miss-$i ]
		t1=$EPOCHREALTIME
		echo "$t0 $t1" | awk '{ printf "%.3f\n", ($2 - $1) * 1000 }'
	done > "$W/rt.$tag"
	med=$(median < "$W/rt.$tag")
	umount $m
	echo "MEASURE trapfs/roundtrip-$tag: helper round trip for a miss, median of 21: $med ms ($helper, $FLAVOR kernel)" | tee -a "$RESULTS"
	t_ok "roundtrip-$tag" awk -v v="$med" 'BEGIN { exit !(v > 0 && v < 5000) }'
}

roundtrip_tests() {
	printf '#!/bin/sh\nexit 0\n' > "$W/miss.sh"
	chmod 755 "$W/miss.sh"
	roundtrip /bin/true true
	roundtrip "$W/miss.sh" sh
	# for contrast: a cached miss never leaves the kernel
	tmount rt /mnt/rt "helper=/bin/true,negative_timeout=60"
	[ -e /mnt/rt/x ]
	local t0=$EPOCHREALTIME
	[ -e /mnt/rt/x ]
	local t1=$EPOCHREALTIME
	umount /mnt/rt
	echo "MEASURE trapfs/cached-miss: $(echo "$t0 $t1" | awk '{ printf "%.3f", ($2 - $1) * 1000 }') ms" | tee -a "$RESULTS"
}

write_helper
ramfs_tests
option_tests
helper_tests
hang_tests
devfs_tests
automount_tests
roundtrip_tests
