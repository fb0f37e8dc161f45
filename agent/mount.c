// SPDX-License-Identifier: GPL-2.0
/*
 * Mounts the agent makes: through a mount module (detached), a tmpfs holder
 * for a multi-mount without a root, autofsng triggers; attaching them with
 * move_mount; their expiry policy is expiry.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "am_mount.h"
#include "am_mount_abi.h"
#include "am_stage.h"
#include "am_util.h"

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

const char *am_mount_module_name(const struct am_mnt *m)
{
	const char *name = am_module_for_fstype(m->mn_fstype);
	size_t i;

	if (!strcmp(m->mn_fstype, "autofs"))
		return "autofsng (a nested trigger)";
	/* nfs with only local paths ("server-less" :/path) is a bind mount */
	if (strcmp(name, "nfs"))
		return name;
	for (i = 0; i < m->mn_nlocs; i++)
		if (m->mn_locs[i].al_host)
			return name;
	return "bind";
}

/*
 * fstype=autofs: a nested indirect trigger for the map its location names,
 * where autofs-tools would start a submount.  Returns: a mount fd, -errno.
 */
static int mount_submap(struct am_ctx *ctx, const struct am_mnt *m, bool foreign)
{
	struct am_trigger tg = {
		.tg_browse = ctx->ac_conf.cf_browse,
		.tg_negative_timeout = ctx->ac_conf.cf_negative_timeout,
		.tg_cache_ttl = ctx->ac_conf.cf_cache_ttl,
	};
	char *opt;
	int fd;

	if (m->mn_nlocs != 1 || m->mn_locs[0].al_host) {
		am_log(LOG_ERR, "fstype=autofs at %s: the location must be one map name",
		       m->mn_offset);
		return -EINVAL;
	}
	opt = am_submap_options(m->mn_options, foreign, &tg.tg_browse);
	if (!opt)
		return -ENOMEM;
	tg.tg_map = m->mn_locs[0].al_path;
	tg.tg_opt = opt;
	fd = am_trigger_build(&tg);
	free(opt);
	return fd;
}

int am_mount_build(struct am_ctx *ctx, const struct am_mnt *m, const struct am_build *ab)
{
	const char *name = am_mount_module_name(m);
	const struct am_mount_ops *ops;
	struct am_mount_req req = {
		.mr_size = sizeof(req),
		.mr_fstype = m->mn_fstype,
		.mr_locs = m->mn_locs,
		.mr_nlocs = m->mn_nlocs,
		.mr_options = m->mn_options,
		.mr_timeout_ms = ctx->ac_conf.cf_mount_timeout * 1000,
		.mr_host = &ctx->ac_host,
		.mr_propagation = ab->ab_propagation,
	};
	const void *p;
	int err;

	if (!strcmp(m->mn_fstype, "autofs"))
		return mount_submap(ctx, m, ab->ab_foreign);
	err = am_module_load(ctx, AM_MODULE_MOUNT, name, &p);
	if (err)
		return err;
	ops = p;
	if (!strcmp(name, "bind") && !strcmp(m->mn_fstype, "nfs"))
		req.mr_fstype = "bind";
	return ops->mount(&req);
}

/* mkdir -p REL below the directory DIRFD. */
static int holder_mkdirs(int dirfd, const char *rel)
{
	char *p, *slash;
	int err = 0;

	p = strdup(rel);
	if (!p)
		return -ENOMEM;
	for (slash = strchr(p, '/'); ; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (mkdirat(dirfd, p, 0755) && errno != EEXIST) {
			err = -errno;
			break;
		}
		if (!slash)
			break;
		*slash = '/';
	}
	free(p);
	return err;
}

int am_mount_holder(const char *const *dirs, size_t ndirs)
{
	struct mount_attr ma = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					     MOUNT_ATTR_NODEV };
	int fsfd, fd, err;
	size_t i;

	fsfd = fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -errno;
	if (fsconfig(fsfd, FSCONFIG_SET_STRING, "mode", "0755", 0) ||
	    fsconfig(fsfd, FSCONFIG_SET_STRING, "size", "64k", 0) ||
	    fsconfig(fsfd, FSCONFIG_SET_STRING, "source", "autofs", 0) ||
	    fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		err = -errno;
		close(fsfd);
		return err;
	}
	fd = fsmount(fsfd, FSMOUNT_CLOEXEC, 0);
	err = fd < 0 ? -errno : 0;
	close(fsfd);
	if (err)
		return err;
	for (i = 0; i < ndirs && !err; i++)
		err = holder_mkdirs(fd, dirs[i]);
	if (!err && syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH, &ma, sizeof(ma)))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

static int trigger_set(int fsfd, const char *key, const char *value)
{
	if (value)
		return fsconfig(fsfd, FSCONFIG_SET_STRING, key, value, 0) ? -errno : 0;
	return fsconfig(fsfd, FSCONFIG_SET_FLAG, key, NULL, 0) ? -errno : 0;
}

