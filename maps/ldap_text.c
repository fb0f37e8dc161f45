// SPDX-License-Identifier: GPL-2.0
/*
 * Text that goes to or comes from a directory server: search filters
 * (RFC 4515), attribute values inside a DN (RFC 4514) and URI lists.
 * Everything a map key or map name puts into a filter passes through
 * ldap_filter_escape(), so a key can never widen a search.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ldap_priv.h"

static bool filter_special(unsigned char c)
{
	return c == '*' || c == '(' || c == ')' || c == '\\' || c < 0x20 ||
	       c == 0x7f;
}

/* Returns: VALUE with RFC 4515 escapes, malloc'd, or NULL when out of memory. */
char *ldap_filter_escape(const char *value)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	const unsigned char *s;
	char *out, *o;

	for (s = (const unsigned char *)value; *s; s++)
		n += filter_special(*s) ? 3 : 1;
	out = malloc(n + 1);
	if (!out)
		return NULL;
	for (s = (const unsigned char *)value, o = out; *s; s++) {
		if (filter_special(*s)) {
			*o++ = '\\';
			*o++ = hex[*s >> 4];
			*o++ = hex[*s & 0xf];
		} else {
			*o++ = (char)*s;
		}
	}
	*o = '\0';
	return out;
}

/*
 * Returns: "(&(objectClass=CLS)(ATTR=VALUE))" with VALUE escaped, or
 * "(objectClass=CLS)" when VALUE is NULL; malloc'd, NULL without memory.
 */
char *ldap_filter_eq(const char *cls, const char *attr, const char *value)
{
	char *esc, *out;
	int rc;

	if (!value)
		return asprintf(&out, "(objectClass=%s)", cls) < 0 ? NULL : out;
	esc = ldap_filter_escape(value);
	if (!esc)
		return NULL;
	rc = asprintf(&out, "(&(objectClass=%s)(%s=%s))", cls, attr, esc);
	free(esc);
	return rc < 0 ? NULL : out;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (unsigned char)tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Undo RFC 4514 escapes of one attribute value of LEN bytes (not
 * NUL-terminated).  "\XX" is a byte in hex, "\" before any other printable
 * character is that character.  The "#hex" BER form, a trailing lone
 * backslash and an escaped NUL are refused: no map key or name has them.
 * Returns: the value, malloc'd, or NULL when malformed or out of memory.
 */
char *ldap_dn_value_unescape(const char *in, size_t len)
{
	char *out, *o;
	size_t i;
	int hi, lo;

	if (len && in[0] == '#')
		return NULL;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (i = 0, o = out; i < len; i++) {
		if (in[i] == '\0')
			goto fail;
		if (in[i] != '\\') {
			*o++ = in[i];
			continue;
		}
		if (++i == len)
			goto fail;
		hi = hexval((unsigned char)in[i]);
		lo = i + 1 < len ? hexval((unsigned char)in[i + 1]) : -1;
		if (hi >= 0 && lo >= 0) {
			if (hi == 0 && lo == 0)
				goto fail;
			*o++ = (char)(hi << 4 | lo);
			i++;
		} else if (hi < 0 && isprint((unsigned char)in[i])) {
			*o++ = in[i];
		} else {
			goto fail;
		}
	}
	*o = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

/* Returns: the length of the attribute value starting at S, up to an unescaped ',' '+' or the end. */
static size_t dn_value_len(const char *s)
{
	size_t i = 0;

	while (s[i] && s[i] != ',' && s[i] != '+') {
		if (s[i] == '\\' && s[i + 1])
			i++;
		i++;
	}
	return i;
}

/*
 * The value of ATTR in the first RDN of DN, e.g. "auto.home" for ATTR "ou"
 * and DN "ou=auto.home,dc=example,dc=org".
 * Returns: the unescaped value, malloc'd, or NULL when the first RDN has no
 * ATTR or is malformed.
 */
char *ldap_dn_first_value(const char *dn, const char *attr)
{
	size_t alen = strlen(attr);
	const char *s = dn;

	while (*s) {
		while (*s == ' ')
			s++;
		if (!strncasecmp(s, attr, alen) && s[alen] == '=') {
			s += alen + 1;
			return ldap_dn_value_unescape(s, dn_value_len(s));
		}
		s += strcspn(s, "=,+");
		if (*s != '=')
			return NULL;
		s += 1 + dn_value_len(s + 1);
		if (*s != '+')
			return NULL;
		s++;
	}
	return NULL;
}

/* Returns: the NULL-terminated array of URIs in LIST (blank or comma separated), NULL without memory. */
char **ldap_uri_split(const char *list)
{
	size_t n = 0, cap = 4;
	char **uris = calloc(cap + 1, sizeof(*uris));
	const char *s = list;
	size_t len;

	if (!uris)
		return NULL;
	for (;;) {
		s += strspn(s, " \t,");
		if (!*s)
			break;
		len = strcspn(s, " \t,");
		if (n == cap) {
			char **grown = realloc(uris, (2 * cap + 1) * sizeof(*uris));

			if (!grown)
				goto fail;
			uris = grown;
			cap *= 2;
		}
		uris[n] = strndup(s, len);
		if (!uris[n])
			goto fail;
		uris[++n] = NULL;
		s += len;
	}
	return uris;
fail:
	ldap_uri_free(uris);
	return NULL;
}

void ldap_uri_free(char **uris)
{
	size_t i;

	if (!uris)
		return;
	for (i = 0; uris[i]; i++)
		free(uris[i]);
	free(uris);
}
