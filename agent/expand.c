// SPDX-License-Identifier: GPL-2.0
/* Variables of sun map entries: the standard set, -D defines, expansion. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "am_dynamic.h"
#include "am_sun.h"

int am_vars_set(struct am_vars *vars, const char *name, const char *value)
{
	char **names, **values, *v;
	size_t i;

	for (i = 0; i < vars->av_n; i++) {
		if (strcmp(vars->av_name[i], name))
			continue;
		v = strdup(value);
		if (!v)
			return -ENOMEM;
		free(vars->av_value[i]);
		vars->av_value[i] = v;
		return 0;
	}
	names = realloc(vars->av_name, (vars->av_n + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	vars->av_name = names;
	values = realloc(vars->av_value, (vars->av_n + 1) * sizeof(*values));
	if (!values)
		return -ENOMEM;
	vars->av_value = values;
	names[vars->av_n] = strdup(name);
	values[vars->av_n] = strdup(value);
	if (!names[vars->av_n] || !values[vars->av_n]) {
		free(names[vars->av_n]);
		free(values[vars->av_n]);
		return -ENOMEM;
	}
	vars->av_n++;
	return 0;
}

const char *am_vars_get(const struct am_vars *vars, const char *name)
{
	size_t i;

	for (i = 0; i < vars->av_n; i++)
		if (!strcmp(vars->av_name[i], name))
			return vars->av_value[i];
	return NULL;
}

void am_vars_free(struct am_vars *vars)
{
	size_t i;

	for (i = 0; i < vars->av_n; i++) {
		free(vars->av_name[i]);
		free(vars->av_value[i]);
	}
	free(vars->av_name);
	free(vars->av_value);
	memset(vars, 0, sizeof(*vars));
}

static bool vars_name_valid(const char *s, size_t n)
{
	size_t i;

	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

int am_vars_define(struct am_vars *vars, const char *def)
{
	const char *eq = strchr(def, '=');
	char *name;
	int err;

	if (!eq || !vars_name_valid(def, (size_t)(eq - def)))
		return -EINVAL;
	name = am_strndup(def, (size_t)(eq - def));
	if (!name)
		return -ENOMEM;
	err = am_vars_set(vars, name, eq + 1);
	free(name);
	return err;
}

/* The CPU class autofs has always reported: i386 for any 32-bit x86. */
static const char *vars_cpu(const char *machine)
{
	if (machine[0] == 'i' && strlen(machine) == 4 && !strcmp(machine + 2, "86"))
		return "i386";
	return machine;
}

/*
 * getpwuid_r or getgrgid_r (GET) of ID into ENT, with a buffer that grows
 * while the entry does not fit (ERANGE: a group of thousands of members),
 * up to 1 MiB.  Returns: the malloc'd buffer ENT points into, or NULL (no
 * such id, or no memory).
 */
static char *vars_getid(int (*get)(unsigned int, void *, char *, size_t, bool *),
			unsigned int id, void *ent)
{
	size_t len = 4096;
	char *buf = NULL, *nbuf;
	bool found = false;
	int err;

	do {
		nbuf = realloc(buf, len);
		if (!nbuf)
			break;
		buf = nbuf;
		err = get(id, ent, buf, len, &found);
		len *= 2;
	} while (err == ERANGE && len <= 1 << 20);
	if (found)
		return buf;
	free(buf);
	return NULL;
}

static int vars_getpw(unsigned int uid, void *pw, char *buf, size_t len, bool *found)
{
	struct passwd *res = NULL;
	int err = am_dynamic_nss("passwd");

	if (!err)
		err = getpwuid_r(uid, pw, buf, len, &res);
	*found = res != NULL;
	return err;
}

static int vars_getgr(unsigned int gid, void *gr, char *buf, size_t len, bool *found)
{
	struct group *res = NULL;
	int err = am_dynamic_nss("group");

	if (!err)
		err = getgrgid_r(gid, gr, buf, len, &res);
	*found = res != NULL;
	return err;
}

