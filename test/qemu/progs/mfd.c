// SPDX-License-Identifier: GPL-2.0
/*
 * mfd: drive mountfd(2) from the QEMU suites, one operation per call.
 * Errors are printed as their errno name on stdout ("EINVAL") with exit
 * status 1, so a suite compares what a user would see.
 *
 * The expiry operations (setexpire, getexpire, expire-time, mass...) work on
 * both series, through mountfd(2) on 6.1 and mount_setattr(2)/statmount(2)
 * on 6.12, chosen at run time (mountfd_user.h); "mfd api /" says which.
 * The others exist only on 6.1 and fail with ENOSYS on 6.12.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/landlock.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "mountfd_user.h"

static int fail(void)
{
	const char *name = strerrorname_np(errno);

	printf("%s\n", name ? name : "E?");
	return 1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint32_t policy_of(const char *s)
{
	if (!strcmp(s, "none"))
		return MOUNTFD_EXPIRE_NONE;
	if (!strcmp(s, "mount"))
		return MOUNTFD_EXPIRE_MOUNT;
	if (!strcmp(s, "subtree"))
		return MOUNTFD_EXPIRE_SUBTREE;
	return (uint32_t)strtoul(s, NULL, 0);
}

/* Counts mounts whose mount point is PATH or, with prefix, below it. */
static int count_mounts(const char *path, int prefix)
{
	char line[4096], mp[4096];
	size_t len = strlen(path);
	int n = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		if (prefix ? !strncmp(mp, path, len) && mp[len] == '/' :
			     !strcmp(mp, path))
			n++;
	}
	fclose(f);
	return n;
}

/* Waits until nothing is mounted on PATH (or below it); returns ms or -1. */
static long wait_gone(const char *path, int prefix, long timeout_ms)
{
	long start = now_ms();

	while (count_mounts(path, prefix) > 0) {
		if (now_ms() - start > timeout_ms)
			return -1;
		usleep(20000);
	}
	return now_ms() - start;
}

static unsigned long read_sysctl(const char *name)
{
	char path[256];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%lu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int cmd_setexpire(int argc, char **argv)
{
	if (expiry_set(argv[2], policy_of(argv[3]),
		       argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 0))
		return fail();
	return 0;
}

/*
 * 6.12: mount_setattr(2) of SECONDS as a caller would that took
 * expire_timeout for a 64-bit field: the high half lands past the 40 bytes
 * of struct mount_attr, in a 48-byte argument.
 */
static int setattr_expire64(const char *path, unsigned long long secs)
{
	struct {
		struct am_mount_attr attr;
		__u32 high, pad;
	} wide;

	memset(&wide, 0, sizeof(wide));
	wide.attr.attr_set = AM_MOUNT_ATTR_EXPIRE;
	wide.attr.expire_policy = MOUNTFD_EXPIRE_MOUNT;
	wide.attr.expire_timeout = (uint32_t)secs;
	wide.high = (uint32_t)(secs >> 32);
	if (syscall(__NR_mount_setattr, AT_FDCWD, path, 0, &wide, sizeof(wide)))
		return fail();
	printf("ok\n");
	return 0;
}

/*
 * SETEXPIRE of SECONDS as a caller would that took me_timeout for a 64-bit
 * field: the low half lands in me_timeout, the high half in me_remaining.
 */
static int cmd_setexpire64(char **argv)
{
	unsigned long long secs = strtoull(argv[3], NULL, 10);
	struct mountfd_expire me;
	int mfd;

	if (mount_api() == MOUNT_API_SETATTR)
		return setattr_expire64(argv[2], secs);
	mfd = mountfd_at(argv[2]);
	if (mfd < 0)
		return fail();
	memset(&me, 0, sizeof(me));
	me.me_size = sizeof(me);
	me.me_policy = MOUNTFD_EXPIRE_MOUNT;
	me.me_timeout = (uint32_t)secs;
	me.me_remaining = (uint32_t)(secs >> 32);
	if (ioctl(mfd, MOUNTFD_IOC_SETEXPIRE, &me))
		return fail();
	printf("ok\n");
	return 0;
}

static int cmd_getexpire(char **argv)
{
	struct mountfd_expire me;

	if (expiry_get(argv[2], &me))
		return fail();
	printf("%u %u %u\n", me.me_policy, me.me_timeout, me.me_remaining);
	return 0;
}

static int cmd_simple(char **argv, unsigned long cmd)
{
	int mfd = mountfd_at(argv[2]);

	if (mfd < 0 || ioctl(mfd, cmd) < 0)
		return fail();
	close(mfd);
	return 0;
}

static const struct {
	const char *name;
	unsigned long cmd;
} strings[] = {
	{ "fstype", MOUNTFD_IOC_GETFSTYPE },
	{ "source", MOUNTFD_IOC_GETSOURCE },
	{ "vfsopts", MOUNTFD_IOC_GETVFSOPTIONS },
	{ "fsopts", MOUNTFD_IOC_GETFSOPTIONS },
};

static int cmd_info(char **argv)
{
	struct mountfd_dev md;
	char buf[4096];
	size_t i;
	int mfd = mountfd_at(argv[2]);

	if (mfd < 0)
		return fail();
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		if (mountfd_get_string(mfd, strings[i].cmd, buf, sizeof(buf), NULL))
			return fail();
		printf("%s=%s\n", strings[i].name, buf);
	}
	if (ioctl(mfd, MOUNTFD_IOC_GETDEV, &md))
		return fail();
	printf("dev=%u:%u\n", md.md_major, md.md_minor);
	return 0;
}

