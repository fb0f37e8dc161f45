// SPDX-License-Identifier: GPL-2.0
/*
 * The map sources in order, each with the statuses after which the search
 * ends, as nsswitch.conf(5) and autofs-tools read them: "files
 * [NOTFOUND=return] ldap", from the "automount:" line of /etc/nsswitch.conf
 * or the configuration's "sources =".  By default a search ends at the
 * first source that answers (SUCCESS=return).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "am_conf.h"
#include "am_util.h"

static const char *const nss_status_names[AM_NSS_NSTATUS] = {
	[AM_NSS_SUCCESS] = "SUCCESS",
	[AM_NSS_NOTFOUND] = "NOTFOUND",
	[AM_NSS_UNAVAIL] = "UNAVAIL",
	[AM_NSS_TRYAGAIN] = "TRYAGAIN",
};

/*
 * One list of sources: nsswitch.conf's automount line (a word it does not
 * know is skipped, with a warning) or the configuration's "sources ="
 * (STRICT: every fault is an error of that line, np_err).
 */
struct nss_parse {
	struct am_conf *np_conf;
	const char *np_origin;	/* "file", or "file:line" */
	const char *np_what;	/* "automount", "sources" */
	bool np_strict;
	bool np_last;		/* the word before was a source taken */
	int np_err;
};

static void nss_fault(struct nss_parse *np, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A fault of the list: an error of a configuration line, else a warning. */
static void nss_fault(struct nss_parse *np, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	am_log(np->np_strict ? LOG_ERR : LOG_WARNING, "%s: %s: %s%s", np->np_origin,
	       np->np_what, msg, np->np_strict ? "" : ", ignored");
	if (np->np_strict)
		np->np_err = -EINVAL;
}

const char *am_nss_status_name(enum am_nss_status st)
{
	return st < AM_NSS_NSTATUS ? nss_status_names[st] : "(skipped)";
}

/* Whether the LEN bytes at S are WORD, in any case. */
static bool nss_word(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !strncasecmp(s, word, len);
}

/* Returns: the AM_NSS_* status named NAME (any case), -1 if none. */
static int nss_status(const char *name, size_t len)
{
	int st;

	for (st = 0; st < AM_NSS_NSTATUS; st++)
		if (nss_word(name, len, nss_status_names[st]))
			return st;
	return -1;
}

/* "[!]STATUS = ACTION" at *P, applied to *RET.  Returns: 0, -EINVAL. */
static int nss_action(const char **p, unsigned int *ret)
{
	const char *s = *p, *word;
	unsigned int bits;
	bool neg;
	size_t n;
	int st;

	neg = *s == '!';
	s += neg;
	for (n = 0; isalpha((unsigned char)s[n]); n++)
		;
	st = nss_status(s, n);
	s += n + strspn(s + n, " \t");
	if (st < 0 || *s++ != '=')
		return -EINVAL;
	s += strspn(s, " \t");
	for (word = s, n = 0; isalpha((unsigned char)s[n]); n++)
		;
	bits = neg ? ((1u << AM_NSS_NSTATUS) - 1) & ~(1u << st) : 1u << st;
	if (nss_word(word, n, "return"))
		*ret |= bits;
	else if (nss_word(word, n, "continue"))
		*ret &= ~bits;
	else
		return -EINVAL;
	*p = s + n;
	return 0;
}

/* The text between "[" and "]", for the source before it. */
static void nss_actions(struct nss_parse *np, const char *text)
{
	struct am_conf *conf = np->np_conf;
	const char *p = text;
	unsigned int *ret, bits;

	if (!np->np_last) {
		nss_fault(np, "actions [%s] follow no source taken", text);
		return;
	}
	ret = &conf->cf_source_return[conf->cf_nsources - 1];
	/* all of the brackets, or none of them */
	bits = *ret;
	for (p += strspn(p, " \t"); *p; p += strspn(p, " \t")) {
		if (nss_action(&p, &bits)) {
			nss_fault(np, "action '%s' is not STATUS=return or STATUS=continue", p);
			return;
		}
	}
	*ret = bits;
}

/* A source's name: taken, or a fault.  Returns: 0, -ENOMEM. */
static int nss_source(struct nss_parse *np, const char *word)
{
	struct am_conf *conf = np->np_conf;
	const char *name = am_conf_source_name(word);

	np->np_last = false;
	if (!name) {
		nss_fault(np, "unknown source '%s' (files, nis, ldap, sss)", word);
		return 0;
	}
	if (conf->cf_nsources == AM_MAX_SOURCES) {
		nss_fault(np, "more than %d sources", AM_MAX_SOURCES);
		return 0;
	}
	conf->cf_source_return[conf->cf_nsources] = AM_NSS_RETURN_DEFAULT;
	conf->cf_sources[conf->cf_nsources] = strdup(name);
	if (!conf->cf_sources[conf->cf_nsources++])
		return -ENOMEM;
	np->np_last = true;
	return 0;
}

/* The sources and actions of P, a list without its "automount:" or "sources =". */
static int nss_line(struct nss_parse *np, char *p)
{
	char *end, c;
	int err;

	for (p += strspn(p, " \t,"); *p && *p != '#'; p += strspn(p, " \t,")) {
		if (*p == '[') {
			/* a '#' starts a comment, inside brackets too */
			end = strpbrk(p, "]#");
			if (!end || *end == '#') {
				if (end)
					*end = '\0';
				nss_fault(np, "'%s' has no ']'", p);
				return 0;
			}
			*end = '\0';
			nss_actions(np, p + 1);
			p = end + 1;
			continue;
		}
		end = p + strcspn(p, " \t,[#");
		c = *end;
		*end = '\0';
		err = nss_source(np, p);
		*end = c;
		if (err)
			return err;
		p = end;
	}
	return 0;
}

int am_conf_sources_parse(struct am_conf *conf, const char *origin, char *text)
{
	struct nss_parse np = { .np_conf = conf, .np_origin = origin,
				.np_what = "sources", .np_strict = true };
	int err = nss_line(&np, text);

	if (!err && !np.np_err && !conf->cf_nsources)
		nss_fault(&np, "empty list");
	return err ? err : np.np_err;
}

int am_conf_nsswitch_parse(struct am_conf *conf, const char *origin, char *text)
{
	struct nss_parse np = { .np_conf = conf, .np_origin = origin, .np_what = "automount" };
	char *line, *save = NULL;
	int err = 0;

	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		np.np_last = false;
		if (am_startswith(line, "automount:"))
			err = nss_line(&np, line + strlen("automount:"));
	}
	return err;
}

int am_conf_nsswitch(struct am_conf *conf, const char *path)
{
	char *text;
	size_t len;
	int err = 0;

	if (conf->cf_nsources)
		return 0;
	err = am_read_file(path, AM_CONF_MAX_BYTES, &text, &len);
	if (err && err != -ENOENT)
		am_log(LOG_WARNING, "%s: cannot read it (%s): sources: files",
		       path, am_conf_read_why(err));
	if (!err && strlen(text) != len)
		am_log(LOG_WARNING, "%s: a NUL byte: read up to it", path);
	if (!err) {
		err = am_conf_nsswitch_parse(conf, path, text);
		free(text);
	} else {
		err = err == -ENOMEM ? err : 0;
	}
	if (!err && !conf->cf_nsources) {
		conf->cf_source_return[0] = AM_NSS_RETURN_DEFAULT;
		conf->cf_sources[0] = strdup("files");
		err = conf->cf_sources[0] ? 0 : -ENOMEM;
		conf->cf_nsources = 1;
	}
	return err;
}
