// SPDX-License-Identifier: GPL-2.0
/*
 * The expiry of mounts through listmount(2) and statmount(2), on a kernel
 * with the 6.12 series (expiry.c): every mount the caller's root reaches,
 * by its unique ID, matched to its mountinfo line by the old ID statmount
 * also gives.  No path is walked, so looking is no use of a mount
 * (expire_semantics.rst), whoever looks.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "am_mount.h"
#include "am_mount_abi.h"
#include "am_mountinfo.h"

#define LSMT_PAGE	256
#define AM_LSMT_ROOT	0xffffffffffffffffULL

/* Up to LSMT_PAGE unique IDs after LAST.  Returns: how many, -errno. */
static long listmount_page(__u64 last, __u64 *ids)
{
	struct am_mnt_id_req req = {
		.size = AM_MNT_ID_REQ_SIZE_VER0,
		.mnt_id = AM_LSMT_ROOT,
		.param = last,
	};
	long n = syscall(__NR_listmount, &req, ids, LSMT_PAGE, 0);

	return n < 0 ? -errno : n;
}

long am_listmount_children(unsigned long long id, unsigned long long last,
			   unsigned long long *ids, size_t max)
{
	struct am_mnt_id_req req = {
		.size = AM_MNT_ID_REQ_SIZE_VER0,
		.mnt_id = id,
		.param = last,
	};
	long n = syscall(__NR_listmount, &req, (__u64 *)ids, max, 0);

	return n < 0 ? -errno : n;
}

/* Fill RES for the mount ID when MS has it and WANT marks it. */
static void stat_one(const struct am_mounts *ms, const bool *want, __u64 id,
		     struct am_mi_expiry *res)
{
	const struct am_mi *mi;
	struct am_statmount sm;
	size_t i;

	if (am_statmount_expiry(id, &sm))
		return;		/* gone since it was listed */
	mi = am_mounts_id(ms, (int)sm.mnt_id_old);
	if (!mi)
		return;
	i = (size_t)(mi - ms->ms_v);
	if (!want[i])
		return;
	res[i].mx_err = 0;
	memset(&res[i].mx_me, 0, sizeof(res[i].mx_me));
	res[i].mx_me.me_policy = sm.expire_policy;
	res[i].mx_me.me_timeout = sm.expire_timeout;
	res[i].mx_me.me_remaining = sm.expire_remaining;
}

int am_mounts_expiry_statmount(const struct am_mounts *ms, const bool *want,
			       struct am_mi_expiry *res)
{
	__u64 ids[LSMT_PAGE], last = 0;
	long n, k;
	size_t i;

	for (i = 0; i < ms->ms_n; i++)
		res[i].mx_err = -ENOENT;
	do {
		n = listmount_page(last, ids);
		if (n < 0)
			return (int)n;
		for (k = 0; k < n; k++)
			stat_one(ms, want, ids[k], res);
		if (n)
			last = ids[n - 1];
	} while (n == LSMT_PAGE);
	return 0;
}
