// SPDX-License-Identifier: GPL-2.0
/*
 * Which strings may stand where a sun-format location names a host: an RFC
 * 1123 name, an IPv4 address, or a bracketed IPv6 address.  Anything else
 * could carry the location's own syntax (',' between replicas, "(w)" for a
 * weight, ':' before the path) in from a key or a server's answer.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <string.h>

#include "am_sun.h"

#define HOST_MAX	253
#define LABEL_MAX	63

static const char *host_label_invalid(const char *l, size_t n)
{
	size_t i;

	if (!n)
		return "empty label";
	if (n > LABEL_MAX)
		return "label longer than 63 bytes";
	if (l[0] == '-' || l[n - 1] == '-')
		return "label starts or ends with '-'";
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)l[i]) && l[i] != '-')
			return "only letters, digits, '-' and '.' are allowed";
	return NULL;
}

/* "[addr]": an IPv6 literal in brackets. */
static const char *host_ipv6_invalid(const char *name)
{
	char addr[INET6_ADDRSTRLEN + 1];
	struct in6_addr a6;
	size_t n = strlen(name);

	if (n < 3 || n - 2 > INET6_ADDRSTRLEN || name[n - 1] != ']')
		return "not a bracketed IPv6 address";
	memcpy(addr, name + 1, n - 2);
	addr[n - 2] = '\0';
	return inet_pton(AF_INET6, addr, &a6) == 1 ? NULL :
	       "not a bracketed IPv6 address";
}

const char *am_host_invalid(const char *name)
{
	const char *p = name, *dot;
	const char *why;
	size_t n;

	if (name[0] == '[')
		return host_ipv6_invalid(name);
	n = strlen(name);
	if (!n)
		return "empty host name";
	if (n > HOST_MAX)
		return "host name longer than 253 bytes";
	/* a trailing dot is the absolute form of a DNS name */
	if (name[n - 1] == '.')
		n--;
	/* dotted quads pass as labels of digits; inet_aton's other forms do not */
	for (;;) {
		dot = memchr(p, '.', n - (size_t)(p - name));
		why = host_label_invalid(p, dot ? (size_t)(dot - p) : n - (size_t)(p - name));
		if (why || !dot)
			return why;
		p = dot + 1;
	}
}
