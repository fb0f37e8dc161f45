// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer targets for the parsers that read untrusted text: FUZZ_TARGET
 * selects the sun entry parser (with expansion), the map file reader plus
 * master map records, the map file reader's lookup against a full read, the
 * configuration parser, the -hosts entry builder (maps/hosts_entry.c)
 * with am_sun_quote, checked to read back exactly what the server said, or
 * the file map index (maps/file_index.c) built for a map and then damaged,
 * whose answers must be the scan's or a detected damage, or the cache of
 * LDAP maps (agent/mapcache.c), likewise built, damaged and asked.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "am_conf.h"
#include "am_maptext.h"
#include "am_master.h"
#include "am_sun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#if FUZZ_TARGET == 1
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct am_vars vars = { 0 };
	struct am_entry e;
	char err[256], *text = fuzz_text(data, size), *exp = NULL;
	const char *nl;

	if (!text)
		return 0;
	am_vars_define(&vars, "USER=alice");
	/* the first line is the key, the rest the entry */
	nl = strchr(text, '\n');
	if (nl && !am_sun_expand(nl + 1, "key", &vars, &exp, err, sizeof(err))) {
		if (!am_sun_parse(exp, "rw,soft", &e, err, sizeof(err)))
			am_entry_free(&e);
	}
	am_key_invalid(text, text[0] == '/');
	free(exp);
	am_vars_free(&vars);
	free(text);
	return 0;
}
#elif FUZZ_TARGET == 2
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct am_master m = { 0 };
	struct am_maptext mt;
	struct am_mopts mo;
	char err[256];
	size_t i;

	am_maptext_init(&mt, (const char *)data, size);
	while (am_maptext_next(&mt) > 0)
		am_master_add(&m, mt.mt_key.ab_s, mt.mt_entry.ab_s, "fuzz", NULL, err, sizeof(err));
	am_maptext_free(&mt);
	for (i = 0; i < m.m_n; i++)
		if (!am_mopts_parse(m.m_entries[i].me_options, &mo, err, sizeof(err)))
			am_mopts_free(&mo);
	am_master_free(&m);
	return 0;
}
#elif FUZZ_TARGET == 4
/* The first record of KEY, read with or without the lookup's skipping. */
static void first_of(const char *text, size_t len, const char *key, bool want,
		     char **entry, unsigned int *line)
{
	struct am_maptext mt;

	am_maptext_init(&mt, text, len);
	mt.mt_want = want ? key : NULL;
	*entry = NULL;
	*line = 0;
	while (am_maptext_next(&mt) > 0) {
		if (strcmp(mt.mt_key.ab_s, key))
			continue;
		*entry = strdup(mt.mt_entry.ab_s);
		*line = mt.mt_recline;
		break;
	}
	am_maptext_free(&mt);
}

/* A lookup that skips other keys' lines finds what a full read finds. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *nl, *full, *fast;
	unsigned int full_line, fast_line;

	if (!text)
		return 0;
	/* the first line is the key, the rest the map */
	nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		first_of(nl + 1, size - (size_t)(nl + 1 - text), text, false, &full, &full_line);
		first_of(nl + 1, size - (size_t)(nl + 1 - text), text, true, &fast, &fast_line);
		if (full_line != fast_line || !full != !fast || (full && strcmp(full, fast)))
			abort();
		free(full);
		free(fast);
	}
	free(text);
	return 0;
}
#elif FUZZ_TARGET == 5
#include <errno.h>

#include "hosts_entry.h"

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The input split at NUL bytes: the host, then export names. */
static size_t split_names(char *text, size_t size, char ***names)
{
	size_t n = 0, i;

	*names = malloc((size + 1) * sizeof(**names));
	if (!*names)
		return 0;
	for (i = 0; i <= size; i += strlen(text + i) + 1)
		(*names)[n++] = text + i;
	return n;
}

