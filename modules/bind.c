// SPDX-License-Identifier: GPL-2.0
/*
 * The bind mount module: a detached clone of a local directory
 * (bindclone.c), "rbind" for the whole subtree, with the per-mount flags of
 * the options and the propagation of the master map.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "am_bindclone.h"
#include "am_mntattr.h"
#include "am_module.h"

struct bind_opts {
	const struct am_mount_req *req;
	bool recursive;
};

static int bind_opt(const char *opt, void *arg)
{
	struct bind_opts *bo = arg;
	const struct am_host *h = bo->req->mr_host;

	if (!strcmp(opt, "rbind")) {
		bo->recursive = true;
		return 0;
	}
	if (!strcmp(opt, "bind"))
		return 0;
	h->ah_log(h->ah_ctx, LOG_INFO, "bind mount of %s: option '%s' ignored",
		  bo->req->mr_locs[0].al_path, opt);
	return 0;
}

static int bind_mount(const struct am_mount_req *req)
{
	struct bind_opts bo = { .req = req };
	const struct am_host *h = req->mr_host;
	const char *path;
	uint64_t attr;
	struct stat st;
	char why[512];
	int fd, err;

	if (req->mr_nlocs < 1)
		return -EINVAL;
	/* replicated local locations: the first one that exists */
	path = req->mr_locs[0].al_path;
	for (size_t i = 0; i < req->mr_nlocs; i++) {
		if (req->mr_locs[i].al_host) {
			h->ah_log(h->ah_ctx, LOG_ERR, "bind mount: location %s:%s names a host; "
				  "a bind mount is of a local path", req->mr_locs[i].al_host,
				  req->mr_locs[i].al_path);
			return -EINVAL;
		}
		path = req->mr_locs[i].al_path;
		if (path[0] == '/' && !stat(path, &st))
			break;
	}
	if (path[0] != '/') {
		h->ah_log(h->ah_ctx, LOG_ERR, "bind mount: '%s' is not an absolute path", path);
		return -EINVAL;
	}
	err = am_mntattr_split(req->mr_options, &attr, bind_opt, &bo);
	if (err)
		return err;
	fd = am_bind_clone(path, bo.recursive, attr, am_mount_req_propagation(req), why, sizeof(why));
	if (fd < 0)
		h->ah_log(h->ah_ctx, LOG_ERR, "bind mount: %s", why);
	return fd;
}

static const char *const bind_fstypes[] = { "bind", "rbind", NULL };

AM_MOUNT_MODULE(bind) = {
	.abi = AM_MOUNT_ABI,
	.size = sizeof(struct am_mount_ops),
	.name = "bind",
	.fstypes = bind_fstypes,
	.mount = bind_mount,
};
