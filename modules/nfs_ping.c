// SPDX-License-Identifier: GPL-2.0
/*
 * RPC NULL pings of NFS servers.
 *
 * The connection is made by hand (non-blocking connect bounded by the
 * timeout), so a silent server costs exactly the timeout and no rpcbind
 * round trip is needed: NFSv4 servers need not run rpcbind, and the NFS
 * port is what a mount will use.  The call itself is the eleven words of
 * RFC 5531 (a record mark, then CALL of procedure 0 with AUTH_NONE), and
 * the reply is read as far as its accept status: no RPC library is loaded,
 * so the static agent pings as the dynamic one does (am_dynamic.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "nfs_ping.h"

#define NFS_PROGRAM_NUM	100003
#define RPC_LAST_FRAGMENT	0x80000000u
#define RPC_CALL	0
#define RPC_REPLY	1
#define RPC_MSG_ACCEPTED	0
#define RPC_ACCEPT_SUCCESS	0
#define RPC_ACCEPT_PROG_UNAVAIL	1
#define RPC_ACCEPT_PROG_MISMATCH	2
/*
 * A reply's record: xid, type, stat, verifier (flavor, length, a body of
 * at most 400 bytes, padded), accept stat, and for a version mismatch the
 * lowest and highest versions.
 */
#define RPC_AUTH_MAX	400
#define RPC_REPLY_MAX	(6 * 4 + RPC_AUTH_MAX + 2 * 4)

static long nfs_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* poll(2) until DEADLINE_US, again after a signal.  Returns: poll's, 0 at the deadline. */
static int nfs_poll_until(struct pollfd *pfd, long deadline_us)
{
	long left;
	int ret;

	do {
		left = deadline_us - nfs_now_us();
		if (left <= 0)
			return 0;
		left = (left + 999) / 1000;
		ret = poll(pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
	} while (ret < 0 && errno == EINTR);
	return ret;
}

/* Returns: a connected blocking socket, or -errno. */
static int nfs_ping_connect(const struct sockaddr *addr, socklen_t len,
			    long deadline_us)
{
	struct pollfd pfd;
	int fd, err = 0, ret;
	socklen_t elen = sizeof(err);

	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, addr, len) < 0 && errno != EINPROGRESS) {
		ret = -errno;
		goto fail_close;
	}
	pfd.fd = fd;
	pfd.events = POLLOUT;
	ret = nfs_poll_until(&pfd, deadline_us);
	if (ret <= 0) {
		ret = ret < 0 ? -errno : -ETIMEDOUT;
		goto fail_close;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0 || err) {
		ret = err ? -err : -errno;
		goto fail_close;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		ret = -errno;
		goto fail_close;
	}
	return fd;

fail_close:
	close(fd);
	return ret;
}

/* Send the call of NULLPROC of NFS version VERS.  Returns: 0, -errno. */
static int nfs_ping_send(int fd, uint32_t xid, unsigned int vers)
{
	const uint32_t w[] = { RPC_LAST_FRAGMENT | 40, xid, RPC_CALL, 2, NFS_PROGRAM_NUM,
			       vers, 0, 0, 0, 0, 0 };
	uint32_t msg[sizeof(w) / sizeof(w[0])];
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		msg[i] = htonl(w[i]);
	return send(fd, msg, sizeof(msg), MSG_NOSIGNAL) == (ssize_t)sizeof(msg) ? 0 : -EIO;
}

/* Read LEN bytes by DEADLINE_US.  Returns: 0, -ETIMEDOUT, -EIO. */
static int nfs_ping_read(int fd, void *buf, size_t len, long deadline_us)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (nfs_poll_until(&pfd, deadline_us) <= 0)
			return -ETIMEDOUT;
		n = recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return -EIO;
		got += (size_t)n;
	}
	return 0;
}

/*
 * The reply to XID: NFS answers (any version: a version mismatch still
 * means NFS is there), or why not.  Returns: 0, -EPROTONOSUPPORT (no NFS
 * program there), -ETIMEDOUT, -EIO.
 */
static int nfs_ping_reply(int fd, uint32_t xid, long deadline_us)
{
	uint32_t w[RPC_REPLY_MAX / 4], mark, len, verf, stat;
	int ret = nfs_ping_read(fd, &mark, sizeof(mark), deadline_us);

	len = ntohl(mark) & ~RPC_LAST_FRAGMENT;
	if (!ret && (len < 24 || len > sizeof(w) || len % 4))
		ret = -EIO;
	if (!ret)
		ret = nfs_ping_read(fd, w, len, deadline_us);
	if (ret)
		return ret;
	verf = ntohl(w[4]);
	if (verf > RPC_AUTH_MAX)
		return -EIO;
	verf = (verf + 3) & ~3u;	/* XDR pads the body to 4 bytes */
	if (ntohl(w[0]) != xid || ntohl(w[1]) != RPC_REPLY || ntohl(w[2]) != RPC_MSG_ACCEPTED ||
	    verf > len - 24)
		return -EIO;
	stat = ntohl(w[5 + verf / 4]);
	if (stat == RPC_ACCEPT_PROG_MISMATCH && len < 24 + verf + 8)
		return -EIO;	/* without its two versions, as clnt_call decodes it */
	switch (stat) {
	case RPC_ACCEPT_SUCCESS:
	case RPC_ACCEPT_PROG_MISMATCH:
		return 0;
	case RPC_ACCEPT_PROG_UNAVAIL:
		return -EPROTONOSUPPORT;
	default:
		return -EIO;
	}
}

