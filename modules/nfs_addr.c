// SPDX-License-Identifier: GPL-2.0
/*
 * Name resolution and server ordering for the NFS module.  The kernel's
 * NFS client wants a numeric addr=; mount.nfs used to resolve names, the
 * module does it here with getaddrinfo(), IPv4 and IPv6 alike.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "am_dynamic.h"
#include "nfs_addr.h"

static bool nfs_sa_equal(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

bool nfs_addr_is_local(const struct sockaddr *sa)
{
	struct ifaddrs *ifa, *i;
	bool local = false;

	if (sa->sa_family == AF_INET &&
	    (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127)
		return true;
	if (sa->sa_family == AF_INET6 &&
	    IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr))
		return true;
	if (getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i && !local; i = i->ifa_next)
		local = i->ifa_addr && nfs_sa_equal(i->ifa_addr, sa);
	freeifaddrs(ifa);
	return local;
}

/* "[fe80::1]" as written in maps: the bare address. */
static void nfs_host_bare(const char *host, char *buf, size_t len)
{
	size_t n = strlen(host);

	if (host[0] == '[' && n > 2 && host[n - 1] == ']')
		snprintf(buf, len, "%.*s", (int)(n - 2), host + 1);
	else
		snprintf(buf, len, "%s", host);
}

static void nfs_set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static int nfs_server_add(struct nfs_server **sp, size_t *n,
			  const struct am_location *loc, const char *bare,
			  const struct sockaddr *sa, socklen_t salen, int port)
{
	struct nfs_server *s;
	size_t i;

	for (i = 0; sa && i < *n; i++)
		if ((*sp)[i].ns_loc == loc &&
		    nfs_sa_equal((struct sockaddr *)&(*sp)[i].ns_sa, sa))
			return 0;
	s = realloc(*sp, (*n + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	*sp = s;
	s += *n;
	memset(s, 0, sizeof(*s));
	s->ns_loc = loc;
	s->ns_weight = loc->al_weight;
	s->ns_order = *n;
	(*n)++;
	if (!sa) {
		s->ns_hostless = s->ns_local = true;
		snprintf(s->ns_source, sizeof(s->ns_source), "%s", loc->al_path);
		return 0;
	}
	memcpy(&s->ns_sa, sa, salen);
	s->ns_salen = salen;
	nfs_set_port(&s->ns_sa, port);
	getnameinfo(sa, salen, s->ns_addr, sizeof(s->ns_addr), NULL, 0,
		    NI_NUMERICHOST);
	snprintf(s->ns_source, sizeof(s->ns_source), strchr(bare, ':') ?
		 "[%s]:%s" : "%s:%s", bare, loc->al_path);
	s->ns_local = nfs_addr_is_local(sa);
	return 0;
}

static int nfs_resolve_one(const struct am_location *loc, const char *addr,
			   int port, struct nfs_server **sp, size_t *n,
			   char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	char bare[256];
	int ret;

	if (!loc->al_host)
		return nfs_server_add(sp, n, loc, NULL, NULL, 0, port);
	nfs_host_bare(loc->al_host, bare, sizeof(bare));
	if (addr)
		hints.ai_flags = AI_NUMERICHOST;
	ret = getaddrinfo(addr ? addr : bare, NULL, &hints, &res);
	if (ret) {
		size_t used = strlen(err);

		snprintf(err + used, errlen - used, "%scannot resolve %s: %s",
			 used ? "; " : "", addr ? addr : bare,
			 ret == EAI_SYSTEM ? strerror(errno) : gai_strerror(ret));
		return 0;
	}
	for (ai = res, ret = 0; ai && !ret; ai = ai->ai_next)
		if (ai->ai_family == AF_INET || ai->ai_family == AF_INET6)
			ret = nfs_server_add(sp, n, loc, bare, ai->ai_addr,
					     ai->ai_addrlen, port);
	freeaddrinfo(res);
	return ret;
}

/* Whether HOST ("[fe80::1]" as maps write it) is an address, not a name. */
static bool nfs_host_numeric(const char *host)
{
	unsigned char a[sizeof(struct in6_addr)];
	char bare[256];

	nfs_host_bare(host, bare, sizeof(bare));
	return inet_pton(AF_INET, bare, a) == 1 || inet_pton(AF_INET6, bare, a) == 1;
}

int nfs_servers_ready(const struct am_location *locs, size_t nlocs, const char *addr)
{
	size_t i;

	for (i = 0; i < nlocs && !addr; i++)
		if (locs[i].al_host && !nfs_host_numeric(locs[i].al_host))
			return am_dynamic_nss("hosts");
	return 0;
}

int nfs_servers_build(const struct am_location *locs, size_t nlocs,
		      const char *addr, int port, struct nfs_server **servers,
		      size_t *n, char *err, size_t errlen)
{
	size_t i;
	int ret = 0;

	*servers = NULL;
	*n = 0;
	err[0] = '\0';
	for (i = 0; i < nlocs && !ret; i++)
		ret = nfs_resolve_one(&locs[i], addr, port, servers, n, err, errlen);
	if (!ret && !*n)
		ret = -EHOSTUNREACH;
	if (ret) {
		free(*servers);
		*servers = NULL;
		*n = 0;
	}
	return ret;
}

size_t nfs_servers_drop_hostless(struct nfs_server *s, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n; i++)
		if (!s[i].ns_hostless)
			s[j++] = s[i];
	return j;
}

static int nfs_server_cmp(const void *pa, const void *pb)
{
	const struct nfs_server *a = pa, *b = pb;
	bool adead = a->ns_rtt_us < 0, bdead = b->ns_rtt_us < 0;

	if (adead != bdead)
		return adead ? 1 : -1;
	if (a->ns_weight != b->ns_weight)
		return a->ns_weight < b->ns_weight ? -1 : 1;
	if (a->ns_rtt_us != b->ns_rtt_us)
		return a->ns_rtt_us < b->ns_rtt_us ? -1 : 1;
	return a->ns_order < b->ns_order ? -1 : a->ns_order > b->ns_order;
}

size_t nfs_servers_sort(struct nfs_server *s, size_t n)
{
	size_t live = 0, i;

	qsort(s, n, sizeof(*s), nfs_server_cmp);
	for (i = 0; i < n; i++)
		live += s[i].ns_rtt_us >= 0;
	return live;
}
