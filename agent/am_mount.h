/* SPDX-License-Identifier: GPL-2.0 */
/* Building, attaching and timing out mounts; autofsng triggers. */
#ifndef AM_MOUNT_H
#define AM_MOUNT_H

#include <stdbool.h>

#include <linux/mountfd.h>

#include "am_agent.h"
#include "am_sun.h"

#include "am_mountfd_nr.h"

/* The parameters of one autofsng trigger mount. */
struct am_trigger {
	const char *tg_map;		/* source: the map spec */
	bool tg_direct;
	bool tg_browse;
	const char *tg_key;		/* mapkey=, direct only */
	const char *tg_offset;		/* mapoffset=, multi-mount offsets */
	const char *tg_opt;		/* opt=: master map options, as written */
	unsigned int tg_negative_timeout;
	unsigned int tg_cache_ttl;
};

/* Returns: the module name that mounts M ("nfs", "bind", "generic"). */
const char *am_mount_module_name(const struct am_mnt *m);
/* What the resolution of an entry adds to building its mounts. */
struct am_build {
	unsigned long ab_propagation;	/* of bind mounts: MS_*, 0 is slave */
	bool ab_foreign;		/* the entry's trust is not local (trust.c) */
};

/*
 * Build M detached through its mount module.
 * Returns: a mount fd, or -errno (logged).
 */
int am_mount_build(struct am_ctx *ctx, const struct am_mnt *m, const struct am_build *ab);
/* A small read-only tmpfs holding the directories DIRS (relative). */
int am_mount_holder(const char *const *dirs, size_t ndirs);
/* Returns: a detached autofsng mount fd, or -errno (logged). */
int am_trigger_build(const struct am_trigger *tg);
/* move_mount FD onto the directory DIRFD.  Returns: 0, -errno. */
int am_mount_attach(int fd, int dirfd);
/*
 * Set the expiry policy of the mount FD lies on (expiry.c: mountfd on the
 * 6.1 series, mount_setattr on 6.12); a kernel with neither gets one
 * warning.  Returns: 0, -ENOSYS, -errno.
 */
int am_expiry_set(struct am_ctx *ctx, int fd, unsigned int policy, unsigned int timeout);
/*
 * Returns: true when the kernel can expire mounts (mountfd(2) or the 6.12
 * series).  Asked once, through "/" and /proc/self: a lookup asks before it
 * joins the requester's namespace.
 */
bool am_expiry_present(void);
/* A mountfd for the mount DIRFD lies on (6.1 series).  Returns: the fd, -errno. */
int am_mountfd_open(int dirfd);
/* Returns: true when expiry is read through statmount (the 6.12 series). */
bool am_expiry_statmount(void);
struct am_statmount;
/*
 * statmount(2) of the unique mount ID for its mnt_* fields and its expiry.
 * Returns: 0, -ENOSYS (no expiry fields: not the 6.12 series), -errno.
 */
int am_statmount_expiry(unsigned long long id, struct am_statmount *sm);
/* Returns: 0 and *ME for the mount DIRFD lies on, -ENOSYS, -errno. */
int am_expiry_get(int dirfd, struct mountfd_expire *me);
/* Returns: true when the kernel has mountfd(2) (the 6.1 series). */
bool am_expiry_mountfd(void);
/* The unique ID (6.8) of the mount FD is.  Returns: 0, -EOPNOTSUPP, -errno. */
int am_mnt_id_unique(int fd, unsigned long long *id);
/*
 * listmount(2): up to MAX unique IDs, after LAST (0: from the first), of
 * the mounts whose parent is the mount ID.  Returns: how many, -errno.
 */
long am_listmount_children(unsigned long long id, unsigned long long last,
			   unsigned long long *ids, size_t max);
/*
 * Detach the attached mount FD, with everything mounted in it, as
 * umount2(MNT_DETACH) does; KIDS are the NKIDS mounts the caller attached
 * in it.  By the mount itself where the kernel can (mountfd(2)); else by
 * its root, which names whatever is mounted on top, so only when nothing
 * but KIDS is mounted on or in it (6.12: listmount), and checked gone; on
 * 6.1 under a shared parent, which DETACH refuses, by the root unchecked.
 * Returns: 0, -EBUSY (something else is or was mounted there),
 * -EOPNOTSUPP (a kernel that cannot name a mount), -errno.
 */
int am_mount_detach(int fd, const int *kids, size_t nkids);

/*
 * Unmount the mount ID (mountinfo's) at the absolute PATH in a child,
 * bounded by SECS (umount.c): umount2(UMOUNT_NOFOLLOW) of the last
 * component in the parent directory, reached without following a link,
 * once the mount there is checked to be ID.
 * Returns: 0, -ELOOP (a symbolic link on the way: left alone), -ESTALE
 * (the mount there is not ID: moved, replaced or covered since the table
 * was read; left alone), -EINVAL ("/" or a relative path: refused; or not
 * a mount point), -errno of umount2(), -EINTR (the child died of a
 * signal), or -ETIMEDOUT: the child was killed past SECS, the mount out of
 * the table or not (a walk to it that waited); read the table to know.
 */
int am_umount_bounded(const char *path, int id, unsigned int secs);

#endif /* AM_MOUNT_H */
