# smoke: the guest runs our kernel and the pieces every other suite needs work.
. "$TOP/test/qemu/lib.sh"

case "$(uname -r)" in
*-autofsng*) t_pass uname ;;
*) t_fail uname "uname -r is '$(uname -r)', not the patched kernel" ;;
esac

t_eq root-is-9p 9p "$(findmnt -no FSTYPE /)"
if touch /usr/.smoke 2>/dev/null && [ "$(findmnt -no FSTYPE /usr)" != overlay ]; then
	t_fail root-read-only "could write to the host root"
else
	t_pass root-read-only
fi
t_ok tmpfs-writable sh -c 'echo x > /tmp/smoke && [ "$(cat /tmp/smoke)" = x ]'
t_ok loopback-up sh -c 'ip -o addr show lo | grep -q "inet 127.0.0.1"'

nfs_server_start /export
t_ok rpcbind-answers rpcinfo -p 127.0.0.1
echo "written on the server side" > "$NFS_ROOT/export/hello"

for v in 3 4.2; do
	mkdir -p "/mnt/v$v"
	if mount -t nfs -o "vers=$v" 127.0.0.1:/export "/mnt/v$v"; then
		t_eq "nfs-v$v-read" "written on the server side" "$(cat "/mnt/v$v/hello")"
		t_eq "nfs-v$v-version" "$v" "$(findmnt -no OPTIONS "/mnt/v$v" | tr , '\n' | sed -n 's/^vers=//p')"
		umount "/mnt/v$v"
	else
		t_fail "nfs-v$v-mount" "mount -t nfs -o vers=$v 127.0.0.1:/export failed"
	fi
done
