/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/self/mountinfo (or AUTOFS_AGENT_MOUNTINFO), parsed. */
#ifndef AM_MOUNTINFO_H
#define AM_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/mountfd.h>

struct am_mi {
	int mi_id, mi_parent;
	unsigned int mi_major, mi_minor;	/* st_dev of the filesystem */
	char *mi_path;		/* unescaped mount point */
	char *mi_fstype;
	char *mi_source;
	char *mi_opts;		/* superblock options */
};

struct am_mounts {
	struct am_mi *ms_v;
	size_t ms_n;
};

/* Returns: 0, -errno. */
int am_mounts_read(struct am_mounts *ms);
void am_mounts_free(struct am_mounts *ms);
/* Returns: the last (topmost) mount on PATH, or NULL. */
const struct am_mi *am_mounts_at(const struct am_mounts *ms, const char *path);
/* Returns: the mount with id ID, or NULL. */
const struct am_mi *am_mounts_id(const struct am_mounts *ms, int id);
/* Returns: true when an ancestor of MI is an autofsng mount. */
bool am_mounts_nested(const struct am_mounts *ms, const struct am_mi *mi);

/* What MOUNTFD_IOC_GETEXPIRE said of one mount. */
struct am_mi_expiry {
	int mx_err;			/* 0, or -errno; -ENOENT: not found */
	struct mountfd_expire mx_me;
};

/*
 * The expiry of each mount of MS marked in WANT into RES (ms_n entries),
 * read through mountfd(2) down the mount tree from the caller's root,
 * without a path walk to any of them: looking is no use of a mount
 * (expire_semantics.rst) when the caller has CAP_SYS_ADMIN.
 * Returns: 0, -ENOSYS (no mountfd), -ENOENT (MS is not this namespace's
 * table), -ENOMEM, -errno.
 */
int am_mounts_expiry(const struct am_mounts *ms, const bool *want, struct am_mi_expiry *res);
/* The same through listmount(2) and statmount(2) (mountstat.c, 6.12). */
int am_mounts_expiry_statmount(const struct am_mounts *ms, const bool *want,
			       struct am_mi_expiry *res);

#endif /* AM_MOUNTINFO_H */
