// SPDX-License-Identifier: GPL-2.0
/*
 * map_nis.so: automount maps served by NIS (ypserv), through libnsl over
 * libtirpc.  yp_match answers one key, yp_all streams the whole map.  Sites
 * name maps "auto.home" while some servers only carry "auto_home", so the
 * other spelling is tried when the first one is missing.
 *
 * A missing map, an unbound domain and a timeout are logged differently:
 * the first is the site's map layout (-ENOENT), the others mean NIS is
 * unavailable now and the agent should ask the next source (-EAGAIN).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <rpc/rpc.h>
#include <rpcsvc/yp_prot.h>
#include <rpcsvc/ypclnt.h>

#include "am_module.h"

#define NIS_DEF_TIMEOUT 10

struct am_map {
	const struct am_host *m_host;
	char *m_domain;
	char *m_name;			/* the spelling the server has */
	char *m_asked;			/* the spelling the master map has */
};

#define nis_log(map, prio, ...) \
	((map)->m_host->ah_log((map)->m_host->ah_ctx, (prio), "nis: " __VA_ARGS__))

static const char *conf(const struct am_host *h, const char *key)
{
	const char *v = h->ah_conf_get(h->ah_ctx, "nis", key);

	return v && *v ? v : NULL;
}

/* Returns: the module convention for a yp_* error, logging why. */
static int nis_error(struct am_map *map, int err, const char *what)
{
	switch (err) {
	case YPERR_KEY:
	case YPERR_NOMORE:
		return -ENOENT;
	case YPERR_MAP:
		nis_log(map, LOG_INFO, "%s: domain %s has no map %s", what,
			map->m_domain, map->m_name);
		return -ENOENT;
	case YPERR_DOMAIN:
	case YPERR_YPBIND:
	case YPERR_NODOM:
		nis_log(map, LOG_ERR,
			"%s: domain %s is not bound (no ypbind or no server for it): %s",
			what, map->m_domain, yperr_string(err));
		return -EAGAIN;
	case YPERR_RPC:
	case YPERR_YPSERV:
	case YPERR_BUSY:
		nis_log(map, LOG_ERR,
			"%s: server of domain %s did not answer in time: %s",
			what, map->m_domain, yperr_string(err));
		return -EAGAIN;
	case YPERR_RESRC:
		return -ENOMEM;
	default:
		nis_log(map, LOG_ERR, "%s: map %s of domain %s: %s", what,
			map->m_name, map->m_domain, yperr_string(err));
		return -EIO;
	}
}

/* auto.home <-> auto_home */
static char *other_spelling(const char *name)
{
	char *alt = strdup(name), *c;
	bool changed = false;

	if (!alt)
		return NULL;
	for (c = alt; *c; c++) {
		if (*c == '.' || *c == '_') {
			*c = *c == '.' ? '_' : '.';
			changed = true;
		}
	}
	if (!changed) {
		free(alt);
		return NULL;
	}
	return alt;
}

/* Returns: 0 when the domain serves map NAME, -ENOENT, -EAGAIN. */
static int map_probe(struct am_map *map, const char *name)
{
	char *order = NULL;
	int err;

	free(map->m_name);
	map->m_name = strdup(name);
	if (!map->m_name)
		return -ENOMEM;
	/* yp_master is a cheap call that tells a missing map apart */
	err = yp_master(map->m_domain, map->m_name, &order);
	free(order);
	return err ? nis_error(map, err, "open") : 0;
}

static int nis_domain(struct am_map *map)
{
	const char *d = conf(map->m_host, "domain");
	char *dom = NULL;
	int err;

	if (d) {
		map->m_domain = strdup(d);
		return map->m_domain ? 0 : -ENOMEM;
	}
	err = yp_get_default_domain(&dom);
	if (err || !dom || !*dom || !strcmp(dom, "(none)")) {
		nis_log(map, LOG_ERR,
			"no NIS domain: set [nis] domain or the domainname of this host");
		return -EAGAIN;
	}
	map->m_domain = strdup(dom);
	return map->m_domain ? 0 : -ENOMEM;
}