/* Expanded with KEY and parsed as the agent does.  Returns: 0 or -errno. */
static int parse_as_agent(const char *text, const char *key, struct am_entry *e)
{
	struct am_vars vars = { 0 };
	char err[256], *exp = NULL;
	int ret;

	ret = am_vars_define(&vars, "USER=alice");
	if (!ret)
		ret = am_sun_expand(text, key, &vars, &exp, err, sizeof(err));
	if (!ret)
		ret = am_sun_parse(exp, "nosuid,nodev", e, err, sizeof(err));
	free(exp);
	am_vars_free(&vars);
	return ret;
}

/* "h:" + quoted NAME is the one location h:NAME, whatever NAME holds. */
static void check_quote(const char *name)
{
	struct am_buf b = { 0 };
	struct am_entry e;

	if (!*name)
		return;
	am_buf_puts(&b, "-fstype=nfs h:");
	am_sun_quote(&b, name);
	if (!b.ab_s || parse_as_agent(b.ab_s, "k", &e))
		abort();
	if (e.en_multi || e.en_nmnts != 1 || e.en_mnts[0].mn_nlocs != 1 ||
	    strcmp(e.en_mnts[0].mn_locs[0].al_host, "h") ||
	    strcmp(e.en_mnts[0].mn_locs[0].al_path, name))
		abort();
	am_entry_free(&e);
	am_buf_free(&b);
}

/* The names the entry must hold: valid, sorted, each once. */
static size_t expected_names(char **names, size_t n)
{
	size_t i, k = 0;

	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++)
		if (!hosts_export_invalid(names[i]) && (!k || strcmp(names[k - 1], names[i])))
			names[k++] = names[i];
	return k;
}

/* Every mount is one export, from the host, at the export's own name. */
static void check_entry(const char *entry, const char *host, char **want, size_t n)
{
	const struct am_mnt *m;
	struct am_entry e;
	size_t i;

	if (parse_as_agent(entry, host, &e) || !e.en_multi || e.en_nmnts != n)
		abort();
	for (i = 0; i < n; i++) {
		m = &e.en_mnts[i];
		if (strcmp(m->mn_offset, want[i]) || m->mn_nlocs != 1 ||
		    !m->mn_locs[0].al_host || strcmp(m->mn_locs[0].al_host, host) ||
		    strcmp(m->mn_locs[0].al_path, want[i]) || strcmp(m->mn_fstype, "nfs") ||
		    !am_opts_has(m->mn_options, "nobind") || !am_opts_has(m->mn_options, "nosuid"))
			abort();
	}
	am_entry_free(&e);
}

/* The -hosts entry of any answer reads back as exactly its valid exports. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), **names, **dirs, *entry = NULL;
	size_t n, i, k;
	int ret;

	if (!text)
		return 0;
	n = split_names(text, size, &names);
	dirs = malloc((n + 1) * sizeof(*dirs));
	if (n && dirs) {
		for (i = 1; i < n; i++)
			check_quote(names[i]);
		memcpy(dirs, names + 1, (n - 1) * sizeof(*dirs));
		ret = hosts_entry_build(names[0], dirs, n - 1, NULL, NULL, &entry);
		k = expected_names(names + 1, n - 1);
		if (am_host_invalid(names[0]) ? ret != -EINVAL : ret != (k ? 0 : -ENOENT))
			abort();
		if (!ret)
			check_entry(entry, names[0], names + 1, k);
		free(entry);
	}
	free(dirs);
	free(names);
	free(text);
	return 0;
}
#elif FUZZ_TARGET == 6
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "file_index.h"

#define FUZZ_KEYS	24

/* What a scan meets for KEY: the include records before it, then its record. */
struct fuzz_answer {
	uint32_t fa_incl[AM_FIDX_MAX_INCL + 1];
	uint32_t fa_nincl;
	int64_t fa_off;			/* -1: no record */
	char *fa_entry;
};

