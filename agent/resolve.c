// SPDX-License-Identifier: GPL-2.0
/* From a request to a parsed entry: key check, source chain, expansion, parse. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_lookup.h"
#include "am_stage.h"
#include "am_util.h"

void am_resolved_free(struct am_resolved *rs)
{
	am_mopts_free(&rs->rs_mo);
	am_entry_free(&rs->rs_entry);
	free(rs->rs_text);
	free(rs->rs_source);
	free(rs->rs_where);
	free(rs->rs_via);
	memset(rs, 0, sizeof(*rs));
}

/*
 * The master map's -D defines, which reach entries and a program map's
 * environment: none when those options are a nested map's that a foreign
 * entry named (mount.c gives it none; this holds whoever wrote them).
 */
static const struct am_vars *resolve_defines(const struct am_resolved *rs)
{
	static const struct am_vars none;

	return rs->rs_mo.mo_foreign ? &none : &rs->rs_mo.mo_defines;
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
	ctx->ac_where[0] = '\0';
	ctx->ac_via[0] = '\0';
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
	if (!err && ctx->ac_where[0])
		rs->rs_where = strdup(ctx->ac_where);
	if (!err && ctx->ac_via[0])
		rs->rs_via = strdup(ctx->ac_via);
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

/* Returns: an am_exit code. */
static int resolve_parse(const struct am_request *rq, struct am_rqvars *rv,
			 struct am_resolved *rs)
{
	const struct am_vars *std = &rv->rv_std;
	struct am_vars vars = { 0 };
	char why[256] = "out of memory", *expanded = NULL;
	char *defopts = am_trust_defopts(rs);
	size_t i;
	int err = defopts ? 0 : -ENOMEM;

	if (!err && am_vars_uses_names(rs->rs_text))
		err = am_rqvars_names(rv);
	for (i = 0; !err && i < std->av_n; i++)
		err = am_vars_set(&vars, std->av_name[i], std->av_value[i]);
	for (i = 0; !err && i < resolve_defines(rs)->av_n; i++)
		err = am_vars_set(&vars, resolve_defines(rs)->av_name[i],
				  resolve_defines(rs)->av_value[i]);
	if (!err)
		err = am_sun_expand(rs->rs_text, rq->rq_key, &vars, &expanded, why, sizeof(why));
	if (!err)
		err = am_sun_parse(expanded, defopts, &rs->rs_entry, why, sizeof(why));
	if (!err)
		err = am_trust_check_locations(rs, why, sizeof(why));
	if (!err)
		err = am_trust_clamp(rs);
	free(expanded);
	free(defopts);
	am_vars_free(&vars);
	if (err == -ENOMEM)
		return AM_EXIT_INTERNAL;
	if (err) {
		am_log(LOG_ERR, "map %s (%s): key %s: malformed entry: %s", rq->rq_map,
		       rs->rs_where ? rs->rs_where : rs->rs_source, rq->rq_key, why);
		return AM_EXIT_MALFORMED;
	}
	return AM_EXIT_OK;
}

int am_resolve(struct am_ctx *ctx, const struct am_request *rq, struct am_resolved *rs)
{
	struct am_rqvars rv;
	const char *why;
	char err[256];
	int ret;

	memset(rs, 0, sizeof(*rs));
	why = am_key_invalid(rq->rq_key, rq->rq_key[0] == '/');
	if (why) {
		/* any user can ask for any name: not an error of the agent */
		am_log(LOG_NOTICE, "map %s: refused key '%.100s': %s", rq->rq_map,
		       rq->rq_key, why);
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
	rs->rs_strictexpire = rs->rs_mo.mo_strictexpire >= 0 ? rs->rs_mo.mo_strictexpire :
							      ctx->ac_conf.cf_strictexpire;
	if (am_rqvars_init(&rv, rq->rq_uid, rq->rq_gid, resolve_defines(rs)))
		ret = AM_EXIT_INTERNAL;
	am_stage_enter(AM_STAGE_MAP);
	ctx->ac_rqvars = &rv;
	if (!ret)
		ret = resolve_fetch(ctx, rq, rs);
	ctx->ac_rqvars = NULL;
	am_stage_enter(AM_STAGE_PARSE);
	if (!ret)
		ret = am_resolve_text(rq, &rv, rs);
	am_rqvars_free(&rv);
	return ret;
}

int am_resolve_text(const struct am_request *rq, struct am_rqvars *rv, struct am_resolved *rs)
{
	int ret;

	am_trust_decide(rs);
	ret = resolve_parse(rq, rv, rs);
	if (!ret)
		ret = am_trust_check_submaps(rq, rs);
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