int am_vars_names(struct am_vars *vars, uid_t uid, gid_t gid)
{
	struct passwd pw;
	struct group gr;
	char *buf;
	int err = 0;

	buf = vars_getid(vars_getpw, uid, &pw);
	if (buf) {
		err = am_vars_set(vars, "USER", pw.pw_name);
		err = err ? err : am_vars_set(vars, "HOME", pw.pw_dir);
		free(buf);
		if (err)
			return err;
	}
	buf = vars_getid(vars_getgr, gid, &gr);
	if (buf) {
		err = am_vars_set(vars, "GROUP", gr.gr_name);
		free(buf);
	}
	return err;
}

/* NAME is one of the variables am_vars_names sets. */
static bool vars_is_name(const char *name, size_t len)
{
	return (len == 4 && (!strncmp(name, "USER", 4) || !strncmp(name, "HOME", 4))) ||
	       (len == 5 && !strncmp(name, "GROUP", 5));
}

/* NAME is one of autofs-tools' amd variables, which a sun map leaves empty. */
static bool vars_is_amd(const char *name, size_t len)
{
	static const char *const amd[] = { "arch", "karch", "os", "osver", "full_os", "vendor" };
	size_t i;

	for (i = 0; i < sizeof(amd) / sizeof(amd[0]); i++)
		if (strlen(amd[i]) == len && !strncmp(name, amd[i], len))
			return true;
	return false;
}

bool am_vars_uses_names(const char *text)
{
	const char *p, *name;
	size_t len;

	for (p = strchr(text, '$'); p; p = strchr(p + 1, '$')) {
		name = p[1] == '{' ? p + 2 : p + 1;
		for (len = 0; isalnum((unsigned char)name[len]) || name[len] == '_'; len++)
			;
		if (vars_is_name(name, len))
			return true;
	}
	return false;
}

int am_vars_standard(struct am_vars *vars, uid_t uid, gid_t gid)
{
	int err = am_vars_system(vars, uid, gid);

	return err ? err : am_vars_names(vars, uid, gid);
}

/* "little" or "big": autofs-tools' ${byte}. */
static const char *vars_byte_order(void)
{
	const union { unsigned short s; unsigned char c[2]; } order = { .s = 0x0102 };

	return order.c[0] == 2 ? "little" : "big";
}

/*
 * The lower-case variables autofs-tools 5.1.8 gives every sun map: host,
 * xhost and hostd, domain, dollar, true, false and byte.  Its amd ones
 * (arch, karch, os, osver...) are set for amd maps only: in a sun map they
 * are empty there, and so here (the compat differential compares them).
 */
static int vars_lower(struct am_vars *vars, const char *shost, const char *domain)
{
	char hostd[sizeof(((struct utsname *)0)->nodename) * 2];
	int err;

	snprintf(hostd, sizeof(hostd), "%s%s%s", shost, *domain ? "." : "", domain);
	err = am_vars_set(vars, "host", shost);
	err = err ? err : am_vars_set(vars, "xhost", shost);
	err = err ? err : am_vars_set(vars, "hostd", hostd);
	err = err ? err : am_vars_set(vars, "domain", domain);
	err = err ? err : am_vars_set(vars, "dollar", "$");
	err = err ? err : am_vars_set(vars, "true", "1");
	err = err ? err : am_vars_set(vars, "false", "0");
	return err ? err : am_vars_set(vars, "byte", vars_byte_order());
}

