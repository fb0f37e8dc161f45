// SPDX-License-Identifier: GPL-2.0
/*
 * An unmount with a bound on its wait (`autofs stop`).  umount2() takes a
 * mount out of the table at once, but the process that made the call
 * then tears the filesystem down on its way back to user space, and for
 * NFS that can wait on the server: evicting an inode returns its
 * delegation to the server, and a hard mount waits for an answer as long
 * as the server is gone.  A shutdown with a dead server would wait there.
 * So the call runs in a child; past the bound the child is killed, which
 * ends those waits (they are killable) and the teardown finishes without
 * the server.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "am_mount.h"

/* The child's status: 0, or the errno of umount2() (all below 256). */
static int umount_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return -WEXITSTATUS(status);
	return -ETIMEDOUT;
}

/* Wait for the child up to SECS; kill it past that. */
static void umount_wait(pid_t pid, unsigned int secs)
{
	struct pollfd pfd = { .events = POLLIN };
	int ret;

	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd.fd < 0)
		return;	/* then waitpid() waits without a bound */
	do
		ret = poll(&pfd, 1, (int)(secs * 1000));
	while (ret < 0 && errno == EINTR);
	if (ret == 0)
		kill(pid, SIGKILL);
	close(pfd.fd);
}

int am_umount_bounded(const char *path, unsigned int secs)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(umount2(path, UMOUNT_NOFOLLOW) ? errno & 0xff : 0);
	umount_wait(pid, secs);
	return umount_status(pid);
}
