// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing one sun-format entry (already expanded) into its mounts:
 *
 *   [-options] location...                      a single mount
 *   [-options] /offset [-options] location...   multi-mount, offsets repeat
 *
 * A location is host[(weight)][,host...]:path, :path or a bare source.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_sun.h"

struct sun_token {
	char *st_text;		/* quotes and escapes removed */
	bool st_option;		/* began with an unquoted '-' */
	bool st_offset;		/* began with an unquoted '/' */
};

struct sun_tokens {
	struct sun_token *tk;
	size_t n;
};

static void sun_tokens_free(struct sun_tokens *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->tk[i].st_text);
	free(t->tk);
	memset(t, 0, sizeof(*t));
}

/* Returns: 0, -EINVAL (unterminated quote), -ENOMEM. */
static int sun_tokenize(const char *s, struct sun_tokens *t, char *err, size_t errlen)
{
	struct am_buf b = { 0 };
	struct sun_token *tk;
	bool quoted;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return 0;
		tk = realloc(t->tk, (t->n + 1) * sizeof(*tk));
		if (!tk)
			return -ENOMEM;
		t->tk = tk;
		tk += t->n;
		tk->st_option = *s == '-';
		tk->st_offset = *s == '/';
		quoted = false;
		for (; *s && (quoted || !isspace((unsigned char)*s)); s++) {
			if (*s == '"') {
				quoted = !quoted;
				continue;
			}
			if (*s == '\\' && s[1])
				s++;
			am_buf_putc(&b, *s);
		}
		if (quoted) {
			am_buf_free(&b);
			snprintf(err, errlen, "unterminated quote");
			return -EINVAL;
		}
		if (!b.ab_s)
			am_buf_puts(&b, "");
		tk->st_text = am_buf_steal(&b);
		if (!tk->st_text)
			return -ENOMEM;
		t->n++;
	}
}

/* The group an option belongs to, so that "ro" replaces "rw". */
static size_t opt_name(const char *opt, size_t len, const char **name)
{
	static const char *const pairs[] = {
		"ro", "rw", "suid", "nosuid", "dev", "nodev", "exec", "noexec",
		"atime", "noatime", "browse", "nobrowse", "hard", "soft",
		"intr", "nointr", NULL,
	};
	const char *eq = memchr(opt, '=', len);
	size_t i;

	if (eq)
		len = (size_t)(eq - opt);
	for (i = 0; pairs[i]; i++) {
		if (strlen(pairs[i]) == len && !strncmp(pairs[i], opt, len)) {
			*name = pairs[i & ~(size_t)1];
			return strlen(*name);
		}
	}
	*name = opt;
	return len;
}

static bool opt_same(const char *a, size_t alen, const char *b, size_t blen)
{
	const char *na, *nb;
	size_t la = opt_name(a, alen, &na), lb = opt_name(b, blen, &nb);

	return la == lb && !strncmp(na, nb, la);
}

/* Returns: true when [S, S+N) is replaced by an option of ADD. */
static bool opt_overridden(const char *s, size_t n, const char *add)
{
	const char *p = add, *e;

	while (p && *p) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (e > p && opt_same(s, n, p, (size_t)(e - p)))
			return true;
		p = *e ? e + 1 : e;
	}
	return false;
}

static void opts_append(struct am_buf *b, const char *s, size_t n)
{
	if (!n)
		return;
	if (b->ab_len)
		am_buf_putc(b, ',');
	am_buf_putn(b, s, n);
}

char *am_opts_merge(const char *base, const char *add)
{
	struct am_buf b = { 0 };
	const char *p, *e;

	for (p = base; p && *p; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (!opt_overridden(p, (size_t)(e - p), add))
			opts_append(&b, p, (size_t)(e - p));
	}
	for (p = add; p && *p; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		/* a later repeat inside ADD wins too */
		if (!opt_overridden(p, (size_t)(e - p), *e ? e + 1 : e))
			opts_append(&b, p, (size_t)(e - p));
	}
	if (!b.ab_s)
		am_buf_puts(&b, "");
	return am_buf_steal(&b);
}

bool am_opts_has(const char *opts, const char *name)
{
	size_t n = strlen(name);
	const char *p, *e;

	for (p = opts; p && *p; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if ((size_t)(e - p) >= n && !strncmp(p, name, n) &&
		    (p[n] == ',' || p[n] == '=' || p + n == e))
			return true;
	}
	return false;
}

/*
 * Options autofs-tools takes out of an entry before it mounts: how to treat
 * a failed offset (strict), replica selection, and bg/nofg, which make no
 * sense for an automount.  browse, nobrowse and timeout= mean something only
 * to an fstype=autofs entry.
 */
