// SPDX-License-Identifier: GPL-2.0
/*
 * The mounts of one lookup, all or nothing.  Everything that can fail for
 * a reason of its own (a mount module, the kernel refusing a trigger, an
 * offset's directory) fails before anything is attached.  From the first
 * attach on, SIGTERM and SIGALRM wait: the target, its expiry and its
 * triggers are attached together, and a failure among them unmounts the
 * target again.  So a lookup either ends with the whole tree, expiring as
 * the map says, and exit code 0, or leaves nothing and says why.  The
 * kernel's own agent timeout (SIGKILL) is the bound left; autofsng(5).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "am_mount.h"
#include "am_plan.h"
#include "am_util.h"

void am_plan_free(struct am_plan *lp)
{
	size_t i;

	if (lp->lp_fd >= 0)
		close(lp->lp_fd);
	for (i = 0; lp->lp_kidfd && i < lp->lp_nkids; i++) {
		if (lp->lp_kidfd[i] >= 0)
			close(lp->lp_kidfd[i]);
		if (lp->lp_kiddir[i] >= 0)
			close(lp->lp_kiddir[i]);
	}
	free(lp->lp_kidfd);
	free(lp->lp_kiddir);
	free(lp->lp_kids);
}

int am_plan_make(const struct am_entry *e, const char *offset, struct am_plan *lp)
{
	size_t i;

	memset(lp, 0, sizeof(*lp));
	lp->lp_fd = -1;
	lp->lp_offset = offset;
	lp->lp_mnt = am_entry_find(e, offset);
	if (!lp->lp_mnt && !(e->en_multi && !strcmp(offset, "/")))
		return AM_EXIT_NOKEY;
	lp->lp_kids = calloc(e->en_nmnts + 1, sizeof(*lp->lp_kids));
	lp->lp_kidfd = calloc(e->en_nmnts + 1, sizeof(*lp->lp_kidfd));
	lp->lp_kiddir = calloc(e->en_nmnts + 1, sizeof(*lp->lp_kiddir));
	if (!lp->lp_kids || !lp->lp_kidfd || !lp->lp_kiddir)
		return AM_EXIT_INTERNAL;
	for (i = 0; i < e->en_nmnts; i++)
		if (am_offset_child(e, offset, e->en_mnts[i].mn_offset)) {
			lp->lp_kidfd[lp->lp_nkids] = -1;
			lp->lp_kiddir[lp->lp_nkids] = -1;
			lp->lp_kids[lp->lp_nkids++] = &e->en_mnts[i];
		}
	return AM_EXIT_OK;
}

/* A kid's directory relative to the target ("/a" under "/" is "a"). */
static const char *plan_rel(const struct am_plan *lp, const struct am_mnt *kid)
{
	size_t n = strcmp(lp->lp_offset, "/") ? strlen(lp->lp_offset) : 0;

	return kid->mn_offset + n + 1;
}

/*
 * The read-only tmpfs that holds the offsets of a multi-mount without a
 * root entry, one directory per child.  Returns: its fd or -errno.
 */
static int plan_holder(const struct am_request *rq, const struct am_plan *lp)
{
	const char **dirs = calloc(lp->lp_nkids + 1, sizeof(*dirs));
	size_t i;
	int fd;

	if (!dirs)
		return -ENOMEM;
	for (i = 0; i < lp->lp_nkids; i++)
		dirs[i] = plan_rel(lp, lp->lp_kids[i]);
	fd = am_mount_holder(dirs, lp->lp_nkids);
	free(dirs);
	if (fd < 0)
		am_log(LOG_ERR, "map %s: key %s: tmpfs for the offsets: %s",
		       rq->rq_map, rq->rq_key, strerror(-fd));
	return fd;
}

/*
 * Every trigger of a plan is held open until it is attached, with its
 * directory: let a host with hundreds of exports have the descriptors.
 */
static void plan_fd_room(size_t nfds)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= nfds + 64)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > nfds + 64 ?
		      nfds + 64 : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		am_log(LOG_WARNING, "raising the open file limit to %llu: %s",
		       (unsigned long long)rl.rlim_cur, strerror(errno));
}

static int plan_open_dir(int rootfd, const char *rel)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV |
			   RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/*
 * The directories of the triggers, in the detached target.  One the target
 * does not have is skipped with a warning, as autofs-tools skips an offset
 * it cannot mount (its default, nonstrict); the rest of the tree is served.
 */
static void plan_open_dirs(const struct am_request *rq, struct am_plan *lp)
{
	size_t i;
	int fd;

	for (i = 0; i < lp->lp_nkids; i++) {
		fd = plan_open_dir(lp->lp_fd, plan_rel(lp, lp->lp_kids[i]));
		if (fd < 0)
			am_log(LOG_WARNING, "map %s: key %s: offset %s: no directory for it "
			       "in the mount (%s): skipped", rq->rq_map, rq->rq_key,
			       lp->lp_kids[i]->mn_offset, strerror(-fd));
		lp->lp_kiddir[i] = fd;
	}
}

