/* SPDX-License-Identifier: GPL-2.0 */
/* Device specifiers and fstype=auto for the generic module (blkdev.c). */
#ifndef AM_BLKDEV_H
#define AM_BLKDEV_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The device SPEC names: the device with that tag now, or SPEC itself when
 * it is no device specifier.  Returns: 0 (*DEV malloc'd), -EINVAL (a
 * specifier without a usable value), -ENODEV (no device has it), -ENOMEM;
 * ERR says why.
 */
int am_blkdev_resolve(const char *spec, char **dev, char *err, size_t errlen);

/*
 * The filesystem type on DEV for fstype=auto, into TYPE (LEN bytes).
 * Returns: 0, -EINVAL (nothing, several signatures, or no filesystem),
 * -errno (DEV cannot be opened); ERR says why.
 */
int am_blkdev_fstype(const char *dev, char *type, size_t len, char *err, size_t errlen);

#endif