static void scan_answer(const char *text, size_t len, const char *key, struct fuzz_answer *a)
{
	struct am_maptext mt;

	memset(a, 0, sizeof(*a));
	a->fa_off = -1;
	am_maptext_init(&mt, text, len);
	while (am_maptext_next(&mt) > 0) {
		if (mt.mt_key.ab_s[0] == '+' && mt.mt_key.ab_s[1]) {
			if (a->fa_nincl <= AM_FIDX_MAX_INCL)
				a->fa_incl[a->fa_nincl++] = (uint32_t)(mt.mt_rec - text);
			continue;
		}
		if (strcmp(mt.mt_key.ab_s, key))
			continue;
		a->fa_off = mt.mt_rec - text;
		a->fa_entry = strdup(mt.mt_entry.ab_s);
		break;
	}
	am_maptext_free(&mt);
}

/* Returns: 0 same as the scan, 1 damage detected; aborts on a wrong answer. */
static int index_answer(struct am_fidx *ix, const char *key, const struct fuzz_answer *want)
{
	struct am_fidx_rec hit = { 0 }, inc;
	uint32_t i, n = 0;
	int err;

	err = am_fidx_find(ix, key, &hit);
	if (err && err != -ENOENT)
		return 1;
	if ((err ? -1 : (int64_t)hit.fr_off) != want->fa_off ||
	    (!err && strcmp(hit.fr_mt.mt_entry.ab_s, want->fa_entry)))
		abort();
	for (i = 0; i < am_fidx_nincl(ix); i++, n++) {
		if (!err && am_fidx_incl_off(ix, i) > hit.fr_off)
			break;
		if (am_fidx_incl(ix, i, &inc)) {
			am_fidx_rec_free(&hit);
			return 1;
		}
		if (n >= want->fa_nincl || inc.fr_off != want->fa_incl[n])
			abort();
		am_fidx_rec_free(&inc);
	}
	if (n != want->fa_nincl)
		abort();
	am_fidx_rec_free(&hit);
	return 0;
}

/* The keys of the map, "*" and one that is missing. */
static size_t fuzz_keys(const char *text, size_t len, char **keys)
{
	struct am_maptext mt;
	size_t n = 0;

	keys[n++] = strdup("*");
	keys[n++] = strdup("missing");
	am_maptext_init(&mt, text, len);
	while (n < FUZZ_KEYS && am_maptext_next(&mt) > 0)
		keys[n++] = strdup(mt.mt_key.ab_s);
	am_maptext_free(&mt);
	return n;
}

static void check_keys(int ixfd, int mapfd, const char *text, size_t len, bool intact)
{
	struct fuzz_answer want;
	struct am_fidx *ix;
	char *keys[FUZZ_KEYS];
	size_t i, n;
	int err;

	err = am_fidx_open(&ix, ixfd, mapfd);
	if (err) {
		if (intact && err < 0)
			abort();
		return;
	}
	n = fuzz_keys(text, len, keys);
	for (i = 0; i < n; i++) {
		if (keys[i]) {
			scan_answer(text, len, keys[i], &want);
			if (index_answer(ix, keys[i], &want) && intact)
				abort();
			free(want.fa_entry);
		}
		free(keys[i]);
	}
	am_fidx_close(ix);
}

/*
 * Input: a flags byte (bit 0: truncate the index to the next 4 bytes'
 * length), a patch count, that many 5-byte patches (offset, byte) applied
 * to the index, then the map.  Intact indexes must answer as the scan;
 * damaged ones as the scan or with -EBADMSG, never otherwise.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t cut, pos, i, npatch;
	int mapfd, ixfd;
	const char *text;
	struct stat st;
	size_t len;

	if (size < 6)
		return 0;
	memcpy(&cut, data + 1, 4);
	npatch = data[5] % 16;
	if (size < 6 + 5 * (size_t)npatch)
		return 0;
	text = (const char *)data + 6 + 5 * npatch;
	len = size - 6 - 5 * npatch;
	mapfd = memfd_create("map", 0);
	ixfd = memfd_create("index", 0);
	if (mapfd < 0 || ixfd < 0 || write(mapfd, text, len) != (ssize_t)len ||
	    fchmod(ixfd, 0600) || fstat(mapfd, &st) ||
	    am_fidx_write(ixfd, &st, text, len, NULL, NULL))
		goto out;
	for (i = 0; i < npatch; i++) {
		memcpy(&pos, data + 6 + 5 * i, 4);
		if (pwrite(ixfd, data + 10 + 5 * i, 1, pos % 65536) != 1)
			goto out;
	}
	if ((data[0] & 1) && ftruncate(ixfd, cut % 65536))
		goto out;
	check_keys(ixfd, mapfd, text, len, !npatch && !(data[0] & 1));
	ixfd = -1;		/* taken by am_fidx_open */
