/* SPDX-License-Identifier: GPL-2.0 */
/* What the mount modules share: per-mount flags taken out of an option list. */
#ifndef AM_MNTATTR_H
#define AM_MNTATTR_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Walk the comma-separated OPTS; per-mount flags (ro, nosuid, nodev, noexec,
 * noatime, relatime...) are collected into *ATTR, every other option is
 * passed to FN (which returns 0 or -errno).  Returns: 0, FN's error.
 */
int am_mntattr_split(const char *opts, uint64_t *attr,
		     int (*fn)(const char *opt, void *arg), void *arg);
/* Apply ATTR to the detached mount FD.  Returns: 0, -errno. */
int am_mntattr_apply(int fd, uint64_t attr);

#endif /* AM_MNTATTR_H */
