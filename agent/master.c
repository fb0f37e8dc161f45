// SPDX-License-Identifier: GPL-2.0
/* Master map records, map specs and master map options. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "am_master.h"

static const char *const map_types[] = {
	"file", "files", "program", "nis", "yp", "ldap", "ldaps", "hosts",
	"dir", "sss", NULL,
};

static const char *mapspec_type(const char *type, size_t n)
{
	size_t i;

	for (i = 0; map_types[i]; i++)
		if (strlen(map_types[i]) == n && !strncmp(map_types[i], type, n))
			break;
	if (!map_types[i])
		return NULL;
	if (!strcmp(map_types[i], "files"))
		return "file";
	if (!strcmp(map_types[i], "yp"))
		return "nis";
	if (!strcmp(map_types[i], "ldaps"))
		return "ldap";
	return map_types[i];
}

int am_mapspec_parse(const char *spec, struct am_mapspec *ms)
{
	const char *colon, *comma, *type = NULL;
	size_t tlen;

	memset(ms, 0, sizeof(*ms));
	if (!strcmp(spec, "-hosts") || !strcmp(spec, "-null")) {
		ms->ms_type = strdup(spec + 1);
		ms->ms_name = strdup(spec);
		goto done;
	}
	colon = strchr(spec, ':');
	comma = colon ? memchr(spec, ',', (size_t)(colon - spec)) : NULL;
	tlen = colon ? (size_t)((comma ? comma : colon) - spec) : 0;
	type = colon ? mapspec_type(spec, tlen) : NULL;
	if (!type) {
		/* "server:/x" is not a type; a name never has a known type prefix */
		if (colon && tlen && strspn(spec, "abcdefghijklmnopqrstuvwxyz") == tlen &&
		    colon[1] != '/')
			return -EINVAL;
		ms->ms_name = strdup(spec);
		goto done;
	}
	if (comma) {
		ms->ms_format = am_strndup(comma + 1, (size_t)(colon - comma - 1));
		if (ms->ms_format && strcmp(ms->ms_format, "sun")) {
			am_mapspec_free(ms);
			return -EINVAL;
		}
	}
	ms->ms_type = strdup(type);
	/* ldaps://host/dn: the backend needs the scheme to know it is TLS */
	if (!strncmp(spec, "ldaps:", 6) && !strncmp(colon + 1, "//", 2))
		ms->ms_name = strdup(spec);
	else
		ms->ms_name = strdup(colon + 1);
done:
	if (!ms->ms_name || !*ms->ms_name || (type && !ms->ms_type)) {
		bool empty = ms->ms_name && !*ms->ms_name;

		am_mapspec_free(ms);
		return empty ? -EINVAL : -ENOMEM;
	}
	return 0;
}

const char *am_mapspec_refused(const char *spec)
{
	const char *colon = strchr(spec, ':'), *amd = strstr(spec, ",amd:");

	if (amd && amd < colon + 1 && amd + 4 == colon)
		return "an amd-format map, which autofsng does not read "
		       "(autofs-maps(5), AMD MAPS)";
	return "unknown map type or format";
}

void am_mapspec_free(struct am_mapspec *ms)
{
	free(ms->ms_type);
	free(ms->ms_format);
	free(ms->ms_name);
	memset(ms, 0, sizeof(*ms));
}

void am_mopts_free(struct am_mopts *mo)
{
	int i;

	free(mo->mo_mntopts);
	am_vars_free(&mo->mo_defines);
	for (i = 0; i < mo->mo_argc; i++)
		free(mo->mo_argv[i]);
	free(mo->mo_argv);
	memset(mo, 0, sizeof(*mo));
}

static int mopts_number(const char *opt, const char *val, int *out, char *err, size_t errlen)
{
	char *end;
	long v;

	if (!val || !isdigit((unsigned char)*val))
		goto bad;
	v = strtol(val, &end, 10);
	if (*end || v < 0 || v > 86400 * 366)
		goto bad;
	*out = (int)v;
	return 0;
bad:
	snprintf(err, errlen, "%s needs a number of seconds, got '%.40s'", opt,
		 val ? val : "");
	return -EINVAL;
}

static int mopts_arg(struct am_mopts *mo, const char *tok)
{
	char **argv = realloc(mo->mo_argv, (size_t)(mo->mo_argc + 2) * sizeof(*argv));

	if (!argv)
		return -ENOMEM;
	mo->mo_argv = argv;
	argv[mo->mo_argc] = strdup(tok);
	if (!argv[mo->mo_argc])
		return -ENOMEM;
	argv[++mo->mo_argc] = NULL;
	return 0;
}