out:
	if (ixfd >= 0)
		close(ixfd);
	if (mapfd >= 0)
		close(mapfd);
	return 0;
}
#elif FUZZ_TARGET == 7
#include "am_lookup.h"
#include "am_util.h"

/*
 * The rule of autofs-maps(5), TRUST, restated apart from trust.c: a
 * location without a host that an entry from outside the map files may
 * give is a pseudo filesystem's name.
 */
static bool plain_word(const char *s)
{
	return *s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789._-")];
}

/*
 * A nested map name a foreign entry may give: looked up, not a path or a
 * server (an LDAP DN names none: no ':' or '/' after "ldap:").
 */
static bool submap_name(const char *s)
{
	const char *colon = strchr(s, ':');

	if (strchr(s, '/'))
		return false;
	if (am_startswith(s, "ldap:"))
		return !strchr(s + 5, ':');
	return !colon || am_startswith(s, "nis:") || am_startswith(s, "yp:") ||
	       am_startswith(s, "sss:");
}

/* An option of OPTS whose value holds a '/' (a path). */
static bool path_option(const char *opts)
{
	const char *p, *e, *eq;

	for (p = opts; *p; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ",");
		eq = memchr(p, '=', (size_t)(e - p));
		if (eq && memchr(eq, '/', (size_t)(e - eq)))
			return true;
	}
	return false;
}

/*
 * The nested map a foreign entry names (one location without a host; any
 * other form mounts nothing) and the master options it gets: no mount
 * option, no -D.
 */
static void check_submap(const struct am_mnt *m)
{
	char err[256], *opt;
	struct am_mopts mo;
	bool browse = false;

	if (m->mn_nlocs == 1 && !m->mn_locs[0].al_host && !submap_name(m->mn_locs[0].al_path))
		abort();
	opt = am_submap_options(m->mn_options, true, &browse);
	if (!opt)
		return;
	if (am_mopts_parse(opt, &mo, err, sizeof(err)) || !mo.mo_foreign ||
	    mo.mo_defines.av_n || (mo.mo_mntopts && *mo.mo_mntopts))
		abort();
	am_mopts_free(&mo);
	free(opt);
}

/* Whether the administrator's master line lifts nosuid (WORD "suid") or nodev. */
static bool lifted(const struct am_resolved *rs, const char *word)
{
	return !rs->rs_mo.mo_foreign && rs->rs_mo.mo_mntopts &&
	       am_opts_has(rs->rs_mo.mo_mntopts, word);
}

/* Every mount of an accepted foreign (REMOTE: a server's) entry, as the rule says. */
static void check_foreign(const struct am_resolved *rs, bool remote)
{
	const struct am_mnt *m;
	size_t i, k;

	for (i = 0; i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		if (!strcmp(m->mn_fstype, "autofs")) {
			check_submap(m);
			continue;
		}
		if (!strcmp(m->mn_fstype, "bind") || !strcmp(m->mn_fstype, "rbind") ||
		    !strcmp(m->mn_fstype, "autofsng") || !strcmp(m->mn_fstype, "trapfs") ||
		    (!lifted(rs, "suid") && !am_opts_has(m->mn_options, "nosuid")) ||
		    (!lifted(rs, "dev") && !am_opts_has(m->mn_options, "nodev")) ||
		    path_option(m->mn_options) ||
		    ((!strcmp(m->mn_fstype, "nfs") || !strcmp(m->mn_fstype, "nfs4")) &&
		     !am_opts_has(m->mn_options, "nobind")))
			abort();
		for (k = 0; k < m->mn_nlocs; k++)
			if (!m->mn_locs[k].al_host &&
			    (remote || !plain_word(m->mn_locs[k].al_path)))
				abort();
	}
}

