// SPDX-License-Identifier: GPL-2.0
/*
 * kfuzz: random sequences of the series' calls, from several processes at
 * once, for the fuzz suite on the debug kernel (issue 38).
 *
 *   kfuzz DIR SECONDS NPROC SEED AUTODIR TRAPDIR
 *
 * DIR is a directory the suite made (a shared tmpfs); the workers make
 * DIR/d0 .. DIR/d7 and mount, bind, move, detach, unmount and expire
 * there, walk and change trees through mountfd(2) (6.1; also of pipes and
 * mountfds, which it must refuse) or
 * mount_setattr(2) and statmount(2) (6.12), make propagation shared,
 * slave and private, unshare and re-enter mount namespaces, pivot_root in
 * a child, and look keys up in the autofsng mount AUTODIR and names in the
 * trapfs mount TRAPDIR, killing some of the lookups while they wait.
 * Worker i is root (i % 3 == 0), uid 1000 (1), or root of a user
 * namespace uid 1000 made (2).  Every call may fail: the suite judges the
 * kernel (no splat, no hung task, no mount leaked), not the calls.
 *
 * Prints "ops=N sequences=S" at the end: the calls made and how many
 * distinct sequences of three operations ran.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "mountfd_user.h"

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE		1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH	0x00000004
#endif
#define NDIRS	8
#define NOPS	12
#define SEQS	(NOPS * NOPS * NOPS)

struct shared {
	unsigned long ops;
	unsigned char seen[SEQS];
};

static const char *dir, *autodir, *trapdir;
static struct shared *sh;
static int orig_ns = -1;
static enum mount_api api;

/* A path in DIR: dK, dK/a or dK/b. */
static void pick(char *buf, size_t len)
{
	static const char *const sub[] = { "", "/a", "/b" };

	snprintf(buf, len, "%s/d%d%s", dir, rand() % NDIRS, sub[rand() % 3]);
}

static void op_mount(void)
{
	char p[4096];

	pick(p, sizeof(p));
	if (!mount("fz", p, "tmpfs", 0, "size=64k")) {
		snprintf(p + strlen(p), sizeof(p) - strlen(p), "/a");
		mkdir(p, 0755);
	}
}

static void op_bind(void)
{
	char s[4096], d[4096];

	pick(s, sizeof(s));
	pick(d, sizeof(d));
	mount(s, d, NULL, MS_BIND | (rand() % 2 ? MS_REC : 0), NULL);
}

static void op_umount(void)
{
	static const int flags[] = { 0, MNT_DETACH, MNT_EXPIRE, MNT_FORCE };
	char p[4096];

	pick(p, sizeof(p));
	umount2(p, flags[rand() % 4]);
}

static void op_propagation(void)
{
	static const unsigned long how[] = {
		MS_SHARED, MS_SLAVE, MS_PRIVATE, MS_UNBINDABLE,
	};
	char p[4096];

	pick(p, sizeof(p));
	mount(NULL, p, NULL, how[rand() % 4] | (rand() % 2 ? MS_REC : 0), NULL);
}

/* open_tree(OPEN_TREE_CLONE), then move_mount() it somewhere or drop it. */
static void op_clone_move(void)
{
	char s[4096], d[4096];
	int fd;

	pick(s, sizeof(s));
	pick(d, sizeof(d));
	fd = syscall(SYS_open_tree, AT_FDCWD, s, OPEN_TREE_CLONE |
		     (rand() % 2 ? AT_RECURSIVE : 0));
	if (fd < 0)
		return;
	if (rand() % 2)
		syscall(SYS_move_mount, fd, "", AT_FDCWD, d,
			MOVE_MOUNT_F_EMPTY_PATH);
	close(fd);
}

static void op_expire(void)
{
	static const uint32_t policy[] = {
		MOUNTFD_EXPIRE_NONE, MOUNTFD_EXPIRE_MOUNT, MOUNTFD_EXPIRE_SUBTREE,
		MOUNTFD_EXPIRE_MOUNT | MOUNTFD_EXPIRE_STRICT,
	};
	static const uint32_t timeout[] = { 0, 1, 2, 3, 100, UINT32_MAX };
	struct mountfd_expire me;
	char p[4096];

	pick(p, sizeof(p));
	if (rand() % 3)
		expiry_set(p, policy[rand() % 4], timeout[rand() % 6]);
	else
		expiry_get(p, &me);
}

/*
 * A mountfd of the mount P lies on; or, one time in four, mountfd(2) of an
 * fd on a kernel-internal mount (a pipe's end, a mountfd), which fails.
 */
static int fuzz_mountfd(const char *p)
{
	int fds[2], fd, mfd;

	if (rand() % 4)
		return mountfd_at(p);
	if (rand() % 2) {
		fd = mountfd_at(p);
		return fd < 0 ? -1 : close_keep_errno(fd, mountfd(fd, MOUNTFD_CLOEXEC));
	}
	if (pipe(fds))
		return -1;
	mfd = mountfd(fds[rand() % 2], MOUNTFD_CLOEXEC);
	close(fds[0]);
	close(fds[1]);
	return mfd;
}