int am_plan_build(struct am_ctx *ctx, const struct am_request *rq,
		  const struct am_resolved *rs, struct am_plan *lp)
{
	struct am_trigger tg = {
		.tg_map = rq->rq_map, .tg_direct = true, .tg_key = rq->rq_key,
		.tg_opt = rq->rq_options,
		.tg_negative_timeout = rs->rs_mo.mo_negative_timeout >= 0 ?
			(unsigned int)rs->rs_mo.mo_negative_timeout :
			ctx->ac_conf.cf_negative_timeout,
		.tg_cache_ttl = ctx->ac_conf.cf_cache_ttl,
	};
	struct am_build ab = {
		.ab_propagation = rs->rs_mo.mo_propagation,
		.ab_foreign = rs->rs_trust != AM_TRUST_LOCAL,
	};
	size_t i;

	plan_fd_room(2 * lp->lp_nkids);
	if (lp->lp_mnt && lp->lp_mnt->mn_nlocs)
		lp->lp_fd = am_mount_build(ctx, lp->lp_mnt, &ab);
	else
		lp->lp_fd = plan_holder(rq, lp);
	if (lp->lp_fd < 0)
		return lp->lp_fd == -ENOMEM ? AM_EXIT_INTERNAL : AM_EXIT_MOUNT;
	for (i = 0; i < lp->lp_nkids; i++) {
		tg.tg_offset = lp->lp_kids[i]->mn_offset;
		lp->lp_kidfd[i] = am_trigger_build(&tg);
		if (lp->lp_kidfd[i] < 0)	/* am_trigger_build() said why */
			return lp->lp_kidfd[i] == -ENOMEM ? AM_EXIT_INTERNAL : AM_EXIT_MOUNT;
	}
	plan_open_dirs(rq, lp);
	return AM_EXIT_OK;
}

/*
 * The target is attached and something after it failed: detach it, with
 * whatever is on it and the copies propagation made.  The requester's
 * namespace may have mounted something on it meanwhile; then it stays
 * (mount.c), with what it has.
 */
static void plan_unwind(const struct am_request *rq, const struct am_plan *lp)
{
	int err = am_mount_detach(lp->lp_fd, lp->lp_kidfd, lp->lp_nkids);

	if (err)
		am_log(LOG_ERR, "map %s: key %s: unmounting what was attached: %s%s",
		       rq->rq_map, rq->rq_key, strerror(-err), err == -EBUSY ?
		       " (something else was mounted on it meanwhile: what was attached stays)" :
		       "");
	else
		am_log(LOG_ERR, "map %s: key %s: what was attached is unmounted again",
		       rq->rq_map, rq->rq_key);
}

/* One trigger onto its directory, SUBTREEEXPIRE when the tree expires. */
static int plan_attach_kid(struct am_ctx *ctx, const struct am_plan *lp, size_t i,
			   bool expires)
{
	int err = am_mount_attach(lp->lp_kidfd[i], lp->lp_kiddir[i]);

	if (!err && expires)
		err = am_expiry_set(ctx, lp->lp_kidfd[i], MOUNTFD_EXPIRE_SUBTREE, 0);
	return err == -ENOSYS ? 0 : err;
}

/*
 * Below the attached target: its expiry, then the triggers.  A multi-mount
 * expires as one tree (expire_semantics.rst): its root is EXPIRE with the
 * map's timeout, and every mount below it, the offset triggers and what is
 * later mounted on them, is SUBTREEEXPIRE.  A mount below the root that is
 * not SUBTREEEXPIRE keeps the tree busy forever, and SUBTREEEXPIRE on the
 * root fails under a NOEXPIRE trigger.  --timeout=0 is "never unmount", as
 * for autofs-tools: no policy.  A kernel without expiry (ENOSYS) was named
 * once by am_expiry_set().  Returns: 0, -errno with what failed in WHAT.
 */
static int plan_attach_below(struct am_ctx *ctx, const struct am_resolved *rs,
			     const struct am_plan *lp, char *what, size_t len)
{
	bool in_tree = rs->rs_entry.en_multi && strcmp(lp->lp_offset, "/");
	unsigned int policy = in_tree ? MOUNTFD_EXPIRE_SUBTREE : MOUNTFD_EXPIRE_MOUNT;
	bool expires = rs->rs_timeout;
	int err;
	size_t i;

	if (!in_tree && rs->rs_strictexpire)
		policy |= MOUNTFD_EXPIRE_STRICT;
	snprintf(what, len, "setting its expiry");
	err = expires ? am_expiry_set(ctx, lp->lp_fd, policy, rs->rs_timeout) : 0;
	if (err == -ENOSYS)
		expires = false, err = 0;
	for (i = 0; !err && i < lp->lp_nkids; i++) {
		snprintf(what, len, "offset %.100s", lp->lp_kids[i]->mn_offset);
		if (lp->lp_kiddir[i] >= 0)
			err = plan_attach_kid(ctx, lp, i, expires);
	}
	return err;
}

int am_plan_attach(struct am_ctx *ctx, const struct am_request *rq,
		   const struct am_resolved *rs, struct am_plan *lp, int mountfd)
{
	char what[128] = "attaching the mount";
	bool attached;
	int err;

	am_signals_hold();
	err = am_mount_attach(lp->lp_fd, mountfd);
	attached = !err;
	if (attached)
		err = plan_attach_below(ctx, rs, lp, what, sizeof(what));
	if (!err)
		return AM_EXIT_OK;
	am_log(LOG_ERR, "map %s: key %s: %s: %s", rq->rq_map, rq->rq_key, what,
	       strerror(-err));
	if (attached)
		plan_unwind(rq, lp);
	return AM_EXIT_MOUNT;
}
