/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records of a sun-format map file: one logical line (continuations joined,
 * comments and blank lines dropped) split into its key and the entry text.
 * Shared by the agent core (master map, tests) and the file map backend,
 * which is why it reports problems through a callback instead of am_log.
 */
#ifndef AM_MAPTEXT_H
#define AM_MAPTEXT_H

#include <stddef.h>

#include "am_util.h"

#define AM_LINE_MAX	65536	/* longer logical lines are skipped */

struct am_maptext {
	const char *mt_p, *mt_end;
	unsigned int mt_line;		/* physical line of mt_p */
	unsigned int mt_recline;	/* first line of the last record */
	const char *mt_rec;		/* first byte of the last record */
	struct am_buf mt_key;		/* unquoted key */
	struct am_buf mt_entry;		/* entry text, quotes kept */
	struct am_buf mt_linebuf;	/* the logical line being split */
	void (*mt_warn)(void *arg, unsigned int line, const char *msg);
	void *mt_arg;
	/*
	 * A lookup's key.  When set, a line whose key is plainly another one
	 * (not quoted or escaped, not an include) is passed over unread and
	 * not reported; other keys that are returned have an empty mt_entry.
	 */
	const char *mt_want;
};

void am_maptext_init(struct am_maptext *mt, const char *text, size_t len);
/*
 * Next record into mt_key / mt_entry.  Malformed lines are reported through
 * mt_warn and skipped.  Returns: 1 for a record, 0 at the end, -ENOMEM.
 */
int am_maptext_next(struct am_maptext *mt);
void am_maptext_free(struct am_maptext *mt);

#endif /* AM_MAPTEXT_H */
