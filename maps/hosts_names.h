/* SPDX-License-Identifier: GPL-2.0 */
/* The host names of a hosts(5) file that the -hosts map lists. */
#ifndef HOSTS_NAMES_H
#define HOSTS_NAMES_H

#include <stdbool.h>

/* Told each name; non-zero stops the reading and is returned. */
typedef int (*hosts_name_fn)(const char *name, void *arg);

/*
 * The first name of every line of the hosts file PATH whose address
 * gethostent(3) returns for IPv4 (an IPv4 address, ::ffff:a.b.c.d, ::1),
 * each once, in byte order.
 * Returns: 0, what FN returned, -errno of opening or reading PATH, -ENOMEM.
 */
int hosts_names_read(const char *path, hosts_name_fn fn, void *arg);

#endif /* HOSTS_NAMES_H */
