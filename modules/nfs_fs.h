/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One NFS mount through the new mount API, and the local bind mount that
 * replaces it when the export lives on this host.
 */
#ifndef NFS_FS_H
#define NFS_FS_H

#include <stdbool.h>
#include <stddef.h>

#include "nfs_opts.h"

struct nfs_fs_args {
	const char *fa_source;		/* "host:/path", "[v6]:/path" */
	const char *fa_addr;		/* numeric address for addr= */
	const char *fa_vers;		/* NULL: the kernel's default */
	const struct nfs_opts *fa_opts;
};

/*
 * fsopen("nfs"), one fsconfig() per option, create, fsmount().  On failure
 * ERR gets one line naming the refused option, if any, and the kernel's own
 * messages from the fs_context log; *REFUSED says an option was refused
 * (no other server or version will take it either).
 * Returns: a detached mount fd, or -errno.
 */
int nfs_fs_mount(const struct nfs_fs_args *a, char *err, size_t errlen,
		 bool *refused);

#endif /* NFS_FS_H */
