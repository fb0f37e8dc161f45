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
 *
 * The path comes from the mount table, read before; a user who owns a
 * directory above the mount may since have put a symbolic link to another
 * tree in its place, and UMOUNT_NOFOLLOW covers only the last component.
 * So the child opens the parent without following any link, checks that
 * what is there is still the mount the table named, and unmounts the last
 * component from that directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "am_mount.h"
#include "am_util.h"

/* How long a killed child may take to go. */
#define UMOUNT_KILL_GRACE_MS 2000

/*
 * The parent directory of the absolute PATH, opened with no symbolic link
 * on the way, and *LAST, its last component.  Returns: an O_PATH fd,
 * -EINVAL ("/", or no parent to open), -ELOOP (a link), -errno.
 */
static int umount_parent(const char *path, const char **last)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	const char *slash = strrchr(path, '/');
	char *parent;
	long fd;

	if (path[0] != '/' || !slash[1])
		return -EINVAL;
	parent = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (!parent)
		return -ENOMEM;
	fd = syscall(SYS_openat2, AT_FDCWD, parent, &how, sizeof(how));
	free(parent);
	*last = slash + 1;
	return fd < 0 ? -errno : (int)fd;
}

/*
 * Whether LAST in DIRFD is the mount ID (the topmost there, without
 * triggering it).  Returns: 0, -ESTALE (another mount or none), -errno.
 */
static int umount_is_mount(int dirfd, const char *last, int id)
{
	struct statx stx;

	if (statx(dirfd, last, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_STATX_DONT_SYNC,
		  STATX_MNT_ID, &stx))
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP;
	return stx.stx_mnt_id == (__u64)id ? 0 : -ESTALE;
}

/* umount2() of the mount ID at PATH, walked to as above.  Returns: 0, -errno. */
static int umount_checked(const char *path, int id)
{
	const char *last;
	int dirfd = umount_parent(path, &last);
	int err;

	if (dirfd < 0)
		return dirfd;
	err = umount_is_mount(dirfd, last, id);
	if (!err && fchdir(dirfd))
		err = -errno;
	if (!err && umount2(last, UMOUNT_NOFOLLOW))
		err = -errno;
	close(dirfd);
	return err;
}

/* The child: the agent's fatal-signal handlers put back to the default. */
static void umount_child(const char *path, int id)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	_exit(-umount_checked(path, id) & 0xff);
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

/* The child's status: 0, or its errno (all below 256). */
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

int am_umount_bounded(const char *path, int id, unsigned int secs)
{
	pid_t pid = fork();
	int pidfd;

	if (pid < 0)
		return -errno;
	if (pid == 0)
		umount_child(path, id);
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