static bool sun_pseudo(const char *p, size_t n, bool autofs)
{
	static const char *const words[] = {
		"strict", "nonstrict", "use-weight-only", "no-use-weight-only",
		"bg", "nofg", NULL,
	};
	size_t i;

	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !strncmp(p, words[i], n))
			return true;
	if (autofs)
		return false;
	return (n == 6 && !strncmp(p, "browse", 6)) || (n == 8 && !strncmp(p, "nobrowse", 8)) ||
	       am_startswith(p, "timeout=");
}

/* Drop the sun_pseudo() options from *OPTS.  Returns: 0, -ENOMEM. */
static int sun_drop_pseudo(char **opts, bool autofs)
{
	struct am_buf b = { 0 };
	const char *p, *e;

	for (p = *opts; *p; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ",");
		if (!sun_pseudo(p, (size_t)(e - p), autofs))
			opts_append(&b, p, (size_t)(e - p));
	}
	if (!b.ab_s)
		am_buf_puts(&b, "");
	free(*opts);
	*opts = am_buf_steal(&b);
	return *opts ? 0 : -ENOMEM;
}

/* Take fstype= out of OPTS into *FSTYPE.  Returns: 0, -EINVAL, -ENOMEM. */
static int sun_take_fstype(char **opts, char **fstype)
{
	struct am_buf b = { 0 };
	const char *p, *e;
	char *type = NULL;

	for (p = *opts; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (am_startswith(p, "fstype=")) {
			free(type);
			type = am_strndup(p + 7, (size_t)(e - p - 7));
			if (!type)
				b.ab_oom = true;
			continue;
		}
		opts_append(&b, p, (size_t)(e - p));
	}
	if (!b.ab_s)
		am_buf_puts(&b, "");
	free(*opts);
	*opts = am_buf_steal(&b);
	if (!type && !b.ab_oom)
		type = strdup("nfs");
	*fstype = type;
	if (!*opts || !type)
		return -ENOMEM;
	return *type ? 0 : -EINVAL;
}

int am_path_normalise(const char *path, char **out)
{
	struct am_buf b = { 0 };
	const char *p = path, *e;
	size_t n;

	if (*p != '/')
		return -EINVAL;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		n = e ? (size_t)(e - p) : strlen(p);
		if ((n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2)) ||
		    n > NAME_MAX) {
			am_buf_free(&b);
			return -EINVAL;
		}
		am_buf_putc(&b, '/');
		am_buf_putn(&b, p, n);
		p += n;
	}
	if (!b.ab_len)
		am_buf_putc(&b, '/');
	*out = am_buf_steal(&b);
	return *out ? 0 : -ENOMEM;
}

