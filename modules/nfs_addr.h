/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From map locations to NFS servers: names resolved to addresses (one
 * server per address), local addresses recognised, servers ranked.
 */
#ifndef NFS_ADDR_H
#define NFS_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "am_module.h"

struct nfs_server {
	const struct am_location *ns_loc;
	char ns_source[1024];		/* "host:/path" for the kernel */
	char ns_addr[INET6_ADDRSTRLEN];	/* numeric, for addr= */
	struct sockaddr_storage ns_sa;	/* with the NFS port */
	socklen_t ns_salen;
	bool ns_hostless;		/* a plain local path, no server */
	bool ns_local;			/* the address is one of this host's */
	unsigned int ns_weight;
	unsigned int ns_order;		/* position in the map entry */
	long ns_rtt_us;			/* RPC NULL reply time, -1: silent */
};

/*
 * Whether resolving LOCS needs a shared object (a host name an NSS service
 * may resolve), asked in the agent itself before the attempt's child is
 * forked: the static agent hands the run over here (am_dynamic.h), which a
 * child could not.  Returns: 0, or -errno when the need cannot be met.
 */
int nfs_servers_ready(const struct am_location *locs, size_t nlocs, const char *addr);

/*
 * Resolve LOCS into an array of servers (*SERVERS, free() it).  ADDR, when
 * not NULL, is the map's addr= and replaces resolution.  Names that do not
 * resolve are left out with a line in ERR; none left is an error.
 * Returns: 0, -EHOSTUNREACH (nothing resolved), -ENOMEM.
 */
int nfs_servers_build(const struct am_location *locs, size_t nlocs,
		      const char *addr, int port, struct nfs_server **servers,
		      size_t *n, char *err, size_t errlen);

/* Remove the plain local paths.  Returns: the new count. */
size_t nfs_servers_drop_hostless(struct nfs_server *s, size_t n);

/*
 * Sort by weight (lower first), then reply time, then map order; silent
 * servers (ns_rtt_us < 0) go last.  Returns: the number of live servers.
 */
size_t nfs_servers_sort(struct nfs_server *s, size_t n);

/* Returns: true when SA is a loopback address or one of this host's. */
bool nfs_addr_is_local(const struct sockaddr *sa);

#endif /* NFS_ADDR_H */