/* Walk, detach, attach through a mountfd (6.1 only). */
static void op_mountfd(void)
{
	char p[4096], d[4096];
	int mfd, c, i, dfd;

	pick(p, sizeof(p));
	if (api != MOUNT_API_MOUNTFD)
		return;
	mfd = fuzz_mountfd(p);
	if (mfd < 0)
		return;
	c = ioctl(mfd, MOUNTFD_IOC_GETFIRSTCHILD);
	for (i = 0; c >= 0 && i < 4; i++) {
		dfd = ioctl(c, MOUNTFD_IOC_GETDIRFD);
		if (dfd >= 0)
			close(dfd);
		close_keep_errno(c, 0);
		c = ioctl(mfd, MOUNTFD_IOC_GETNEXTCHILD);
	}
	if (c >= 0)
		close(c);
	if (rand() % 2 && !ioctl(mfd, MOUNTFD_IOC_DETACH) && rand() % 2) {
		pick(d, sizeof(d));
		dfd = open(d, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			mountfd_attach(mfd, dfd);
			close(dfd);
		}
	}
	close(mfd);
}

/*
 * A lookup in the autofsng or trapfs mount, by a child that is killed
 * after 0 to 40 ms: a waiter may go at any point of the request.
 */
static void op_lookup(void)
{
	char p[4096];
	pid_t pid;
	struct stat st;

	snprintf(p, sizeof(p), "%s/k%d", rand() % 2 ? autodir : trapdir,
		 rand() % 16);
	pid = fork();
	if (pid == 0) {
		stat(p, &st);
		_exit(0);
	}
	if (pid < 0)
		return;
	usleep(rand() % 40000);
	if (rand() % 2)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void op_unshare(void)
{
	if (rand() % 2 || orig_ns < 0)
		unshare(CLONE_NEWNS);
	else
		setns(orig_ns, CLONE_NEWNS);
}

/* pivot_root into a tmpfs of DIR, in a child with a namespace of its own. */
static void op_pivot(void)
{
	char p[4096], old[4200];
	pid_t pid = fork();

	if (pid) {
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return;
	}
	snprintf(p, sizeof(p), "%s/d%d", dir, rand() % NDIRS);
	snprintf(old, sizeof(old), "%s/old", p);
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("pv", p, "tmpfs", 0, "size=64k"))
		_exit(0);
	mkdir(old, 0755);
	if (!syscall(SYS_pivot_root, p, old))
		umount2("/old", rand() % 2 ? MNT_DETACH : 0);
	_exit(0);
}

/* mount_setattr(2) of random flags (6.12: the expiry policy too). */
static void op_setattr(void)
{
	struct am_mount_attr attr = {
		.attr_set = rand() % 2 ? 0x8 /* MOUNT_ATTR_NOEXEC */ : 0,
		.attr_clr = rand() % 2 ? 0x8 : 0,
	};
	char p[4096];

	pick(p, sizeof(p));
	if (api == MOUNT_API_SETATTR && rand() % 2) {
		attr.attr_set |= AM_MOUNT_ATTR_EXPIRE;
		attr.expire_policy = rand() % 3;
		attr.expire_timeout = rand() % 4;
	}
	syscall(__NR_mount_setattr, AT_FDCWD, p,
		rand() % 4 ? 0 : AT_RECURSIVE, &attr, sizeof(attr));
}

static void (*const ops[NOPS])(void) = {
	op_mount, op_bind, op_umount, op_propagation, op_clone_move,
	op_expire, op_mountfd, op_lookup, op_unshare, op_pivot, op_setattr,
	op_mount,
};

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return rc;
}

/* Root of a user namespace that uid 1000 made, with a mount ns of its own. */
static int become_userns_root(void)
{
	if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000) ||
	    unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return -1;
	return write_file("/proc/self/setgroups", "deny") ||
	       write_file("/proc/self/uid_map", "0 1000 1") ||
	       write_file("/proc/self/gid_map", "0 1000 1");
}

static int become(int who)
{
	if (who == 1)
		return setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000);
	if (who == 2)
		return become_userns_root();
	return 0;
}

static void worker(int i, long secs, unsigned int seed)
{
	time_t end = time(NULL) + secs;
	unsigned int a = 0, b = 0, c;
	unsigned long n = 0;

	srand(seed + i);
	orig_ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (become(i % 3))
		_exit(1);
	while (time(NULL) < end) {
		c = rand() % NOPS;
		ops[c]();
		sh->seen[(a * NOPS + b) * NOPS + c] = 1;
		a = b;
		b = c;
		n++;
	}
	__atomic_add_fetch(&sh->ops, n, __ATOMIC_RELAXED);
	_exit(0);
}

int main(int argc, char **argv)
{
	long secs, i, nproc, seqs = 0;
	char p[4096];

	if (argc != 7) {
		fprintf(stderr, "usage: kfuzz DIR SECONDS NPROC SEED AUTODIR TRAPDIR\n");
		return 2;
	}
	dir = argv[1];
	secs = atol(argv[2]);
	nproc = atol(argv[3]);
	autodir = argv[5];
	trapdir = argv[6];
	api = mount_api();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	for (i = 0; i < NDIRS; i++) {
		snprintf(p, sizeof(p), "%s/d%ld", dir, i);
		mkdir(p, 0777);
	}
	for (i = 0; i < nproc; i++)
		if (fork() == 0)
			worker(i, secs, (unsigned int)atol(argv[4]));
	while (wait(NULL) > 0)
		;
	for (i = 0; i < SEQS; i++)
		seqs += sh->seen[i];
	printf("ops=%lu sequences=%ld\n", sh->ops, seqs);
	return 0;
}
