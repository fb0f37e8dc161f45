// SPDX-License-Identifier: GPL-2.0
/*
 * A local path resolved as the administrator wrote it.  The bind module and
 * NFS from this host clone the directory a map names, as root.  A symbolic
 * link on the way that root did not write (in a user's home, a project
 * directory, /tmp) would turn the clone to any directory of the host: such
 * a link ends the walk.  Root's own links, in directories only root may
 * change, are followed, as many as the kernel follows in one walk.  One component at a
 * time through openat2(RESOLVE_NO_SYMLINKS), so every link is seen before
 * it is followed; the walk is from the agent's own root.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "am_safepath.h"

#define SAFEPATH_MAX_LINKS 40	/* the kernel's MAXSYMLINKS */
#define SAFEPATH_FUSE_MAGIC 0x65735546	/* FUSE_SUPER_MAGIC */

struct safepath {
	const char *sp_path;	/* as the map wrote it, for messages */
	int sp_dir;		/* the directory reached so far */
	char *sp_rest;		/* what is left to walk */
	unsigned int sp_links;
	char *sp_err;
	size_t sp_errlen;
};

static int safepath_fail(struct safepath *sp, int err, const char *what, const char *comp)
{
	snprintf(sp->sp_err, sp->sp_errlen, "%s: %s '%s': %s", sp->sp_path, what, comp,
		 strerror(-err));
	return err;
}

/* One component, not followed if it is a link.  Returns: an O_PATH fd, -errno. */
static int safepath_open(int dir, const char *comp, bool last)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | O_DIRECTORY,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dir, comp, &how, sizeof(how));

	if (fd < 0 && errno == ENOTDIR && last) {
		/* a bind of a file */
		how.flags &= ~(unsigned long long)O_DIRECTORY;
		fd = syscall(SYS_openat2, dir, comp, &how, sizeof(how));
	}
	return fd < 0 ? -errno : (int)fd;
}

/* The walk goes on at TARGET, then what was left after the link. */
static int safepath_splice(struct safepath *sp, const char *target, const char *after)
{
	size_t n = strlen(target) + strlen(after) + 2;
	char *rest = malloc(n);

	if (!rest)
		return -ENOMEM;
	snprintf(rest, n, "%s/%s", target, after);
	free(sp->sp_rest);
	sp->sp_rest = rest;
	if (target[0] == '/') {
		close(sp->sp_dir);
		sp->sp_dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (sp->sp_dir < 0)
			return -errno;
	}
	return 0;
}

/*
 * Whether root wrote the link LINK (an O_PATH fd of it) in the directory
 * DIR: root owns both, only root may change the directory, and it is not
 * on FUSE.  A link of uid 0 in a directory a user may write can be one of
 * root's links moved or hard-linked there (fs.protected_hardlinks=0); a
 * FUSE server reports whatever owners it likes.  An image a user had
 * mounted for her (udisks) reports owners she chose too: bind sources do
 * not belong on such mounts (autofs-maps(5)).
 */
static const char *safepath_untrusted(int dir, int link)
{
	struct statfs fs;
	struct stat d, l;

	if (fstat(link, &l) || fstat(dir, &d) || fstatfs(dir, &fs))
		return "cannot be checked";
	/* a user's FUSE server says what it likes of owners and modes */
	if (fs.f_type == SAFEPATH_FUSE_MAGIC)
		return "is on a FUSE filesystem, whose owners its server chooses";
	if (l.st_uid != 0)
		return "belongs to a user, not root";
	if (d.st_uid != 0 || (d.st_mode & (S_IWGRP | S_IWOTH)))
		return "is in a directory others than root may change";
	return NULL;
}

/*
 * The link COMP of the current directory: followed if root wrote it.  It
 * is checked and read through one descriptor, so that a rename between the
 * two cannot swap another link in.
 */
static int safepath_link(struct safepath *sp, const char *comp, const char *after)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	char target[4096];
	const char *why;
	struct stat st;
	ssize_t n;
	int fd;

	fd = (int)syscall(SYS_openat2, sp->sp_dir, comp, &how, sizeof(how));
	if (fd < 0)
		return safepath_fail(sp, -errno, "opening", comp);
	if (fstat(fd, &st) || !S_ISLNK(st.st_mode)) {	/* the ELOOP was not a link's */
		close(fd);
		return safepath_fail(sp, -ELOOP, "opening", comp);
	}
	why = safepath_untrusted(sp->sp_dir, fd);
	n = why ? 0 : readlinkat(fd, "", target, sizeof(target) - 1);
	close(fd);
	if (why) {
		snprintf(sp->sp_err, sp->sp_errlen, "%s: the symbolic link '%s' on the way "
			 "%s: not followed", sp->sp_path, comp, why);
		return -ELOOP;
	}
	if (n < 0)
		return safepath_fail(sp, -errno, "reading the link", comp);
	if (++sp->sp_links > SAFEPATH_MAX_LINKS)
		return safepath_fail(sp, -ELOOP, "too many links at", comp);
	target[n] = '\0';
	return safepath_splice(sp, target, after);
}

/* One step: the first component of sp_rest.  Returns: 1 at the end, 0, -errno. */
static int safepath_step(struct safepath *sp)
{
	char *comp = sp->sp_rest + strspn(sp->sp_rest, "/"), *after;
	int fd;

	if (!*comp)
		return 1;
	after = comp + strcspn(comp, "/");
	if (*after)
		*after++ = '\0';
	fd = safepath_open(sp->sp_dir, comp, !after[strspn(after, "/")]);
	if (fd == -ELOOP)
		return safepath_link(sp, comp, after);
	if (fd < 0)
		return safepath_fail(sp, fd, "opening", comp);
	close(sp->sp_dir);
	sp->sp_dir = fd;
	memmove(sp->sp_rest, after, strlen(after) + 1);
	return 0;
}

int am_safepath_open(const char *path, char *err, size_t errlen)
{
	struct safepath sp = { .sp_path = path, .sp_err = err, .sp_errlen = errlen };
	int ret = 0;

	if (path[0] != '/') {
		snprintf(err, errlen, "'%s' is not an absolute path", path);
		return -EINVAL;
	}
	sp.sp_rest = strdup(path);
	if (!sp.sp_rest)
		return -ENOMEM;
	sp.sp_dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (sp.sp_dir < 0)
		ret = -errno;
	while (!ret)
		ret = safepath_step(&sp);
	free(sp.sp_rest);
	if (ret < 0) {
		if (sp.sp_dir >= 0)
			close(sp.sp_dir);
		return ret;
	}
	return sp.sp_dir;
}