int am_vars_system(struct am_vars *vars, uid_t uid, gid_t gid)
{
	struct utsname u;
	char shost[sizeof(u.nodename)], num[32];
	const char *dot;
	int err;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(shost, sizeof(shost), "%s", u.nodename);
	dot = strchr(u.nodename, '.');
	if (dot)
		shost[dot - u.nodename] = '\0';
	err = am_vars_set(vars, "ARCH", u.machine);
	err = err ? err : am_vars_set(vars, "CPU", vars_cpu(u.machine));
	err = err ? err : am_vars_set(vars, "HOST", u.nodename);
	err = err ? err : am_vars_set(vars, "SHOST", shost);
	err = err ? err : am_vars_set(vars, "DOMAIN", dot ? dot + 1 : "");
	err = err ? err : am_vars_set(vars, "OSNAME", u.sysname);
	err = err ? err : am_vars_set(vars, "OSREL", u.release);
	err = err ? err : am_vars_set(vars, "OSVERS", u.version);
	err = err ? err : vars_lower(vars, shost, dot ? dot + 1 : "");
	snprintf(num, sizeof(num), "%u", (unsigned int)uid);
	err = err ? err : am_vars_set(vars, "UID", num);
	snprintf(num, sizeof(num), "%u", (unsigned int)gid);
	return err ? err : am_vars_set(vars, "GID", num);
}

/* Append S so that the tokenizer reads it back as literal text. */
static void expand_literal(struct am_buf *out, const char *s)
{
	for (; *s; s++) {
		if (isspace((unsigned char)*s) || *s == '"' || *s == '\\')
			am_buf_putc(out, '\\');
		am_buf_putc(out, *s);
	}
}

/* At P (just after '$'); returns the number of bytes consumed, -1 on error. */
static long expand_var(const char *p, const struct am_vars *vars,
		       struct am_buf *out, char *err, size_t errlen)
{
	const char *name = p, *end;
	const char *value;
	char *n;
	bool braced = *p == '{';

	if (braced) {
		name = p + 1;
		end = strchr(name, '}');
		if (!end) {
			snprintf(err, errlen, "unterminated ${ in variable reference");
			return -1;
		}
		if (!vars_name_valid(name, (size_t)(end - name))) {
			snprintf(err, errlen, "bad variable name '${%.*s}'",
				 (int)(end - name > 40 ? 40 : end - name), name);
			return -1;
		}
	} else {
		end = name;
		while (isalnum((unsigned char)*end) || *end == '_')
			end++;
		if (end == name || isdigit((unsigned char)*name)) {
			am_buf_putc(out, '$');
			return 0;
		}
	}
	n = am_strndup(name, (size_t)(end - name));
	if (!n) {
		out->ab_oom = true;
		return 0;
	}
	value = am_vars_get(vars, n);
	free(n);
	if (value) {
		expand_literal(out, value);
	} else if (vars_is_name(name, (size_t)(end - name))) {
		/* srv:/scratch/$USER must not become srv:/scratch/ */
		snprintf(err, errlen, "variable %.*s: the requester's %s has no name on this host",
			 (int)(end - name), name, *name == 'G' ? "group id" : "user id");
		return -1;
	} else if (vars_is_amd(name, (size_t)(end - name))) {
		am_log(LOG_WARNING, "${%.*s} is an amd map variable: empty in a sun map, "
		       "as in autofs-tools (give it with -D%.*s=...)", (int)(end - name), name,
		       (int)(end - name), name);
	}
	return (long)(end - p) + braced;
}

/*
 * Scan one word of TEXT from S for the end of a location's host part: the
 * first ':' (outside brackets) before any '/', as sun_location() finds it
 * after quotes and escapes are gone.  *BRACKET carries the state in and
 * out.  Returns: 1 at that ':', -1 at a '/' or the word's end, 0 when
 * neither came before END (NULL: the end of the word).
 */
static int expand_host_scan(const char *s, const char *end, bool quoted,
			    bool *bracket)
{
	for (; *s && s != end; s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (*s == '\\' && s[1])
			s++;
		else if (!quoted && isspace((unsigned char)*s))
			return -1;
		if (*s == '[')
			*bracket = true;
		else if (*s == ']')
			*bracket = false;
		else if (!*bracket && (*s == ':' || *s == '/'))
			return *s == ':' ? 1 : -1;
	}
	return end ? 0 : -1;
}

