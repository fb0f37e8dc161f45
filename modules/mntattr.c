// SPDX-License-Identifier: GPL-2.0
/* Per-mount flags of an option list, applied with mount_setattr(2). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "am_mntattr.h"

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

static const struct {
	const char *name;
	uint64_t set;		/* 0 with clear: the option turns a flag off */
	uint64_t clear;
} mntattr_table[] = {
	{ "ro", MOUNT_ATTR_RDONLY, 0 },
	{ "rw", 0, MOUNT_ATTR_RDONLY },
	{ "nosuid", MOUNT_ATTR_NOSUID, 0 },
	{ "suid", 0, MOUNT_ATTR_NOSUID },
	{ "nodev", MOUNT_ATTR_NODEV, 0 },
	{ "dev", 0, MOUNT_ATTR_NODEV },
	{ "noexec", MOUNT_ATTR_NOEXEC, 0 },
	{ "exec", 0, MOUNT_ATTR_NOEXEC },
	{ "noatime", MOUNT_ATTR_NOATIME, 0 },
	{ "relatime", MOUNT_ATTR_RELATIME, 0 },
	{ "strictatime", MOUNT_ATTR_STRICTATIME, 0 },
	{ "nodiratime", MOUNT_ATTR_NODIRATIME, 0 },
	/* agent-level options that mean nothing to a filesystem */
	{ "defaults", 0, 0 }, { "auto", 0, 0 }, { "noauto", 0, 0 },
	{ "browse", 0, 0 }, { "nobrowse", 0, 0 }, { "user", 0, 0 },
	{ "nouser", 0, 0 }, { "strictexpire", 0, 0 }, { "symlink", 0, 0 },
	{ "nosymlink", 0, 0 },
};

int am_mntattr_split(const char *opts, uint64_t *attr,
		     int (*fn)(const char *opt, void *arg), void *arg)
{
	char *copy, *tok, *save = NULL;
	size_t i;
	int err = 0;

	*attr = 0;
	copy = strdup(opts ? opts : "");
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(mntattr_table) / sizeof(mntattr_table[0]); i++)
			if (!strcmp(tok, mntattr_table[i].name))
				break;
		if (i == sizeof(mntattr_table) / sizeof(mntattr_table[0])) {
			err = fn ? fn(tok, arg) : 0;
			continue;
		}
		if (mntattr_table[i].set & MOUNT_ATTR__ATIME)
			*attr &= ~(uint64_t)MOUNT_ATTR__ATIME;
		*attr = (*attr & ~mntattr_table[i].clear) | mntattr_table[i].set;
	}
	free(copy);
	return err;
}

int am_mntattr_apply(int fd, uint64_t attr)
{
	struct mount_attr ma = { .attr_set = attr };

	if (!attr)
		return 0;
	if (attr & MOUNT_ATTR__ATIME)
		ma.attr_clr = MOUNT_ATTR__ATIME;
	if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH, &ma, sizeof(ma)))
		return -errno;
	return 0;
}
