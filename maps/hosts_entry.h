/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -hosts map's entry, built from a server's export list.  Kept apart
 * from the RPC side so the fuzz target can check it against the parser.
 */
#ifndef HOSTS_ENTRY_H
#define HOSTS_ENTRY_H

#include <stddef.h>

/* MNTPATHLEN of the MOUNT protocol: longer names are skipped. */
#define HOSTS_PATH_MAX	1024

/* Returns: NULL when export NAME can be mounted literally, else why not. */
const char *hosts_export_invalid(const char *name);

/* Told about each export left out, with the reason. */
typedef void (*hosts_skip_fn)(void *arg, const char *name, const char *why);

/*
 * "-fstype=nfs,nobind /a host:/a /b host:/b": one multi-mount of the exports
 * DIRS (sorted in place) of HOST, every name escaped with am_sun_quote so it
 * is read back literally; HOST as a location writes it ("[::1]").  Names
 * hosts_export_invalid refuses, and repeats, go to SKIP instead.
 * Returns: 0, -EINVAL (am_host_invalid refuses HOST),
 * -ENOENT (no export left), -ENOMEM.
 */
int hosts_entry_build(const char *host, char **dirs, size_t n,
		      hosts_skip_fn skip, void *arg, char **entry);

#endif /* HOSTS_ENTRY_H */
