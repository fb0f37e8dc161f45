// SPDX-License-Identifier: GPL-2.0
/*
 * From a map name to the sources that hold it, and the services (struct
 * am_host) the agent lends to its modules, "+include" lookups among them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "am_agent.h"
#include "am_dynamic.h"
#include "am_mapcache.h"
#include "am_util.h"

static const char *host_conf_get(void *ctx, const char *section, const char *key)
{
	return am_conf_get(&((struct am_ctx *)ctx)->ac_conf, section, key);
}

static void host_log(void *ctx, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void host_log(void *ctx, int prio, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	va_start(ap, fmt);
	am_vlog(prio, fmt, ap);
	va_end(ap);
}

static bool include_active(struct am_ctx *ctx, const char *desc)
{
	size_t i;

	for (i = 0; i < ctx->ac_nincl; i++)
		if (!strcmp(ctx->ac_incl[i], desc))
			return true;
	return false;
}

/* Returns: 0, or -ELOOP after logging why the source is skipped. */
static int include_push(struct am_ctx *ctx, const char *desc)
{
	if (include_active(ctx, desc)) {
		/* "+auto.master" inside /etc/auto.master means "the other sources" */
		am_log(ctx->ac_nincl && !strcmp(ctx->ac_incl[ctx->ac_nincl - 1], desc) ?
		       LOG_DEBUG : LOG_WARNING,
		       "include loop: %s includes %s again, skipped",
		       ctx->ac_incl[ctx->ac_nincl - 1], desc);
		return -ELOOP;
	}
	if (ctx->ac_nincl == AM_INCLUDE_DEPTH) {
		am_log(LOG_WARNING, "includes nested deeper than %d at %s, skipped",
		       AM_INCLUDE_DEPTH, desc);
		return -ELOOP;
	}
	ctx->ac_incl[ctx->ac_nincl++] = desc;
	return 0;
}

static void include_pop(struct am_ctx *ctx)
{
	ctx->ac_nincl--;
}

static int host_include_lookup(void *vctx, const char *map, const char *key, char **entry)
{
	struct am_ctx *ctx = vctx;
	struct am_chain ch;
	const char *desc;
	int err;

	err = am_chain_init(vctx, map, 0, NULL, &ch);
	if (err)
		return err == -ENOMEM ? err : -ENOENT;
	ctx->ac_includes_asked++;
	err = am_chain_lookup(&ch, key, entry, &desc);
	/*
	 * The entry is the included source's answer: its trust goes up with
	 * it (trust.c).  The innermost include answers first, so a map file
	 * including a file that includes NIS keeps NIS.
	 */
	if (!err && !ctx->ac_via[0] && !am_startswith(desc, "file:"))
		snprintf(ctx->ac_via, sizeof(ctx->ac_via), "%s", desc);
	am_chain_free(&ch);
	/* a missing included map is logged by its open and has no keys */
	return err == -ENODEV ? -ENOENT : err;
}

static void host_where(void *vctx, const char *file, unsigned int line)
{
	struct am_ctx *ctx = vctx;

	snprintf(ctx->ac_where, sizeof(ctx->ac_where), "%s:%u", file, line);
}

static int dir_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 7 && !strcmp(d->d_name + n - 7, ".autofs");
}

/* "+dir:/etc/auto.master.d": every *.autofs file there, in name order. */
static int include_dir(void *vctx, const char *dir,
		       int (*fn)(const char *, const char *, void *), void *arg)
{
	struct dirent **names;
	struct am_chain ch;
	char *spec;
	int n, i, err = 0;

	n = scandir(dir, &names, dir_filter, alphasort);
	if (n < 0) {
		am_log(LOG_WARNING, "include dir:%s: %s", dir, strerror(errno));
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!err && asprintf(&spec, "file:%s/%s", dir, names[i]->d_name) >= 0) {
			if (!am_chain_init(vctx, spec, 0, NULL, &ch)) {
				err = am_chain_enumerate(&ch, fn, arg);
				am_chain_free(&ch);
			}
			free(spec);
		}
		free(names[i]);
	}
	free(names);
	return err;
}

static int host_include_enumerate(void *vctx, const char *map,
				  int (*fn)(const char *, const char *, void *), void *arg)
{
	struct am_chain ch;
	int err;

	((struct am_ctx *)vctx)->ac_includes_asked++;
	if (am_startswith(map, "dir:"))
		return include_dir(vctx, map + 4, fn, arg);

	err = am_chain_init(vctx, map, 0, NULL, &ch);
	if (err)
		return err == -ENOMEM ? err : 0;
	err = am_chain_enumerate(&ch, fn, arg);
	am_chain_free(&ch);
	return err;
}

