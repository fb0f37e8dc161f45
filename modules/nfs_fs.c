// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of one mount attempt.  Errors are taken from the
 * fs_context log of the fsopen() fd: errno alone says EINVAL, the log says
 * which option and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>

#include "nfs_fs.h"

/* Append the kernel's messages ("e NFS: ...") to ERR, "; "-separated. */
static void nfs_fs_drain_log(int fsfd, char *err, size_t errlen)
{
	char msg[512];
	size_t used;
	ssize_t n;

	for (;;) {
		n = read(fsfd, msg, sizeof(msg) - 1);
		if (n <= 0)
			break;
		msg[n] = '\0';
		if (n > 0 && msg[n - 1] == '\n')
			msg[n - 1] = '\0';
		used = strlen(err);
		snprintf(err + used, errlen - used, "%s%s", used ? "; " : "",
			 (msg[0] && msg[1] == ' ') ? msg + 2 : msg);
	}
}

static int nfs_fs_set(int fsfd, const char *key, const char *val, char *err,
		      size_t errlen)
{
	int ret;

	if (val)
		ret = fsconfig(fsfd, FSCONFIG_SET_STRING, key, val, 0);
	else
		ret = fsconfig(fsfd, FSCONFIG_SET_FLAG, key, NULL, 0);
	if (ret == 0)
		return 0;
	ret = -errno;
	snprintf(err, errlen, "option '%s%s%s' refused (%s): ", key,
		 val ? "=" : "", val ? val : "", strerror(-ret));
	nfs_fs_drain_log(fsfd, err, errlen);
	return ret;
}

static int nfs_fs_configure(int fsfd, const struct nfs_fs_args *a, char *err,
			    size_t errlen)
{
	const struct nfs_opts *o = a->fa_opts;
	size_t i;
	int ret;

	ret = nfs_fs_set(fsfd, "source", a->fa_source, err, errlen);
	if (!ret)
		ret = nfs_fs_set(fsfd, "addr", a->fa_addr, err, errlen);
	if (!ret && a->fa_vers)
		ret = nfs_fs_set(fsfd, "vers", a->fa_vers, err, errlen);
	for (i = 0; !ret && i < o->no_nparams; i++)
		ret = nfs_fs_set(fsfd, o->no_params[i].np_key,
				 o->no_params[i].np_val, err, errlen);
	if (!ret && o->no_ro)
		ret = nfs_fs_set(fsfd, "ro", NULL, err, errlen);
	return ret;
}

int nfs_fs_mount(const struct nfs_fs_args *a, char *err, size_t errlen,
		 bool *refused)
{
	int fsfd, mfd, ret;

	err[0] = '\0';
	*refused = false;
	fsfd = fsopen("nfs", FSOPEN_CLOEXEC);
	if (fsfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "fsopen(nfs): %s", strerror(-ret));
		return ret;
	}
	ret = nfs_fs_configure(fsfd, a, err, errlen);
	if (ret) {
		*refused = true;
		goto out_close;
	}
	if (fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: ", strerror(-ret));
		nfs_fs_drain_log(fsfd, err, errlen);
		goto out_close;
	}
	mfd = fsmount(fsfd, FSMOUNT_CLOEXEC, a->fa_opts->no_attr);
	if (mfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "fsmount: %s: ", strerror(-ret));
		nfs_fs_drain_log(fsfd, err, errlen);
		goto out_close;
	}
	ret = mfd;
out_close:
	close(fsfd);
	return ret;
}
