/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The index of a file map (maps/README.md, "Index of file maps"): where the
 * first record of each key starts, and where the "+include" records are,
 * for one version of the map file named by its identity.  The index holds
 * only offsets, lengths and line numbers: every key, entry and include name
 * a lookup uses is read again from the map and checked against the key
 * asked, so a damaged index costs a scan, never a wrong answer.
 */
#ifndef AM_FILE_INDEX_H
#define AM_FILE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "am_maptext.h"

#define AM_FIDX_MAX_LINES	(4U << 20)	/* longer maps are only scanned */
#define AM_FIDX_MAX_INCL	256		/* more includes: only scanned */
#define AM_FIDX_MAX_RECORD	(1U << 20)	/* a longer record: only scanned */

struct am_fidx;

/* A record of the map, read again from the map file. */
struct am_fidx_rec {
	uint32_t fr_off, fr_len, fr_line;
	char *fr_buf;			/* the record's bytes */
	struct am_maptext fr_mt;	/* its key and entry */
};

/* The index's file name for the map at PATH: NAME_MAX-safe, no '/'. */
void am_fidx_name(const char *path, char *name, size_t len);

/*
 * Write the index of the map TEXT (LEN bytes, whose fstat is MAP) to FD.
 * A map too large for an index (AM_FIDX_MAX_*) or with a line skipped as
 * malformed (reported through WARN) gets one that says "scan" (see
 * am_fidx_open).  Returns: 0, 1 (it says "scan"), -ENOMEM, -errno.
 */
int am_fidx_write(int fd, const struct stat *map, const char *text, size_t len,
		  void (*warn)(void *arg, unsigned int line, const char *msg), void *arg);

/*
 * Take the index in IXFD (closed by am_fidx_close, or here when not 0) of
 * the map open as MAPFD.  Returns: 0, 1 (good, but this version of the map
 * has lines a scan skips with a warning, so it is only scanned), -ESTALE
 * (made for another version of the map), -EBADMSG (damaged), -ENOMEM, -errno.
 */
int am_fidx_open(struct am_fidx **ixp, int ixfd, int mapfd);
void am_fidx_close(struct am_fidx *ix);

/*
 * The first record of KEY, read from the map and checked.
 * Returns: 0, -ENOENT (no such key), -EBADMSG, -ENOMEM, -errno.
 */
int am_fidx_find(struct am_fidx *ix, const char *key, struct am_fidx_rec *rec);

/* Returns: the number of include records. */
uint32_t am_fidx_nincl(const struct am_fidx *ix);

/* Returns: where include record I starts in the map. */
uint32_t am_fidx_incl_off(const struct am_fidx *ix, uint32_t i);

/*
 * Include record I, read from the map and checked (its key is "+name").
 * Returns: 0, -EBADMSG, -ENOMEM, -errno.
 */
int am_fidx_incl(struct am_fidx *ix, uint32_t i, struct am_fidx_rec *rec);

/* Returns: true when the map still has the identity the index was made for. */
bool am_fidx_current(const struct am_fidx *ix);

void am_fidx_rec_free(struct am_fidx_rec *rec);

#endif /* AM_FILE_INDEX_H */
