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

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "am_mount_abi.h"
#include "am_mountfd_nr.h"

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE	0x4000U
#endif

/*
 * The expiry interface of the running kernel (mountfd(2), "Linux 6.12"):
 * the 6.12 series answers statmount(2) with STATMOUNT_EXPIRE; a kernel
 * without unique mount IDs (before 6.8) has no statmount, and there 451 is
 * the 6.1 series' mountfd.  Syscall 451 is never called on a kernel that
 * has statmount (it is cachestat there).
 */
enum mount_api { MOUNT_API_NONE, MOUNT_API_MOUNTFD, MOUNT_API_SETATTR };

/* The unique ID of the mount PATH lies on.  Returns: 0, or -1 with errno. */
static inline int mnt_unique_id(const char *path, __u64 *id)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_MNT_ID_UNIQUE, &stx))
		return -1;
	if (!(stx.stx_mask & STATX_MNT_ID_UNIQUE)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	*id = stx.stx_mnt_id;	/* the unique ID with STATX_MNT_ID_UNIQUE */
	return 0;
}

/*
 * The mount namespace of a path through /proc/PID/ (root, cwd): an fd of
 * /proc/PID/ns/mnt; otherwise 0, the caller's.  statmount(2) looks a mount
 * ID up in one namespace, where mountfd(2) took any mount a path reached.
 */
static inline int path_mntns_fd(const char *path)
{
	char ns[64];
	unsigned int pid;
	int n = 0, fd;

	if (sscanf(path, "/proc/%u/%n", &pid, &n) != 1 || !n)
		return 0;
	snprintf(ns, sizeof(ns), "/proc/%u/ns/mnt", pid);
	fd = open(ns, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? 0 : fd;
}

/* statmount(2) of the mount PATH lies on, mask STATMOUNT_EXPIRE. */
static inline int statmount_expire(const char *path, struct am_statmount *sm)
{
	struct am_mnt_id_req req = {
		.size = AM_MNT_ID_REQ_SIZE_VER0,
		.param = AM_STATMOUNT_EXPIRE,
	};
	int rc, err;

	if (mnt_unique_id(path, &req.mnt_id))
		return -1;
	req.mnt_ns_fd = path_mntns_fd(path);
	memset(sm, 0, sizeof(*sm));
	rc = (int)syscall(__NR_statmount, &req, sm, sizeof(*sm), 0);
	err = errno;
	if (req.mnt_ns_fd)
		close(req.mnt_ns_fd);
	errno = err;
	return rc;
}

static inline enum mount_api mount_api(void)
{
	static enum mount_api api = (enum mount_api)-1;
	struct am_statmount sm;
	__u64 id;

	if (api != (enum mount_api)-1)
		return api;
	if (mnt_unique_id("/", &id))
		api = errno == EOPNOTSUPP ? MOUNT_API_MOUNTFD : MOUNT_API_NONE;
	else if (!statmount_expire("/", &sm) && sm.mask & AM_STATMOUNT_EXPIRE)
		api = MOUNT_API_SETATTR;
	else
		api = MOUNT_API_NONE;
	return api;
}

/*
 * Returns: a mountfd for the mount dirfd lies on, or -1 with errno set
 * (ENOSYS on a kernel without mountfd(2), the 6.12 series among them).
 */
static inline int mountfd(int dirfd, unsigned int flags)
{
	if (mount_api() != MOUNT_API_MOUNTFD) {
		errno = ENOSYS;
		return -1;
	}
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

/*
 * mount_setattr(2) of the 6.12 series: MOUNT_ATTR_EXPIRE with POLICY and
 * TIMEOUT on the mount whose root PATH is, FLAGS as mount_setattr's (AT_*).
 * Returns: 0, or -1 with errno set.
 */
static inline int setattr_expire(const char *path, uint32_t policy,
				 uint32_t timeout, unsigned int flags)
{
	struct am_mount_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.attr_set = AM_MOUNT_ATTR_EXPIRE;
	attr.expire_policy = policy;
	attr.expire_timeout = timeout;
	return (int)syscall(__NR_mount_setattr, AT_FDCWD, path, flags, &attr,
			    AM_MOUNT_ATTR_SIZE_EXPIRE);
}

/*
 * A mountfd for the mount PATH lies on; the path fd is closed at once (the
 * walk is a use of the mount).  Returns: the fd, or -1 with errno.
 */
static inline int mountfd_at(const char *path)
{
	int fd, rc, err;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = mountfd(fd, MOUNTFD_CLOEXEC);
	err = errno;
	close(fd);
	errno = err;
	return rc;
}

/* Close FD and return RC with the errno of before. */
static inline int close_keep_errno(int fd, int rc)
{
	int err = errno;

	close(fd);
	errno = err;
	return rc;
}

/*
 * The expiry policy of the mount PATH is the root of (mountfd: lies on),
 * through what the running kernel offers.  Returns: 0, or -1 with errno.
 */
static inline int expiry_set(const char *path, uint32_t policy, uint32_t timeout)
{
	int mfd;

	if (mount_api() == MOUNT_API_SETATTR)
		return setattr_expire(path, policy, timeout, 0);
	mfd = mountfd_at(path);
	if (mfd < 0)
		return -1;
	return close_keep_errno(mfd, mountfd_set_expire(mfd, policy, timeout));
}

/* Returns: 0 with ME filled, or -1 with errno set. */
static inline int expiry_get(const char *path, struct mountfd_expire *me)
{
	struct am_statmount sm;
	int mfd;

	if (mount_api() == MOUNT_API_SETATTR) {
		if (statmount_expire(path, &sm))
			return -1;
		memset(me, 0, sizeof(*me));
		me->me_policy = sm.expire_policy;
		me->me_timeout = sm.expire_timeout;
		me->me_remaining = sm.expire_remaining;
		return 0;
	}
	mfd = mountfd_at(path);
	if (mfd < 0)
		return -1;
	return close_keep_errno(mfd, mountfd_get_expire(mfd, me));
}

#endif /* MOUNTFD_USER_H */