static int nis_timeout(struct am_map *map)
{
	const char *t = conf(map->m_host, "timeout");
	long n = t ? strtol(t, NULL, 10) : NIS_DEF_TIMEOUT;

	if (n <= 0 || n > 3600) {
		nis_log(map, LOG_WARNING,
			"[nis] timeout = \"%s\" is not a number of seconds, using %d",
			t, NIS_DEF_TIMEOUT);
		n = NIS_DEF_TIMEOUT;
	}
	return (int)n;
}

/* Returns: 0 with *SIN the server ypbind bound the domain to, -EAGAIN. */
static int nis_binding(struct am_map *map, struct timeval tv, struct sockaddr_in *sin)
{
	struct ypbind2_resp resp;
	CLIENT *clnt;
	enum clnt_stat st;

	clnt = clnt_create_timed("localhost", YPBINDPROG, YPBINDVERS_2, "udp", &tv);
	if (!clnt) {
		nis_log(map, LOG_ERR,
			"domain %s is not bound: ypbind is not running (%s)",
			map->m_domain, clnt_spcreateerror("localhost"));
		return -EAGAIN;
	}
	memset(&resp, 0, sizeof(resp));
	st = clnt_call(clnt, YPBINDPROC_DOMAIN, (xdrproc_t)xdr_domainname,
		       (caddr_t)&map->m_domain, (xdrproc_t)xdr_ypbind2_resp,
		       (caddr_t)&resp, tv);
	clnt_destroy(clnt);
	if (st == RPC_TIMEDOUT) {
		nis_log(map, LOG_ERR,
			"domain %s: ypbind did not answer within %ld s",
			map->m_domain, (long)tv.tv_sec);
		return -EAGAIN;
	}
	if (st != RPC_SUCCESS || resp.ypbind_status != YPBIND_SUCC_VAL) {
		nis_log(map, LOG_ERR, "domain %s is not bound: %s", map->m_domain,
			st != RPC_SUCCESS ? clnt_sperrno(st) :
			"ypbind has no server for it");
		return -EAGAIN;
	}
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	memcpy(&sin->sin_addr, &resp.ypbind2_bindinfo.ypbind_binding_addr, sizeof(sin->sin_addr));
	memcpy(&sin->sin_port, &resp.ypbind2_bindinfo.ypbind_binding_port, sizeof(sin->sin_port));
	return 0;
}

/*
 * libnsl waits 25 s and more for a silent server; ask the bound server
 * once with our own limit, so a dead one costs [nis] timeout seconds.
 */
static int nis_ping(struct am_map *map)
{
	struct timeval tv = { .tv_sec = nis_timeout(map) };
	struct sockaddr_in sin;
	bool_t served = FALSE;
	int sock = RPC_ANYSOCK, ret;
	enum clnt_stat st;
	CLIENT *clnt;

	ret = nis_binding(map, tv, &sin);
	if (ret)
		return ret;
	clnt = clntudp_create(&sin, YPPROG, YPVERS, tv, &sock);
	if (!clnt) {
		nis_log(map, LOG_ERR, "server of domain %s: %s", map->m_domain,
			clnt_spcreateerror("ypserv"));
		return -EAGAIN;
	}
	st = clnt_call(clnt, YPPROC_DOMAIN, (xdrproc_t)xdr_domainname,
		       (caddr_t)&map->m_domain, (xdrproc_t)xdr_bool,
		       (caddr_t)&served, tv);
	clnt_destroy(clnt);
	if (st == RPC_TIMEDOUT) {
		nis_log(map, LOG_ERR,
			"server %s of domain %s did not answer within %ld s",
			inet_ntoa(sin.sin_addr), map->m_domain, (long)tv.tv_sec);
		return -EAGAIN;
	}
	if (st != RPC_SUCCESS || !served) {
		nis_log(map, LOG_ERR, "server %s does not serve domain %s%s%s",
			inet_ntoa(sin.sin_addr), map->m_domain,
			st != RPC_SUCCESS ? ": " : "",
			st != RPC_SUCCESS ? clnt_sperrno(st) : "");
		return -EAGAIN;
	}
	return 0;
}

static void nis_map_close(struct am_map *map)
{
	if (!map)
		return;
	free(map->m_domain);
	free(map->m_name);
	free(map->m_asked);
	free(map);
}

