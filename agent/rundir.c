// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's private directories under /run (am_rundir.h): the walk that
 * finds one, and the rename that puts a whole file in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "am_rundir.h"

/*
 * Directory FD (component NAME) may lead to the private directory: owned
 * by root or us, not writable by others unless sticky, and ours when its
 * parent was a sticky one others may write (*OWNER is then (uid_t)-1, as
 * this call leaves it for the next).  The last one is ours, mode 0700.  On
 * refusal WHY says what is wrong.
 */
static bool rundir_safe(int fd, bool last, uid_t *owner, char *why, size_t whylen,
			const char *name)
{
	uid_t me = geteuid();
	struct stat st;
	bool sticky_parent = *owner == (uid_t)-1;

	if (fstat(fd, &st)) {
		snprintf(why, whylen, "%s: %s", name, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode) || (st.st_uid && st.st_uid != me) ||
	    (sticky_parent && st.st_uid != me) ||
	    (last && (st.st_uid != me || (st.st_mode & 077)))) {
		snprintf(why, whylen, "%s is owned by uid %u with mode %04o; %s", name,
			 (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777),
			 last ? "the directory must be the agent's own, mode 0700" :
				"a directory above it must be root's or the agent's");
		return false;
	}
	*owner = (st.st_mode & 022) && (st.st_mode & S_ISVTX) ? (uid_t)-1 : st.st_uid;
	if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) {
		snprintf(why, whylen, "%s is writable by others", name);
		return false;
	}
	return true;
}

/* Open (or make) NAME in DIRFD, no symbolic link.  Returns: an fd, -errno. */
static int rundir_step(int dirfd, const char *name, bool create, bool last)
{
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(dirfd, name, last ? 0700 : 0755) && errno != EEXIST)
			return -errno;
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

int am_rundir_open(const char *path, bool create, char *why, size_t whylen)
{
	char *copy, *name, *next, *save = NULL;
	uid_t owner = 0;
	int fd, nfd;

	if (path[0] != '/' || !path[strspn(path, "/")]) {
		snprintf(why, whylen, "'%s' is not an absolute path below /", path);
		return -EPERM;
	}
	copy = strdup(path);
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!copy || fd < 0) {
		free(copy);
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	snprintf(why, whylen, "%s", strerror(ENOENT));
	for (name = strtok_r(copy, "/", &save); name; name = next) {
		next = strtok_r(NULL, "/", &save);
		nfd = rundir_step(fd, name, create, !next);
		close(fd);
		fd = nfd;
		if (fd < 0) {
			snprintf(why, whylen, "%s: %s", name, strerror(-fd));
			break;
		}
		if (!rundir_safe(fd, !next, &owner, why, whylen, name)) {
			close(fd);
			fd = -EPERM;
			break;
		}
	}
	free(copy);
	return fd;
}

/* am_rundir_publish() with the signals already held. */
static int rundir_publish_held(int dirfd, const char *name,
			       int (*write)(int fd, void *arg), void *arg)
{
	char tmp[300];
	int fd, err;

	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", name, (long)getpid());
	unlinkat(dirfd, tmp, 0);	/* left by a killed agent of the same pid */
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = write(fd, arg);
	if (close(fd) && err >= 0)
		err = -errno;
	if (err >= 0 && renameat(dirfd, tmp, dirfd, name))
		err = -errno;
	if (err < 0)
		unlinkat(dirfd, tmp, 0);
	return err;
}

/*
 * The agent's time limit (SIGALRM) and SIGTERM end it at once: held off
 * while the private file exists, so that it is renamed or removed first.
 */
int am_rundir_publish(int dirfd, const char *name, int (*write)(int fd, void *arg),
		      void *arg)
{
	sigset_t hold, old;
	int err;

	sigemptyset(&hold);
	sigaddset(&hold, SIGALRM);
	sigaddset(&hold, SIGTERM);
	sigprocmask(SIG_BLOCK, &hold, &old);
	err = rundir_publish_held(dirfd, name, write, arg);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}
