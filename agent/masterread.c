// SPDX-License-Identifier: GPL-2.0
/* Reading the master map through the sources, and `autofs dump`. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "am_lookup.h"
#include "am_util.h"

struct master_read {
	struct am_ctx *mr_ctx;
	struct am_master *mr_master;
	const char *mr_name;
	int mr_err;
};

static int master_collect(const char *key, const char *entry, void *arg)
{
	struct master_read *mr = arg;
	/* the file and line, of an included master map too */
	const char *where = mr->mr_ctx->ac_where[0] ? mr->mr_ctx->ac_where : mr->mr_name;
	const char *via;
	char why[256];
	int err;

	/*
	 * A line read through a source outside the map files is not the
	 * administrator's: trigger.c places and marks it as such (trust.c).
	 */
	if (am_trust_enumerated(mr->mr_ctx, &via) == AM_TRUST_LOCAL)
		via = NULL;
	err = am_master_add(mr->mr_master, key, entry, where, via, why, sizeof(why));
	if (err == -EINVAL || err == -EPERM)
		am_log(LOG_ERR, "master map %s: %s, entry skipped", where, why);
	if (err == 1)
		am_log(LOG_INFO, "master map %s: %s listed again, first entry kept",
		       where, key);
	/* the next entry may come from a source that has no lines */
	mr->mr_ctx->ac_where[0] = '\0';
	if (err == -ENOMEM) {
		mr->mr_err = err;
		return 1;
	}
	return 0;
}

/* "-null" disables its mount point wherever it stands in the master map. */
static void master_drop_null(struct am_master *m)
{
	struct am_master_entry *e;
	size_t i, kept = 0;

	for (i = 0; i < m->m_n; i++) {
		e = &m->m_entries[i];
		if (strcmp(e->me_map, "-null")) {
			m->m_entries[kept++] = *e;
			continue;
		}
		am_log(LOG_INFO, "master map: %s disabled by -null (%s)", e->me_path,
		       e->me_origin);
		am_master_entry_free(e);
	}
	m->m_n = kept;
}

int am_master_read(struct am_ctx *ctx, const char *name, struct am_master *m)
{
	struct master_read mr = { .mr_ctx = ctx, .mr_master = m, .mr_name = name };
	struct am_chain ch;
	size_t i;
	bool found = false;
	int err;

	memset(m, 0, sizeof(*m));
	ctx->ac_where[0] = '\0';
	err = am_chain_init(ctx, name, 0, NULL, &ch);
	if (err)
		return err;
	ctx->ac_reading_master = true;
	err = am_chain_enumerate(&ch, master_collect, &mr);
	ctx->ac_reading_master = false;
	for (i = 0; i < ch.ch_n; i++)
		if (ch.ch_src[i].so_state == 1)
			found = true;
	am_chain_free(&ch);
	if (mr.mr_err)
		return mr.mr_err;
	if (err < 0)
		return err;
	master_drop_null(m);
	return found ? 0 : -ENOENT;
}

struct dump_map {
	struct am_ctx *dm_ctx;
	const char *dm_map;
	const char *dm_options;
	struct am_mopts *dm_mo;
	bool dm_hosts;		/* -hosts: entries are made at lookup */
	unsigned int dm_keys, dm_bad;
};

/* "file:line" of the entry a file map just passed on, else the map's name. */
static void dump_where(struct dump_map *dm, char *out, size_t outlen)
{
	char *where = dm->dm_ctx->ac_where;

	if (where[0])
		snprintf(out, outlen, "%s", where);
	else
		snprintf(out, outlen, "map %s", dm->dm_map);
	where[0] = '\0';
}

/* The key a wildcard entry is shown expanded for: a valid key and host. */
#define DUMP_WILDCARD_KEY "key"