static void trigger_fserr(int fsfd, const struct am_trigger *tg, const char *what, int err)
{
	char msg[256], *m = msg;
	ssize_t n = read(fsfd, msg, sizeof(msg) - 1);

	msg[n > 0 ? n : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	/* the fs_context log tags each line "e ", "w " or "i " */
	if (m[0] && m[1] == ' ' && strchr("ewi", m[0]))
		m += 2;
	am_log(LOG_ERR, "autofsng trigger for %s (%s): %s: %s%s%s", tg->tg_map,
	       tg->tg_key ? tg->tg_key : "indirect", what, strerror(-err),
	       *m ? ": " : "", m);
}

int am_trigger_build(const struct am_trigger *tg)
{
	char neg[16], ttl[16];
	const char *what;
	int fsfd, fd, err;

	fsfd = fsopen("autofsng", FSOPEN_CLOEXEC);
	if (fsfd < 0) {
		err = -errno;
		am_log(LOG_ERR, "autofsng trigger for %s: fsopen(\"autofsng\"): %s%s", tg->tg_map,
		       strerror(errno), errno == ENODEV ?
		       " (kernel without autofsng filesystem: boot one with the autofsng series)" : "");
		return err;
	}
	snprintf(neg, sizeof(neg), "%u", tg->tg_negative_timeout);
	snprintf(ttl, sizeof(ttl), "%u", tg->tg_cache_ttl);
	err = trigger_set(fsfd, what = "source", tg->tg_map);
	err = err ? err : trigger_set(fsfd, what = tg->tg_direct ? "direct" : "indirect", NULL);
	err = err ? err : trigger_set(fsfd, what = tg->tg_browse ? "browse" : "nobrowse", NULL);
	if (!err && tg->tg_key)
		err = trigger_set(fsfd, what = "mapkey", tg->tg_key);
	if (!err && tg->tg_offset)
		err = trigger_set(fsfd, what = "mapoffset", tg->tg_offset);
	if (!err && tg->tg_opt && *tg->tg_opt)
		err = trigger_set(fsfd, what = "opt", tg->tg_opt);
	err = err ? err : trigger_set(fsfd, what = "negative_timeout", neg);
	err = err ? err : trigger_set(fsfd, what = "cache_ttl", ttl);
	if (!err && fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		err = -errno, what = "create";
	if (err) {
		trigger_fserr(fsfd, tg, what, err);
		close(fsfd);
		return err;
	}
	fd = fsmount(fsfd, FSMOUNT_CLOEXEC, 0);
	err = fd < 0 ? -errno : 0;
	if (err)
		trigger_fserr(fsfd, tg, "fsmount", err);
	close(fsfd);
	return err ? err : fd;
}

int am_mount_attach(int fd, int dirfd)
{
	if (move_mount(fd, "", dirfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH))
		return -errno;
	return 0;
}

static int detach_mountfd(int fd)
{
	int mfd = am_mountfd_open(fd), err = 0;

	if (mfd < 0)
		return mfd;
	if (ioctl(mfd, MOUNTFD_IOC_DETACH))
		err = -errno;
	close(mfd);
	return err;
}

/* Whether the mount ID is one of the KID IDs. */
static bool detach_is_kid(unsigned long long id, const unsigned long long *kid, size_t nkids)
{
	size_t k;

	for (k = 0; k < nkids; k++)
		if (kid[k] == id)
			return true;
	return false;
}

/*
 * Whether a mount other than KIDS is mounted in the mount ID: their IDs
 * are read once, the children's a page at a time.  Returns: bool.
 */
static bool detach_stranger(unsigned long long id, const int *kids, size_t nkids)
{
	unsigned long long ids[64], last = 0, *kid = calloc(nkids + 1, sizeof(*kid));
	bool stranger = false;
	long n = -ENOMEM, i;
	size_t k;

	for (k = 0; kid && k < nkids; k++)
		if (kids[k] < 0 || am_mnt_id_unique(kids[k], &kid[k]))
			kid[k] = 0;	/* no unique ID is 0 */
	do {
		n = kid ? am_listmount_children(id, last, ids, 64) : n;
		for (i = 0; i < n && !stranger; i++)
			stranger = !detach_is_kid(ids[i], kid, nkids);
		last = n > 0 ? ids[n - 1] : last;
	} while (n == 64 && !stranger);
	free(kid);
	return stranger || n < 0;
}

/* umount2(MNT_DETACH) of the root of FD: the topmost mount there.  Returns: 0, -errno. */
static int detach_by_path(int fd)
{
	int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fchdir(fd) || umount2(".", MNT_DETACH))
		err = -errno;
	if (cwd >= 0) {
		if (fchdir(cwd))
			err = err ? err : -errno;
		close(cwd);
	}
	return err;
}

/*
 * By the root, when only KIDS are mounted in FD (6.12); the path names the
 * topmost mount there, so the target must be gone after it.  A kernel that
 * cannot tell mounts apart (no unique IDs) gets no unwind.
 * Returns: 0, -EBUSY, -errno.
 */
static int detach_by_root(int fd, const int *kids, size_t nkids)
{
	struct am_statmount sm;
	unsigned long long id;
	int err;

	if (am_mnt_id_unique(fd, &id))
		return -EOPNOTSUPP;
	if (detach_stranger(id, kids, nkids))
		return -EBUSY;
	err = detach_by_path(fd);
	if (!err && am_statmount_expiry(id, &sm) != -ENOENT)
		err = -EBUSY;	/* something was mounted on top meanwhile: it went */
	return err;
}

int am_mount_detach(int fd, const int *kids, size_t nkids)
{
	int err;

	if (!am_expiry_mountfd())
		return detach_by_root(fd, kids, nkids);
	err = detach_mountfd(fd);
	/*
	 * The 6.1 series' DETACH refuses a mount whose parent is shared (it
	 * would move a tree propagation copied); 6.1 can list no children to
	 * check, so there the root's path it is (autofs-agent(8)).
	 */
	return err == -EINVAL ? detach_by_path(fd) : err;
}
