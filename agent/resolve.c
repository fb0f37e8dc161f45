// SPDX-License-Identifier: GPL-2.0
/* From a request to a parsed entry: key check, source chain, expansion, parse. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_lookup.h"
#include "am_util.h"

void am_resolved_free(struct am_resolved *rs)
{
	am_mopts_free(&rs->rs_mo);
	am_entry_free(&rs->rs_entry);
	free(rs->rs_text);
	free(rs->rs_source);
	memset(rs, 0, sizeof(*rs));
}

/* Returns: an am_exit code. */
static int resolve_fetch(struct am_ctx *ctx, const struct am_request *rq,
			 struct am_resolved *rs)
{
	struct am_chain ch;
	const char *desc = NULL;
	bool direct = rq->rq_key[0] == '/';
	int err;

	err = am_chain_init(ctx, rq->rq_map, rs->rs_mo.mo_argc,
			    (const char *const *)rs->rs_mo.mo_argv, &ch);
	if (err)
		return err == -ENOMEM ? AM_EXIT_INTERNAL : AM_EXIT_USAGE;
	err = am_chain_lookup(&ch, rq->rq_key, &rs->rs_text, &desc);
	if ((err == -ENOENT || err == -EAGAIN) && !direct) {
		int werr = am_chain_lookup(&ch, "*", &rs->rs_text, &desc);

		if (!werr)
			rs->rs_wildcard = true;
		if (werr != -ENOENT || err == -ENOENT)
			err = werr;
	}
	if (!err)
		rs->rs_source = strdup(desc);
	am_chain_free(&ch);
	if (err == -ENODEV) {
		am_log(LOG_ERR, "map %s: not found in any source", rq->rq_map);
		return AM_EXIT_NOMAP;
	}
	if (err == -ENOENT) {
		am_log(LOG_INFO, "map %s: no entry for key %s", rq->rq_map, rq->rq_key);
		return AM_EXIT_NOKEY;
	}
	if (err == -EAGAIN || (err && err != -ENOMEM)) {
		am_log(LOG_ERR, "map %s: key %s: no entry found and a source was unavailable",
		       rq->rq_map, rq->rq_key);
		return AM_EXIT_UNAVAIL;
	}
	return err || !rs->rs_source ? AM_EXIT_INTERNAL : AM_EXIT_OK;
}

/* A source whose entries are a server's answer (map_hosts.so). */
static bool resolve_remote(const struct am_resolved *rs)
{
	return am_startswith(rs->rs_source, "hosts:");
}

/*
 * The master map options an entry is parsed with: for a server's answer,
 * nosuid,nodev unless the master map says suid or dev (as autofs-tools).
 * Returns: malloc'd, or NULL.
 */
static char *resolve_defopts(const struct am_resolved *rs)
{
	return am_opts_merge(resolve_remote(rs) ? "nosuid,nodev" : "",
			     rs->rs_mo.mo_mntopts);
}

/*
 * A server's answer never names a local path: a location without a host
 * would be a bind mount of this machine.  Returns: 0, -EINVAL.
 */
static int resolve_check_remote(const struct am_resolved *rs, char *why, size_t len)
{
	const struct am_mnt *m;
	size_t i, k;

	for (i = 0; resolve_remote(rs) && i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		for (k = 0; k < m->mn_nlocs; k++) {
			if (m->mn_locs[k].al_host)
				continue;
			snprintf(why, len, "offset %.60s has a location without a host",
				 m->mn_offset);
			return -EINVAL;
		}
	}
	return 0;
}