static int mopts_mount(struct am_mopts *mo, const char *opts)
{
	char *merged = am_opts_merge(mo->mo_mntopts, opts);

	if (!merged)
		return -ENOMEM;
	free(mo->mo_mntopts);
	mo->mo_mntopts = merged;
	return 0;
}

/*
 * Options of autofs-tools' daemon that have no meaning here: accepted, so a
 * master map written for it reads the same, and never passed to mount.
 * -strict and -nonstrict choose whether a multi-mount fails whole when one
 * of its offsets fails to mount; autofsng mounts each offset when it is
 * first reached, so either reads the same.
 */
static const char *const mopts_ignored[] = {
	"-v", "--verbose",
	"-d", "--debug", "-w", "--use-weight-only", "-r",
	"--random-multimount-selection", "--slashify-colons",
	"--no-slashify-colons", "-strict", "--strict", "-nonstrict", "--nonstrict",
	NULL,
};

/* autofs-tools takes these with or without their '-', alone or in a list. */
static const char *const mopts_words[] = {
	"browse", "nobrowse", "strictexpire", "symlink", "nobind", "slave", "shared",
	"private", NULL,
};

static bool mopts_in(const char *const *list, const char *word)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (!strcmp(list[i], word))
			return true;
	return false;
}

/* Returns: true when WORD is one of mopts_words, now applied. */
static bool mopts_word(struct am_mopts *mo, const char *word)
{
	if (!mopts_in(mopts_words, word))
		return false;
	if (!strcmp(word, "browse"))
		mo->mo_browse = 1;
	else if (!strcmp(word, "nobrowse"))
		mo->mo_browse = 0;
	else if (!strcmp(word, "strictexpire"))	/* only references keep a mount */
		mo->mo_strictexpire = 1;
	else if (!strcmp(word, "slave"))	/* bind mounts' propagation */
		mo->mo_propagation = MS_SLAVE;
	else if (!strcmp(word, "private"))
		mo->mo_propagation = MS_PRIVATE;
	else if (!strcmp(word, "shared"))
		mo->mo_propagation = MS_SHARED;
	return true;
}

/* Whether S is an octal mode, as autofs-tools' --mode takes. */
static bool mopts_octal(const char *s)
{
	return s && *s && strspn(s, "01234567") == strlen(s) && strlen(s) <= 4;
}

/*
 * One option that starts with '-'; NEXT is the following token for options
 * that take their value separately ("--timeout 60").
 * Returns: tokens used (1 or 2), -errno.
 */
static int mopts_option(struct am_mopts *mo, const char *tok, const char *next,
			char *err, size_t errlen)
{
	const char *eq = strchr(tok, '=');
	size_t n = eq ? (size_t)(eq - tok) : strlen(tok);
	int ret;

	if (!strcmp(tok, AM_MOPT_FOREIGN)) {
		mo->mo_foreign = true;
		return 1;
	}
	/* "-t 60", "-t=60", "--timeout=60", "-timeout 60" */
	if ((n == 9 && !strncmp(tok, "--timeout", 9)) ||
	    (n == 8 && !strncmp(tok, "-timeout", 8)) || (n == 2 && !strncmp(tok, "-t", 2))) {
		ret = mopts_number("--timeout", eq ? eq + 1 : next, &mo->mo_timeout, err, errlen);
		return ret ? ret : (eq ? 1 : 2);
	}
	if ((n == 18 && !strncmp(tok, "--negative-timeout", 18)) ||
	    (n == 2 && !strncmp(tok, "-n", 2))) {
		ret = mopts_number("--negative-timeout", eq ? eq + 1 : next,
				   &mo->mo_negative_timeout, err, errlen);
		return ret ? ret : (eq ? 1 : 2);
	}
	if (!strcmp(tok, "--browse") || !strcmp(tok, "--ghost") || !strcmp(tok, "-g")) {
		mo->mo_browse = 1;
		return 1;
	}
	if (!strcmp(tok, "--nobrowse")) {
		mo->mo_browse = 0;
		return 1;
	}
	if (!strcmp(tok, "--trusted-program")) {
		mo->mo_trusted_program = true;
		return 1;
	}
	if (!strcmp(tok, "--strictexpire")) {
		mo->mo_strictexpire = 1;
		return 1;
	}
	if (mopts_word(mo, tok + 1))
		return 1;
	if (am_startswith(tok, "-D")) {
		const char *def = tok[2] ? tok + 2 : next;

		ret = def ? am_vars_define(&mo->mo_defines, def) : -EINVAL;
		if (ret == -EINVAL)
			snprintf(err, errlen, "-D needs NAME=value, got '%.40s'", def ? def : "");
		return ret ? ret : (tok[2] ? 1 : 2);
	}
	if (mopts_in(mopts_ignored, tok))
		return 1;
	/* autofs-tools chmods the mount point; a trigger keeps its own mode */
	if (n == 6 && !strncmp(tok, "--mode", 6) &&
	    mopts_octal(eq ? eq + 1 : next))
		return eq ? 1 : 2;
	if (tok[1] == '-') {
		/* as autofs-tools: the caller warns, the line is served */
		if (!mo->mo_unknown[0])
			snprintf(mo->mo_unknown, sizeof(mo->mo_unknown), "%.40s", tok);
		return 1;
	}
	return mopts_mount(mo, tok + 1) ?: 1;
}

