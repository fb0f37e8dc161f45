// SPDX-License-Identifier: GPL-2.0
/*
 * Bind mounts' clones, for the bind module and for NFS on this host.  Two
 * rules hold for every clone, whoever asks for it:
 *
 * - Its propagation is the master map's, slave when the map says nothing
 *   (as autofs-tools' bind mounts).  A clone of a directory on a shared
 *   mount is a peer of that mount: the triggers a multi-mount attaches in
 *   the clone, and everything later mounted on them, would be copied back
 *   onto the source directory.  A slave still receives what is mounted on
 *   the source, and sends nothing back.
 * - Its source is the directory the map wrote, not where a symbolic link
 *   someone else wrote points (safepath.c).
 * - It is never an autofsng trap.  The agent walks through traps without
 *   firing them, so a source path covered by a trap resolves to the trap;
 *   its clone attached on the trigger being served would be entered by the
 *   walk and fire again, forever.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/autofsng.h>

#include "am_bindclone.h"
#include "am_mntattr.h"
#include "am_safepath.h"

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

static int clone_propagation(int fd, unsigned long propagation)
{
	struct mount_attr ma = { .propagation = propagation ? propagation : MS_SLAVE };

	if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &ma, sizeof(ma)))
		return -errno;
	return 0;
}

static bool clone_is_trap(int fd)
{
	struct statfs sf;

	return !fstatfs(fd, &sf) && sf.f_type == AUTOFSNG_SUPER_MAGIC;
}

int am_bind_clone(const char *path, bool recursive, uint64_t attr, unsigned long propagation,
		  char *err, size_t errlen)
{
	int fd, dir, ret;

	dir = am_safepath_open(path, err, errlen);
	if (dir < 0)
		return dir;
	fd = open_tree(dir, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
		       (recursive ? AT_RECURSIVE : 0));
	ret = fd < 0 ? -errno : 0;
	close(dir);
	if (ret) {
		snprintf(err, errlen, "open_tree(%s): %s", path, strerror(-ret));
		return ret;
	}
	if (clone_is_trap(fd)) {
		snprintf(err, errlen, "%s is an automount trigger, not a directory: "
			 "a bind of it would trigger itself", path);
		close(fd);
		return -ELOOP;
	}
	ret = clone_propagation(fd, propagation);
	if (ret)
		snprintf(err, errlen, "setting the propagation of %s: %s", path, strerror(-ret));
	else if ((ret = am_mntattr_apply(fd, attr)))
		snprintf(err, errlen, "mount_setattr(%s): %s", path, strerror(-ret));
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}
