/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NFS mount options as administrators write them (nfs(5), autofs maps),
 * turned into what the new mount API wants: fsconfig() parameters for the
 * NFS fs_context, mount attributes for fsmount(), and the few options the
 * module itself acts on (vers=, addr=, nobind, port=).
 */
#ifndef NFS_OPTS_H
#define NFS_OPTS_H

#include <stdbool.h>
#include <stddef.h>

/* One fsconfig() call: a flag (val == NULL) or a string parameter. */
struct nfs_param {
	char *np_key;
	char *np_val;
};

struct nfs_opts {
	struct nfs_param *no_params;	/* passed to the kernel in this order */
	size_t no_nparams;
	unsigned int no_attr;		/* MOUNT_ATTR_* for fsmount() */
	bool no_ro;			/* sb flag "ro" as well */
	char *no_vers;			/* "3", "4", "4.2"...; NULL: negotiate */
	char *no_addr;			/* addr= given by the map: no resolving */
	char *no_port;			/* port= given: NFS service port */
	bool no_nobind;			/* never replace by a local bind mount */
};

/*
 * Parse a comma-separated option string.  Options of mount(8) itself
 * (defaults, bg, _netdev, x-...) are dropped; vers=/nfsvers=/minorversion=
 * become one version; mount flags become attributes; everything else goes to
 * the kernel as written, so the kernel judges options it knows and we don't.
 * Returns: 0, -EINVAL (message in ERR, of ERRLEN bytes) or -ENOMEM.
 */
int nfs_opts_parse(struct nfs_opts *o, const char *options, char *err,
		   size_t errlen);
void nfs_opts_free(struct nfs_opts *o);

/* Returns: true when VERS names an NFSv4 version ("4", "4.0", "4.1", "4.2"). */
bool nfs_vers_is_v4(const char *vers);

#endif /* NFS_OPTS_H */