static int nis_map_open(struct am_map **mapp, const struct am_map_args *args)
{
	struct am_map *map;
	char *alt;
	int ret;

	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->m_host = args->ma_host;
	map->m_asked = strdup(args->ma_name);
	ret = map->m_asked ? nis_domain(map) : -ENOMEM;
	if (ret)
		goto fail;
	ret = nis_ping(map);
	if (ret)
		goto fail;
	ret = map_probe(map, args->ma_name);
	if (ret == -ENOENT) {
		alt = other_spelling(args->ma_name);
		if (alt) {
			ret = map_probe(map, alt);
			free(alt);
		}
	}
	if (ret)
		goto fail;
	*mapp = map;
	return 0;
fail:
	nis_map_close(map);
	return ret;
}

static int nis_map_lookup(struct am_map *map, const char *key, char **entry)
{
	char *val = NULL;
	int len = 0, err;

	err = yp_match(map->m_domain, map->m_name, key, (int)strlen(key), &val, &len);
	if (err)
		return nis_error(map, err, key);
	*entry = strndup(val, (size_t)len);
	free(val);
	return *entry ? 0 : -ENOMEM;
}

struct nis_enum {
	am_key_fn ne_fn;
	void *ne_arg;
	int ne_stop;
	int ne_err;
	bool ne_snapshot;		/* every key yp_match finds (->snapshot) */
};

/*
 * KEY and VAL (KLEN and VLEN bytes) to NE's function, but makedbm's
 * bookkeeping keys when not ALL.  Returns: non-zero to stop yp_all.
 */
static int nis_give(struct nis_enum *ne, const char *key, int klen, const char *val,
		    int vlen, bool all)
{
	char *k = strndup(key, (size_t)klen), *v = strndup(val, (size_t)vlen);

	if (!k || !v)
		ne->ne_err = YPERR_RESRC;
	else if (all || strncmp(k, "YP_", 3))
		ne->ne_stop = ne->ne_fn(k, v, ne->ne_arg);
	free(k);
	free(v);
	return ne->ne_err || ne->ne_stop;
}

static int nis_enum_one(int status, char *key, int klen, char *val, int vlen,
			char *data)
{
	struct nis_enum *ne = (struct nis_enum *)data;

	if (status != YP_TRUE) {
		ne->ne_err = status == YP_NOMORE ? 0 : ypprot_err(status);
		return 1;
	}
	/*
	 * For the agent's cache: every key as yp_match() finds it, by the
	 * strlen() of the key asked, so one holding a NUL byte never is; the
	 * value as nis_map_lookup() gives it; makedbm's keys too.
	 */
	if (ne->ne_snapshot)
		return klen > 0 && !memchr(key, '\0', (size_t)klen) &&
		       nis_give(ne, key, klen, val, vlen, true);
	/* some makedbm maps keep the trailing NUL of keys and values */
	while (klen > 0 && key[klen - 1] == '\0')
		klen--;
	while (vlen > 0 && val[vlen - 1] == '\0')
		vlen--;
	return klen > 0 && nis_give(ne, key, klen, val, vlen, false);
}

/* Every record of the map to NE's function (yp_all). */
static int nis_all(struct am_map *map, struct nis_enum *ne)
{
	struct ypall_callback cb = {
		.foreach = nis_enum_one,
		.data = (char *)ne,
	};
	int err;

	err = yp_all(map->m_domain, map->m_name, &cb);
	if (!err)
		err = ne->ne_err;
	if (err)
		return nis_error(map, err, "list");
	return ne->ne_stop;
}

static int nis_map_enumerate(struct am_map *map, am_key_fn fn, void *arg)
{
	struct nis_enum ne = { .ne_fn = fn, .ne_arg = arg };

	return nis_all(map, &ne);
}

static int nis_map_snapshot(struct am_map *map, am_key_fn fn, void *arg)
{
	struct nis_enum ne = { .ne_fn = fn, .ne_arg = arg, .ne_snapshot = true };

	return nis_all(map, &ne);
}

AM_MAP_MODULE(nis) = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "nis",
	.open = nis_map_open,
	.lookup = nis_map_lookup,
	.enumerate = nis_map_enumerate,
	.close = nis_map_close,
	.snapshot = nis_map_snapshot,
};
