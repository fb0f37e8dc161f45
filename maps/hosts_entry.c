// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a -hosts entry.  Everything in it but the fixed options comes
 * from the network: the host is the key (checked to be a host name) and
 * each offset and path is an export name from the server's EXPORT answer.
 * A name is mounted literally or not at all: it must be a clean absolute
 * path, and it is escaped word by word, so a quote, a blank, a ':' or a
 * '&' in it stays part of the path and no location without a host can
 * come out of an answer.  "nobind": an answer must not turn into a bind
 * mount of this machine's own files (mount_nfs.so's bind_local).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_sun.h"
#include "hosts_entry.h"

#define HOSTS_OPTIONS	"-fstype=nfs,nobind"

/* Every component: not empty, not "." or "..", at most NAME_MAX bytes. */
static const char *hosts_components_invalid(const char *name)
{
	const char *p = name + 1, *e;
	size_t n;

	if (!*p)
		return NULL;		/* "/" */
	for (;;) {
		e = strchr(p, '/');
		n = e ? (size_t)(e - p) : strlen(p);
		if (!n)
			return "has an empty component ('//' or a trailing '/')";
		if ((n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2)))
			return "has a '.' or '..' component";
		if (n > NAME_MAX)
			return "has a component longer than 255 bytes";
		if (!e)
			return NULL;
		p = e + 1;
	}
}

const char *hosts_export_invalid(const char *name)
{
	const char *p;

	if (name[0] != '/')
		return "does not start with '/'";
	if (strlen(name) > HOSTS_PATH_MAX)
		return "is longer than 1024 bytes";
	for (p = name; *p; p++)
		if (iscntrl((unsigned char)*p))
			return "contains a control character";
	return hosts_components_invalid(name);
}

static int hosts_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* " /name host:/name", or nothing when NAME cannot be mounted. */
static void hosts_entry_add(struct am_buf *b, const char *host, const char *name,
			    const char *prev, hosts_skip_fn skip, void *arg)
{
	const char *why = hosts_export_invalid(name);

	if (!why && prev && !strcmp(prev, name))
		why = "is listed twice";
	if (why) {
		if (skip)
			skip(arg, name, why);
		return;
	}
	am_buf_putc(b, ' ');
	am_sun_quote(b, name);
	am_buf_printf(b, " %s:", host);
	am_sun_quote(b, name);
}

int hosts_entry_build(const char *host, char **dirs, size_t n,
		      hosts_skip_fn skip, void *arg, char **entry)
{
	struct am_buf b = { 0 };
	size_t i;

	if (am_host_invalid(host))
		return -EINVAL;
	qsort(dirs, n, sizeof(*dirs), hosts_cmp);
	am_buf_puts(&b, HOSTS_OPTIONS);
	for (i = 0; i < n; i++)
		hosts_entry_add(&b, host, dirs[i], i ? dirs[i - 1] : NULL, skip, arg);
	if (!b.ab_oom && b.ab_len == strlen(HOSTS_OPTIONS)) {
		am_buf_free(&b);
		return -ENOENT;
	}
	*entry = am_buf_steal(&b);
	return *entry ? 0 : -ENOMEM;
}
