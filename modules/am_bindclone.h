/* SPDX-License-Identifier: GPL-2.0 */
/* The one way the mount modules clone a local directory for a bind mount. */
#ifndef AM_BINDCLONE_H
#define AM_BINDCLONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A detached clone of the directory PATH (open_tree, OPEN_TREE_CLONE; the
 * mounts below it too when RECURSIVE), with the mount attributes ATTR
 * (MOUNT_ATTR_*, on its top mount) and the propagation PROPAGATION (MS_SLAVE,
 * MS_PRIVATE or MS_SHARED; 0 is MS_SLAVE) on every mount of it.  PATH must
 * not resolve to an autofsng trap.
 * Returns: the clone's fd, or -errno with a one-line reason in ERR (ELOOP:
 * PATH is a trap).
 */
int am_bind_clone(const char *path, bool recursive, uint64_t attr, unsigned long propagation,
		  char *err, size_t errlen);

#endif /* AM_BINDCLONE_H */
