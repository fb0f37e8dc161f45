// SPDX-License-Identifier: GPL-2.0
/*
 * The host names the -hosts map lists: the first name of each line of a
 * hosts(5) file, read as autofs-tools reads it through gethostent(3) of
 * glibc's files source: an IPv4 address, an IPv4-mapped IPv6 address or
 * ::1; other IPv6 lines are left out, as glibc leaves them out of an IPv4
 * enumeration.  Each name once, in byte order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "hosts_names.h"

struct hosts_names {
	char **hn_names;
	size_t hn_n, hn_cap;
};

/* The line's address is one gethostent(3) returns with AF_INET. */
static bool hosts_addr_ipv4(const char *addr)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (inet_pton(AF_INET, addr, &a4) == 1)
		return true;
	return inet_pton(AF_INET6, addr, &a6) == 1 &&
	       (IN6_IS_ADDR_V4MAPPED(&a6) || IN6_IS_ADDR_LOOPBACK(&a6));
}

static int hosts_names_add(struct hosts_names *hn, const char *name)
{
	char **n;

	if (hn->hn_n == hn->hn_cap) {
		hn->hn_cap = hn->hn_cap ? hn->hn_cap * 2 : 32;
		n = realloc(hn->hn_names, hn->hn_cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		hn->hn_names = n;
	}
	hn->hn_names[hn->hn_n] = strdup(name);
	if (!hn->hn_names[hn->hn_n])
		return -ENOMEM;
	hn->hn_n++;
	return 0;
}

/* One line: "ADDRESS NAME [ALIAS...] [# comment]".  Returns: 0, -ENOMEM. */
static int hosts_names_line(struct hosts_names *hn, char *line)
{
	char *save = NULL, *addr, *name;

	line[strcspn(line, "#\n")] = '\0';
	addr = strtok_r(line, " \t", &save);
	name = addr ? strtok_r(NULL, " \t", &save) : NULL;
	if (!name || !hosts_addr_ipv4(addr))
		return 0;
	return hosts_names_add(hn, name);
}

static int hosts_names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void hosts_names_free(struct hosts_names *hn)
{
	size_t i;

	for (i = 0; i < hn->hn_n; i++)
		free(hn->hn_names[i]);
	free(hn->hn_names);
}

int hosts_names_read(const char *path, hosts_name_fn fn, void *arg)
{
	struct hosts_names hn = { 0 };
	char *line = NULL;
	size_t cap = 0, i;
	int ret = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!ret && getline(&line, &cap, f) >= 0)
		ret = hosts_names_line(&hn, line);
	if (!ret && ferror(f))
		ret = -EIO;
	free(line);
	fclose(f);
	if (!ret && hn.hn_n)
		qsort(hn.hn_names, hn.hn_n, sizeof(*hn.hn_names), hosts_names_cmp);
	for (i = 0; !ret && i < hn.hn_n; i++)
		if (!i || strcmp(hn.hn_names[i], hn.hn_names[i - 1]))
			ret = fn(hn.hn_names[i], arg);
	hosts_names_free(&hn);
	return ret;
}