/*
 * A comma-joined list such as "-nobrowse,--timeout=60,rw": autofs-tools
 * reads each item on its own, so the agent's options are taken out and the
 * rest are mount options, with or without their '-'.
 */
static int mopts_list(struct am_mopts *mo, const char *tok, char *err, size_t errlen)
{
	char *copy = strdup(tok), *item, *save = NULL;
	int ret = copy ? 0 : -ENOMEM;

	for (item = copy ? strtok_r(copy, ",", &save) : NULL; item && ret >= 0;
	     item = strtok_r(NULL, ",", &save)) {
		if (item[0] == '-')
			ret = mopts_option(mo, item, NULL, err, errlen);
		else if (!mopts_word(mo, item))
			ret = mopts_mount(mo, item);
	}
	free(copy);
	return ret < 0 ? ret : 1;
}

/*
 * One blank-separated token; NEXT is the token after it.
 * Returns: tokens used (1 or 2), -errno.
 */
static int mopts_token(struct am_mopts *mo, const char *tok, const char *next,
		       char *err, size_t errlen)
{
	if (mopts_word(mo, tok))
		return 1;
	if (tok[0] != '-')
		return mopts_arg(mo, tok) ?: 1;
	if (strchr(tok, ',') && !am_startswith(tok, "-D"))
		return mopts_list(mo, tok, err, errlen);
	return mopts_option(mo, tok, next, err, errlen);
}

int am_mopts_parse(const char *text, struct am_mopts *mo, char *err, size_t errlen)
{
	char *copy, *toks[256], *save = NULL, *t;
	int n = 0, i, used = 0;

	memset(mo, 0, sizeof(*mo));
	mo->mo_timeout = -1;
	mo->mo_negative_timeout = -1;
	mo->mo_browse = -1;
	mo->mo_strictexpire = -1;
	mo->mo_mntopts = strdup("");
	copy = strdup(text ? text : "");
	if (!copy || !mo->mo_mntopts) {
		free(copy);
		am_mopts_free(mo);
		return -ENOMEM;
	}
	for (t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
		if (n == 256) {
			snprintf(err, errlen, "more than 256 options");
			used = -EINVAL;
			goto out;
		}
		toks[n++] = t;
	}
	for (i = 0; i < n; i += used) {
		used = mopts_token(mo, toks[i], i + 1 < n ? toks[i + 1] : NULL, err, errlen);
		if (used < 0)
			goto out;
	}
	used = 0;
out:
	free(copy);
	if (used < 0)
		am_mopts_free(mo);
	return used < 0 ? used : 0;
}

void am_master_entry_free(struct am_master_entry *e)
{
	free(e->me_path);
	free(e->me_map);
	free(e->me_options);
	free(e->me_origin);
	free(e->me_foreign);
	memset(e, 0, sizeof(*e));
}

void am_master_free(struct am_master *m)
{
	size_t i;

	for (i = 0; i < m->m_n; i++)
		am_master_entry_free(&m->m_entries[i]);
	free(m->m_entries);
	memset(m, 0, sizeof(*m));
}

/*
 * A line of the map files for a mount point a directory's line took first
 * (its include stood before): the file's line is the administrator's and
 * replaces it, whether that was a mount or a -null.
 */
static void master_forget(struct am_master *m, size_t i)
{
	am_master_entry_free(&m->m_entries[i]);
	memmove(&m->m_entries[i], &m->m_entries[i + 1],
		(m->m_n - i - 1) * sizeof(*m->m_entries));
	m->m_n--;
}

/* A later "-null" for a mount point already listed disables it too. */
static int master_again(struct am_master_entry *e, const char *map, size_t n)
{
	char *null;

	if (n != 5 || strncmp(map, "-null", 5) || !strcmp(e->me_map, "-null"))
		return 1;
	null = strdup("-null");
	if (!null)
		return -ENOMEM;
	free(e->me_map);
	e->me_map = null;
	return 0;
}

