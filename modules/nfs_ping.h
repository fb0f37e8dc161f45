/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC NULL calls to NFS servers through libtirpc: is the NFS service of a
 * server alive, and how fast does it answer.
 */
#ifndef NFS_PING_H
#define NFS_PING_H

#include <stdbool.h>
#include <sys/socket.h>

struct nfs_ping {
	struct sockaddr_storage np_addr;	/* with the NFS port set */
	socklen_t np_addrlen;
	unsigned int np_weight;		/* lower is preferred */
	unsigned int np_vers;		/* NFS program version to call */
	long np_rtt_us;			/* out: reply time, -1 when dead */
	int np_err;			/* out: -errno when dead, -EINPROGRESS
					 * when not waited for (outranked) */
};

/*
 * Ping every server of PINGS at once, for at most TIMEOUT_MS.  Stops
 * waiting as soon as no server still pending could outrank one that has
 * answered (same or worse weight than the best answer), so one silent
 * server among live ones costs no time.  Servers not answered are dead.
 * Returns: the number of live servers, or -errno.
 */
int nfs_ping_all(struct nfs_ping *pings, unsigned int n,
		 unsigned int timeout_ms);

/* One synchronous ping.  Returns: reply time in µs, or -errno. */
long nfs_ping_one(const struct sockaddr *addr, socklen_t len,
		  unsigned int vers, unsigned int timeout_ms);

#endif /* NFS_PING_H */