/*
 * Is the '&' at AMP (QUOTED: inside quotes), in the word that starts at WORD,
 * part of a host name?  Then a key like "h1,h2" or "x(0)" would become
 * replicas or a weight.  *BRACKET: the '&' is inside [...].
 */
static bool expand_in_host(const char *word, const char *amp, bool quoted,
			   bool *bracket)
{
	bool state = false;

	if (*word == '-' || expand_host_scan(word, amp, false, &state))
		return false;
	*bracket = state;
	return expand_host_scan(amp + 1, NULL, quoted, &state) == 1;
}

/* KEY where '&' names a host.  Returns: 0, -EINVAL (ERR says why). */
static int expand_host_key(const char *key, bool bracket, char *err, size_t errlen)
{
	struct in6_addr a6;
	const char *why;

	if (bracket && inet_pton(AF_INET6, key, &a6) == 1)
		return 0;
	why = am_host_invalid(key);
	if (!why)
		return 0;
	snprintf(err, errlen, "key '%.60s' stands for a host with '&' but is not a host name: %s",
		 key, why);
	return -EINVAL;
}

/*
 * Whether what was just substituted (B from START) into the option word
 * WORD ("-uid=&", "username=$USER") holds a ',': a key any user chooses,
 * or a name a directory gives, must not add options.  Blanks, quotes and
 * backslashes are escaped by expand_literal() and stay in the word.
 */
static bool expand_added_option(const struct am_buf *b, size_t start, const char *word)
{
	return *word == '-' && b->ab_len > start && memchr(b->ab_s + start, ',', b->ab_len - start);
}

/* Returns: the start of the word after P, or WORD when P does not end it. */
static const char *expand_word(const char *word, const char *p, bool quoted)
{
	return !quoted && isspace((unsigned char)*p) ? p + 1 : word;
}

int am_sun_expand(const char *text, const char *key, const struct am_vars *vars,
		  char **out, char *err, size_t errlen)
{
	struct am_buf b = { 0 };
	const char *p, *word = text;
	bool quoted = false, bracket = false;
	size_t start;
	long used;

	for (p = text; *p; p++) {
		word = expand_word(word, p, quoted);
		switch (*p) {
		case '\\':
			am_buf_putc(&b, *p);
			if (p[1])
				am_buf_putc(&b, *++p);
			break;
		case '&':
			if (quoted) {	/* quotes keep '&' and '$', as in autofs-tools */
				am_buf_putc(&b, *p);
				break;
			}
			if (expand_in_host(word, p, quoted, &bracket) &&
			    expand_host_key(key, bracket, err, errlen)) {
				am_buf_free(&b);
				return -EINVAL;
			}
			start = b.ab_len;
			expand_literal(&b, key);
			if (expand_added_option(&b, start, word)) {
				snprintf(err, errlen, "key '%.60s' stands in an option with '&' "
					 "but holds ','", key);
				am_buf_free(&b);
				return -EINVAL;
			}
			break;
		case '"':
			quoted = !quoted;
			am_buf_putc(&b, *p);
			break;
		case '$':
			if (quoted) {
				am_buf_putc(&b, *p);
				break;
			}
			start = b.ab_len;
			used = expand_var(p + 1, vars, &b, err, errlen);
			if (used >= 0 && expand_added_option(&b, start, word)) {
				/* a user name "x,suid" from a directory adds no option */
				snprintf(err, errlen, "a variable in the option word '%.40s' holds ','",
					 word);
				used = -1;
			}
			if (used < 0) {
				am_buf_free(&b);
				return -EINVAL;
			}
			p += used;
			break;
		default:
			am_buf_putc(&b, *p);
		}
	}
	*out = am_buf_steal(&b);
	return *out ? 0 : -ENOMEM;
}