/* GETFSTYPE into a 1-byte buffer: ERANGE, the size needed, buffer intact. */
static int cmd_erange(char **argv)
{
	char buf[2] = "x";
	uint32_t needed = 0;
	int mfd = mountfd_at(argv[2]);

	if (mfd < 0)
		return fail();
	if (!mountfd_get_string(mfd, MOUNTFD_IOC_GETFSTYPE, buf, 1, &needed)) {
		printf("no error\n");
		return 1;
	}
	printf("%s needed=%u intact=%d\n", strerrorname_np(errno), needed,
	       buf[0] == 'x');
	return 0;
}

/* /proc, opened before a chroot that hides it */
static int procfd = AT_FDCWD;

static void print_fd_path(int fd)
{
	char link[64], target[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "%sself/fd/%d",
		 procfd == AT_FDCWD ? "/proc/" : "", fd);
	n = readlinkat(procfd, link, target, sizeof(target) - 1);
	target[n < 0 ? 0 : n] = '\0';
	printf("%s\n", target);
}

/* Prints the root of every mount the walk reaches, depth first. */
static int walk(int mfd)
{
	int child, next, dfd;

	child = ioctl(mfd, MOUNTFD_IOC_GETFIRSTCHILD);
	while (child >= 0) {
		dfd = ioctl(child, MOUNTFD_IOC_GETDIRFD);
		if (dfd < 0)
			return fail();
		print_fd_path(dfd);
		close(dfd);
		if (walk(child))
			return 1;
		next = ioctl(child, MOUNTFD_IOC_GETNEXTCHILD);
		close(child);
		child = next;
	}
	if (errno != ENOENT)
		return fail();
	return 0;
}

static int cmd_children(char **argv)
{
	int mfd = mountfd_at(argv[2]);

	if (mfd < 0)
		return fail();
	return walk(mfd);
}

static int cmd_getdirfd(char **argv)
{
	int mfd = mountfd_at(argv[2]), dfd;

	if (mfd < 0)
		return fail();
	dfd = ioctl(mfd, MOUNTFD_IOC_GETDIRFD);
	if (dfd < 0)
		return fail();
	print_fd_path(dfd);
	return 0;
}

static int cmd_nexttop(char **argv)
{
	int mfd = mountfd_at(argv[2]);

	if (mfd < 0 || ioctl(mfd, MOUNTFD_IOC_GETNEXTCHILD) < 0)
		return fail();
	printf("got a sibling\n");
	return 1;
}

/* DETACH PATH, show it is gone, ATTACH it onto TARGET. */
static int cmd_move(char **argv)
{
	int mfd = mountfd_at(argv[2]), tfd;

	if (mfd < 0 || ioctl(mfd, MOUNTFD_IOC_DETACH) < 0)
		return fail();
	printf("detached=%d\n", count_mounts(argv[2], 0) == 0);
	tfd = open(argv[3], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0 || mountfd_attach(mfd, tfd))
		return fail();
	close(tfd);
	close(mfd);
	printf("attached=%d\n", count_mounts(argv[3], 0) == 1);
	return 0;
}