int am_ctx_init(struct am_ctx *ctx)
{
	const char *env;
	int err;

	memset(ctx, 0, sizeof(*ctx));
	ctx->ac_mount_point = -1;
	err = am_conf_load(&ctx->ac_conf, NULL);
	if (err)
		return err;
	env = getenv("AUTOFS_AGENT_NSSWITCH");
	err = am_conf_nsswitch(&ctx->ac_conf, env && *env ? env : AM_NSSWITCH_DEFAULT);
	if (err)
		return err;
	env = getenv("AUTOFS_AGENT_MODULE_DIR");
	if (env && *env)
		ctx->ac_modpath = env;
	else if (ctx->ac_conf.cf_module_dir)
		ctx->ac_modpath = ctx->ac_conf.cf_module_dir;
	else
		ctx->ac_modpath = MODULEDIR;
	am_dynamic_where(ctx->ac_modpath);
	ctx->ac_host.ah_size = sizeof(ctx->ac_host);
	ctx->ac_host.ah_ctx = ctx;
	ctx->ac_host.ah_conf_get = host_conf_get;
	ctx->ac_host.ah_log = host_log;
	ctx->ac_host.ah_include_lookup = host_include_lookup;
	ctx->ac_host.ah_include_enumerate = host_include_enumerate;
	ctx->ac_host.ah_where = host_where;
	return 0;
}

void am_ctx_free(struct am_ctx *ctx)
{
	am_module_unload_all(ctx);
	am_conf_free(&ctx->ac_conf);
}