int am_master_add(struct am_master *m, const char *key, const char *entry,
		  const char *origin, const char *foreign, char *err, size_t errlen)
{
	struct am_master_entry *e;
	struct am_mapspec ms;
	char *path = NULL;
	const char *rest;
	size_t i, n;
	int ret;

	if (strcmp(key, "/-")) {
		ret = am_path_normalise(key, &path);
		if (ret == -EINVAL || (!ret && !strcmp(path, "/"))) {
			snprintf(err, errlen, "mount point '%.60s' is not a clean absolute path", key);
			free(path);
			return -EINVAL;
		}
	} else {
		path = strdup(key);
	}
	if (!path)
		return -ENOMEM;
	while (isspace((unsigned char)*entry))
		entry++;
	n = strcspn(entry, " \t");
	for (i = 0; i < m->m_n; i++)
		if (!strcmp(m->m_entries[i].me_path, path) && !foreign &&
		    m->m_entries[i].me_foreign) {
			master_forget(m, i);
			break;
		}
	for (i = 0; i < m->m_n; i++)
		if (!strcmp(m->m_entries[i].me_path, path)) {
			free(path);
			/* a directory's -null does not switch the file's line off */
			if (foreign && !m->m_entries[i].me_foreign && n == 5 &&
			    !strncmp(entry, "-null", 5)) {
				snprintf(err, errlen, "%s: a -null read from %s may not disable "
					 "the master map file's own line", key, foreign);
				return -EPERM;
			}
			return master_again(&m->m_entries[i], entry, n);
		}
	rest = entry + n;
	while (isspace((unsigned char)*rest))
		rest++;
	e = realloc(m->m_entries, (m->m_n + 1) * sizeof(*e));
	if (!e) {
		free(path);
		return -ENOMEM;
	}
	m->m_entries = e;
	e += m->m_n;
	e->me_path = path;
	e->me_map = am_strndup(entry, n);
	e->me_options = strdup(rest);
	e->me_origin = strdup(origin);
	e->me_foreign = foreign ? strdup(foreign) : NULL;
	m->m_n++;
	if (!e->me_map || !e->me_options || !e->me_origin || (foreign && !e->me_foreign))
		return -ENOMEM;
	if (!n) {
		snprintf(err, errlen, "%s: no map name", key);
		goto bad;
	}
	ret = am_mapspec_parse(e->me_map, &ms);
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s: map '%.180s': %s", key, e->me_map,
			 am_mapspec_refused(e->me_map));
	if (ret)
		goto bad_ret;
	am_mapspec_free(&ms);
	return 0;
bad:
	ret = -EINVAL;
bad_ret:
	m->m_n--;
	am_master_entry_free(e);
	return ret;
}

char *am_master_options(const struct am_master_entry *me)
{
	char *opt;

	if (!me->me_foreign)
		return strdup(me->me_options);
	if (asprintf(&opt, "%s%s" AM_MOPT_FOREIGN, me->me_options,
		     *me->me_options ? " " : "") < 0)
		return NULL;
	return opt;
}

/* The value of timeout= from P to E: from a FOREIGN entry, digits only. */
static bool submap_timeout(const char *p, const char *e, bool foreign)
{
	return !foreign || (e > p && strspn(p, "0123456789") == (size_t)(e - p));
}

/*
 * The options of an fstype=autofs entry, as autofs-tools reads them:
 * browse, nobrowse, timeout=N and master map options such as --timeout=N
 * belong to the submount, the rest are mount options for its map's
 * entries.  A FOREIGN entry (trust.c) gives only browse, nobrowse and the
 * timeout: its mount options would become the nested map's master options,
 * whose suid or dev lift the clamp and whose -D reach a program map's
 * environment; instead the nested map inherits its trust, marked
 * --autofsng-foreign.  Returns: master map options, or NULL.
 */
char *am_submap_options(const char *opts, bool foreign, bool *browse)
{
	struct am_buf own = { 0 }, mnt = { 0 };
	const char *p, *e;

	for (p = opts; *p; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ",");
		if ((size_t)(e - p) == 6 && !strncmp(p, "browse", 6))
			*browse = true;
		else if ((size_t)(e - p) == 8 && !strncmp(p, "nobrowse", 8))
			*browse = false;
		else if (am_startswith(p, "timeout=") && submap_timeout(p + 8, e, foreign))
			am_buf_printf(&own, "--%.*s ", (int)(e - p), p);
		else if (foreign)
			continue;
		else if (p[0] == '-')
			am_buf_printf(&own, "%.*s ", (int)(e - p), p);
		else if (e > p)
			am_buf_printf(&mnt, "%s%.*s", mnt.ab_len ? "," : "-", (int)(e - p), p);
	}
	if (foreign)
		am_buf_puts(&own, AM_MOPT_FOREIGN " ");
	am_buf_puts(&own, mnt.ab_s ? mnt.ab_s : "");
	am_buf_free(&mnt);
	return am_buf_steal(&own);
}
