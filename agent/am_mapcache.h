/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache of directory maps (maps/README.md, "Cache of directory maps"):
 * a snapshot of one map of one source (LDAP, NIS), every key with
 * the entry a lookup of it gives, kept under [general] map_cache_dir (off
 * when not set) and
 * used for cache_ttl seconds; a key it does not hold is missing for
 * negative_timeout seconds.  A lookup it answers loads no module and asks
 * no server.
 *
 * Never trusted: the file must be the agent user's own, in its own 0700
 * directory, made in this boot, for the same source, map, arguments and
 * configuration (the snapshot's identity, compared byte for byte), and
 * every record must pass its check.  Anything else is a miss.  Read and
 * written only before the agent joins a requester's mount namespace:
 * am_mapcache_seal() ends its use for the process.
 */
#ifndef AM_MAPCACHE_H
#define AM_MAPCACHE_H

#include <stdbool.h>
#include <stddef.h>

#define AM_MAPCACHE_MAX_KEYS	(1U << 20)	/* a larger map is not cached */
#define AM_MAPCACHE_MAX_BYTES	(64U << 20)
/* a listing that takes longer is cut: its map is left to the source */
#define AM_MAPCACHE_LIST_MS	5000

struct am_ctx;
struct am_mapcache;

/*
 * The cache of map NAME of source TYPE with ARGV, for CTX's configuration.
 * Returns: 0 and *MCP, -EPERM (not cached: off, sealed, not a directory
 * source, no safe directory), -ENOMEM.
 */
int am_mapcache_open(struct am_ctx *ctx, const char *type, const char *name,
		     int argc, const char *const *argv, struct am_mapcache **mcp);
void am_mapcache_close(struct am_mapcache *mc);

/*
 * KEY in the current snapshot.  Returns: 0 and *ENTRY (malloc'd), -ENOENT
 * (not in a snapshot younger than negative_timeout), 1 (ask the source),
 * -ENOMEM.
 */
int am_mapcache_find(struct am_mapcache *mc, const char *key, char **entry);

/* Returns: true when no snapshot younger than cache_ttl is there. */
bool am_mapcache_stale(const struct am_mapcache *mc);

/*
 * Building a new snapshot: am_mapcache_add() is an am_key_fn (ENTRY NULL:
 * a key whose lookup must ask the source, as one given twice does), then
 * am_mapcache_commit() writes it and makes it current.
 * Returns: 0, non-zero to stop a listing that outgrew the bounds.
 */
int am_mapcache_add(const char *key, const char *entry, void *mc);
/*
 * Become the one lookup that lists the map (a lock held until close).
 * Returns: 0, 1 (a snapshot made meanwhile is current: find in it),
 * -EBUSY (another lookup is listing it), -errno.
 */
int am_mapcache_lock(struct am_mapcache *mc);

/* The map could not be listed whole: its lookups ask the source until cache_ttl. */
void am_mapcache_unlistable(struct am_mapcache *mc);
/* Returns: 0, -errno (logged). */
int am_mapcache_commit(struct am_mapcache *mc);

/* Returns: true for the sources whose maps are cached (ldap, nis). */
bool am_mapcache_kind(const char *type);

/*
 * The identity of a snapshot (mapcache_id.c): the source, map and
 * arguments, every key of the configuration, and what else the source's
 * answers depend on (LDAP's files and environment, the NIS domain), into
 * ID.  Returns: 0, -ENOMEM.
 */
struct am_buf;
int am_mapcache_id(const struct am_ctx *ctx, const char *type, const char *name,
		   int argc, const char *const *argv, struct am_buf *id);

/* No cache is read or written by this process from now on. */
void am_mapcache_seal(void);

#endif /* AM_MAPCACHE_H */
