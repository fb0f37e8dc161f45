// SPDX-License-Identifier: GPL-2.0
/*
 * RPC NULL pings of NFS servers.
 *
 * The connection is made by hand (non-blocking connect bounded by the
 * timeout) and handed to libtirpc's clnt_vc_create(), so a silent server
 * costs exactly the timeout and no rpcbind round trip is needed: NFSv4
 * servers need not run rpcbind, and the NFS port is what a mount will use.
 *
 * libtirpc is opened here, the first time a ping is made, and not linked:
 * it brings seven Kerberos and resolver libraries along, and the agent,
 * a new process for every lookup, would load them all for every NFS mount
 * although only replicated locations are pinged.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rpc/rpc.h>

#include "nfs_ping.h"

#define NFS_PROGRAM_NUM	100003
#define NFS_TIRPC_SONAME	"libtirpc.so.3"

/* The two libtirpc functions a ping needs, once loaded. */
static struct {
	pthread_once_t once;
	CLIENT *(*vc_create)(int fd, const struct netbuf *addr, rpcprog_t prog,
			     rpcvers_t vers, u_int sendsz, u_int recvsz);
	xdrproc_t xdr_void;
} nfs_tirpc = { .once = PTHREAD_ONCE_INIT };

static void nfs_tirpc_open(void)
{
	void *h = dlopen(NFS_TIRPC_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)&nfs_tirpc.vc_create = dlsym(h, "clnt_vc_create");
	*(void **)&nfs_tirpc.xdr_void = dlsym(h, "xdr_void");
	if (!nfs_tirpc.vc_create || !nfs_tirpc.xdr_void) {
		nfs_tirpc.vc_create = NULL;
		dlclose(h);
	}
}

/* Returns: 0 once libtirpc is usable, or -ENOSYS. */
static int nfs_tirpc_load(void)
{
	pthread_once(&nfs_tirpc.once, nfs_tirpc_open);
	return nfs_tirpc.vc_create ? 0 : -ENOSYS;
}

static long nfs_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* Returns: a connected blocking socket, or -errno. */
static int nfs_ping_connect(const struct sockaddr *addr, socklen_t len,
			    long deadline_us)
{
	struct pollfd pfd;
	int fd, err = 0, ret;
	socklen_t elen = sizeof(err);
	long left;

	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, addr, len) < 0 && errno != EINPROGRESS) {
		ret = -errno;
		goto fail_close;
	}
	pfd.fd = fd;
	pfd.events = POLLOUT;
	left = deadline_us - nfs_now_us();
	ret = left > 0 ? poll(&pfd, 1, (left + 999) / 1000) : 0;
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

static int nfs_ping_status(enum clnt_stat st)
{
	switch (st) {
	case RPC_SUCCESS:
	case RPC_PROGVERSMISMATCH:	/* NFS is there, just not that version */
		return 0;
	case RPC_TIMEDOUT:
		return -ETIMEDOUT;
	case RPC_PROGUNAVAIL:
		return -EPROTONOSUPPORT;
	default:
		return -EIO;
	}
}

long nfs_ping_one(const struct sockaddr *addr, socklen_t len,
		  unsigned int vers, unsigned int timeout_ms)
{
	long start = nfs_now_us(), deadline = start + timeout_ms * 1000L, left;
	struct netbuf nb;
	struct timeval tv;
	CLIENT *cl;
	int fd, ret;

	ret = nfs_tirpc_load();
	if (ret)
		return ret;
	fd = nfs_ping_connect(addr, len, deadline);
	if (fd < 0)
		return fd;
	nb.maxlen = nb.len = len;
	nb.buf = (void *)addr;
	cl = nfs_tirpc.vc_create(fd, &nb, NFS_PROGRAM_NUM, vers, 0, 0);
	if (!cl) {
		ret = -ECONNREFUSED;
		goto out_close;
	}
	left = deadline - nfs_now_us();
	if (left < 1000)
		left = 1000;
	tv.tv_sec = left / 1000000;
	tv.tv_usec = left % 1000000;
	ret = nfs_ping_status(clnt_call(cl, NULLPROC, nfs_tirpc.xdr_void, NULL,
					nfs_tirpc.xdr_void, NULL, tv));
	clnt_destroy(cl);
out_close:
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
