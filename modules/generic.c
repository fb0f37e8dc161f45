// SPDX-License-Identifier: GPL-2.0
/*
 * The generic mount module: any filesystem through the new mount API,
 * fsopen(fstype) + fsconfig(source, options) + fsmount.  Options that are
 * per-mount flags (ro, nosuid...) become mount attributes, "ro" also goes to
 * the superblock; everything else is passed to fsconfig as key[=value].
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <syslog.h>
#include <unistd.h>

#include "am_mntattr.h"
#include "am_module.h"

struct generic_ctx {
	const struct am_mount_req *req;
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
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount of %s: %s: %s", g->req->mr_fstype,
			  g->req->mr_locs[0].al_path, what,
			  msg[0] && msg[1] == ' ' && strchr("ewi", msg[0]) ? msg + 2 : msg);
	} else {
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount of %s: %s", g->req->mr_fstype,
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

static int generic_mount(const struct am_mount_req *req)
{
	struct generic_ctx g = { .req = req };
	const struct am_host *h = req->mr_host;
	uint64_t attr;
	int fd, err;

	if (req->mr_nlocs < 1 || !req->mr_fstype)
		return -EINVAL;
	if (req->mr_locs[0].al_host) {
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount: location %s:%s names a host",
			  req->mr_fstype, req->mr_locs[0].al_host, req->mr_locs[0].al_path);
		return -EINVAL;
	}
	g.fsfd = fsopen(req->mr_fstype, FSOPEN_CLOEXEC);
	if (g.fsfd < 0) {
		err = -errno;
		h->ah_log(h->ah_ctx, LOG_ERR, "%s mount of %s: fsopen: %s", req->mr_fstype,
			  req->mr_locs[0].al_path, strerror(errno));
		return err;
	}
	if (fsconfig(g.fsfd, FSCONFIG_SET_STRING, "source", req->mr_locs[0].al_path, 0)) {
		err = -errno;
		generic_fserr(&g, "source");
		goto close_fs;
	}
	err = am_mntattr_split(req->mr_options, &attr, generic_opt, &g);
	if (err)
		goto close_fs;
	if ((attr & MOUNT_ATTR_RDONLY) &&
	    fsconfig(g.fsfd, FSCONFIG_SET_FLAG, "ro", NULL, 0)) {
		err = -errno;
		generic_fserr(&g, "ro");
		goto close_fs;
	}
	if (fsconfig(g.fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		err = -errno;
		generic_fserr(&g, "create");
		goto close_fs;
	}
	fd = fsmount(g.fsfd, FSMOUNT_CLOEXEC, (unsigned int)attr);
	if (fd < 0) {
		err = -errno;
		generic_fserr(&g, "fsmount");
		goto close_fs;
	}
	close(g.fsfd);
	return fd;
close_fs:
	close(g.fsfd);
	return err;
}

static const char *const generic_fstypes[] = { "*", NULL };

AM_MOUNT_MODULE(generic) = {
	.abi = AM_MOUNT_ABI,
	.size = sizeof(struct am_mount_ops),
	.name = "generic",
	.fstypes = generic_fstypes,
	.mount = generic_mount,
};
