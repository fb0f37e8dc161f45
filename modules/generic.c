// SPDX-License-Identifier: GPL-2.0
/*
 * The generic mount module: any filesystem through the new mount API,
 * fsopen(fstype) + fsconfig(source, options) + fsmount.  Options that are
 * per-mount flags (ro, nosuid...) become mount attributes, "ro" also goes to
 * the superblock; everything else is passed to fsconfig as key[=value].
 * A device specifier and fstype=auto are read as mount(8) reads them
 * (blkdev.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <syslog.h>
#include <unistd.h>

#include "am_blkdev.h"
#include "am_mntattr.h"
#include "am_util.h"
#include "am_module.h"

struct generic_ctx {
	const struct am_mount_req *req;
	const char *fstype;	/* the request's, or what fstype=auto found */
	char *source;		/* the location, a device specifier resolved */
	char probed[64];
	int fsfd;
};

static void generic_fserr(const struct generic_ctx *g, const char *what)
{
	const struct am_host *h = g->req->mr_host;
	char msg[256];
	ssize_t n;

	/* the filesystem's own explanation, when it gave one */
	n = read(g->fsfd, msg, sizeof(msg) - 1);
	if (n > 0) {
		msg[n] = '\0';
		msg[strcspn(msg, "\n")] = '\0';
		/* the fs_context log tags each line "e ", "w " or "i " */
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount of %s: %s: %s", g->fstype,
			  g->req->mr_locs[0].al_path, what,
			  msg[0] && msg[1] == ' ' && strchr("ewi", msg[0]) ? msg + 2 : msg);
	} else {
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount of %s: %s", g->fstype,
			  g->req->mr_locs[0].al_path, what);
	}
}

static int generic_opt(const char *opt, void *arg)
{
	struct generic_ctx *g = arg;
	const char *eq = strchr(opt, '=');
	char key[256];
	int ret;

	if (!eq) {
		ret = fsconfig(g->fsfd, FSCONFIG_SET_FLAG, opt, NULL, 0);
	} else {
		snprintf(key, sizeof(key), "%.*s", (int)(eq - opt), opt);
		ret = fsconfig(g->fsfd, FSCONFIG_SET_STRING, key, eq + 1, 0);
	}
	if (ret) {
		ret = -errno;
		generic_fserr(g, opt);
		return ret;
	}
	return 0;
}

/*
 * What to mount, as mount(8) reads it: a device specifier (LABEL=...) is
 * the device that has it, and fstype=auto the filesystem found on it.
 * Returns: 0, -errno (logged).
 */
static int generic_source(struct generic_ctx *g)
{
	const struct am_host *h = g->req->mr_host;
	const char *loc = g->req->mr_locs[0].al_path;
	bool probe = !strcmp(g->fstype, "auto");
	char err[256] = "out of memory";
	int ret;

	if (probe && loc[0] != '/' && !am_device_tag(loc)) {
		h->ah_log(h->ah_ctx, LOG_ERR, "auto mount of %s: fstype=auto needs a device "
			  "(a path or LABEL=, UUID=, PARTUUID=, PARTLABEL=)", loc);
		return -EINVAL;
	}
	ret = am_blkdev_resolve(loc, &g->source, err, sizeof(err));
	if (!ret && probe) {
		ret = am_blkdev_fstype(g->source, g->probed, sizeof(g->probed), err, sizeof(err));
		if (!ret)
			g->fstype = g->probed;
	}
	if (ret) {
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount of %s: %s", g->req->mr_fstype, loc, err);
		return ret;
	}
	if (strcmp(loc, g->source) || g->fstype == g->probed)
		h->ah_log(h->ah_ctx, LOG_INFO, "%s mount of %s: %s %s", g->req->mr_fstype, loc,
			  g->fstype, g->source);
	return 0;
}

/* The superblock's configuration, from the source on.  Returns: 0, -errno (logged). */
static int generic_configure(struct generic_ctx *g, uint64_t *attr)
{
	int err;

	if (fsconfig(g->fsfd, FSCONFIG_SET_STRING, "source", g->source, 0)) {
		err = -errno;
		generic_fserr(g, "source");
		return err;
	}
	err = am_mntattr_split(g->req->mr_options, attr, generic_opt, g);
	if (err)
		return err;
	if ((*attr & MOUNT_ATTR_RDONLY) &&
	    fsconfig(g->fsfd, FSCONFIG_SET_FLAG, "ro", NULL, 0)) {
		err = -errno;
		generic_fserr(g, "ro");
		return err;
	}
	if (fsconfig(g->fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		err = -errno;
		generic_fserr(g, "create");
		return err;
	}
	return 0;
}

/* fsopen, configure, fsmount.  Returns: the detached mount's fd, -errno (logged). */
static int generic_fsmount(struct generic_ctx *g)
{
	const struct am_host *h = g->req->mr_host;
	uint64_t attr;
	int fd;

	g->fsfd = fsopen(g->fstype, FSOPEN_CLOEXEC);
	if (g->fsfd < 0) {
		fd = -errno;
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount of %s: fsopen: %s%s", g->fstype,
			  g->req->mr_locs[0].al_path, strerror(errno),
			  errno == ENODEV ? " (this kernel has no such filesystem)" : "");
		return fd;
	}
	fd = generic_configure(g, &attr);
	if (!fd) {
		fd = fsmount(g->fsfd, FSMOUNT_CLOEXEC, (unsigned int)attr);
		if (fd < 0) {
			fd = -errno;
			generic_fserr(g, "fsmount");
		}
	}
	close(g->fsfd);
	return fd;
}

static int generic_mount(const struct am_mount_req *req)
{
	struct generic_ctx g = { .req = req, .fstype = req->mr_fstype, .fsfd = -1 };
	const struct am_host *h = req->mr_host;
	int ret;

	if (req->mr_nlocs < 1 || !req->mr_fstype)
		return -EINVAL;
	if (req->mr_locs[0].al_host) {
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount: location %s:%s names a host",
			  req->mr_fstype, req->mr_locs[0].al_host, req->mr_locs[0].al_path);
		return -EINVAL;
	}
	ret = generic_source(&g);
	if (!ret)
		ret = generic_fsmount(&g);
	free(g.source);
	return ret;
}

static const char *const generic_fstypes[] = { "*", NULL };

AM_MOUNT_MODULE(generic) = {
	.abi = AM_MOUNT_ABI,
	.size = sizeof(struct am_mount_ops),
	.name = "generic",
	.fstypes = generic_fstypes,
	.mount = generic_mount,
};