long nfs_ping_one(const struct sockaddr *addr, socklen_t len,
		  unsigned int vers, unsigned int timeout_ms)
{
	long start = nfs_now_us(), deadline = start + timeout_ms * 1000L;
	uint32_t xid = (uint32_t)start ^ (uint32_t)(uintptr_t)&start;
	int fd, ret;

	fd = nfs_ping_connect(addr, len, deadline);
	if (fd < 0)
		return fd;
	ret = nfs_ping_send(fd, xid, vers);
	if (!ret)
		ret = nfs_ping_reply(fd, xid, deadline);
	close(fd);
	return ret ? ret : nfs_now_us() - start;
}

/*
 * State shared by the caller and its ping threads.  Threads still running
 * when the caller stops waiting keep it alive: the last one out frees it.
 */
struct nfs_ping_round {
	pthread_mutex_t pr_lock;
	pthread_cond_t pr_cond;
	unsigned int pr_refs;		/* caller + running threads, pr_lock */
	unsigned int pr_n;
	unsigned int pr_timeout_ms;
	struct nfs_ping *pr_pings;	/* own copy; results under pr_lock */
	bool *pr_done;			/* under pr_lock */
};

struct nfs_ping_job {
	struct nfs_ping_round *pj_round;
	unsigned int pj_idx;
};

static void nfs_round_put(struct nfs_ping_round *r)
{
	bool last = --r->pr_refs == 0;

	pthread_mutex_unlock(&r->pr_lock);
	if (!last)
		return;
	pthread_cond_destroy(&r->pr_cond);
	pthread_mutex_destroy(&r->pr_lock);
	free(r->pr_pings);
	free(r->pr_done);
	free(r);
}

static void *nfs_ping_thread(void *arg)
{
	struct nfs_ping_job *job = arg;
	struct nfs_ping_round *r = job->pj_round;
	struct nfs_ping *p = &r->pr_pings[job->pj_idx];
	long rtt;

	rtt = nfs_ping_one((struct sockaddr *)&p->np_addr, p->np_addrlen,
			   p->np_vers, r->pr_timeout_ms);
	pthread_mutex_lock(&r->pr_lock);
	p->np_rtt_us = rtt >= 0 ? rtt : -1;
	p->np_err = rtt >= 0 ? 0 : (int)rtt;
	r->pr_done[job->pj_idx] = true;
	pthread_cond_signal(&r->pr_cond);
	free(job);
	nfs_round_put(r);
	return NULL;
}

/* Called under pr_lock: may the caller stop waiting? */
static bool nfs_round_decided(const struct nfs_ping_round *r)
{
	unsigned int i, best = ~0U;
	bool pending = false;

	for (i = 0; i < r->pr_n; i++)
		if (r->pr_done[i] && r->pr_pings[i].np_rtt_us >= 0 &&
		    r->pr_pings[i].np_weight < best)
			best = r->pr_pings[i].np_weight;
	for (i = 0; i < r->pr_n; i++) {
		if (r->pr_done[i])
			continue;
		pending = true;
		if (r->pr_pings[i].np_weight < best)
			return false;
	}
	return !pending || best != ~0U;
}

static struct nfs_ping_round *nfs_round_new(const struct nfs_ping *pings,
					    unsigned int n,
					    unsigned int timeout_ms)
{
	struct nfs_ping_round *r = calloc(1, sizeof(*r));
	pthread_condattr_t ca;

	if (!r)
		return NULL;
	r->pr_pings = malloc(n * sizeof(*pings));
	r->pr_done = calloc(n, sizeof(bool));
	if (!r->pr_pings || !r->pr_done) {
		free(r->pr_pings);
		free(r->pr_done);
		free(r);
		return NULL;
	}
	memcpy(r->pr_pings, pings, n * sizeof(*pings));
	r->pr_n = n;
	r->pr_timeout_ms = timeout_ms;
	r->pr_refs = 1;
	pthread_mutex_init(&r->pr_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->pr_cond, &ca);
	pthread_condattr_destroy(&ca);
	return r;
}

static void nfs_round_start(struct nfs_ping_round *r)
{
	struct nfs_ping_job *job;
	pthread_attr_t at;
	pthread_t tid;
	unsigned int i;

	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	for (i = 0; i < r->pr_n; i++) {
		job = malloc(sizeof(*job));
		if (job) {
			job->pj_round = r;
			job->pj_idx = i;
			r->pr_refs++;
			if (!pthread_create(&tid, &at, nfs_ping_thread, job))
				continue;
			r->pr_refs--;
			free(job);
		}
		r->pr_pings[i].np_rtt_us = -1;
		r->pr_pings[i].np_err = -EAGAIN;
		r->pr_done[i] = true;
	}
	pthread_attr_destroy(&at);
}

int nfs_ping_all(struct nfs_ping *pings, unsigned int n,
		 unsigned int timeout_ms)
{
	struct nfs_ping_round *r;
	struct timespec until;
	unsigned int i;
	int live = 0, waited = 0;

	r = nfs_round_new(pings, n, timeout_ms);
	if (!r)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->pr_lock);
	nfs_round_start(r);
	while (!nfs_round_decided(r))
		if ((waited = pthread_cond_timedwait(&r->pr_cond, &r->pr_lock,
						     &until)) == ETIMEDOUT)
			break;
	for (i = 0; i < n; i++) {
		pings[i].np_rtt_us = r->pr_done[i] ? r->pr_pings[i].np_rtt_us : -1;
		pings[i].np_err = r->pr_done[i] ? r->pr_pings[i].np_err :
			waited == ETIMEDOUT ? -ETIMEDOUT : -EINPROGRESS;
		live += pings[i].np_rtt_us >= 0;
	}
	nfs_round_put(r);
	return live;
}
