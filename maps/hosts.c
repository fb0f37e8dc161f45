// SPDX-License-Identifier: GPL-2.0
/*
 * map_hosts.so: the built-in -hosts map.  The key is a host name; its entry
 * is a multi-mount of every export the host announces through the MOUNT
 * protocol's EXPORT call (libtirpc), each offset mounted lazily by the
 * agent.  ->enumerate lists host names without asking any of them, as
 * autofs-tools lists -hosts (gethostent): the first name of each line of the
 * hosts file ([nfs] hosts_file, /etc/hosts), or [nfs] hosts_list when set.
 * The entries it passes on are empty: a host's exports are asked at lookup.
 *
 * The answer comes from whoever runs a MOUNT service on that host, so it is
 * data only: hosts_entry.c mounts each name literally or skips it with a log
 * line, and the key must be a host name before anything is asked.
 */
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <arpa/inet.h>
#include <rpc/rpc.h>

#include "am_module.h"
#include "am_sun.h"
#include "hosts_entry.h"
#include "hosts_names.h"

#define MOUNT_PROGRAM_NUM	100005
#define MOUNT_V3		3
#define MOUNTPROC_EXPORT	5
#define MNT_NAMELEN		255
/* decoded up to this, so a longer name is skipped rather than the answer lost */
#define HOSTS_DECODE_MAX	4096
/* more exports than this and the answer is refused: offsets cost mounts */
#define HOSTS_MAX_EXPORTS	4096
#define HOSTS_DEFAULT_TIMEOUT_MS 5000
#define HOSTS_DEFAULT_FILE	"/etc/hosts"

struct am_map {
	const struct am_host *hm_host;
};

struct hosts_exports {
	char **he_dirs;
	size_t he_n;
	bool he_toomany;
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
	char **d;

	if (e->he_n == HOSTS_MAX_EXPORTS) {
		e->he_toomany = true;
		return -E2BIG;
	}
	d = realloc(e->he_dirs, (e->he_n + 1) * sizeof(*d));
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
		if (!xdr_string(x, &dir, HOSTS_DECODE_MAX))
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
			  e->he_toomany ? "more than 4096 exports" : clnt_sperrno(st));
		hosts_exports_free(e);
		return -EAGAIN;
	}
	return 0;
}

struct hosts_skip {
	struct am_map *hs_map;
	const char *hs_host;
};

static void hosts_skipped(void *arg, const char *name, const char *why)
{
	const struct hosts_skip *hs = arg;

	/* the agent's log escapes what a server sent */
	hosts_log(hs->hs_map, LOG_WARNING, "server %s: export '%.200s%s' skipped: it %s",
		  hs->hs_host, name, strlen(name) > 200 ? "..." : "", why);
}

/*
 * KEY as a location writes it: a host name, an IPv4 address or a bracketed
 * IPv6 one, a bare IPv6 address gets its brackets.  Returns: 0, -ENOENT.
 */
/* Returns: NULL when KEY names a host (a bare IPv6 address too), else why not. */
static const char *hosts_key_invalid(const char *key)
{
	struct in6_addr a6;
	const char *why = am_host_invalid(key);

	return why && inet_pton(AF_INET6, key, &a6) == 1 ? NULL : why;
}

static int hosts_location_host(struct am_map *m, const char *key, char *out,
			       size_t outlen)
{
	const char *why = hosts_key_invalid(key);

	if (why || strlen(key) + 3 > outlen) {
		hosts_log(m, LOG_NOTICE, "key '%.100s' is not a host name: %s", key,
			  why ? why : "too long");
		return -ENOENT;
	}
	snprintf(out, outlen, key[0] != '[' && strchr(key, ':') ? "[%s]" : "%s", key);
	return 0;
}

/* The host to ask over RPC: KEY without IPv6 brackets. */
static void hosts_rpc_host(const char *key, char *out, size_t outlen)
{
	size_t n = strlen(key);

	if (key[0] == '[' && n > 2 && key[n - 1] == ']')
		snprintf(out, outlen, "%.*s", (int)(n - 2), key + 1);
	else
		snprintf(out, outlen, "%s", key);
}

static int hosts_lookup(struct am_map *m, const char *key, char **entry)
{
	struct hosts_exports e = { 0 };
	char host[300], rpc_host[300];
	struct hosts_skip hs = { m, key };
	int ret;

	ret = hosts_location_host(m, key, host, sizeof(host));
	if (ret)
		return ret;
	hosts_rpc_host(key, rpc_host, sizeof(rpc_host));
	ret = hosts_fetch(m, rpc_host, &e);
	if (ret)
		return ret;
	ret = hosts_entry_build(host, e.he_dirs, e.he_n, hosts_skipped, &hs, entry);
	if (ret == -ENOENT)
		hosts_log(m, LOG_NOTICE, "%s exports nothing that can be mounted", key);
	hosts_exports_free(&e);
	return ret;
}

struct hosts_list {
	struct am_map *hl_map;
	am_key_fn hl_fn;
	void *hl_arg;
};

/* One listed host: a name a lookup would accept, with an empty entry. */
static int hosts_list_one(const char *host, void *arg)
{
	const struct hosts_list *hl = arg;
	const char *why = hosts_key_invalid(host);

	if (why) {
		hosts_log(hl->hl_map, LOG_NOTICE, "'%.100s' not listed: %s", host, why);
		return 0;
	}
	return hl->hl_fn(host, "", hl->hl_arg);
}

static int hosts_enumerate_list(const char *list, struct hosts_list *hl)
{
	char *copy, *host, *save = NULL;
	int ret = 0;

	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (host = strtok_r(copy, " \t,", &save); host && !ret;
	     host = strtok_r(NULL, " \t,", &save))
		ret = hosts_list_one(host, hl);
	free(copy);
	return ret;
}

/* No host is asked: a browse listing of /net must not wait on any. */
static int hosts_enumerate(struct am_map *m, am_key_fn fn, void *arg)
{
	const char *list = hosts_conf(m, "hosts_list");
	const char *file = hosts_conf(m, "hosts_file");
	struct hosts_list hl = { m, fn, arg };
	int ret;

	if (list && *list)
		return hosts_enumerate_list(list, &hl);
	if (!file)
		file = HOSTS_DEFAULT_FILE;
	if (!*file)
		return 0;
	ret = hosts_names_read(file, hosts_list_one, &hl);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0 && ret != -ENOMEM)
		hosts_log(m, LOG_ERR, "hosts file %s: %s", file, strerror(-ret));
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

AM_MAP_MODULE(hosts) = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "hosts",
	.open = hosts_open,
	.lookup = hosts_lookup,
	.enumerate = hosts_enumerate,
	.close = hosts_close,
};
