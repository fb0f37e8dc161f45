// SPDX-License-Identifier: GPL-2.0
/*
 * map_hosts.so: the built-in -hosts map.  The key is a host name; its entry
 * is a multi-mount of every export the host announces through the MOUNT
 * protocol's EXPORT call (libtirpc), each offset mounted lazily by the
 * agent.  Hosts cannot be listed, so ->enumerate writes nothing unless the
 * configuration names them: [nfs] hosts_list = "host1 host2".
 */
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <rpc/rpc.h>

#include "am_module.h"

#define MOUNT_PROGRAM_NUM	100005
#define MOUNT_V3		3
#define MOUNTPROC_EXPORT	5
#define MNT_PATHLEN		1024
#define MNT_NAMELEN		255
#define HOSTS_DEFAULT_TIMEOUT_MS 5000

struct am_map {
	const struct am_host *hm_host;
};

struct hosts_exports {
	char **he_dirs;
	size_t he_n;
};

static void hosts_log(const struct am_map *m, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void hosts_log(const struct am_map *m, int prio, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (m->hm_host && m->hm_host->ah_log)
		m->hm_host->ah_log(m->hm_host->ah_ctx, prio, "hosts: %s", line);
	else
		fprintf(stderr, "hosts: %s\n", line);
}

static const char *hosts_conf(const struct am_map *m, const char *key)
{
	const struct am_host *h = m->hm_host;

	return h && h->ah_conf_get ? h->ah_conf_get(h->ah_ctx, "nfs", key) : NULL;
}

/* The groups list of one export: read and forgotten. */
static bool_t hosts_xdr_groups(XDR *x)
{
	bool_t more;
	char *name;

	for (;;) {
		if (!xdr_bool(x, &more))
			return FALSE;
		if (!more)
			return TRUE;
		name = NULL;
		if (!xdr_string(x, &name, MNT_NAMELEN))
			return FALSE;
		free(name);
	}
}

static int hosts_exports_add(struct hosts_exports *e, char *dir)
{
	char **d = realloc(e->he_dirs, (e->he_n + 1) * sizeof(*d));

	if (!d)
		return -ENOMEM;
	e->he_dirs = d;
	d[e->he_n++] = dir;
	return 0;
}

/* exports: a linked list on the wire, decoded iteratively (no recursion). */
static bool_t hosts_xdr_exports(XDR *x, void *arg)
{
	struct hosts_exports *e = arg;
	bool_t more;
	char *dir;

	if (x->x_op != XDR_DECODE)
		return FALSE;
	for (;;) {
		if (!xdr_bool(x, &more))
			return FALSE;
		if (!more)
			return TRUE;
		dir = NULL;
		if (!xdr_string(x, &dir, MNT_PATHLEN))
			return FALSE;
		if (hosts_exports_add(e, dir)) {
			free(dir);
			return FALSE;
		}
		if (!hosts_xdr_groups(x))
			return FALSE;
	}
}

static void hosts_exports_free(struct hosts_exports *e)
{
	size_t i;

	for (i = 0; i < e->he_n; i++)
		free(e->he_dirs[i]);
	free(e->he_dirs);
	e->he_dirs = NULL;
	e->he_n = 0;
}

/* Returns: 0, -ENOENT (unknown host), -EAGAIN (no answer). */
static int hosts_fetch(struct am_map *m, const char *host,
		       struct hosts_exports *e)
{
	const char *t = hosts_conf(m, "hosts_timeout_ms");
	unsigned long ms = t ? strtoul(t, NULL, 10) : HOSTS_DEFAULT_TIMEOUT_MS;
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	enum clnt_stat st;
	CLIENT *cl;

	cl = clnt_create_timed(host, MOUNT_PROGRAM_NUM, MOUNT_V3, "tcp", &tv);
	if (!cl) {
		hosts_log(m, LOG_ERR, "no MOUNT service on %s: %s", host,
			  clnt_spcreateerror("clnt_create"));
		return rpc_createerr.cf_stat == RPC_UNKNOWNHOST ? -ENOENT : -EAGAIN;
	}
	st = clnt_call(cl, MOUNTPROC_EXPORT,
		       (xdrproc_t)(void (*)(void))xdr_void, NULL,
		       (xdrproc_t)(void (*)(void))hosts_xdr_exports, (char *)e, tv);
	clnt_destroy(cl);
	if (st != RPC_SUCCESS) {
		hosts_log(m, LOG_ERR, "EXPORT call to %s failed: %s", host,
			  clnt_sperrno(st));
		hosts_exports_free(e);
		return -EAGAIN;
	}
	return 0;
}

static int hosts_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does a path need quotes in a sun-format entry? */
static bool hosts_needs_quotes(const char *s)
{
	return strpbrk(s, " \t\"\\&$*#:") != NULL;
}

static int hosts_append(char **buf, size_t *len, const char *str)
{
	size_t n = strlen(str);
	char *p = realloc(*buf, *len + n + 1);

	if (!p)
		return -ENOMEM;
	memcpy(p + *len, str, n + 1);
	*buf = p;
	*len += n;
	return 0;
}

/* "-fstype=nfs /a host:/a /b host:/b": one multi-mount, offsets sorted. */
static int hosts_entry(const char *host, struct hosts_exports *e, char **entry)
{
	char bracket[300];
	const char *h = host;
	size_t i, len = 0;
	char *buf = NULL;
	int ret;

	if (strchr(host, ':') && host[0] != '[') {
		snprintf(bracket, sizeof(bracket), "[%s]", host);
		h = bracket;
	}
	qsort(e->he_dirs, e->he_n, sizeof(*e->he_dirs), hosts_cmp);
	ret = hosts_append(&buf, &len, "-fstype=nfs");
	for (i = 0; !ret && i < e->he_n; i++) {
		const char *q = hosts_needs_quotes(e->he_dirs[i]) ? "\"" : "";
		char one[2 * MNT_PATHLEN + 320];

		snprintf(one, sizeof(one), " %s%s%s %s:%s%s%s", q, e->he_dirs[i],
			 q, h, q, e->he_dirs[i], q);
		ret = hosts_append(&buf, &len, one);
	}
	if (ret) {
		free(buf);
		return ret;
	}
	*entry = buf;
	return 0;
}

static int hosts_lookup(struct am_map *m, const char *key, char **entry)
{
	struct hosts_exports e = { 0 };
	int ret;

	ret = hosts_fetch(m, key, &e);
	if (ret)
		return ret;
	if (!e.he_n) {
		hosts_log(m, LOG_NOTICE, "%s exports nothing", key);
		return -ENOENT;
	}
	ret = hosts_entry(key, &e, entry);
	hosts_exports_free(&e);
	return ret;
}

static int hosts_enumerate(struct am_map *m, am_key_fn fn, void *arg)
{
	const char *list = hosts_conf(m, "hosts_list");
	char *copy, *host, *save = NULL, *entry;
	int ret = 0;

	if (!list || !*list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (host = strtok_r(copy, " \t,", &save); host && !ret;
	     host = strtok_r(NULL, " \t,", &save)) {
		entry = NULL;
		/* a host that is down is still listed: it is configured */
		hosts_lookup(m, host, &entry);
		ret = fn(host, entry ? entry : "", arg);
		free(entry);
	}
	free(copy);
	return ret;
}

static int hosts_open(struct am_map **mapp, const struct am_map_args *args)
{
	struct am_map *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->hm_host = args->ma_host;
	*mapp = m;
	return 0;
}

static void hosts_close(struct am_map *m)
{
	free(m);
}

const struct am_map_ops am_map_module = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "hosts",
	.open = hosts_open,
	.lookup = hosts_lookup,
	.enumerate = hosts_enumerate,
	.close = hosts_close,
};