static int resolve_parse(const struct am_request *rq, struct am_resolved *rs)
{
	struct am_vars vars = { 0 };
	char why[256] = "out of memory", *expanded = NULL;
	char *defopts = resolve_defopts(rs);
	size_t i;
	int err = defopts ? 0 : -ENOMEM;

	if (!err)
		err = am_vars_standard(&vars, rq->rq_uid, rq->rq_gid);
	for (i = 0; !err && i < rs->rs_mo.mo_defines.av_n; i++)
		err = am_vars_set(&vars, rs->rs_mo.mo_defines.av_name[i],
				  rs->rs_mo.mo_defines.av_value[i]);
	if (!err)
		err = am_sun_expand(rs->rs_text, rq->rq_key, &vars, &expanded, why, sizeof(why));
	if (!err)
		err = am_sun_parse(expanded, defopts, &rs->rs_entry, why, sizeof(why));
	if (!err)
		err = resolve_check_remote(rs, why, sizeof(why));
	free(expanded);
	free(defopts);
	am_vars_free(&vars);
	if (err == -ENOMEM)
		return AM_EXIT_INTERNAL;
	if (err) {
		am_log(LOG_ERR, "map %s (%s): key %s: malformed entry: %s", rq->rq_map,
		       rs->rs_source, rq->rq_key, why);
		return AM_EXIT_MALFORMED;
	}
	return AM_EXIT_OK;
}

/*
 * The map a nested (fstype=autofs) entry names, when the entry came from
 * outside the host (LDAP, NIS, a program map, the hosts map), is data: it
 * may name a map to look up through the sources or an LDAP DN, never a file,
 * a program or another server.  Returns: why it is refused, or NULL.
 */
static const char *submap_refused(const char *spec)
{
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";

	if (am_startswith(spec, "ldap:"))
		return strpbrk(spec + 5, "/:") ? "an LDAP map that names a server" : NULL;
	if (am_startswith(spec, "nis:") || am_startswith(spec, "yp:"))
		spec = strchr(spec, ':') + 1;
	if (!*spec || spec[strspn(spec, name_chars)])
		return "not a plain map name";
	return NULL;
}

/* Returns: an am_exit code. */
static int resolve_check_submaps(const struct am_request *rq, const struct am_resolved *rs)
{
	const struct am_mnt *m;
	const char *why;
	size_t i;

	if (am_startswith(rs->rs_source, "file:"))
		return AM_EXIT_OK;
	for (i = 0; i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		if (strcmp(m->mn_fstype, "autofs") || !m->mn_nlocs)
			continue;
		why = submap_refused(m->mn_locs[0].al_path);
		if (!why)
			continue;
		am_log(LOG_ERR, "map %s (%s): key %s: refused nested map '%.100s': %s",
		       rq->rq_map, rs->rs_source, rq->rq_key, m->mn_locs[0].al_path, why);
		return AM_EXIT_MALFORMED;
	}
	return AM_EXIT_OK;
}

int am_resolve(struct am_ctx *ctx, const struct am_request *rq, struct am_resolved *rs)
{
	const char *why;
	char err[256];
	int ret;

	memset(rs, 0, sizeof(*rs));
	why = am_key_invalid(rq->rq_key, rq->rq_key[0] == '/');
	if (why) {
		am_log(LOG_ERR, "map %s: refused key '%.100s': %s", rq->rq_map, rq->rq_key, why);
		return AM_EXIT_NOKEY;
	}
	ret = am_mopts_parse(rq->rq_options, &rs->rs_mo, err, sizeof(err));
	if (ret) {
		if (ret == -EINVAL)
			am_log(LOG_ERR, "map %s: options '%.100s': %s", rq->rq_map,
			       rq->rq_options, err);
		return ret == -EINVAL ? AM_EXIT_USAGE : AM_EXIT_INTERNAL;
	}
	rs->rs_timeout = rs->rs_mo.mo_timeout >= 0 ? (unsigned int)rs->rs_mo.mo_timeout :
						     ctx->ac_conf.cf_timeout;
	ret = resolve_fetch(ctx, rq, rs);
	if (!ret)
		ret = resolve_parse(rq, rs);
	if (!ret)
		ret = resolve_check_submaps(rq, rs);
	return ret;
}

static bool offset_below(const char *t, const char *c)
{
	size_t n = strlen(t);

	if (!strcmp(t, "/"))
		return strcmp(c, "/") != 0;
	return !strncmp(c, t, n) && c[n] == '/';
}

bool am_offset_child(const struct am_entry *e, const char *t, const char *c)
{
	const char *o;
	size_t i;

	if (!offset_below(t, c))
		return false;
	for (i = 0; i < e->en_nmnts; i++) {
		o = e->en_mnts[i].mn_offset;
		if (strcmp(o, c) && offset_below(t, o) && offset_below(o, c))
			return false;
	}
	return true;
}