/* Source TYPE:NAME; the search ends after it on a status in RET (am_conf.h). */
static int chain_add(struct am_chain *ch, const char *type, const char *name,
		     unsigned int ret)
{
	struct am_source *s;

	if (ch->ch_n == AM_MAX_SOURCES)
		return 0;
	s = &ch->ch_src[ch->ch_n++];
	memset(s, 0, sizeof(*s));
	s->so_return = ret;
	s->so_type = strdup(type);
	s->so_name = strdup(name);
	if (!s->so_type || !s->so_name || asprintf(&s->so_desc, "%s:%s", type, name) < 0) {
		s->so_desc = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A file source: NAME under map_dir unless absolute; executable = program map. */
static int chain_add_file(struct am_chain *ch, const char *name, bool explicit_type,
			  unsigned int ret)
{
	const char *dir = ch->ch_ctx->ac_conf.cf_map_dir;
	struct stat st;
	char *path;
	int err;

	if (name[0] == '/')
		path = strdup(name);
	else if (asprintf(&path, "%s/%s", dir ? dir : "/etc", name) < 0)
		path = NULL;
	if (!path)
		return -ENOMEM;
	if (!explicit_type && !stat(path, &st) && S_ISREG(st.st_mode) &&
	    (st.st_mode & 0111))
		err = chain_add(ch, "program", path, ret);
	else
		err = chain_add(ch, "file", path, ret);
	free(path);
	return err;
}

int am_chain_init(struct am_ctx *ctx, const char *spec, int argc,
		  const char *const *argv, struct am_chain *ch)
{
	struct am_mapspec ms;
	const char *src;
	unsigned int ret;
	size_t i;
	int err;

	memset(ch, 0, sizeof(*ch));
	ch->ch_ctx = ctx;
	ch->ch_argc = argc;
	ch->ch_argv = argv;
	err = am_mapspec_parse(spec, &ms);
	if (err == -EINVAL)
		am_log(LOG_ERR, "map '%.100s': %s", spec, am_mapspec_refused(spec));
	if (err)
		return err;
	if (ms.ms_type && !strcmp(ms.ms_type, "file"))
		err = chain_add_file(ch, ms.ms_name, true, AM_NSS_RETURN_DEFAULT);
	else if (ms.ms_type)
		err = chain_add(ch, ms.ms_type, ms.ms_name, AM_NSS_RETURN_DEFAULT);
	else if (ms.ms_name[0] == '/')
		err = chain_add_file(ch, ms.ms_name, false, AM_NSS_RETURN_DEFAULT);
	for (i = 0; !ms.ms_type && ms.ms_name[0] != '/' &&
		    i < ctx->ac_conf.cf_nsources && !err; i++) {
		src = ctx->ac_conf.cf_sources[i];
		ret = ctx->ac_conf.cf_source_return[i];
		if (!strcmp(src, "files"))
			err = chain_add_file(ch, ms.ms_name, false, ret);
		else
			err = chain_add(ch, src, ms.ms_name, ret);
	}
	am_mapspec_free(&ms);
	if (err)
		am_chain_free(ch);
	return err;
}

void am_chain_free(struct am_chain *ch)
{
	struct am_source *s;
	size_t i;

	for (i = 0; i < ch->ch_n; i++) {
		s = &ch->ch_src[i];
		if (s->so_state == 1)
			s->so_ops->close(s->so_map);
		free(s->so_type);
		free(s->so_name);
		free(s->so_desc);
	}
	memset(ch, 0, sizeof(*ch));
}

/* Returns: 0 (open), -ENOENT (no such map here), -EAGAIN, -errno. */
static int source_open(struct am_chain *ch, struct am_source *s)
{
	struct am_map_args args = {
		.ma_size = sizeof(args),
		.ma_name = s->so_name,
		.ma_argc = ch->ch_argc,
		.ma_argv = ch->ch_argv,
		.ma_host = &ch->ch_ctx->ac_host,
		.ma_cwd = ch->ch_ctx->ac_mount_point,
	};
	const void *ops;
	int err;

	if (s->so_state)
		return s->so_state > 0 ? 0 : s->so_state;
	if (!strcmp(s->so_type, "program") && ch->ch_ctx->ac_rqvars) {
		args.ma_env = (const char *const *)am_rqvars_env(ch->ch_ctx->ac_rqvars);
		if (!args.ma_env)
			return -ENOMEM;
	}
	err = am_module_load(ch->ch_ctx, AM_MODULE_MAP, s->so_type, &ops);
	if (err) {
		s->so_state = -EAGAIN;
		return s->so_state;
	}
	s->so_ops = ops;
	err = s->so_ops->open(&s->so_map, &args);
	if (err && err != -ENOENT && err != -EAGAIN)
		am_log(LOG_ERR, "map %s: cannot open: %s", s->so_desc, strerror(-err));
	s->so_state = err ? err : 1;
	return err;
}

/* Ask S itself for KEY.  Returns: 0, -ENODEV (no such map), -ENOENT, -errno. */
static int source_live(struct am_chain *ch, struct am_source *s, const char *key,
		       char **entry)
{
	int err = source_open(ch, s);

	if (err == -ENOENT)
		return -ENODEV;
	return err ? err : s->so_ops->lookup(s->so_map, key, entry);
}

/*
 * List S's map into MC and write it, or, when the map cannot be kept
 * (includes, over the bounds, cut short), write that it is the source's.
 * Returns: 0, -EAGAIN (the listing could not finish; nothing written),
 * -ENOMEM, -errno (not written).
 */
static int source_list(struct am_chain *ch, struct am_source *s, struct am_mapcache *mc)
{
	size_t asked = ch->ch_ctx->ac_includes_asked;
	int err;

	err = s->so_ops->snapshot(s->so_map, am_mapcache_add, mc);
	if (err == -ENOMEM)
		return err;
	/* an include's entries keep their own source: such a map is not kept */
	if (err || ch->ch_ctx->ac_includes_asked != asked)
		am_mapcache_unlistable(mc);
	return err == -EAGAIN ? err : am_mapcache_commit(mc);
}

/*
 * A new snapshot of S's map into MC, then KEY in it.  One lookup lists a
 * map at a time; the others ask the source meanwhile.  A listing the
 * source could not finish (a time limit, a connection lost) leaves the
 * lookup to the source, and when that answers, the map to it until
 * cache_ttl: a map too slow to list is not listed on every lookup.
 * Returns: as source_live().
 */
static int source_snapshot(struct am_chain *ch, struct am_source *s,
			   struct am_mapcache *mc, const char *key, char **entry)
{
	int err;

	err = source_open(ch, s);
	if (err || !AM_OPS_HAS(s->so_ops, snapshot))
		return source_live(ch, s, key, entry);
	err = am_mapcache_lock(mc);
	if (!err)
		err = source_list(ch, s, mc);
	if (err == -EAGAIN) {
		err = source_live(ch, s, key, entry);
		if (err != -EAGAIN)
			am_mapcache_commit(mc);
		return err;
	}
	/* 1: made meanwhile by the lookup that held the lock */
	if (err == 0 || err == 1)
		err = am_mapcache_find(mc, key, entry);
	if (err == 0 || err == -ENOENT || err == -ENOMEM)
		return err;
	return source_live(ch, s, key, entry);
}

/*
 * KEY from S: from the cache of its map (am_mapcache.h) when it has one,
 * made anew when stale, else from the source.  Returns: as source_live().
 */
static int source_ask(struct am_chain *ch, struct am_source *s, const char *key,
		      char **entry)
{
	struct am_mapcache *mc;
	int err;

	/*
	 * A source that could not answer for the key (down, its entry
	 * refused) answers the wildcard for it as it would with no cache.
	 */
	if (s->so_unavailable || am_mapcache_open(ch->ch_ctx, s->so_type, s->so_name,
						  ch->ch_argc, ch->ch_argv, &mc))
		return source_live(ch, s, key, entry);
	err = am_mapcache_find(mc, key, entry);
	if (err == 1 && am_mapcache_stale(mc))
		err = source_snapshot(ch, s, mc, key, entry);
	else if (err == 1)
		err = source_live(ch, s, key, entry);
	am_mapcache_close(mc);
	return err;
}

/* Whether the search ends after S answered ST (nsswitch.conf's actions). */
static bool source_ends(const struct am_source *s, enum am_nss_status st)
{
	return st != AM_NSS_SKIPPED && (s->so_return & (1u << st));
}

/*
 * Ask S for KEY.  *ERR is 0 when it answered or was not asked, -ENODEV
 * when it has no such map, -ENOENT, -ENOMEM or why it is unavailable.
 */
static enum am_nss_status source_lookup(struct am_chain *ch, struct am_source *s,
					const char *key, char **entry, int *err)
{
	*err = 0;
	/*
	 * A program map answers for every key itself: no "*" entry.  A
	 * hosts map would ask a host named "*".  A map that includes itself
	 * exists.
	 */
	if (!strcmp(key, "*") && (!strcmp(s->so_type, "program") ||
				  !strcmp(s->so_type, "hosts"))) {
		*err = -ENOENT;
		return AM_NSS_NOTFOUND;
	}
	if (include_push(ch->ch_ctx, s->so_desc))
		return AM_NSS_SKIPPED;
	*err = source_ask(ch, s, key, entry);
	include_pop(ch->ch_ctx);
	if (!*err)
		return AM_NSS_SUCCESS;
	if (*err == -ENOENT || *err == -ENODEV || *err == -ENOMEM)
		return AM_NSS_NOTFOUND;
	am_log(LOG_DEBUG, "map %s: key %s: %s", s->so_desc, key, strerror(-*err));
	s->so_unavailable = true;
	return AM_NSS_UNAVAIL;
}

int am_chain_lookup(struct am_chain *ch, const char *key, char **entry,
		    const char **desc)
{
	enum am_nss_status st;
	bool unavailable = false, map_seen = false;
	size_t i;
	int err;

	for (i = 0; i < ch->ch_n; i++) {
		st = source_lookup(ch, &ch->ch_src[i], key, entry, &err);
		if (st == AM_NSS_SUCCESS) {
			*desc = ch->ch_src[i].so_desc;
			return 0;
		}
		if (err == -ENOMEM)
			return err;
		map_seen |= err != -ENODEV;
		unavailable |= st == AM_NSS_UNAVAIL;
		if (source_ends(&ch->ch_src[i], st))
			break;
	}
	if (unavailable)
		return -EAGAIN;
	return map_seen ? -ENOENT : -ENODEV;
}

/*
 * List S's keys to FN.  *ERR is 0, or what ends the whole listing: FN's
 * stop value or -ENOMEM.  A source that cannot list its keys (a program
 * map) has none to give; one that fails otherwise is UNAVAIL, said in the
 * log, and the keys the others give stand.
 */
static enum am_nss_status source_enumerate(struct am_chain *ch, struct am_source *s,
					   am_key_fn fn, void *arg, int *err)
{
	enum am_nss_status st = AM_NSS_NOTFOUND;

	*err = 0;
	if (include_push(ch->ch_ctx, s->so_desc))
		return AM_NSS_SKIPPED;
	*err = source_open(ch, s);
	if (!*err && s->so_ops->enumerate) {
		*err = s->so_ops->enumerate(s->so_map, fn, arg);
		st = AM_NSS_SUCCESS;
		if (*err < 0 && *err != -ENOENT && *err != -EAGAIN && *err != -ENOMEM)
			am_log(LOG_ERR, "map %s: its keys cannot be listed: %s",
			       s->so_desc, strerror(-*err));
	}
	include_pop(ch->ch_ctx);
	if (*err >= 0 || *err == -ENOMEM)
		return st;
	st = *err == -ENOENT ? AM_NSS_NOTFOUND : AM_NSS_UNAVAIL;
	*err = 0;
	return st;
}

int am_chain_enumerate(struct am_chain *ch, am_key_fn fn, void *arg)
{
	struct am_ctx *ctx = ch->ch_ctx;
	enum am_nss_status st;
	size_t i;
	int err;

	for (i = 0; i < ch->ch_n; i++) {
		st = source_enumerate(ch, &ch->ch_src[i], fn, arg, &err);
		if (err)
			return err;
		/*
		 * As autofs-tools: a master map comes whole from the first
		 * source that has it; any other map from all of them, a
		 * listed one counting as TRYAGAIN.
		 */
		if (st == AM_NSS_SUCCESS && !ctx->ac_reading_master)
			st = AM_NSS_TRYAGAIN;
		if (!source_ends(&ch->ch_src[i], st))
			continue;
		if (st == AM_NSS_SUCCESS && i + 1 < ch->ch_n)
			am_log(LOG_INFO, "master map from %s: the sources after it are not read",
			       ch->ch_src[i].so_desc);
		break;
	}
	return 0;
}
