// SPDX-License-Identifier: GPL-2.0
/*
 * The expiry of mounts, read without using them.  A path walk that ends in
 * a mount counts as a use (expire_semantics.rst): opening each mount's path
 * to ask about it would restart every countdown `autofs status` looks at.
 * So the walk starts at the caller's root and goes down the mount tree
 * with mountfd(2)'s GETFIRSTCHILD and GETNEXTCHILD, whose fds root opens
 * and closes without a use.  (A caller without CAP_SYS_ADMIN gets each fd
 * only after a path walk of its own, which does count.)  On the 6.12
 * series, which has no mountfd, mountstat.c reads the same by statmount.
 *
 * mountfd(2) names no mount id, so a child is matched to its mountinfo
 * line by device among the children of the same parent, in order: both
 * list a mount's children in the order they were attached.  Only two
 * mounts of one filesystem under one parent, one of them moved there,
 * can be taken for each other.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "am_mount.h"
#include "am_mountinfo.h"

struct mw_kid {
	int k_parent;		/* mount id of the parent */
	size_t k_idx;		/* index in ms_v */
};

struct mount_walk {
	const struct am_mounts *w_ms;
	const bool *w_want;		/* read the expiry of these */
	bool *w_way;			/* wanted, or above a wanted one */
	bool *w_claimed;		/* matched to a mount of the walk */
	struct mw_kid *w_kids;		/* by parent id, then mountinfo order */
	struct mw_kid *w_ids;		/* k_parent is the mount's own id: by id */
	struct am_mi_expiry *w_res;
};

static int kid_cmp(const void *a, const void *b)
{
	const struct mw_kid *x = a, *y = b;

	if (x->k_parent != y->k_parent)
		return x->k_parent < y->k_parent ? -1 : 1;
	return x->k_idx < y->k_idx ? -1 : x->k_idx > y->k_idx;
}

