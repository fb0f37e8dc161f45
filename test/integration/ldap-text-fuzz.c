// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target for the text map_ldap.so reads from and writes to a server:
 * DN attribute values (RFC 4514 unescaping) and search filter values
 * (RFC 4515 escaping).  Checked properties, beyond "no crash, no leak":
 *  - an unescaped value is never longer than its input;
 *  - where libldap's own DN parser also accepts "cn=VALUE", both give the
 *    same value (a second, independent implementation);
 *  - an escaped filter value has no bare ( ) * or \ and decodes back to
 *    the key, so no key can change a filter's structure.
 *
 * Built by `make check` with a driver that replays a fixed corpus and
 * random mutations of it; build with clang -fsanitize=fuzzer and
 * -DAM_LIBFUZZER for a coverage-guided run (maps/README.md says how).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldap_priv.h"

static void check(int ok, const char *what, const unsigned char *data, size_t len)
{
	size_t i;

	if (ok)
		return;
	fprintf(stderr, "ldap-text-fuzz: %s for input:", what);
	for (i = 0; i < len; i++)
		fprintf(stderr, " %02x", data[i]);
	fputc('\n', stderr);
	abort();
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void check_filter(const char *key, const unsigned char *data, size_t len)
{
	char *esc = ldap_filter_escape(key), *dec, *d;
	const char *s;

	check(esc != NULL, "filter escape failed", data, len);
	dec = malloc(strlen(esc) + 1);
	check(dec != NULL, "out of memory", data, len);
	for (s = esc, d = dec; *s; s++) {
		check(*s != '(' && *s != ')' && *s != '*', "bare filter special", data, len);
		if (*s == '\\') {
			check(hexval(s[1]) >= 0 && hexval(s[2]) >= 0, "bad filter escape",
			      data, len);
			*d++ = (char)(hexval(s[1]) << 4 | hexval(s[2]));
			s += 2;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
	check(!strcmp(dec, key), "filter escape does not decode back", data, len);
	free(dec);
	free(esc);
}

/* libldap's reading of "cn=VALUE", or NULL when it refuses it. */
static char *libldap_value(const char *in, size_t len)
{
	struct berval bv;
	LDAPDN dn = NULL;
	char *dnstr, *out = NULL;

	if (asprintf(&dnstr, "cn=%.*s", (int)len, in) < 0)
		return NULL;
	bv.bv_val = dnstr;
	bv.bv_len = strlen(dnstr);
	if (ldap_bv2dn(&bv, &dn, LDAP_DN_FORMAT_LDAPV3) == LDAP_SUCCESS && dn &&
	    dn[0] && dn[0][0] && !dn[0][1] && !dn[1] &&
	    !(dn[0][0]->la_flags & LDAP_AVA_BINARY))
		out = dn[0][0]->la_value.bv_val ?
		      strndup(dn[0][0]->la_value.bv_val, dn[0][0]->la_value.bv_len) :
		      strdup("");
	ldap_dnfree(dn);
	free(dnstr);
	return out;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	char *in = malloc(len + 1), *mine, *theirs, *first;

	if (!in)
		return 0;
	memcpy(in, data, len);
	in[len] = '\0';
	mine = ldap_dn_value_unescape(in, len);
	if (mine) {
		check(strlen(mine) <= len, "unescaped value grew", data, len);
		theirs = strlen(in) == len && !memchr(in, ',', len) &&
			 !memchr(in, '+', len) ? libldap_value(in, len) : NULL;
		/* libldap trims unescaped white space at the ends; compare the rest */
		if (theirs && len && !isspace((unsigned char)in[0]) &&
		    !isspace((unsigned char)in[len - 1]) &&
		    strcmp(mine, theirs)) {
			fprintf(stderr, "mine \"%s\", libldap \"%s\"\n", mine, theirs);
			check(0, "differs from libldap", data, len);
		}
		free(theirs);
		check_filter(mine, data, len);
	}
	if (strlen(in) == len) {
		first = ldap_dn_first_value(in, "cn");
		free(first);
		check_filter(in, data, len);
	}
	free(mine);
	free(in);
	return 0;
}

#ifndef AM_LIBFUZZER
static const char *const corpus[] = {
	"", "alice", "a\\,b\\+c", "\\2a", "\\2A\\28", "\\", "\\0", "\\00",
	"#04024869", "key\\20", "\\ lead", "a*)(uid=*", "\\5c\\5C", "x\\zz",
	"cn=a,ou=b", "cn=a+ou=b,dc=c", "ou=x\\,y,dc=z", "\\c3\\a9t\\c3\\a9",
	"\\\"quoted\\\"", "trail\\", "=", "cn=", "+,=", "\\e9", "a\\2",
};

static unsigned long rng = 0x9e3779b97f4a7c15UL;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

/* Replay the corpus, then ITER random mutations of it. */
int main(int argc, char **argv)
{
	static const char alphabet[] = "\\,+=#*() \"0123456789abcdefABCDEF\x01\xc3\xa9z";
	unsigned char buf[64];
	size_t n = sizeof(corpus) / sizeof(corpus[0]), len, i;
	long iter = argc > 1 ? atol(argv[1]) : 200000, k;

	for (i = 0; i < n; i++)
		LLVMFuzzerTestOneInput((const unsigned char *)corpus[i], strlen(corpus[i]));
	for (k = 0; k < iter; k++) {
		const char *seed = corpus[rnd((unsigned int)n)];

		len = strlen(seed);
		memcpy(buf, seed, len);
		for (i = rnd(6) + 1; i > 0 && len < sizeof(buf) - 1; i--) {
			size_t at = len ? rnd((unsigned int)len + 1) : 0;

			memmove(buf + at + 1, buf + at, len - at);
			buf[at] = (unsigned char)alphabet[rnd(sizeof(alphabet) - 1)];
			len++;
		}
		if (len && rnd(4) == 0)
			buf[rnd((unsigned int)len)] = (unsigned char)rnd(256);
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("ldap-text-fuzz: %zu corpus inputs and %ld mutations passed\n", n, iter);
	return 0;
}
#endif
