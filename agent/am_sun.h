/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sun map format: variable expansion and the parsed form of one entry.
 * See autofs-maps(5) for the syntax.
 */
#ifndef AM_SUN_H
#define AM_SUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "am_module.h"
#include "am_util.h"

/* Variables for $NAME and ${NAME}; later definitions replace earlier ones. */
struct am_vars {
	char **av_name;
	char **av_value;
	size_t av_n;
};

/* Returns: 0, -ENOMEM. */
int am_vars_set(struct am_vars *vars, const char *name, const char *value);
/* Returns: the value of NAME or NULL. */
const char *am_vars_get(const struct am_vars *vars, const char *name);
/*
 * The standard variables: ARCH CPU HOST SHOST DOMAIN OSNAME OSREL OSVERS UID
 * GID USER GROUP HOME, for the requester UID/GID.  Returns: 0, -ENOMEM.
 */
int am_vars_standard(struct am_vars *vars, uid_t uid, gid_t gid);
/*
 * The same in two parts: am_vars_system sets all but USER GROUP HOME, and
 * am_vars_names those three, which cost name-service lookups (files, LDAP,
 * SSSD...) and are looked up only when TEXT uses one: am_vars_uses_names.
 * Returns: 0, -ENOMEM.
 */
int am_vars_system(struct am_vars *vars, uid_t uid, gid_t gid);
int am_vars_names(struct am_vars *vars, uid_t uid, gid_t gid);
bool am_vars_uses_names(const char *text);
/* A "-DNAME=value" define ("NAME=value").  Returns: 0, -EINVAL, -ENOMEM. */
int am_vars_define(struct am_vars *vars, const char *def);
void am_vars_free(struct am_vars *vars);

/*
 * Replace '&' by KEY and $NAME / ${NAME} by their values in TEXT; what is
 * substituted is escaped so it stays one literal word.  An '&' in the host
 * part of a location needs a KEY that am_host_invalid accepts.  ERR gets the
 * reason of a failure.  Returns: 0, -EINVAL, -ENOMEM.
 */
int am_sun_expand(const char *text, const char *key, const struct am_vars *vars,
		  char **out, char *err, size_t errlen);

/*
 * Append S to OUT escaped so that am_sun_expand and am_sun_parse read it back
 * as the literal word S, whatever bytes it holds (sun_quote.c).
 */
void am_sun_quote(struct am_buf *out, const char *s);
/*
 * A name that may stand for a host in a location: RFC 1123 labels (an IPv4
 * address passes as such), or an IPv6 address in brackets.  Returns: NULL
 * when valid, else why not.
 */
const char *am_host_invalid(const char *name);

/* One mount of an entry: the root ("/") or an offset of a multi-mount. */
struct am_mnt {
	char *mn_offset;		/* "/" or "/sub/dir", normalised */
	char *mn_fstype;		/* "nfs" unless fstype= says otherwise */
	char *mn_options;		/* merged, without fstype=; may be "" */
	struct am_location *mn_locs;	/* strings owned by the entry */
	size_t mn_nlocs;		/* 0: nothing mounted here ("-") */
};

struct am_entry {
	struct am_mnt *en_mnts;		/* sorted by offset, parents first */
	size_t en_nmnts;
	bool en_multi;			/* written with offsets */
};

/*
 * Parse the expanded entry TEXT; DEFOPTS are the master map's mount options
 * (comma separated, may be NULL).  Returns: 0, -EINVAL (ERR says why),
 * -ENOMEM.
 */
int am_sun_parse(const char *text, const char *defopts, struct am_entry *entry,
		 char *err, size_t errlen);
void am_entry_free(struct am_entry *entry);
/* Canonical text of ENTRY, one line per mount and per location. */
void am_entry_print(const struct am_entry *entry, struct am_buf *out);
/* Returns: the mount at OFFSET or NULL. */
const struct am_mnt *am_entry_find(const struct am_entry *entry, const char *offset);

/*
 * ADD merged over BASE: an option of ADD replaces the same option (or its
 * opposite: ro/rw, suid/nosuid...) of BASE.  Returns: malloc'd, or NULL.
 */
char *am_opts_merge(const char *base, const char *add);
/* Returns: true when option NAME (no value) or NAME=... is in OPTS. */
bool am_opts_has(const char *opts, const char *name);

/*
 * A key a lookup may use: not empty, no NUL, no '/' (indirect) or a clean
 * absolute path (direct), not "." or "..", not starting with '-', no blanks
 * or quotes, at most 255 bytes per component.  Returns: NULL when valid,
 * else why not.
 */
const char *am_key_invalid(const char *key, bool direct);
/* Returns: 0 and a malloc'd clean path, or -EINVAL (bad offset). */
int am_path_normalise(const char *path, char **out);

#endif /* AM_SUN_H */