/* DETACH, then ATTACH onto SUBDIR of the detached tree itself. */
static int cmd_attach_self(char **argv)
{
	int mfd = mountfd_at(argv[2]), dfd, tfd, rc;

	if (mfd < 0 || ioctl(mfd, MOUNTFD_IOC_DETACH) < 0)
		return fail();
	dfd = ioctl(mfd, MOUNTFD_IOC_GETDIRFD);
	if (dfd < 0)
		return fail();
	tfd = openat(dfd, argv[3], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return fail();
	rc = mountfd_attach(mfd, tfd);
	printf("%s\n", rc ? strerrorname_np(errno) : "attached");
	close(tfd);
	close(dfd);
	/* put it back where it was */
	tfd = open(argv[2], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0 || mountfd_attach(mfd, tfd))
		return fail();
	return 0;
}

/* Create FLAG, then wait until someone removes it. */
static void flag_and_wait(const char *flag)
{
	close(open(flag, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	while (access(flag, F_OK) == 0)
		usleep(20000);
}

/*
 * "setexpire-held PATH FLAG": hold the mount PATH lies on (a mountfd; on
 * 6.12 an O_PATH fd), create FLAG, wait until it is gone, then ask for a
 * 1-second policy on what is held: the mount may have been unmounted
 * meanwhile.
 */
static int cmd_setexpire_held(char **argv)
{
	int fd = open(argv[2], O_PATH | O_CLOEXEC), mfd = -1, rc;
	char path[64];

	if (fd < 0 || (mount_api() != MOUNT_API_SETATTR &&
		       (mfd = mountfd_at(argv[2])) < 0))
		return fail();
	flag_and_wait(argv[3]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (mfd < 0)
		rc = setattr_expire(path, MOUNTFD_EXPIRE_MOUNT, 1, 0);
	else
		rc = mountfd_set_expire(mfd, MOUNTFD_EXPIRE_MOUNT, 1);
	if (rc)
		return fail();
	printf("ok\n");
	return 0;
}


/*
 * "move-held PATH FLAG TARGET": an O_PATH fd on PATH; once FLAG is gone,
 * move_mount(2) of what it holds onto TARGET (a tree someone detached
 * meanwhile, for one).
 */
static int cmd_move_held(char **argv)
{
	int fd = open(argv[2], O_PATH | O_CLOEXEC);

	if (fd < 0)
		return fail();
	flag_and_wait(argv[3]);
	if (syscall(SYS_move_mount, fd, "", AT_FDCWD, argv[4],
		    MOVE_MOUNT_F_EMPTY_PATH))
		return fail();
	printf("ok\n");
	return 0;
}

/*
 * "detach-close PATH" and "detach-wait PATH FLAG": DETACH the mount PATH
 * lies on, hold the detached tree while FLAG exists, then close: the tree
 * is dissolved, files in it keep working.
 */
static int cmd_detach_close(char **argv, const char *flag)
{
	int mfd = mountfd_at(argv[2]);

	if (mfd < 0 || ioctl(mfd, MOUNTFD_IOC_DETACH) < 0)
		return fail();
	if (flag)
		flag_and_wait(flag);
	close(mfd);
	return 0;
}

/* fsmount()'s detached tree, ATTACHed through a mountfd onto TARGET. */
static int cmd_fsmount_attach(char **argv)
{
	int fsfd, mntfd, mfd, tfd;

	fsfd = syscall(SYS_fsopen, "tmpfs", 0);
	if (fsfd < 0 || syscall(SYS_fsconfig, fsfd, 6 /* FSCONFIG_CMD_CREATE */,
				NULL, NULL, 0))
		return fail();
	mntfd = syscall(SYS_fsmount, fsfd, 0, 0);
	if (mntfd < 0)
		return fail();
	mfd = mountfd(mntfd, 0);
	tfd = open(argv[2], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0 || tfd < 0 || mountfd_attach(mfd, tfd))
		return fail();
	close(mfd);
	close(mntfd);
	close(fsfd);
	printf("attached=%d\n", count_mounts(argv[2], 0) == 1);
	return 0;
}

static int cmd_errors(char **argv)
{
	int fd, mfd;

	printf("badfd=%s\n", mountfd(12345, 0) < 0 ? strerrorname_np(errno) : "ok");
	printf("badflags=%s\n", mountfd(AT_FDCWD, 1) < 0 ? strerrorname_np(errno) : "ok");
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	printf("notmountfd=%s\n", ioctl(fd, MOUNTFD_IOC_GETDIRFD) < 0 ?
	       strerrorname_np(errno) : "ok");
	mfd = mountfd(fd, 0);
	printf("badioctl=%s\n", ioctl(mfd, _IO(MOUNTFD_IOC_MAGIC, 0x7f)) < 0 ?
	       strerrorname_np(errno) : "ok");
	{
		struct mountfd_expire me = { .me_size = 3 };

		printf("badsize=%s\n", ioctl(mfd, MOUNTFD_IOC_GETEXPIRE, &me) < 0 ?
		       strerrorname_np(errno) : "ok");
	}
	return 0;
}

/* SETEXPIRE mount SECS on PATH, then ms until it is gone. */
static int cmd_expire_time(char **argv)
{
	long ms, timeout = atol(argv[4]);

	if (expiry_set(argv[2], MOUNTFD_EXPIRE_MOUNT, atoi(argv[3])))
		return fail();
	ms = wait_gone(argv[2], 0, timeout);
	if (ms < 0) {
		printf("timeout\n");
		return 1;
	}
	printf("%ld\n", ms);
	return 0;
}

static int cmd_wait_gone(char **argv)
{
	long ms = wait_gone(argv[2], 0, atol(argv[3]));

	if (ms < 0) {
		printf("timeout\n");
		return 1;
	}
	printf("%ld\n", ms);
	return 0;
}

/* N tmpfs mounts DIR/mI with EXPIRE SECS; holds them busy HOLD seconds. */
static int cmd_mass(char **argv)
{
	const char *dir = argv[2];
	int n = atoi(argv[3]), secs = atoi(argv[4]), hold = atoi(argv[5]);
	unsigned long runs0, runs1, cost = 0, cost_max = 0;
	char path[4096];
	int i, *fds;
	long start, ms;
	struct rlimit rl = { .rlim_cur = n + 64, .rlim_max = n + 64 };

	if (hold && setrlimit(RLIMIT_NOFILE, &rl))
		return fail();
	fds = calloc(n, sizeof(*fds));
	if (!fds)
		return fail();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/m%d", dir, i);
		if ((mkdir(path, 0755) && errno != EEXIST) ||
		    mount("mass", path, "tmpfs", 0, "size=64k"))
			return fail();
		/*
		 * A reference that keeps the mount busy (6.1: a mountfd, whose
		 * close is no use), taken before the policy: a tick between
		 * the two would rightly expire an idle 1-tick mount.
		 */
		fds[i] = !hold ? -1 : mount_api() == MOUNT_API_MOUNTFD ?
			 mountfd_at(path) : open(path, O_PATH | O_CLOEXEC);
		if (hold && fds[i] < 0)
			return fail();
		if (expiry_set(path, MOUNTFD_EXPIRE_MOUNT, secs))
			return fail();
	}
	start = now_ms();
	if (hold) {
		/* every fd keeps its mount busy: each tick checks all */
		runs0 = read_sysctl("mount_expire_runs");
		while (now_ms() - start < hold * 1000L) {
			sleep(1);
			cost = read_sysctl("mount_expire_last_ns");
			if (cost > cost_max)
				cost_max = cost;
		}
		runs1 = read_sysctl("mount_expire_runs");
		printf("busy=%d ticks=%lu last_tick_ns=%lu max_tick_ns=%lu still=%d\n",
		       n, runs1 - runs0, cost, cost_max, count_mounts(dir, 1));
		for (i = 0; i < n; i++)
			close(fds[i]);
		start = now_ms();
	}
	free(fds);
	ms = wait_gone(dir, 1, secs * 1000L + 60000);
	printf("gone_ms=%ld last_tick_ns=%lu\n", ms, read_sysctl("mount_expire_last_ns"));
	return ms < 0;
}

/*
 * N bind mounts of DIR stacked on DIR, each EXPIRE with the longest
 * timeout (a chain of nested expiry trees that never expires), then HOLD
 * seconds while the tick runs: prints "ready" once built, then the longest
 * tick and namespace_sem hold seen.  Run by uid 1000 in its own user
 * namespace, it is what issue 38 measured as the tick's n^2.
 */
static int cmd_chain(char **argv)
{
	const char *dir = argv[2];
	int n = atoi(argv[3]), hold = atoi(argv[4]), i;
	unsigned long tick = 0, held = 0, v;
	long start;

	for (i = 0; i < n; i++)
		if (mount(dir, dir, NULL, MS_BIND, NULL) ||
		    expiry_set(dir, MOUNTFD_EXPIRE_MOUNT, UINT32_MAX))
			return fail();
	printf("ready\n");
	fflush(stdout);
	start = now_ms();
	while (now_ms() - start < hold * 1000L) {
		usleep(250000);
		v = read_sysctl("mount_expire_last_ns");
		tick = v > tick ? v : tick;
		v = read_sysctl("mount_expire_hold_ns");
		held = v > held ? v : held;
	}
	printf("chain=%d max_tick_ns=%lu max_hold_ns=%lu\n", n, tick, held);
	return 0;
}

/* The longest tick and namespace_sem hold seen in HOLD seconds of ticks. */
static void watch_ticks(int hold, unsigned long *tick, unsigned long *held)
{
	long start = now_ms();
	unsigned long v;

	*tick = *held = 0;
	while (now_ms() - start < hold * 1000L) {
		usleep(250000);
		v = read_sysctl("mount_expire_last_ns");
		*tick = v > *tick ? v : *tick;
		v = read_sysctl("mount_expire_hold_ns");
		*held = v > *held ? v : *held;
	}
}

/* A tmpfs on PATH, made first if need be. */
static int mount_tmpfs(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	return mount("t", path, "tmpfs", 0, "size=64k");
}

/*
 * "bigtree DIR N HOLD": a tmpfs on DIR, EXPIRE after 1 second, with N tmpfs
 * mounts DIR/sI on it, each SUBTREEEXPIRE: one expiry tree of N + 1 mounts,
 * idle.  HOLD seconds later prints whether it went and the longest tick
 * and namespace_sem hold seen.
 */
static int cmd_bigtree(char **argv)
{
	int n = atoi(argv[3]), i;
	unsigned long tick, held;
	char path[4096];

	if (mount_tmpfs(argv[2]) || expiry_set(argv[2], MOUNTFD_EXPIRE_MOUNT, 1))
		return fail();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/s%d", argv[2], i);
		if (mount_tmpfs(path) ||
		    expiry_set(path, MOUNTFD_EXPIRE_SUBTREE, 0))
			return fail();
	}
	watch_ticks(atoi(argv[4]), &tick, &held);
	printf("tree=%d gone=%d max_tick_ns=%lu max_hold_ns=%lu\n", n + 1,
	       count_mounts(argv[2], 0) == 0, tick, held);
	return 0;
}

/*
 * "copies DIR N HOLD": on a tmpfs at DIR, a shared tmpfs DIR/a with N peers
 * DIR/b/pI (binds of it on a private tmpfs), then a tmpfs on DIR/a/x, EXPIRE after 1 second,
 * which propagation copies into every peer.  HOLD seconds later prints
 * whether it went and the longest tick and hold seen.
 */
static int cmd_copies(char **argv)
{
	int n = atoi(argv[3]), i;
	unsigned long tick, held;
	char a[4096], path[4200];

	snprintf(a, sizeof(a), "%s/a", argv[2]);
	snprintf(path, sizeof(path), "%s/b", argv[2]);
	if (mount_tmpfs(argv[2]) || mount_tmpfs(a) ||
	    mount(NULL, a, NULL, MS_SHARED, NULL) || mount_tmpfs(path))
		return fail();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/b/p%d", argv[2], i);
		if ((mkdir(path, 0755) && errno != EEXIST) ||
		    mount(a, path, NULL, MS_BIND, NULL))
			return fail();
	}
	snprintf(path, sizeof(path), "%s/x", a);
	if (mount_tmpfs(path) || expiry_set(path, MOUNTFD_EXPIRE_MOUNT, 1))
		return fail();
	watch_ticks(atoi(argv[4]), &tick, &held);
	printf("copies=%d gone=%d max_tick_ns=%lu max_hold_ns=%lu\n", n + 1,
	       count_mounts(path, 0) == 0, tick, held);
	return 0;
}

/*
 * COUNT times a tmpfs mounted on DIR and unmounted, 50 ms apart: prints
 * the slowest pair in ms, what any writer of the mount tree waits.
 */
static int cmd_mountlat(char **argv)
{
	int count = atoi(argv[3]), i;
	long t, worst = 0;

	for (i = 0; i < count; i++) {
		t = now_ms();
		if (mount("lat", argv[2], "tmpfs", 0, "size=64k") ||
		    umount(argv[2]))
			return fail();
		t = now_ms() - t;
		worst = t > worst ? t : worst;
		usleep(50000);
	}
	printf("worst_ms=%ld\n", worst);
	return 0;
}

/*
 * DEPTH directories "a" down from DFD, then N tmpfs mounts on sI there,
 * each reached through /proc/self/fd: no path of PATH_MAX bytes names them.
 */
static int hide_deep(int dfd, int n, int depth)
{
	char path[64];
	int i, sub;

	for (i = 0; i < depth; i++) {
		if ((mkdirat(dfd, "a", 0755) && errno != EEXIST) ||
		    (sub = openat(dfd, "a", O_PATH | O_DIRECTORY)) < 0)
			return -1;
		close(dfd);
		dfd = sub;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d/s%d", dfd, i);
		if (mkdir(path, 0755) || mount("h", path, "tmpfs", 0, "size=64k"))
			return -1;
	}
	close(dfd);
	return 0;
}

/*
 * "hidewalk DIR N DEPTH SECS": on a tmpfs at DIR, N tmpfs mounts DEPTH
 * directories down, then a chroot into DIR/r, which reaches none of them;
 * then SECS seconds of GETFIRSTCHILD on a mountfd of DIR opened before,
 * each passing over all N, asking of each whether the new root reaches it.
 * Prints "ready" once built, then the walks done, the slowest, and how many
 * gave up with EAGAIN.  Run by uid 1000 in its own user namespace: what
 * one walk may hold namespace_sem for (issue 38).
 */
static int cmd_hidewalk(char **argv)
{
	int n = atoi(argv[3]), depth = atoi(argv[4]), secs = atoi(argv[5]);
	int mfd, c, err = 0, walks = 0, again = 0;
	long start, t, worst = 0;
	char r[4096];

	snprintf(r, sizeof(r), "%s/r", argv[2]);
	if (mount_tmpfs(argv[2]) || mkdir(r, 0755) ||
	    hide_deep(open(argv[2], O_PATH | O_DIRECTORY), n, depth))
		return fail();
	mfd = mountfd_at(argv[2]);
	if (mfd < 0 || chroot(r) || chdir("/"))
		return fail();
	printf("ready\n");
	fflush(stdout);
	for (start = now_ms(); !err && now_ms() - start < secs * 1000L; walks++) {
		t = now_ms();
		c = ioctl(mfd, MOUNTFD_IOC_GETFIRSTCHILD);
		err = c >= 0 ? EEXIST : errno;
		t = now_ms() - t;
		worst = t > worst ? t : worst;
		again += err == EAGAIN;
		if (err == EAGAIN || err == ENOENT)
			err = 0;
	}
	if (err == EEXIST)
		printf("walk returned a mount the chroot hides\n");
	else if (err)
		printf("%s\n", strerrorname_np(err));
	printf("hidden=%d walks=%d worst_walk_ms=%ld eagain=%d\n", n, walks,
	       worst, again);
	/* LeakSanitizer's exit reads /proc, which the chroot hides */
	fflush(stdout);
	_exit(err ? 1 : 0);
}

/* N tmpfs mounts DIR/mI with EXPIRE SECS, left mounted and idle. */
static int cmd_mass_keep(char **argv)
{
	int n = atoi(argv[3]), secs = atoi(argv[4]), i;
	char path[4096];

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/m%d", argv[2], i);
		if ((mkdir(path, 0755) && errno != EEXIST) ||
		    mount("mass", path, "tmpfs", 0, "size=64k"))
			return fail();
		if (expiry_set(path, MOUNTFD_EXPIRE_MOUNT, secs))
			return fail();
	}
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * stat(PATH) in a loop on CPU for SECS seconds: the latency of each call
 * (p50, p99, max in ns, how many took over 2 ms), and the expiry ticks that
 * ran meanwhile with the cost of the cheapest and the median one (the
 * dearest is mostly the host preempting the guest's CPU).
 */
static int cmd_walklat(char **argv)
{
	long secs = atol(argv[3]), *lat, n = 0, cap = 1 << 22, start, t0, i;
	unsigned long runs0, runs, seen, tick[256];
	struct timespec a, b;
	struct stat st;
	cpu_set_t set;
	int nt = 0;

	CPU_ZERO(&set);
	CPU_SET(atoi(argv[4]), &set);
	lat = malloc(cap * sizeof(*lat));
	if (!lat || sched_setaffinity(0, sizeof(set), &set))
		return fail();
	runs0 = seen = read_sysctl("mount_expire_runs");
	start = t0 = now_ms();
	while (n < cap && now_ms() - start < secs * 1000) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (stat(argv[2], &st))
			return fail();
		clock_gettime(CLOCK_MONOTONIC, &b);
		lat[n++] = (b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec;
		if (now_ms() - t0 < 50)
			continue;
		t0 = now_ms();
		runs = read_sysctl("mount_expire_runs");
		if (runs != seen && nt < 256)	/* a tick ran: its cost */
			tick[nt++] = read_sysctl("mount_expire_last_ns");
		seen = runs;
	}
	qsort(lat, n, sizeof(*lat), cmp_long);
	qsort(tick, nt, sizeof(*tick), cmp_long);
	for (i = n; i > 0 && lat[i - 1] > 2000000; i--)
		;
	printf("n=%ld p50_ns=%ld p99_ns=%ld max_ns=%ld over_2ms=%ld ticks=%lu tick_min_ns=%lu tick_med_ns=%lu\n",
	       n, lat[n / 2], lat[n * 99 / 100], lat[n - 1], n - i,
	       read_sysctl("mount_expire_runs") - runs0, nt ? tick[0] : 0, nt ? tick[nt / 2] : 0);
	free(lat);
	return 0;
}

/* umount2(MNT_EXPIRE) twice: EAGAIN first (marks it), then it goes. */
static int cmd_umount_expire(char **argv)
{
	int rc1 = umount2(argv[2], MNT_EXPIRE), e1 = errno;
	int rc2 = umount2(argv[2], MNT_EXPIRE), e2 = errno;

	printf("%s %s\n", rc1 ? strerrorname_np(e1) : "ok",
	       rc2 ? strerrorname_np(e2) : "ok");
	return 0;
}

/* A mountfd made here, used from a new mount namespace. */
static int cmd_otherns(char **argv)
{
	int mfd = mountfd_at(argv[2]), rc;

	if (mfd < 0 || unshare(CLONE_NEWNS))
		return fail();
	rc = ioctl(mfd, MOUNTFD_IOC_UNMOUNT);
	printf("unmount=%s", rc ? strerrorname_np(errno) : "ok");
	rc = mountfd_set_expire(mfd, MOUNTFD_EXPIRE_MOUNT, 100);
	printf(" setexpire=%s", rc ? strerrorname_np(errno) : "ok");
	rc = ioctl(mfd, MOUNTFD_IOC_DETACH);
	printf(" detach=%s\n", rc ? strerrorname_np(errno) : "ok");
	return 0;
}

/* chroot(ROOT), then walk from the mount "/" lies on. */
static int cmd_chroot_walk(char **argv)
{
	int mfd, dfd;

	procfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0 || chroot(argv[2]) || chdir("/"))
		return fail();
	mfd = mountfd_at("/");
	if (mfd < 0)
		return fail();
	dfd = ioctl(mfd, MOUNTFD_IOC_GETDIRFD);
	if (dfd < 0)
		return fail();
	printf("dirfd=");
	print_fd_path(dfd);
	return walk(mfd);
}

/* ATTACH the mount PATH lies on onto TARGET (a move for a mounted one). */
static int cmd_attach(char **argv)
{
	int mfd = mountfd_at(argv[2]), tfd;

	tfd = open(argv[3], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0 || tfd < 0 || mountfd_attach(mfd, tfd))
		return fail();
	return 0;
}

/*
 * Confines the process to a Landlock domain, as a sandboxed application
 * is: the domain handles one access right it never grants, and Landlock
 * then refuses every change of the mount tree (umount, move_mount ...).
 */
static int landlock_self(void)
{
	struct landlock_ruleset_attr ra = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_FIFO,
	};
	int fd = syscall(SYS_landlock_create_ruleset, &ra, sizeof(ra), 0);

	if (fd < 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_landlock_restrict_self, fd, 0)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * GETEXPIRE with me_size SIZE in a buffer 8 bytes larger than the struct,
 * whose first byte past it is TAIL: "ok" or the errno name (6.1).
 */
static int cmd_expire_size(char **argv)
{
	struct {
		struct mountfd_expire me;
		unsigned char tail[8];
	} b;
	int mfd = mountfd_at(argv[2]);

	memset(&b, 0, sizeof(b));
	b.me.me_size = atoi(argv[3]);
	b.tail[0] = atoi(argv[4]);
	if (mfd < 0 || ioctl(mfd, MOUNTFD_IOC_GETEXPIRE, &b) < 0)
		return fail();
	printf("ok\n");
	return 0;
}

/* umount2(PATH, 0), what umount(8) does. */
static int cmd_umount(char **argv)
{
	if (umount2(argv[2], 0))
		return fail();
	return 0;
}

/* The expiry interface of the running kernel: mountfd, setattr or none. */
static int cmd_api(void)
{
	static const char *const names[] = {
		[MOUNT_API_NONE] = "none",
		[MOUNT_API_MOUNTFD] = "mountfd",
		[MOUNT_API_SETATTR] = "setattr",
	};

	printf("%s\n", names[mount_api()]);
	return 0;
}

#define EXPIRE AM_MOUNT_ATTR_EXPIRE
/*
 * 6.12: mount_setattr(2) calls that must be refused, but for rdonly: the
 * bit in attr_clr, with AT_RECURSIVE, the fields without the bit, STRICT
 * with NONE, an unknown policy, MOUNT with timeout 0, a path below the
 * mount's root (notroot); with MOUNT_ATTR_RDONLY, a valid policy (rdonly)
 * and one refused, which leaves the mount writable too.
 */
static const struct {
	const char *name;
	__u64 set, clr;
	__u32 policy, timeout;
	unsigned int flags;
} setattr_cases[] = {
	{ "clr", 0, EXPIRE, MOUNTFD_EXPIRE_MOUNT, 60, 0 },
	{ "recursive", EXPIRE, 0, MOUNTFD_EXPIRE_MOUNT, 60, AT_RECURSIVE },
	{ "nobit", 0, 0, MOUNTFD_EXPIRE_MOUNT, 60, 0 },
	{ "strict-none", EXPIRE, 0, MOUNTFD_EXPIRE_NONE | MOUNTFD_EXPIRE_STRICT, 60, 0 },
	{ "badpolicy", EXPIRE, 0, 7, 60, 0 },
	{ "zero", EXPIRE, 0, MOUNTFD_EXPIRE_MOUNT, 0, 0 },
	{ "notroot", EXPIRE, 0, MOUNTFD_EXPIRE_MOUNT, 60, 0 },
	{ "rdonly", EXPIRE | MOUNT_ATTR_RDONLY, 0, MOUNTFD_EXPIRE_MOUNT, 60, 0 },
	{ "rdonly-badpolicy", EXPIRE | MOUNT_ATTR_RDONLY, 0, 7, 60, 0 },
};

/* mount_setattr(2) of case CASE on PATH; prints "ok" or the errno name. */
static int cmd_setattr_case(char **argv)
{
	struct am_mount_attr attr;
	size_t i;

	for (i = 0; i < sizeof(setattr_cases) / sizeof(setattr_cases[0]); i++)
		if (!strcmp(argv[3], setattr_cases[i].name))
			break;
	if (i == sizeof(setattr_cases) / sizeof(setattr_cases[0])) {
		fprintf(stderr, "mfd: setattr-case: unknown case %s\n", argv[3]);
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.attr_set = setattr_cases[i].set;
	attr.attr_clr = setattr_cases[i].clr;
	attr.expire_policy = setattr_cases[i].policy;
	attr.expire_timeout = setattr_cases[i].timeout;
	if (syscall(__NR_mount_setattr, AT_FDCWD, argv[2], setattr_cases[i].flags,
		    &attr, AM_MOUNT_ATTR_SIZE_EXPIRE))
		return fail();
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	if (argc < 3) {
		fprintf(stderr, "usage: mfd OP PATH [ARGS]\n");
		return 2;
	}
	/* "landlocked OP ..." does OP in a Landlock sandbox */
	if (!strcmp(c, "landlocked") && argc > 3) {
		if (landlock_self())
			return fail();
		argv++;
		argc--;
		c = argv[1];
	}
	if (!strcmp(c, "api"))
		return cmd_api();
	if (!strcmp(c, "umount"))
		return cmd_umount(argv);
	if (!strcmp(c, "expire-size") && argc > 4)
		return cmd_expire_size(argv);
	if (!strcmp(c, "setattr-case") && argc > 3)
		return cmd_setattr_case(argv);
	if (!strcmp(c, "setexpire"))
		return cmd_setexpire(argc, argv);
	if (!strcmp(c, "bigtree") && argc > 4)
		return cmd_bigtree(argv);
	if (!strcmp(c, "copies") && argc > 4)
		return cmd_copies(argv);
	if (!strcmp(c, "detach-wait") && argc > 3)
		return cmd_detach_close(argv, argv[3]);
	if (!strcmp(c, "move-held") && argc > 4)
		return cmd_move_held(argv);
	if (!strcmp(c, "setexpire-held") && argc > 3)
		return cmd_setexpire_held(argv);
	if (!strcmp(c, "setexpire64") && argc > 3)
		return cmd_setexpire64(argv);
	if (!strcmp(c, "getexpire"))
		return cmd_getexpire(argv);
	if (!strcmp(c, "unmount"))
		return cmd_simple(argv, MOUNTFD_IOC_UNMOUNT);
	if (!strcmp(c, "forceunmount"))
		return cmd_simple(argv, MOUNTFD_IOC_FORCEDUNMOUNT);
	if (!strcmp(c, "detach-close"))
		return cmd_detach_close(argv, NULL);
	if (!strcmp(c, "info"))
		return cmd_info(argv);
	if (!strcmp(c, "erange"))
		return cmd_erange(argv);
	if (!strcmp(c, "children"))
		return cmd_children(argv);
	if (!strcmp(c, "getdirfd"))
		return cmd_getdirfd(argv);
	if (!strcmp(c, "nexttop"))
		return cmd_nexttop(argv);
	if (!strcmp(c, "move") && argc > 3)
		return cmd_move(argv);
	if (!strcmp(c, "attach-self") && argc > 3)
		return cmd_attach_self(argv);
	if (!strcmp(c, "fsmount-attach"))
		return cmd_fsmount_attach(argv);
	if (!strcmp(c, "errors"))
		return cmd_errors(argv);
	if (!strcmp(c, "expire-time") && argc > 4)
		return cmd_expire_time(argv);
	if (!strcmp(c, "wait-gone") && argc > 3)
		return cmd_wait_gone(argv);
	if (!strcmp(c, "attach") && argc > 3)
		return cmd_attach(argv);
	if (!strcmp(c, "umount-expire"))
		return cmd_umount_expire(argv);
	if (!strcmp(c, "otherns"))
		return cmd_otherns(argv);
	if (!strcmp(c, "chroot-walk"))
		return cmd_chroot_walk(argv);
	if (!strcmp(c, "mass") && argc > 5)
		return cmd_mass(argv);
	if (!strcmp(c, "mass-keep") && argc > 4)
		return cmd_mass_keep(argv);
	if (!strcmp(c, "walklat") && argc > 4)
		return cmd_walklat(argv);
	if (!strcmp(c, "chain") && argc > 4)
		return cmd_chain(argv);
	if (!strcmp(c, "hidewalk") && argc > 5)
		return cmd_hidewalk(argv);
	if (!strcmp(c, "mountlat") && argc > 3)
		return cmd_mountlat(argv);
	fprintf(stderr, "mfd: unknown operation or arguments: %s\n", c);
	return 2;
}
