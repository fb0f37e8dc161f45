// SPDX-License-Identifier: GPL-2.0
/*
 * An unmount with a bound on its wait (`autofs stop`).  umount2() takes a
 * mount out of the table at once, but the process that made the call
 * then tears the filesystem down on its way back to user space, and for
 * NFS that can wait on the server: evicting an inode returns its
 * delegation to the server, and a hard mount waits for an answer as long
 * as the server is gone.  A shutdown with a dead server would wait there.
 * So the call runs in a child; past the bound the child is killed, which
 * ends those waits (they are killable).  A wait no signal ends (dirty
 * pages written back, which the flusher thread does) keeps the child:
 * it is left to finish, and init reaps it once the agent has exited.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "am_mount.h"
#include "am_util.h"

/* How long a killed child may take to go. */
#define UMOUNT_KILL_GRACE_MS 2000

/* The child: the agent's fatal-signal handlers put back to the default. */
static void umount_child(const char *path)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	_exit(umount2(path, UMOUNT_NOFOLLOW) ? errno & 0xff : 0);
}

/* Whether PIDFD became readable (the child ended) within MS. */
static bool umount_ended(int pidfd, int ms)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	int ret;

	do
		ret = poll(&pfd, 1, ms);
	while (ret < 0 && errno == EINTR);
	return ret != 0;
}

/* The child's status: 0, or the errno of umount2() (all below 256). */
static int umount_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return -WEXITSTATUS(status);
	return -EINTR;
}

int am_umount_bounded(const char *path, unsigned int secs)
{
	pid_t pid = fork();
	int pidfd;

	if (pid < 0)
		return -errno;
	if (pid == 0)
		umount_child(path);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		am_log(LOG_WARNING, "unmount of %s: pidfd_open: %s, waiting without a bound",
		       path, strerror(errno));
		return umount_status(pid);
	}
	if (umount_ended(pidfd, (int)(secs * 1000))) {
		close(pidfd);
		return umount_status(pid);
	}
	kill(pid, SIGKILL);
	if (umount_ended(pidfd, UMOUNT_KILL_GRACE_MS))
		umount_status(pid);
	close(pidfd);
	return -ETIMEDOUT;
}
