// SPDX-License-Identifier: GPL-2.0
/* Splitting a sun-format map file into (key, entry) records. */
#include <ctype.h>
#include <errno.h>
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
 * Gather one logical line into LINE.  Returns: 0, -E2BIG (too long, skipped),
 * -EINVAL (NUL byte, skipped).
 */
static int maptext_logical(struct am_maptext *mt, struct am_buf *line)
{
	int err = 0;
	char c;

	am_buf_reset(line);
	while (mt->mt_p < mt->mt_end) {
		c = *mt->mt_p++;
		if (c == '\n') {
			mt->mt_line++;
			break;
		}
		if (c == '\\' && mt->mt_p < mt->mt_end && *mt->mt_p == '\n') {
			mt->mt_p++;
			mt->mt_line++;
			continue;
		}
		if (c == '\0' && !err)
			err = -EINVAL;
		if (line->ab_len >= AM_LINE_MAX && !err)
			err = -E2BIG;
		if (err)
			continue;
		if (c == '\\' && mt->mt_p < mt->mt_end && *mt->mt_p != '\n') {
			am_buf_putc(line, c);
			c = *mt->mt_p++;
		}
		am_buf_putc(line, c);
	}
	return err;
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
	am_buf_puts(&mt->mt_entry, s);
	while (mt->mt_entry.ab_len &&
	       isspace((unsigned char)mt->mt_entry.ab_s[mt->mt_entry.ab_len - 1]))
		mt->mt_entry.ab_s[--mt->mt_entry.ab_len] = '\0';
	if (!mt->mt_entry.ab_s)
		am_buf_puts(&mt->mt_entry, "");
	if (!mt->mt_key.ab_s)
		am_buf_puts(&mt->mt_key, "");
}

int am_maptext_next(struct am_maptext *mt)
{
	struct am_buf line = { 0 };
	const char *s;
	int err;

	while (mt->mt_p < mt->mt_end) {
		while (mt->mt_p < mt->mt_end && (*mt->mt_p == ' ' || *mt->mt_p == '\t'))
			mt->mt_p++;
		mt->mt_recline = mt->mt_line;
		if (mt->mt_p < mt->mt_end && *mt->mt_p == '#') {
			maptext_skip_line(mt);
			continue;
		}
		err = maptext_logical(mt, &line);
		if (err == -E2BIG) {
			maptext_warn(mt, "line longer than 65536 bytes, skipped");
			continue;
		}
		if (err == -EINVAL) {
			maptext_warn(mt, "NUL byte in line, skipped");
			continue;
		}
		if (line.ab_oom)
			break;
		s = line.ab_s ? line.ab_s : "";
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		maptext_split(mt, s);
		am_buf_free(&line);
		if (mt->mt_key.ab_oom || mt->mt_entry.ab_oom)
			return -ENOMEM;
		return 1;
	}
	err = line.ab_oom ? -ENOMEM : 0;
	am_buf_free(&line);
	return err;
}
