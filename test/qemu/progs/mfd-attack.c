// SPDX-License-Identifier: GPL-2.0
/*
 * mfd-attack: what an unprivileged user tries with mountfd(2), for the
 * security suite.  Each operation prints what the user got: a file's
 * contents, or the errno name of what refused it.
 *
 *   mfd-attack steal PATH FILE      read FILE in the root of the mount of
 *                                   PATH and of every mount the walk below
 *                                   it returns
 *   mfd-attack sendfd PATH CMD...   (root) pass a mountfd of PATH over a
 *                                   unix socket, as fd 3, to CMD
 *   mfd-attack recvfd steal FILE    take that fd and do as steal does,
 *                                   beginning with the mount itself
 *   mfd-attack recvfd info          GETFSTYPE on that fd
 *   mfd-attack nsioctls PATH        every nsfs ioctl on a mountfd of PATH
 *   mfd-attack onnsfs NSFILE        every mountfd ioctl on an nsfs file
 *   mfd-attack walkloop PATH SECS NPROC   NPROC processes walk the mounts
 *                                   below PATH in a loop for SECS seconds
 *   mfd-attack fdkinds PATH         mountfd() on fds that are no directory
 *                                   of a mounted tree: a pipe, a socket,
 *                                   an eventfd, a memfd, an nsfs file, a
 *                                   mountfd (of PATH)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/nsfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include "mountfd_user.h"

static const char *errname(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "E?";
}

/* Prints FILE in the directory DFD when the caller can read it. */
static void read_in(int dfd, const char *file)
{
	char buf[256];
	ssize_t n;
	int fd;

	fd = openat(dfd, file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = '\0';
		printf("%s", buf);
	}
}

/* The root of the mount MFD through GETDIRFD, then FILE in it. */
static void steal_one(int mfd, const char *file)
{
	int dfd = ioctl(mfd, MOUNTFD_IOC_GETDIRFD);

	if (dfd < 0) {
		printf("GETDIRFD=%s\n", errname(errno));
		return;
	}
	read_in(dfd, file);
	close(dfd);
}

/* Depth first through every mount the walk below MFD returns. */
static void steal_below(int mfd, const char *file)
{
	int child, next;

	child = ioctl(mfd, MOUNTFD_IOC_GETFIRSTCHILD);
	while (child >= 0) {
		steal_one(child, file);
		steal_below(child, file);
		next = ioctl(child, MOUNTFD_IOC_GETNEXTCHILD);
		close(child);
		child = next;
	}
	if (errno != ENOENT)
		printf("walk=%s\n", errname(errno));
}

static int open_mfd(const char *path)
{
	int dfd, mfd, err;

	dfd = open(path, O_PATH | O_CLOEXEC);
	if (dfd < 0) {
		printf("open=%s\n", errname(errno));
		return -1;
	}
	mfd = mountfd(dfd, MOUNTFD_CLOEXEC);
	err = errno;
	close(dfd);
	if (mfd < 0)
		printf("mountfd=%s\n", errname(err));
	return mfd;
}

static int cmd_steal(char **argv)
{
	int mfd = open_mfd(argv[2]);

	if (mfd < 0)
		return 0;
	steal_one(mfd, argv[3]);
	steal_below(mfd, argv[3]);
	close(mfd);
	return 0;
}

/* One byte of data and room for one fd: the message both ends use. */
struct fd_msg {
	char data;
	struct iovec iov;
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr msg;
};

static void fd_msg_init(struct fd_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->data = 'm';
	m->iov.iov_base = &m->data;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->u.buf;
	m->msg.msg_controllen = sizeof(m->u.buf);
}