static int dump_entry(const char *key, const char *entry, void *arg)
{
	struct dump_map *dm = arg;
	char where[sizeof(dm->dm_ctx->ac_where)];
	struct am_entry e;
	struct am_vars vars = { 0 };
	struct am_buf b = { 0 };
	char why[256] = "out of memory", *text = NULL, *line, *save = NULL;
	size_t i;
	int err;

	dm->dm_keys++;
	dump_where(dm, where, sizeof(where));
	am_out("  %s | %s\n", key, entry);
	if (dm->dm_hosts && !*entry) {
		am_out("    (its exports are asked of the host at lookup)\n");
		return 0;
	}
	err = am_vars_standard(&vars, getuid(), getgid());
	for (i = 0; !err && i < dm->dm_mo->mo_defines.av_n; i++)
		err = am_vars_set(&vars, dm->dm_mo->mo_defines.av_name[i],
				  dm->dm_mo->mo_defines.av_value[i]);
	/* the wildcard stands for any key: shown for one, checked at lookup */
	if (!err && !strcmp(key, "*"))
		am_out("    (for a key named %s)\n", DUMP_WILDCARD_KEY);
	if (!err)
		err = am_sun_expand(entry, strcmp(key, "*") ? key : DUMP_WILDCARD_KEY,
				    &vars, &text, why, sizeof(why));
	if (!err)
		err = am_sun_parse(text, dm->dm_mo->mo_mntopts, &e, why, sizeof(why));
	if (!err) {
		am_entry_print(&e, &b);
		for (line = strtok_r(b.ab_s, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			am_out("%s\n", line);
		am_entry_free(&e);
	} else {
		dm->dm_bad++;
		am_out("    malformed: %s: %s\n", where, why);
	}
	am_buf_free(&b);
	free(text);
	am_vars_free(&vars);
	return 0;
}

/* Returns: true when SPEC names the -hosts map. */
static bool dump_is_hosts(const char *spec)
{
	struct am_mapspec ms;
	bool hosts;

	if (am_mapspec_parse(spec, &ms))
		return false;
	hosts = ms.ms_type && !strcmp(ms.ms_type, "hosts");
	am_mapspec_free(&ms);
	return hosts;
}

static int dump_one(struct am_ctx *ctx, const struct am_master_entry *me)
{
	struct dump_map dm = { .dm_ctx = ctx, .dm_map = me->me_map,
			       .dm_options = me->me_options,
			       .dm_hosts = dump_is_hosts(me->me_map) };
	struct am_mopts mo;
	struct am_chain ch;
	char why[512];
	size_t i;
	int err;

	am_out("%s %s %s\n", me->me_path, me->me_map, *me->me_options ? me->me_options : "-");
	if (me->me_foreign)
		am_out("  trust foreign (a master line from %s)\n", me->me_foreign);
	if (am_trust_master_line(ctx, me, why, sizeof(why))) {
		am_out("  refused: %s (autofs start skips it)\n", why);
		return AM_EXIT_MALFORMED;
	}
	err = am_mopts_parse(me->me_options, &mo, why, sizeof(why));
	if (err) {
		am_out("  bad options: %s: %s\n", me->me_origin, why);
		return AM_EXIT_MALFORMED;
	}
	if (mo.mo_unknown[0])
		am_out("  unknown option '%s' ignored: %s\n", mo.mo_unknown, me->me_origin);
	dm.dm_mo = &mo;
	ctx->ac_where[0] = '\0';
	err = am_chain_init(ctx, me->me_map, mo.mo_argc, (const char *const *)mo.mo_argv, &ch);
	if (!err) {
		for (i = 0; i < ch.ch_n; i++)
			am_out("  source %s\n", ch.ch_src[i].so_desc);
		err = am_chain_enumerate(&ch, dump_entry, &dm);
		for (i = 0; i < ch.ch_n; i++)
			if (ch.ch_src[i].so_state == 1 && !ch.ch_src[i].so_ops->enumerate)
				am_out("  (%s cannot list its keys)\n", ch.ch_src[i].so_desc);
		am_chain_free(&ch);
	}
	am_mopts_free(&mo);
	if (err)
		return AM_EXIT_UNAVAIL;
	return dm.dm_bad ? AM_EXIT_MALFORMED : AM_EXIT_OK;
}

int am_cmd_dump(struct am_ctx *ctx, const char *master)
{
	struct am_master m;
	size_t i;
	int err, ret = AM_EXIT_OK, r;

	if (!master)
		master = ctx->ac_conf.cf_master ? ctx->ac_conf.cf_master : "auto.master";
	err = am_master_read(ctx, master, &m);
	if (err) {
		am_log(LOG_ERR, "master map %s: %s", master,
		       err == -ENOENT ? "not found in any source" : strerror(-err));
		am_master_free(&m);
		return err == -ENOENT ? AM_EXIT_USAGE : AM_EXIT_UNAVAIL;
	}
	am_out("master map %s: %zu entries\n", master, m.m_n);
	for (i = 0; i < m.m_n; i++) {
		r = dump_one(ctx, &m.m_entries[i]);
		if (r && !ret)
			ret = r;
	}
	am_master_free(&m);
	return ret;
}
