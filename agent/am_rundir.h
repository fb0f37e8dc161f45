/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's private directories under /run (the file-map index, the
 * directory-map cache): found only by a walk no one else can redirect, and
 * written only by renaming a whole private file into place.
 */
#ifndef AM_RUNDIR_H
#define AM_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Open (creating it when CREATE) the directory PATH: every directory on
 * the way owned by root or the effective user and not writable by others
 * unless sticky, the last one owned by the effective user with mode 0700,
 * no symbolic link anywhere.  Returns: a directory fd, -EPERM (unsafe, WHY
 * says what), -errno.
 */
int am_rundir_open(const char *path, bool create, char *why, size_t whylen);

/*
 * Make NAME in DIRFD what WRITE (called with a private file open for
 * writing, mode 0600) puts there: written as NAME.PID.tmp, renamed over
 * NAME, so a reader sees a whole file or none.  SIGALRM and SIGTERM wait
 * until the private file is renamed or removed.  Returns: WRITE's
 * non-negative value, or -errno.
 */
int am_rundir_publish(int dirfd, const char *name, int (*write)(int fd, void *arg),
		      void *arg);

#endif /* AM_RUNDIR_H */
