/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/self/mountinfo (or AUTOFS_AGENT_MOUNTINFO), parsed. */
#ifndef AM_MOUNTINFO_H
#define AM_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

struct am_mi {
	int mi_id, mi_parent;
	char *mi_path;		/* unescaped mount point */
	char *mi_fstype;
	char *mi_source;
	char *mi_opts;		/* superblock options */
};

struct am_mounts {
	struct am_mi *ms_v;
	size_t ms_n;
};

/* Returns: 0, -errno. */
int am_mounts_read(struct am_mounts *ms);
void am_mounts_free(struct am_mounts *ms);
/* Returns: the last (topmost) mount on PATH, or NULL. */
const struct am_mi *am_mounts_at(const struct am_mounts *ms, const char *path);
/* Returns: the mount with id ID, or NULL. */
const struct am_mi *am_mounts_id(const struct am_mounts *ms, int id);
/* Returns: true when an ancestor of MI is an autofsng mount. */
bool am_mounts_nested(const struct am_mounts *ms, const struct am_mi *mi);

#endif /* AM_MOUNTINFO_H */