static int sun_add_location(struct am_mnt *m, const char *host, size_t hlen,
			    unsigned int weight, const char *path)
{
	struct am_location *l;

	l = realloc(m->mn_locs, (m->mn_nlocs + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	m->mn_locs = l;
	l += m->mn_nlocs;
	l->al_host = host ? am_strndup(host, hlen) : NULL;
	l->al_path = strdup(path);
	l->al_weight = weight;
	m->mn_nlocs++;
	if ((host && !l->al_host) || !l->al_path)
		return -ENOMEM;
	return 0;
}

/* One host of a host list: NAME or NAME(WEIGHT).  Returns: 0, -EINVAL, -ENOMEM. */
static int sun_host(struct am_mnt *m, const char *h, size_t n, const char *path,
		    char *err, size_t errlen)
{
	const char *paren = memchr(h, '(', n);
	unsigned long w = 0;
	char *end;

	if (paren) {
		w = strtoul(paren + 1, &end, 10);
		if (end == paren + 1 || *end != ')' || end != h + n - 1 || w > 1000000) {
			snprintf(err, errlen, "bad weight in '%.*s'", (int)(n > 60 ? 60 : n), h);
			return -EINVAL;
		}
		n = (size_t)(paren - h);
	}
	if (!n) {
		snprintf(err, errlen, "empty host name in location");
		return -EINVAL;
	}
	return sun_add_location(m, h, n, (unsigned int)w, path);
}

/* Find the ':' that ends the host list (not inside [ipv6]). */
static const char *sun_host_colon(const char *s)
{
	bool bracket = false;

	for (; *s; s++) {
		if (*s == '[')
			bracket = true;
		else if (*s == ']')
			bracket = false;
		else if (*s == ':' && !bracket)
			return s;
		else if (*s == '/' && !bracket)
			return NULL;
	}
	return NULL;
}

static int sun_location(struct am_mnt *m, const char *text, char *err, size_t errlen)
{
	const char *colon, *h, *e;
	int ret;

	if (!strcmp(text, "-"))
		return 0;
	if (text[0] == ':')
		return sun_add_location(m, NULL, 0, 0, text + 1);
	colon = sun_host_colon(text);
	if (!colon)
		return sun_add_location(m, NULL, 0, 0, text);
	if (!colon[1]) {
		snprintf(err, errlen, "location '%.60s' has no path after ':'", text);
		return -EINVAL;
	}
	for (h = text; h < colon; h = e + 1) {
		e = memchr(h, ',', (size_t)(colon - h));
		if (!e)
			e = colon;
		ret = sun_host(m, h, (size_t)(e - h), colon + 1, err, errlen);
		if (ret)
			return ret;
		if (e == colon)
			break;
	}
	return 0;
}

/*
 * A location token of a mount.  A word that is neither an absolute path nor
 * host:path is malformed, as autofs-tools 5.1.8 refuses it ("invalid
 * character"); the location of an autofs submount is a map name.
 * Returns: 0, -EINVAL (ERR says why), -ENOMEM.
 */
static int sun_location_token(struct am_mnt *m, const char *text, char *err, size_t errlen)
{
	if (!strcmp(m->mn_fstype, "autofs") && strcmp(text, "-"))
		return sun_add_location(m, NULL, 0, 0, text);
	if (text[0] != '/' && text[0] != ':' && strcmp(text, "-") && !sun_host_colon(text)) {
		snprintf(err, errlen, "location '%.60s' is neither an absolute path nor host:path%s",
			 text, strchr(text, '(') ? " (replicated hosts are separated by commas)" : "");
		return -EINVAL;
	}
	return sun_location(m, text, err, errlen);
}

static struct am_mnt *sun_new_mnt(struct am_entry *e, const char *offset,
				  const char *opts, int *ret)
{
	struct am_mnt *m;

	m = realloc(e->en_mnts, (e->en_nmnts + 1) * sizeof(*m));
	if (!m) {
		*ret = -ENOMEM;
		return NULL;
	}
	e->en_mnts = m;
	m += e->en_nmnts++;
	memset(m, 0, sizeof(*m));
	m->mn_offset = strdup(offset);
	m->mn_options = strdup(opts ? opts : "");
	*ret = m->mn_offset && m->mn_options ? 0 : -ENOMEM;
	return *ret ? NULL : m;
}

/* Options tokens from *I on, merged over BASE.  Returns: merged or NULL. */
static char *sun_options(const struct sun_tokens *t, size_t *i, const char *base)
{
	char *opts = strdup(base ? base : ""), *next;

	while (opts && *i < t->n && t->tk[*i].st_option && t->tk[*i].st_text[1]) {
		next = am_opts_merge(opts, t->tk[*i].st_text + 1);
		free(opts);
		opts = next;
		(*i)++;
	}
	return opts;
}

/* One mount: options then locations, up to the next offset. */
static int sun_mount(struct am_entry *e, const struct sun_tokens *t, size_t *i,
		     const char *offset, const char *base, char *err, size_t errlen)
{
	struct am_mnt *m;
	char *opts;
	int ret;

	opts = sun_options(t, i, base);
	if (!opts)
		return -ENOMEM;
	m = sun_new_mnt(e, offset, opts, &ret);
	free(opts);
	if (!m)
		return ret;
	ret = sun_take_fstype(&m->mn_options, &m->mn_fstype);
	if (ret == -EINVAL)
		snprintf(err, errlen, "empty fstype=");
	if (!ret)
		ret = sun_drop_pseudo(&m->mn_options, !strcmp(m->mn_fstype, "autofs"));
	if (ret)
		return ret;
	if (*i >= t->n || t->tk[*i].st_offset) {
		snprintf(err, errlen, "no location for %s", offset);
		return -EINVAL;
	}
	for (; !ret && *i < t->n && !t->tk[*i].st_offset; (*i)++) {
		if (t->tk[*i].st_option && strcmp(t->tk[*i].st_text, "-")) {
			snprintf(err, errlen, "option '%.40s' after a location",
				 t->tk[*i].st_text);
			ret = -EINVAL;
			break;
		}
		ret = sun_location_token(m, t->tk[*i].st_text, err, errlen);
	}
	return ret;
}

static int sun_mnt_cmp(const void *a, const void *b)
{
	return strcmp(((const struct am_mnt *)a)->mn_offset,
		      ((const struct am_mnt *)b)->mn_offset);
}

static int sun_multi(struct am_entry *e, const struct sun_tokens *t, size_t i,
		     const char *opts, char *err, size_t errlen)
{
	char *offset;
	size_t k;
	int ret;

	e->en_multi = true;
	while (i < t->n) {
		ret = am_path_normalise(t->tk[i].st_text, &offset);
		if (ret == -EINVAL)
			snprintf(err, errlen, "bad offset '%.60s'", t->tk[i].st_text);
		if (ret)
			return ret;
		for (k = 0; k < e->en_nmnts; k++)
			if (!strcmp(e->en_mnts[k].mn_offset, offset))
				break;
		if (k < e->en_nmnts) {
			snprintf(err, errlen, "offset %.60s given twice", offset);
			free(offset);
			return -EINVAL;
		}
		i++;
		ret = sun_mount(e, t, &i, offset, opts, err, errlen);
		free(offset);
		if (ret)
			return ret;
	}
	qsort(e->en_mnts, e->en_nmnts, sizeof(*e->en_mnts), sun_mnt_cmp);
	return 0;
}

int am_sun_parse(const char *text, const char *defopts, struct am_entry *entry,
		 char *err, size_t errlen)
{
	struct sun_tokens t = { 0 };
	size_t i = 0;
	char *opts = NULL;
	int ret;

	memset(entry, 0, sizeof(*entry));
	ret = sun_tokenize(text, &t, err, errlen);
	if (ret)
		goto out;
	opts = sun_options(&t, &i, defopts);
	if (!opts) {
		ret = -ENOMEM;
		goto out;
	}
	if (i >= t.n) {
		snprintf(err, errlen, "entry has no location");
		ret = -EINVAL;
	} else if (t.tk[i].st_offset) {
		ret = sun_multi(entry, &t, i, opts, err, errlen);
	} else {
		ret = sun_mount(entry, &t, &i, "/", opts, err, errlen);
		/*
		 * "key location /offset location": a multi-mount whose root
		 * offset "/" is left out, as autofs(5) allows.  What follows
		 * must be offsets with their locations: "//server /share"
		 * fails there ("no location for /share"), never mounts the
		 * server's root alone.
		 */
		if (!ret && i < t.n)
			ret = sun_multi(entry, &t, i, opts, err, errlen);
	}
out:
	free(opts);
	sun_tokens_free(&t);
	if (ret)
		am_entry_free(entry);
	return ret;
}

void am_entry_free(struct am_entry *entry)
{
	struct am_mnt *m;
	size_t i, k;

	for (i = 0; i < entry->en_nmnts; i++) {
		m = &entry->en_mnts[i];
		for (k = 0; k < m->mn_nlocs; k++) {
			free((char *)m->mn_locs[k].al_host);
			free((char *)m->mn_locs[k].al_path);
		}
		free(m->mn_locs);
		free(m->mn_offset);
		free(m->mn_fstype);
		free(m->mn_options);
	}
	free(entry->en_mnts);
	memset(entry, 0, sizeof(*entry));
}

const struct am_mnt *am_entry_find(const struct am_entry *entry, const char *offset)
{
	size_t i;

	for (i = 0; i < entry->en_nmnts; i++)
		if (!strcmp(entry->en_mnts[i].mn_offset, offset))
			return &entry->en_mnts[i];
	return NULL;
}

void am_entry_print(const struct am_entry *entry, struct am_buf *out)
{
	const struct am_mnt *m;
	size_t i, k;

	for (i = 0; i < entry->en_nmnts; i++) {
		m = &entry->en_mnts[i];
		am_buf_printf(out, "  mount %s fstype=%s options=%s\n", m->mn_offset,
			      m->mn_fstype, *m->mn_options ? m->mn_options : "-");
		if (!m->mn_nlocs)
			am_buf_puts(out, "    nothing mounted\n");
		for (k = 0; k < m->mn_nlocs; k++)
			am_buf_printf(out, "    location host=%s weight=%u path=%s\n",
				      m->mn_locs[k].al_host ? m->mn_locs[k].al_host : "-",
				      m->mn_locs[k].al_weight, m->mn_locs[k].al_path);
	}
}

const char *am_key_invalid(const char *key, bool direct)
{
	const char *p;
	char *norm;
	int err;

	if (!*key)
		return "empty key";
	if (key[0] == '-')
		return "key starts with '-'";
	/* blanks, quotes and backslashes are fine: '&' writes them escaped */
	for (p = key; *p; p++)
		if (iscntrl((unsigned char)*p))
			return "key contains a control character";
	if (direct) {
		err = am_path_normalise(key, &norm);
		if (err)
			return "direct key is not a clean absolute path";
		err = strcmp(norm, key) || !strcmp(norm, "/");
		free(norm);
		return err ? "direct key is not a clean absolute path" : NULL;
	}
	if (strchr(key, '/'))
		return "key contains '/'";
	if (!strcmp(key, ".") || !strcmp(key, ".."))
		return "key is '.' or '..'";
	if (strlen(key) > NAME_MAX)
		return "key longer than 255 bytes";
	return NULL;
}