/*
 * Input: a flags byte (bits 0-1: the answer is a map file's, NIS's, a
 * program's or a server's (hosts:); bit 2: a map file found it through
 * +ldap:auto.inc), then the key, the master options (MAPOPTIONS, where
 * --autofsng-foreign marks a nested map a foreign entry named) and the
 * entry, one a line.  Whatever passed through a source outside the map
 * files must come out foreign and, if accepted, hold to the rule.  The
 * key and the -D variables reach the entry through & and $NAME.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = size ? fuzz_text(data + 1, size - 1) : NULL, *opts, *entry, err[256];
	static const char *const sources[] = {
		"file:/etc/auto.fuzz", "nis:auto.fuzz", "program:/etc/auto.fuzz",
		"hosts:-hosts",
	};
	struct am_request rq = { .rq_map = "auto.fuzz", .rq_offset = "/" };
	struct am_resolved rs = { 0 };
	struct am_rqvars rv;
	bool outside;

	if (!text || !(opts = strchr(text, '\n')) || !(entry = strchr(opts + 1, '\n')))
		goto out;
	*opts++ = '\0';
	*entry++ = '\0';
	rq.rq_key = text;
	rq.rq_options = opts;
	if (am_key_invalid(rq.rq_key, rq.rq_key[0] == '/') ||
	    am_mopts_parse(opts, &rs.rs_mo, err, sizeof(err)))
		goto out;
	rs.rs_text = strdup(entry);
	rs.rs_source = strdup(sources[data[0] & 3]);
	rs.rs_via = data[0] & 4 ? strdup("ldap:auto.inc") : NULL;
	outside = (data[0] & 7) || rs.rs_mo.mo_foreign;
	if (!rs.rs_text || !rs.rs_source || am_rqvars_init(&rv, 0, 0, &rs.rs_mo.mo_defines))
		goto out_rs;
	if (!am_resolve_text(&rq, &rv, &rs) && outside)
		check_foreign(&rs, (data[0] & 3) == 3);
	if (outside && rs.rs_trust == AM_TRUST_LOCAL)
		abort();
	am_rqvars_free(&rv);
out_rs:
	am_resolved_free(&rs);
out:
	free(text);
	return 0;
}
#elif FUZZ_TARGET == 8
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "am_agent.h"
#include "am_mapcache.h"

#define FUZZ_MC_KEYS	32

static struct am_ctx mc_ctx;
static char mc_dir[64];

/* A cache directory of our own under a fresh mkdtemp, once. */
static int mc_setup(void)
{
	char conf[160];

	if (mc_dir[0])
		return 0;
	strcpy(mc_dir, "/tmp/fuzz-mapcache-XXXXXX");
	if (!mkdtemp(mc_dir))
		return -1;
	snprintf(conf, sizeof(conf), "[general]\nmap_cache_dir = %s/c\n", mc_dir);
	am_conf_defaults(&mc_ctx.ac_conf);
	return am_conf_parse(&mc_ctx.ac_conf, "fuzz", conf);
}

/* The one snapshot's path into PATH.  Returns: 0, -1 (none). */
static int mc_file(char *path, size_t len)
{
	char dir[96];
	struct dirent *d;
	DIR *dp;
	int ret = -1;

	snprintf(dir, sizeof(dir), "%s/c", mc_dir);
	dp = opendir(dir);
	while (dp && (d = readdir(dp)))
		if (d->d_name[0] != '.') {
			snprintf(path, len, "%s/%s", dir, d->d_name);
			ret = 0;
		}
	if (dp)
		closedir(dp);
	return ret;
}

struct mc_want {
	char *key, *entry;		/* entry NULL: ask the source */
	int times;
};

