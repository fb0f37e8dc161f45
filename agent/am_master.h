/* SPDX-License-Identifier: GPL-2.0 */
/* The master map and the options written after a map name in it. */
#ifndef AM_MASTER_H
#define AM_MASTER_H

#include <stdbool.h>
#include <stddef.h>

#include "am_sun.h"

/* "[type[,format]:]name" */
struct am_mapspec {
	char *ms_type;		/* NULL: use the configured source order */
	char *ms_format;	/* NULL or "sun" */
	char *ms_name;
};

/* Returns: 0, -EINVAL (unknown type or format), -ENOMEM. */
int am_mapspec_parse(const char *spec, struct am_mapspec *ms);
/* Why am_mapspec_parse() refused SPEC (-EINVAL), in words for a log line. */
const char *am_mapspec_refused(const char *spec);
void am_mapspec_free(struct am_mapspec *ms);

/* What follows the map name: agent options, mount options, map arguments. */
/*
 * The master map option the agent gives a nested map that a foreign entry
 * named (mount.c): its entries are foreign too (trust.c).
 */
#define AM_MOPT_FOREIGN	"--autofsng-foreign"

struct am_mopts {
	int mo_timeout;			/* -1: not given */
	int mo_negative_timeout;	/* -1: not given */
	int mo_browse;			/* -1: not given, 0, 1 */
	int mo_strictexpire;		/* -1: not given, 0, 1 */
	unsigned long mo_propagation;	/* of bind mounts: MS_SLAVE... ; 0 not given */
	bool mo_foreign;		/* AM_MOPT_FOREIGN: named by a foreign entry */
	bool mo_trusted_program;	/* --trusted-program: its output is local */
	char *mo_mntopts;		/* comma-separated, "" when none */
	struct am_vars mo_defines;	/* -DNAME=value */
	char **mo_argv;			/* NULL-terminated map arguments */
	int mo_argc;
	char mo_unknown[48];		/* first unknown --option, ignored */
};

/* Returns: 0, -EINVAL (ERR says why), -ENOMEM. */
int am_mopts_parse(const char *text, struct am_mopts *mo, char *err, size_t errlen);
void am_mopts_free(struct am_mopts *mo);

struct am_master_entry {
	char *me_path;		/* mount point, or "/-" for a direct map */
	char *me_map;		/* map spec */
	char *me_options;	/* the rest of the line, as written */
	char *me_origin;	/* where it came from, for messages */
	char *me_foreign;	/* the source outside the map files it came through */
};

struct am_master {
	struct am_master_entry *m_entries;
	size_t m_n;
};

/*
 * Split one master map record (KEY = mount point, ENTRY = the rest) and add
 * it; a mount point already present keeps its first entry.  FOREIGN: the
 * source outside the map files the record came through (me_foreign), or
 * NULL.  A foreign record never displaces a line of the map files: its
 * -null does not disable one, and a line of the map files that comes
 * after it (its include stood first) replaces it.
 * Returns: 0, 1 (duplicate, ignored), -EINVAL or -EPERM (ERR says why),
 * -ENOMEM.
 */
int am_master_add(struct am_master *m, const char *key, const char *entry,
		  const char *origin, const char *foreign, char *err, size_t errlen);
void am_master_entry_free(struct am_master_entry *e);
void am_master_free(struct am_master *m);
/*
 * The options a trigger of ME carries: the line's, and for a line read
 * through a source outside the map files (me_foreign) AM_MOPT_FOREIGN,
 * which makes every lookup through it foreign (trust.c).
 * Returns: them (malloc'd), or NULL.
 */
char *am_master_options(const struct am_master_entry *me);
/*
 * The master map options of the nested map an fstype=autofs entry with
 * options OPTS names; FOREIGN: only browse and timeout pass, and the map
 * inherits the entry's trust.  *BROWSE is set when they say.
 * Returns: malloc'd, or NULL.
 */
char *am_submap_options(const char *opts, bool foreign, bool *browse);

#endif /* AM_MASTER_H */
