// SPDX-License-Identifier: GPL-2.0
/* Splitting a sun-format map file into (key, entry) records. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "am_maptext.h"

void am_maptext_init(struct am_maptext *mt, const char *text, size_t len)
{
	memset(mt, 0, sizeof(*mt));
	mt->mt_p = text;
	mt->mt_end = text + len;
	mt->mt_line = 1;
}

void am_maptext_free(struct am_maptext *mt)
{
	am_buf_free(&mt->mt_key);
	am_buf_free(&mt->mt_entry);
	am_buf_free(&mt->mt_linebuf);
}

static void maptext_warn(struct am_maptext *mt, const char *msg)
{
	if (mt->mt_warn)
		mt->mt_warn(mt->mt_arg, mt->mt_recline, msg);
}

static void maptext_skip_line(struct am_maptext *mt)
{
	while (mt->mt_p < mt->mt_end && *mt->mt_p != '\n')
		mt->mt_p++;
	if (mt->mt_p < mt->mt_end) {
		mt->mt_p++;
		mt->mt_line++;
	}
}

/*
 * Gather one logical line into LINE, or only pass over it when LINE is
 * NULL.  Returns: 0, -E2BIG (too long, skipped), -EINVAL (NUL byte, skipped).
 */
static int maptext_logical(struct am_maptext *mt, struct am_buf *line)
{
	const char *nl, *u;
	int err = 0;
	size_t n;

	if (line)
		am_buf_reset(line);
	/* the common line: no continuation, no escape, no NUL, not too long */
	nl = memchr(mt->mt_p, '\n', (size_t)(mt->mt_end - mt->mt_p));
	n = nl ? (size_t)(nl - mt->mt_p) : (size_t)(mt->mt_end - mt->mt_p);
	if (n < AM_LINE_MAX && !memchr(mt->mt_p, '\\', n) && !memchr(mt->mt_p, '\0', n)) {
		if (line)
			am_buf_putn(line, mt->mt_p, n);
		mt->mt_p += n;
		if (nl) {
			mt->mt_p++;
			mt->mt_line++;
		}
		return 0;
	}
	/* by characters; a backslash and the character after it go together */
	while (mt->mt_p < mt->mt_end) {
		u = mt->mt_p;
		n = 1;
		if (*u == '\n') {
			mt->mt_p++;
			mt->mt_line++;
			break;
		}
		if (*u == '\\' && u + 1 < mt->mt_end) {
			if (u[1] == '\n') {	/* a continuation */
				mt->mt_p += 2;
				mt->mt_line++;
				continue;
			}
			n = 2;
		}
		mt->mt_p += n;
		if (!err && memchr(u, '\0', n))
			err = -EINVAL;
		if (!line)
			continue;
		if (!err && line->ab_len + n >= AM_LINE_MAX)
			err = -E2BIG;
		if (!err)
			am_buf_putn(line, u, n);
	}
	return err;
}

/*
 * The length of ENTRY without a trailing comment: an unquoted, unescaped
 * '#' after a blank starts one, as autofs-tools reads map files.
 */
static size_t maptext_uncommented(const char *entry)
{
	bool quoted = false;
	const char *s;

	for (s = entry; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (*s == '\\' && s[1])
			s++;
		else if (*s == '#' && !quoted && s > entry && isspace((unsigned char)s[-1]))
			break;
	}
	return (size_t)(s - entry);
}

/* Split LINE into the unquoted key and the entry. */
static void maptext_split(struct am_maptext *mt, const char *s)
{
	bool quoted = false;

	am_buf_reset(&mt->mt_key);
	am_buf_reset(&mt->mt_entry);
	for (; *s; s++) {
		if (!quoted && isspace((unsigned char)*s))
			break;
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (*s == '\\' && s[1])
			s++;
		am_buf_putc(&mt->mt_key, *s);
	}
	while (isspace((unsigned char)*s))
		s++;
	/* a lookup only needs the entries of its key and of includes */
	if (mt->mt_want && mt->mt_key.ab_s && mt->mt_key.ab_s[0] != '+' &&
	    strcmp(mt->mt_key.ab_s, mt->mt_want))
		s = "";
	am_buf_putn(&mt->mt_entry, s, maptext_uncommented(s));
	while (mt->mt_entry.ab_len &&
	       isspace((unsigned char)mt->mt_entry.ab_s[mt->mt_entry.ab_len - 1]))
		mt->mt_entry.ab_s[--mt->mt_entry.ab_len] = '\0';
	if (!mt->mt_entry.ab_s)
		am_buf_puts(&mt->mt_entry, "");
	if (!mt->mt_key.ab_s)
		am_buf_puts(&mt->mt_key, "");
}

/*
 * A lookup (mt_want set) passes over the logical line at mt_p when its key
 * is plainly another one, without copying or splitting it.  A key that is
 * quoted or escaped, or an include, goes the long way.  Returns: true when
 * the line was skipped.
 */
static bool maptext_skip_other(struct am_maptext *mt)
{
	const char *p = mt->mt_p;
	size_t want = strlen(mt->mt_want);

	while (p < mt->mt_end && !isspace((unsigned char)*p) && *p != '"' && *p != '\\')
		p++;
	if (p == mt->mt_p || *mt->mt_p == '+' ||
	    (p < mt->mt_end && !isspace((unsigned char)*p)))
		return false;
	if ((size_t)(p - mt->mt_p) == want && !memcmp(mt->mt_p, mt->mt_want, want))
		return false;
	maptext_logical(mt, NULL);
	return true;
}

int am_maptext_next(struct am_maptext *mt)
{
	struct am_buf *line = &mt->mt_linebuf;
	const char *s;
	int err;

	while (mt->mt_p < mt->mt_end) {
		while (mt->mt_p < mt->mt_end && (*mt->mt_p == ' ' || *mt->mt_p == '\t'))
			mt->mt_p++;
		mt->mt_recline = mt->mt_line;
		mt->mt_rec = mt->mt_p;
		if (mt->mt_p < mt->mt_end && *mt->mt_p == '#') {
			maptext_skip_line(mt);
			continue;
		}
		if (mt->mt_want && maptext_skip_other(mt))
			continue;
		err = maptext_logical(mt, line);
		if (err == -E2BIG) {
			maptext_warn(mt, "line longer than 65536 bytes, skipped");
			continue;
		}
		if (err == -EINVAL) {
			maptext_warn(mt, "NUL byte in line, skipped");
			continue;
		}
		if (line->ab_oom)
			break;
		s = line->ab_s ? line->ab_s : "";
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		maptext_split(mt, s);
		if (mt->mt_key.ab_oom || mt->mt_entry.ab_oom)
			return -ENOMEM;
		return 1;
	}
	return line->ab_oom ? -ENOMEM : 0;
}
