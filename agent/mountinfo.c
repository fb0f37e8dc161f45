// SPDX-License-Identifier: GPL-2.0
/* Reading the mount table: which triggers exist, what is mounted below. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_mountinfo.h"
#include "am_util.h"

/* mountinfo escapes blanks, tabs, newlines and backslashes as \ooo. */
static char *mi_unescape(const char *s)
{
	char *d = malloc(strlen(s) + 1), *p = d;

	if (!d)
		return NULL;
	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*p++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*p++ = *s++;
		}
	}
	*p = '\0';
	return d;
}

/* One line.  Returns: 0, -EINVAL (skipped), -ENOMEM. */
static int mi_line(char *line, struct am_mi *mi)
{
	char *f[32], *save = NULL, *t;
	int n = 0, sep = -1;

	for (t = strtok_r(line, " ", &save); t && n < 32; t = strtok_r(NULL, " ", &save)) {
		if (!strcmp(t, "-") && sep < 0 && n >= 6)
			sep = n;
		f[n++] = t;
	}
	if (sep < 0 || n < sep + 3)
		return -EINVAL;
	memset(mi, 0, sizeof(*mi));
	mi->mi_id = atoi(f[0]);
	mi->mi_parent = atoi(f[1]);
	if (sscanf(f[2], "%u:%u", &mi->mi_major, &mi->mi_minor) != 2)
		return -EINVAL;
	mi->mi_path = mi_unescape(f[4]);
	mi->mi_fstype = mi_unescape(f[sep + 1]);
	mi->mi_source = mi_unescape(f[sep + 2]);
	mi->mi_opts = strdup(n > sep + 3 ? f[sep + 3] : "");
	if (!mi->mi_path || !mi->mi_fstype || !mi->mi_source || !mi->mi_opts)
		return -ENOMEM;
	return 0;
}

int am_mounts_read(struct am_mounts *ms)
{
	const char *path = getenv("AUTOFS_AGENT_MOUNTINFO");
	char *text, *line, *save = NULL;
	struct am_mi *v;
	size_t len;
	int err;

	memset(ms, 0, sizeof(*ms));
	if (!path || !*path)
		path = "/proc/self/mountinfo";
	err = am_read_file(path, 64UL << 20, &text, &len);
	if (err)
		return err;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		v = realloc(ms->ms_v, (ms->ms_n + 1) * sizeof(*v));
		if (!v) {
			err = -ENOMEM;
			break;
		}
		ms->ms_v = v;
		err = mi_line(line, &v[ms->ms_n]);
		if (err == -EINVAL) {
			err = 0;
			continue;
		}
		ms->ms_n++;
		if (err)
			break;
	}
	free(text);
	if (err)
		am_mounts_free(ms);
	return err;
}

void am_mounts_free(struct am_mounts *ms)
{
	size_t i;

	for (i = 0; i < ms->ms_n; i++) {
		free(ms->ms_v[i].mi_path);
		free(ms->ms_v[i].mi_fstype);
		free(ms->ms_v[i].mi_source);
		free(ms->ms_v[i].mi_opts);
	}
	free(ms->ms_v);
	memset(ms, 0, sizeof(*ms));
}

const struct am_mi *am_mounts_at(const struct am_mounts *ms, const char *path)
{
	size_t i;

	for (i = ms->ms_n; i-- > 0;)
		if (!strcmp(ms->ms_v[i].mi_path, path))
			return &ms->ms_v[i];
	return NULL;
}

const struct am_mi *am_mounts_id(const struct am_mounts *ms, int id)
{
	size_t i;

	for (i = 0; i < ms->ms_n; i++)
		if (ms->ms_v[i].mi_id == id)
			return &ms->ms_v[i];
	return NULL;
}

bool am_mounts_nested(const struct am_mounts *ms, const struct am_mi *mi)
{
	const struct am_mi *p = mi;
	size_t depth = 0;

	while ((p = am_mounts_id(ms, p->mi_parent)) && depth++ < ms->ms_n) {
		if (p->mi_id == p->mi_parent)
			break;
		if (!strcmp(p->mi_fstype, "autofsng"))
			return true;
	}
	return false;
}
