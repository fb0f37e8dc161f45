/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace side of mountfd(2): the system call wrapper and small helpers,
 * so callers never spell syscall or ioctl numbers themselves.
 * Documentation/filesystems/mountfd.rst describes the interface.
 */
#ifndef MOUNTFD_USER_H
#define MOUNTFD_USER_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mountfd.h>

#include "am_mountfd_nr.h"

/* Returns: a mountfd for the mount dirfd lies on, or -1 with errno set. */
static inline int mountfd(int dirfd, unsigned int flags)
{
	return (int)syscall(__NR_mountfd, dirfd, flags);
}

/*
 * mountfd_get_string - run one of the string ioctls (GETFSTYPE, GETSOURCE,
 * GETVFSOPTIONS, GETFSOPTIONS) into buf of size len.
 * Returns: 0, or -1 with errno set; on ERANGE *needed holds the size needed.
 */
static inline int mountfd_get_string(int mfd, unsigned long cmd, char *buf,
				     uint32_t len, uint32_t *needed)
{
	struct mountfd_buf mb;
	int rc;

	memset(&mb, 0, sizeof(mb));
	mb.mb_buf = (uintptr_t)buf;
	mb.mb_len = len;
	rc = ioctl(mfd, cmd, &mb);
	if (needed)
		*needed = mb.mb_len;
	return rc;
}

/* Returns: 0, or -1 with errno set. */
static inline int mountfd_set_expire(int mfd, uint32_t policy, uint32_t timeout)
{
	struct mountfd_expire me;

	memset(&me, 0, sizeof(me));
	me.me_size = sizeof(me);
	me.me_policy = policy;
	me.me_timeout = timeout;
	return ioctl(mfd, MOUNTFD_IOC_SETEXPIRE, &me);
}

/* Returns: 0, or -1 with errno set. */
static inline int mountfd_get_expire(int mfd, struct mountfd_expire *me)
{
	memset(me, 0, sizeof(*me));
	me->me_size = sizeof(*me);
	return ioctl(mfd, MOUNTFD_IOC_GETEXPIRE, me);
}

/* Returns: 0, or -1 with errno set. */
static inline int mountfd_attach(int mfd, int dirfd)
{
	struct mountfd_attach ma;

	memset(&ma, 0, sizeof(ma));
	ma.ma_dirfd = dirfd;
	return ioctl(mfd, MOUNTFD_IOC_ATTACH, &ma);
}

#endif /* MOUNTFD_USER_H */
