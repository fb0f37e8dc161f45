// SPDX-License-Identifier: GPL-2.0
/*
 * The expiry policy of the mounts the agent makes, through what the running
 * kernel offers (mountfd(2), "Linux 6.12"):
 *   - the 6.1 series: mountfd(2) and its SETEXPIRE and GETEXPIRE ioctls;
 *   - the 6.12 series: mount_setattr(2) and statmount(2), extended
 *     (am_mount_abi.h); there syscall 451 is cachestat, never called;
 *   - neither: one warning, and the mounts made never expire.
 * Which one is asked once, before a lookup joins the requester's namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "am_mount.h"
#include "am_mount_abi.h"
#include "am_stage.h"

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x4000U
#endif

enum expiry_api { API_UNKNOWN, API_NONE, API_MOUNTFD, API_SETATTR };

/* One call of syscall 451; the unused argument registers are zeroed. */
static long mountfd_call(int dirfd)
{
	return syscall(__NR_mountfd, dirfd, MOUNTFD_CLOEXEC, 0, 0, 0, 0);
}

/* Returns: true when FD is a mountfd ("anon_inode:[mountfd]"). */
static bool mountfd_is(long fd)
{
	char link[64], target[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return strstr(target, "[mountfd]") != NULL;
}

/* Is syscall 451 mountfd here?  Asked about "/", on a kernel without statmount. */
static bool mountfd_probe(void)
{
	bool present = false;
	long fd;
	int root;

	root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return false;
	fd = mountfd_call(root);
	if (fd > STDERR_FILENO && fd != root) {
		present = mountfd_is(fd);
		close((int)fd);
	}
	close(root);
	return present;
}

/*
 * The unique ID (6.8) of the mount PATH at DIRFD lies on.
 * Returns: 0, -EOPNOTSUPP (a kernel before 6.8), -errno.
 */
static int mnt_id_unique(int dirfd, const char *path, int flags, __u64 *id)
{
	struct statx stx;

	if (statx(dirfd, path, flags | AT_STATX_DONT_SYNC, STATX_MNT_ID_UNIQUE, &stx))
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID_UNIQUE))
		return -EOPNOTSUPP;
	*id = stx.stx_mnt_id;
	return 0;
}

int am_mnt_id_unique(int fd, unsigned long long *id)
{
	__u64 v = 0;
	int err = mnt_id_unique(fd, "", AT_EMPTY_PATH, &v);

	*id = v;
	return err;
}

int am_statmount_expiry(unsigned long long id, struct am_statmount *sm)
{
	struct am_mnt_id_req req = {
		.size = AM_MNT_ID_REQ_SIZE_VER0,
		.mnt_id = id,
		.param = AM_STATMOUNT_MNT_BASIC | AM_STATMOUNT_EXPIRE,
	};

	memset(sm, 0, sizeof(*sm));
	if (syscall(__NR_statmount, &req, sm, sizeof(*sm), 0))
		return -errno;
	return sm->mask & AM_STATMOUNT_EXPIRE ? 0 : -ENOSYS;
}

/*
 * The 6.12 series answers statmount with its bit.  A kernel before 6.8 has
 * no unique mount IDs and no statmount: there 451 may be mountfd.
 */
static enum expiry_api api_probe(void)
{
	struct am_statmount sm;
	__u64 id = 0;	/* set when mnt_id_unique returns 0 */
	int err;

	err = mnt_id_unique(AT_FDCWD, "/", 0, &id);
	if (err == -EOPNOTSUPP)
		return mountfd_probe() ? API_MOUNTFD : API_NONE;
	if (!err && !am_statmount_expiry(id, &sm))
		return API_SETATTR;
	return API_NONE;
}

static enum expiry_api expiry_api(void)
{
	static enum expiry_api api = API_UNKNOWN;

	if (api == API_UNKNOWN)
		api = api_probe();
	return api;
}

bool am_expiry_present(void)
{
	return expiry_api() != API_NONE;
}

bool am_expiry_statmount(void)
{
	return expiry_api() == API_SETATTR;
}

bool am_expiry_mountfd(void)
{
	return expiry_api() == API_MOUNTFD;
}

int am_mountfd_open(int dirfd)
{
	long fd = mountfd_call(dirfd);

	return fd < 0 ? -errno : (int)fd;
}

static int mountfd_ioctl(int dirfd, unsigned long cmd, struct mountfd_expire *me)
{
	int mfd, err = 0;

	mfd = am_mountfd_open(dirfd);
	if (mfd < 0)
		return mfd;
	if (ioctl(mfd, cmd, me))
		err = -errno;
	close(mfd);
	return err;
}

static int setattr_set(int fd, unsigned int policy, unsigned int timeout)
{
	struct am_mount_attr ma = {
		.attr_set = AM_MOUNT_ATTR_EXPIRE,
		.expire_policy = policy,
		.expire_timeout = timeout,
	};

	if (syscall(__NR_mount_setattr, fd, "", AT_EMPTY_PATH, &ma, AM_MOUNT_ATTR_SIZE_EXPIRE))
		return -errno;
	return 0;
}

static int setattr_get(int dirfd, struct mountfd_expire *me)
{
	struct am_statmount sm;
	__u64 id = 0;	/* set when mnt_id_unique returns 0 */
	int err;

	err = mnt_id_unique(dirfd, "", AT_EMPTY_PATH, &id);
	if (!err)
		err = am_statmount_expiry(id, &sm);
	if (err)
		return err;
	me->me_policy = sm.expire_policy;
	me->me_timeout = sm.expire_timeout;
	me->me_remaining = sm.expire_remaining;
	return 0;
}

static int expiry_set(struct am_ctx *ctx, int fd, unsigned int policy, unsigned int timeout)
{
	struct mountfd_expire me = {
		.me_size = sizeof(me),
		.me_policy = policy,
		.me_timeout = timeout,
	};

	switch (expiry_api()) {
	case API_MOUNTFD:
		return mountfd_ioctl(fd, MOUNTFD_IOC_SETEXPIRE, &me);
	case API_SETATTR:
		return setattr_set(fd, policy, timeout);
	default:
		if (!ctx->ac_expiry_warned)
			am_log(LOG_WARNING, "kernel has no mount expiry (mountfd(2)): "
			       "mounts made now never expire");
		ctx->ac_expiry_warned = true;
		return -ENOSYS;
	}
}

int am_expiry_set(struct am_ctx *ctx, int fd, unsigned int policy, unsigned int timeout)
{
	enum am_stage prev = am_stage_enter(AM_STAGE_EXPIRE);
	int err = expiry_set(ctx, fd, policy, timeout);

	am_stage_enter(prev);
	return err;
}

int am_expiry_get(int dirfd, struct mountfd_expire *me)
{
	memset(me, 0, sizeof(*me));
	me->me_size = sizeof(*me);
	switch (expiry_api()) {
	case API_MOUNTFD:
		return mountfd_ioctl(dirfd, MOUNTFD_IOC_GETEXPIRE, me);
	case API_SETATTR:
		return setattr_get(dirfd, me);
	default:
		return -ENOSYS;
	}
}
