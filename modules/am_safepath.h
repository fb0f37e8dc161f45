/* SPDX-License-Identifier: GPL-2.0 */
/* A local path the mount modules clone, resolved as the map wrote it. */
#ifndef AM_SAFEPATH_H
#define AM_SAFEPATH_H

#include <stddef.h>

/*
 * An O_PATH descriptor of the absolute PATH, resolved from "/" without
 * following a symbolic link that root does not own (safepath.c).
 * Returns: the fd, or -errno with a one-line reason in ERR (ELOOP: a link
 * someone else wrote, or too many).
 */
int am_safepath_open(const char *path, char *err, size_t errlen);

#endif /* AM_SAFEPATH_H */