/* The first entry of V (N, sorted) whose k_parent is ID, or N. */
static size_t kid_first(const struct mw_kid *v, size_t n, int id)
{
	struct mw_kid key = { .k_parent = id };
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (kid_cmp(&v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Returns: the index of the mount with id ID, or -1. */
static long mw_index(const struct mount_walk *w, int id)
{
	size_t n = w->w_ms->ms_n, i = kid_first(w->w_ids, n, id);

	return i < n && w->w_ids[i].k_parent == id ? (long)w->w_ids[i].k_idx : -1;
}

/* Both indexes, and the way down to every wanted mount. */
static void mw_index_build(struct mount_walk *w)
{
	size_t i, depth, n = w->w_ms->ms_n;
	long p;

	for (i = 0; i < n; i++) {
		w->w_kids[i] = (struct mw_kid) { w->w_ms->ms_v[i].mi_parent, i };
		w->w_ids[i] = (struct mw_kid) { w->w_ms->ms_v[i].mi_id, i };
	}
	qsort(w->w_kids, n, sizeof(*w->w_kids), kid_cmp);
	qsort(w->w_ids, n, sizeof(*w->w_ids), kid_cmp);
	for (i = 0; i < n; i++) {
		if (!w->w_want[i])
			continue;
		w->w_way[i] = true;
		p = mw_index(w, w->w_ms->ms_v[i].mi_parent);
		for (depth = 0; p >= 0 && !w->w_way[p] && depth < n; depth++) {
			w->w_way[p] = true;
			p = mw_index(w, w->w_ms->ms_v[p].mi_parent);
		}
	}
}

/*
 * The first mountinfo child of PARENT on device DEV not matched yet.
 * Returns: its index, or -1.
 */
static long mw_match(struct mount_walk *w, size_t parent, const struct mountfd_dev *dev)
{
	int id = w->w_ms->ms_v[parent].mi_id;
	const struct am_mi *mi;
	size_t lo = kid_first(w->w_kids, w->w_ms->ms_n, id);

	for (; lo < w->w_ms->ms_n && w->w_kids[lo].k_parent == id; lo++) {
		mi = &w->w_ms->ms_v[w->w_kids[lo].k_idx];
		if (w->w_claimed[w->w_kids[lo].k_idx] || mi->mi_id == mi->mi_parent ||
		    mi->mi_major != dev->md_major || mi->mi_minor != dev->md_minor)
			continue;
		w->w_claimed[w->w_kids[lo].k_idx] = true;
		return (long)w->w_kids[lo].k_idx;
	}
	return -1;
}

static void mw_read(struct mount_walk *w, size_t i, int mfd)
{
	struct am_mi_expiry *r = &w->w_res[i];

	memset(&r->mx_me, 0, sizeof(r->mx_me));
	r->mx_me.me_size = sizeof(r->mx_me);
	r->mx_err = ioctl(mfd, MOUNTFD_IOC_GETEXPIRE, &r->mx_me) ? -errno : 0;
}

/*
 * GETFIRSTCHILD or GETNEXTCHILD (CMD) of FD, asked again when the kernel
 * gave up on a long walk because the mount tree kept changing (EAGAIN).
 */
static int mw_step(int fd, unsigned long cmd)
{
	int c, tries = 0;

	do
		c = ioctl(fd, cmd);
	while (c < 0 && errno == EAGAIN && ++tries < 8);
	return c;
}

/* The children of the mount MFD stands for, mountinfo line PARENT. */
static void mw_children(struct mount_walk *w, int mfd, size_t parent, size_t depth)
{
	struct mountfd_dev dev;
	int c, next;
	long i;

	if (depth > w->w_ms->ms_n)
		return;
	for (c = mw_step(mfd, MOUNTFD_IOC_GETFIRSTCHILD); c >= 0; c = next) {
		i = ioctl(c, MOUNTFD_IOC_GETDEV, &dev) ? -1 : mw_match(w, parent, &dev);
		if (i >= 0 && w->w_want[i])
			mw_read(w, (size_t)i, c);
		if (i >= 0 && w->w_way[i])
			mw_children(w, c, (size_t)i, depth + 1);
		next = mw_step(c, MOUNTFD_IOC_GETNEXTCHILD);
		close(c);
	}
}

/*
 * The mountinfo line of the caller's root, the mount open("/") gives: of
 * the mounts on "/", the one whose parent is not one of them (a path walk
 * of "/" does not go into what is mounted over the root).
 * Returns: its index, or -1.
 */
static long mw_root(const struct mount_walk *w)
{
	const struct am_mi *mi;
	long p;
	size_t i;

	for (i = 0; i < w->w_ms->ms_n; i++) {
		mi = &w->w_ms->ms_v[i];
		if (strcmp(mi->mi_path, "/"))
			continue;
		p = mi->mi_id == mi->mi_parent ? -1 : mw_index(w, mi->mi_parent);
		if (p < 0 || strcmp(w->w_ms->ms_v[p].mi_path, "/"))
			return (long)i;
	}
	return -1;
}

static int mw_walk(struct mount_walk *w)
{
	long root = mw_root(w);
	struct mountfd_dev dev;
	int dirfd, mfd;

	if (root < 0)
		return -ENOENT;
	dirfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	mfd = am_mountfd_open(dirfd);
	close(dirfd);
	if (mfd < 0)
		return mfd;
	if (ioctl(mfd, MOUNTFD_IOC_GETDEV, &dev) ||
	    dev.md_major != w->w_ms->ms_v[root].mi_major ||
	    dev.md_minor != w->w_ms->ms_v[root].mi_minor) {
		close(mfd);
		return -ENOENT;		/* a mount table not of this namespace */
	}
	if (w->w_want[root])
		mw_read(w, (size_t)root, mfd);
	mw_children(w, mfd, (size_t)root, 0);
	close(mfd);
	return 0;
}

int am_mounts_expiry(const struct am_mounts *ms, const bool *want, struct am_mi_expiry *res)
{
	struct mount_walk w = { .w_ms = ms, .w_want = want, .w_res = res };
	size_t i;
	int err = -ENOMEM;

	if (am_expiry_statmount())
		return am_mounts_expiry_statmount(ms, want, res);
	for (i = 0; i < ms->ms_n; i++)
		res[i].mx_err = -ENOENT;
	if (!am_expiry_present())
		return -ENOSYS;
	if (!ms->ms_n)
		return 0;
	w.w_way = calloc(ms->ms_n, sizeof(*w.w_way));
	w.w_claimed = calloc(ms->ms_n, sizeof(*w.w_claimed));
	w.w_kids = calloc(ms->ms_n, sizeof(*w.w_kids));
	w.w_ids = calloc(ms->ms_n, sizeof(*w.w_ids));
	if (w.w_way && w.w_claimed && w.w_kids && w.w_ids) {
		mw_index_build(&w);
		err = mw_walk(&w);
	}
	free(w.w_way);
	free(w.w_claimed);
	free(w.w_kids);
	free(w.w_ids);
	return err;
}