/* "key\tentry" lines (no tab: the source must be asked), the first FUZZ_MC_KEYS keys. */
static size_t mc_parse(char *text, struct mc_want *w)
{
	char *line, *tab, *save = NULL;
	size_t n = 0, i;

	for (line = strtok_r(text, "\n", &save); line && n < FUZZ_MC_KEYS;
	     line = strtok_r(NULL, "\n", &save)) {
		tab = strchr(line, '\t');
		if (tab)
			*tab++ = '\0';
		if (!*line)
			continue;
		for (i = 0; i < n && strcmp(w[i].key, line); i++)
			;
		if (i == n)
			w[n++] = (struct mc_want){ line, tab, 0 };
		w[i].times++;
	}
	return n;
}

/* Each key as often as the lines gave it, as a module would. */
static void mc_build(const struct mc_want *w, size_t n)
{
	struct am_mapcache *mc;
	size_t i;
	int t;

	if (am_mapcache_open(&mc_ctx, "ldap", "auto.fuzz", 0, NULL, &mc))
		abort();
	if (!am_mapcache_stale(mc))
		abort();
	for (i = 0; i < n; i++)
		for (t = 0; t < w[i].times; t++)
			am_mapcache_add(w[i].key, w[i].entry, mc);
	if (am_mapcache_commit(mc))
		abort();
	am_mapcache_close(mc);
}

/* Intact: exactly the answers given; damaged: those or "ask the source". */
static void mc_check(const struct mc_want *w, size_t n, bool intact)
{
	struct am_mapcache *mc;
	char *entry;
	size_t i;
	int r, want;

	if (am_mapcache_open(&mc_ctx, "ldap", "auto.fuzz", 0, NULL, &mc))
		abort();
	for (i = 0; i <= n; i++) {
		entry = NULL;
		r = am_mapcache_find(mc, i < n ? w[i].key : "\x01missing", &entry);
		want = i == n ? -ENOENT : (w[i].times > 1 || !w[i].entry) ? 1 : 0;
		if (r != want && (intact || r != 1))
			abort();
		if (r == 0 && strcmp(entry, w[i].entry))
			abort();
		free(entry);
	}
	am_mapcache_close(mc);
}

/*
 * Input: a flags byte (bit 0: truncate the snapshot to the next 4 bytes'
 * length), a patch count, that many 5-byte patches (offset, byte), then
 * "key\tentry" lines made into a snapshot, which the patches damage.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mc_want w[FUZZ_MC_KEYS];
	uint32_t cut, pos, i, npatch;
	char *text, path[160];
	size_t n;
	int fd;

	if (size < 6 || mc_setup())
		return 0;
	memcpy(&cut, data + 1, 4);
	npatch = data[5] % 16;
	if (size < 6 + 5 * (size_t)npatch)
		return 0;
	text = fuzz_text(data + 6 + 5 * npatch, size - 6 - 5 * npatch);
	if (!text)
		return 0;
	if (!mc_file(path, sizeof(path)))
		unlink(path);
	n = mc_parse(text, w);
	mc_build(w, n);
	if (mc_file(path, sizeof(path)))
		abort();
	mc_check(w, n, true);
	fd = open(path, O_WRONLY);
	for (i = 0; fd >= 0 && i < npatch; i++) {
		memcpy(&pos, data + 6 + 5 * i, 4);
		if (pwrite(fd, data + 10 + 5 * i, 1, pos % 65536) != 1)
			break;
	}
	if (fd >= 0 && (data[0] & 1) && ftruncate(fd, cut % 65536))
		abort();
	if (fd >= 0)
		close(fd);
	mc_check(w, n, false);
	free(text);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct am_conf c;
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	am_conf_defaults(&c);
	am_conf_parse(&c, "fuzz", text);
	am_conf_free(&c);
	/* the same bytes as nsswitch.conf's automount line: its actions */
	am_conf_defaults(&c);
	am_conf_nsswitch_parse(&c, "fuzz", text);
	if (c.cf_nsources > AM_MAX_SOURCES)
		abort();
	am_conf_free(&c);
	free(text);
	return 0;
}
#endif