static int send_fd(int sock, int fd)
{
	struct fd_msg m;
	struct cmsghdr *c;

	fd_msg_init(&m);
	c = CMSG_FIRSTHDR(&m.msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m.msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	struct fd_msg m;
	struct cmsghdr *c;
	int fd;

	fd_msg_init(&m);
	if (recvmsg(sock, &m.msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&m.msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* Runs CMD with one end of a socket pair as fd 3 and sends it the mountfd. */
static int cmd_sendfd(char **argv)
{
	int sv[2], mfd, status;
	pid_t pid;

	mfd = open_mfd(argv[2]);
	if (mfd < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (dup2(sv[1], 3) < 0)
			_exit(127);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	close(sv[1]);
	if (send_fd(sv[0], mfd))
		perror("mfd-attack: sendmsg");
	close(mfd);
	close(sv[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

static int cmd_recvfd(int argc, char **argv)
{
	char buf[64];
	int mfd = recv_fd(3);

	if (mfd < 0) {
		printf("recv=%s\n", errname(errno));
		return 1;
	}
	if (!strcmp(argv[2], "steal") && argc > 3) {
		steal_one(mfd, argv[3]);
		steal_below(mfd, argv[3]);
	} else if (!strcmp(argv[2], "info")) {
		if (mountfd_get_string(mfd, MOUNTFD_IOC_GETFSTYPE, buf, sizeof(buf), NULL))
			printf("GETFSTYPE=%s\n", errname(errno));
		else
			printf("GETFSTYPE=%s\n", buf);
	} else {
		fprintf(stderr, "mfd-attack: recvfd steal FILE | recvfd info\n");
		return 2;
	}
	return 0;
}

static void show(const char *name, int rc)
{
	printf("%s=%s\n", name, rc < 0 ? errname(errno) : "ok");
}

static int cmd_nsioctls(char **argv)
{
	uid_t uid;
	int mfd = open_mfd(argv[2]);

	if (mfd < 0)
		return 1;
	show("NS_GET_USERNS", ioctl(mfd, NS_GET_USERNS));
	show("NS_GET_PARENT", ioctl(mfd, NS_GET_PARENT));
	show("NS_GET_NSTYPE", ioctl(mfd, NS_GET_NSTYPE));
	show("NS_GET_OWNER_UID", ioctl(mfd, NS_GET_OWNER_UID, &uid));
	return 0;
}

/* Every mountfd ioctl, with a well-formed argument, on an nsfs file. */
static int cmd_onnsfs(char **argv)
{
	struct mountfd_expire me = { .me_size = sizeof(me) };
	struct mountfd_attach ma = { .ma_dirfd = AT_FDCWD };
	struct mountfd_dev md;
	char buf[64];
	struct mountfd_buf mb = { .mb_buf = (uintptr_t)buf, .mb_len = sizeof(buf) };
	int fd = open(argv[2], O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("open=%s\n", errname(errno));
		return 1;
	}
	show("GETDIRFD", ioctl(fd, MOUNTFD_IOC_GETDIRFD));
	show("UNMOUNT", ioctl(fd, MOUNTFD_IOC_UNMOUNT));
	show("DETACH", ioctl(fd, MOUNTFD_IOC_DETACH));
	show("FORCEDUNMOUNT", ioctl(fd, MOUNTFD_IOC_FORCEDUNMOUNT));
	show("ATTACH", ioctl(fd, MOUNTFD_IOC_ATTACH, &ma));
	show("GETFIRSTCHILD", ioctl(fd, MOUNTFD_IOC_GETFIRSTCHILD));
	show("GETNEXTCHILD", ioctl(fd, MOUNTFD_IOC_GETNEXTCHILD));
	show("GETDEV", ioctl(fd, MOUNTFD_IOC_GETDEV, &md));
	show("GETFSTYPE", ioctl(fd, MOUNTFD_IOC_GETFSTYPE, &mb));
	show("GETSOURCE", ioctl(fd, MOUNTFD_IOC_GETSOURCE, &mb));
	show("GETVFSOPTIONS", ioctl(fd, MOUNTFD_IOC_GETVFSOPTIONS, &mb));
	show("GETFSOPTIONS", ioctl(fd, MOUNTFD_IOC_GETFSOPTIONS, &mb));
	show("GETEXPIRE", ioctl(fd, MOUNTFD_IOC_GETEXPIRE, &me));
	show("SETEXPIRE", ioctl(fd, MOUNTFD_IOC_SETEXPIRE, &me));
	close(fd);
	return 0;
}

/* Depth first through the walk below MFD, opening nothing; counts mounts. */
static long walk_below(int mfd)
{
	int child, next;
	long n = 0;

	child = ioctl(mfd, MOUNTFD_IOC_GETFIRSTCHILD);
	while (child >= 0) {
		n += 1 + walk_below(child);
		next = ioctl(child, MOUNTFD_IOC_GETNEXTCHILD);
		close(child);
		child = next;
	}
	return n;
}

/*
 * NPROC processes walk the tree below PATH in a loop for SECS seconds, as
 * fast as they can: prints the walks done and the mounts the last returned.
 */
static int cmd_walkloop(char **argv)
{
	int nproc = atoi(argv[4]), i, status;
	long secs = atol(argv[3]), walks = 0, seen = 0;
	time_t end = time(NULL) + secs;
	int pipefd[2];

	if (pipe(pipefd))
		return 1;
	for (i = 0; i < nproc; i++) {
		if (fork() == 0) {
			long w = 0, n = 0;
			int mfd;

			while (time(NULL) < end) {
				mfd = open_mfd(argv[2]);
				if (mfd < 0)
					_exit(1);
				n = walk_below(mfd);
				close(mfd);
				w++;
			}
			dprintf(pipefd[1], "%ld %ld\n", w, n);
			_exit(0);
		}
	}
	close(pipefd[1]);
	while (wait(&status) > 0)
		;
	{
		FILE *f = fdopen(pipefd[0], "r");
		long w, n;

		while (f && fscanf(f, "%ld %ld", &w, &n) == 2) {
			walks += w;
			seen = n;
		}
	}
	printf("walks=%ld mounts=%ld\n", walks, seen);
	return 0;
}

/* "name=" and what mountfd(FD) gave: "ok" or the errno name. */
static void fdkind(const char *name, int fd)
{
	int mfd = fd < 0 ? -1 : mountfd(fd, MOUNTFD_CLOEXEC);

	printf("%s=%s\n", name, fd < 0 ? "nofd" : mfd >= 0 ? "ok" : errname(errno));
	if (mfd >= 0)
		close(mfd);
}

/*
 * mountfd() on fds whose file lies on a kernel-internal mount, in no mount
 * namespace: each must fail with EINVAL.
 */
static int cmd_fdkinds(char **argv)
{
	int p[2], sv[2];

	if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	fdkind("pipe", p[0]);
	fdkind("socket", sv[0]);
	fdkind("eventfd", eventfd(0, EFD_CLOEXEC));
	fdkind("memfd", memfd_create("fdkinds", MFD_CLOEXEC));
	fdkind("nsfs", open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC));
	fdkind("mountfd", mountfd(open(argv[2], O_PATH | O_CLOEXEC), MOUNTFD_CLOEXEC));
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 2 ? argv[1] : "";

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(c, "steal") && argc > 3)
		return cmd_steal(argv);
	if (!strcmp(c, "sendfd") && argc > 3)
		return cmd_sendfd(argv);
	if (!strcmp(c, "recvfd"))
		return cmd_recvfd(argc, argv);
	if (!strcmp(c, "nsioctls"))
		return cmd_nsioctls(argv);
	if (!strcmp(c, "onnsfs"))
		return cmd_onnsfs(argv);
	if (!strcmp(c, "fdkinds"))
		return cmd_fdkinds(argv);
	if (!strcmp(c, "walkloop") && argc > 4)
		return cmd_walkloop(argv);
	fprintf(stderr, "usage: mfd-attack steal|sendfd|recvfd|nsioctls|onnsfs|fdkinds|walkloop ARGS (see the source)\n");
	return 2;
}
