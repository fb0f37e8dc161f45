// SPDX-License-Identifier: GPL-2.0
/*
 * mount_nfs.so: NFS mounts for the agent.
 *
 * The story of one request: parse the options; turn every location into
 * servers (one per address); an export on this host becomes a bind mount;
 * the other servers are ranked by weight, then by how fast their NFS
 * service answers an RPC NULL call, the silent ones dropped; on each server
 * in turn try NFS versions 4.2, 4.1, 4.0, 3 (or just the one asked for)
 * until one mounts.
 *
 * All of this runs in a child process, and the agent's side only waits for
 * the child's answer (a mount fd over a socket) until mount_timeout: a
 * kernel NFS mount waiting on a silent server can only be interrupted by a
 * fatal signal, and killing the child guarantees the bound.  A killed
 * attempt leaves nothing behind: the mount is detached until the agent
 * attaches the fd, and the fs_context dies with the child.
 *
 * Configuration, section [nfs] of autofs-agent.conf (all optional):
 *   vers = 4.2          the version to use when a map gives none (default:
 *                       negotiate 4.2, 4.1, 4.0, 3; fstype nfs4: 4.x only)
 *   bind_local = yes    an export of this host (an address of this host and
 *                       a path that exists here) becomes a bind mount; the
 *                       map options nobind and port= keep NFS
 *   ping_timeout_ms = 2000   how long to wait for replicated servers' NULL
 *                       replies; a server silent that long is dropped
 *   hosts_list = h1 h2  the hosts -hosts lists for browsing (map_hosts.so)
 *   hosts_timeout_ms = 5000  the -hosts map's EXPORT call bound
 * The whole attempt is bounded by [general] mount_timeout (mr_timeout_ms).
 * Replica weights: host(w), lower is preferred, 0 when not given.
 */
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "am_bindclone.h"
#include "am_module.h"
#include "nfs_addr.h"
#include "nfs_fs.h"
#include "nfs_opts.h"
#include "nfs_ping.h"

#define NFS_DEFAULT_TIMEOUT_MS	30000
#define NFS_DEFAULT_PING_MS	2000
#define NFS_PORT		2049

/* Everything one request needs, passed down the steps of the story. */
struct nfs_req {
	const struct am_mount_req *nr_req;
	struct nfs_opts nr_opts;
	long nr_start_ms;
	long nr_deadline_ms;
	char nr_err[1024];		/* the last failure, for the final line */
};

static long nfs_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static void nfs_log(const struct am_mount_req *req, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void nfs_log(const struct am_mount_req *req, int prio, const char *fmt, ...)
{
	const struct am_host *h = req->mr_host;
	char line[1536];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (h && h->ah_log)
		h->ah_log(h->ah_ctx, prio, "nfs: %s", line);
	else
		fprintf(stderr, "nfs: %s\n", line);
}

static const char *nfs_conf(const struct am_mount_req *req, const char *key)
{
	const struct am_host *h = req->mr_host;

	if (!h || !h->ah_conf_get)
		return NULL;
	return h->ah_conf_get(h->ah_ctx, "nfs", key);
}

static bool nfs_conf_bool(const struct am_mount_req *req, const char *key,
			  bool def)
{
	const char *v = nfs_conf(req, key);

	if (!v || !*v)
		return def;
	return !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1");
}

static unsigned int nfs_conf_uint(const struct am_mount_req *req,
				  const char *key, unsigned int def)
{
	const char *v = nfs_conf(req, key);
	char *end;
	unsigned long n;

	if (!v || !*v)
		return def;
	n = strtoul(v, &end, 10);
	return *end ? def : (unsigned int)n;
}

static long nfs_left_ms(const struct nfs_req *r)
{
	long left = r->nr_deadline_ms - nfs_now_ms();

	return left > 0 ? left : 0;
}

/* The versions to try, most capable first. */
static size_t nfs_versions(const struct nfs_req *r, const char **vers)
{
	static const char *const all[] = { "4.2", "4.1", "4.0", "3" };
	const char *def = nfs_conf(r->nr_req, "vers");
	size_t n = 4;

	if (r->nr_opts.no_vers) {
		vers[0] = r->nr_opts.no_vers;
		return 1;
	}
	if (def && *def) {
		vers[0] = def;
		return 1;
	}
	if (r->nr_req->mr_fstype && !strcmp(r->nr_req->mr_fstype, "nfs4"))
		n = 3;
	memcpy(vers, all, n * sizeof(*vers));
	return n;
}

/* Errors after which a lower version may still work on the same server. */
static bool nfs_version_fallback(int err)
{
	switch (err) {
	case -EPROTONOSUPPORT:
	case -EPROTO:
	case -EOPNOTSUPP:
	case -ENOENT:		/* export outside the server's NFSv4 pseudo root */
	case -EACCES:
	case -EPERM:
	case -EINVAL:
		return true;
	default:
		return false;
	}
}

static int nfs_server_mount(struct nfs_req *r, const struct nfs_server *s,
			    bool *refused)
{
	const char *vers[4];
	struct nfs_fs_args a = {
		.fa_source = s->ns_source,
		.fa_addr = s->ns_addr,
		.fa_opts = &r->nr_opts,
	};
	size_t i, n = nfs_versions(r, vers);
	int fd = -EINVAL;

	for (i = 0; i < n; i++) {
		a.fa_vers = vers[i];
		fd = nfs_fs_mount(&a, r->nr_err, sizeof(r->nr_err), refused);
		if (fd >= 0) {
			nfs_log(r->nr_req, LOG_INFO,
				"mounted %s (addr %s) with vers=%s in %ld ms",
				s->ns_source, s->ns_addr, vers[i],
				nfs_now_ms() - r->nr_start_ms);
			return fd;
		}
		if (*refused)
			return fd;
		if (n > 1)
			nfs_log(r->nr_req, LOG_DEBUG, "%s vers=%s: %s",
				s->ns_source, vers[i], r->nr_err);
		if (!nfs_version_fallback(fd))
			break;
	}
	return fd;
}

static int nfs_local_mount(struct nfs_req *r, const struct nfs_server *s)
{
	int fd;

	fd = am_bind_clone(s->ns_loc->al_path, false, r->nr_opts.no_attr,
			   am_mount_req_propagation(r->nr_req), r->nr_err, sizeof(r->nr_err));
	if (fd >= 0)
		nfs_log(r->nr_req, LOG_INFO,
			"%s is on this host: bind mount of %s in %ld ms",
			s->ns_source, s->ns_loc->al_path,
			nfs_now_ms() - r->nr_start_ms);
	return fd;
}

/* May server S be replaced by a bind mount of its path on this host? */
static bool nfs_use_local(const struct nfs_req *r, const struct nfs_server *s)
{
	struct stat st;

	if (s->ns_hostless)
		return true;
	if (!s->ns_local || r->nr_opts.no_nobind || r->nr_opts.no_port)
		return false;
	if (!nfs_conf_bool(r->nr_req, "bind_local", true))
		return false;
	return stat(s->ns_loc->al_path, &st) == 0;
}

/* Rank remote servers: weight, then ping time; drop the silent ones. */
static size_t nfs_rank(struct nfs_req *r, struct nfs_server *s, size_t n)
{
	unsigned int ping_ms = nfs_conf_uint(r->nr_req, "ping_timeout_ms",
					     NFS_DEFAULT_PING_MS);
	struct nfs_ping *p;
	size_t i, live = 0;
	long left = nfs_left_ms(r);

	if (n < 2)
		return n;
	p = calloc(n, sizeof(*p));
	if (!p)
		return n;
	if (ping_ms > left)
		ping_ms = left;
	for (i = 0; i < n; i++) {
		p[i].np_addr = s[i].ns_sa;
		p[i].np_addrlen = s[i].ns_salen;
		p[i].np_weight = s[i].ns_weight;
		p[i].np_vers = nfs_vers_is_v4(r->nr_opts.no_vers) ||
			!r->nr_opts.no_vers ? 4 : 3;
	}
	nfs_ping_all(p, n, ping_ms);
	for (i = 0; i < n; i++) {
		s[i].ns_rtt_us = p[i].np_rtt_us;
		if (p[i].np_err == -EINPROGRESS)
			s[i].ns_rtt_us = LONG_MAX;	/* outranked, kept as last resort */
		else if (p[i].np_rtt_us < 0)
			nfs_log(r->nr_req, LOG_NOTICE,
				"%s (addr %s) does not answer: %s; dropped",
				s[i].ns_source, s[i].ns_addr,
				strerror(-p[i].np_err));
	}
	free(p);
	live = nfs_servers_sort(s, n);
	return live;
}

static int nfs_try_local(struct nfs_req *r, struct nfs_server *s, size_t n)
{
	size_t i;
	int fd;

	for (i = 0; i < n; i++) {
		if (!nfs_use_local(r, &s[i]))
			continue;
		fd = nfs_local_mount(r, &s[i]);
		if (fd >= 0)
			return fd;
	}
	return -ENOENT;
}

/* The whole attempt, in the child.  Returns: fd or -errno; r->nr_err says why. */
static int nfs_attempt(struct nfs_req *r)
{
	const struct am_mount_req *req = r->nr_req;
	struct nfs_server *s;
	size_t n, i;
	int fd, ret;

	ret = nfs_servers_build(req->mr_locs, req->mr_nlocs, r->nr_opts.no_addr,
				r->nr_opts.no_port ? atoi(r->nr_opts.no_port) : NFS_PORT,
				&s, &n, r->nr_err, sizeof(r->nr_err));
	if (ret)
		return ret;
	fd = nfs_try_local(r, s, n);
	if (fd >= 0)
		goto out;
	n = nfs_servers_drop_hostless(s, n);
	n = nfs_rank(r, s, n);
	if (!n)
		snprintf(r->nr_err, sizeof(r->nr_err), "no server answers");
	fd = n ? -EHOSTUNREACH : -EHOSTDOWN;
	for (i = 0; i < n; i++) {
		bool refused = false;

		fd = nfs_server_mount(r, &s[i], &refused);
		if (fd >= 0 || refused)
			break;
		nfs_log(req, LOG_NOTICE, "%s (addr %s): %s", s[i].ns_source,
			s[i].ns_addr, r->nr_err);
	}
out:
	free(s);
	return fd;
}

/* Child -> parent: the result and, on success, the mount fd. */
struct nfs_reply {
	int nr_ret;
	char nr_msg[1024];
};

static void nfs_child(struct nfs_req *r, int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct nfs_reply rep = { 0 };
	struct iovec iov = { &rep, sizeof(rep) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	rep.nr_ret = nfs_attempt(r);
	snprintf(rep.nr_msg, sizeof(rep.nr_msg), "%s", r->nr_err);
	if (rep.nr_ret >= 0) {
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &rep.nr_ret, sizeof(int));
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
		_exit(1);
	_exit(0);
}

/* Returns: the fd the child sent, -errno it reported, or -ETIMEDOUT. */
static int nfs_parent(struct nfs_req *r, int sock, pid_t pid)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct nfs_reply rep = { .nr_ret = -EIO };
	struct iovec iov = { &rep, sizeof(rep) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	struct cmsghdr *cm;
	int ret, fd = -1;

	do
		ret = poll(&pfd, 1, nfs_left_ms(r));
	while (ret < 0 && errno == EINTR);
	if (ret == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		snprintf(r->nr_err, sizeof(r->nr_err),
			 "no answer within mount_timeout (%u ms), attempt killed, nothing mounted",
			 r->nr_req->mr_timeout_ms ? r->nr_req->mr_timeout_ms :
			 NFS_DEFAULT_TIMEOUT_MS);
		return -ETIMEDOUT;
	}
	if (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC) < (ssize_t)sizeof(rep))
		rep.nr_ret = -EIO;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	waitpid(pid, NULL, 0);
	snprintf(r->nr_err, sizeof(r->nr_err), "%s", rep.nr_msg);
	if (rep.nr_ret >= 0 && fd < 0)
		return -EIO;
	if (rep.nr_ret < 0 && fd >= 0)
		close(fd);
	return rep.nr_ret >= 0 ? fd : rep.nr_ret;
}

static int nfs_bounded(struct nfs_req *r)
{
	int sv[2], ret;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out_close;
	}
	if (pid == 0) {
		close(sv[0]);
		nfs_child(r, sv[1]);
	}
	close(sv[1]);
	sv[1] = -1;
	ret = nfs_parent(r, sv[0], pid);
out_close:
	close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	return ret;
}

static void nfs_describe(const struct am_mount_req *req, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < req->mr_nlocs && used < len; i++) {
		const struct am_location *l = &req->mr_locs[i];

		used += snprintf(buf + used, len - used, "%s%s%s%s", i ? " " : "",
				 l->al_host ? l->al_host : "",
				 l->al_host ? ":" : "", l->al_path);
	}
}

static int nfs_mount(const struct am_mount_req *req)
{
	unsigned int timeout = req->mr_timeout_ms ? req->mr_timeout_ms :
			       NFS_DEFAULT_TIMEOUT_MS;
	struct nfs_req r = { .nr_req = req };
	char what[512];
	int ret;

	nfs_describe(req, what, sizeof(what));
	if (!req->mr_nlocs) {
		nfs_log(req, LOG_ERR, "mount failed: no location given");
		return -EINVAL;
	}
	ret = nfs_opts_parse(&r.nr_opts, req->mr_options, r.nr_err,
			     sizeof(r.nr_err));
	if (ret) {
		nfs_log(req, LOG_ERR, "mount of %s failed: %s", what, r.nr_err);
		return ret;
	}
	r.nr_start_ms = nfs_now_ms();
	r.nr_deadline_ms = r.nr_start_ms + timeout;
	ret = nfs_servers_ready(req->mr_locs, req->mr_nlocs, r.nr_opts.no_addr);
	if (ret)
		snprintf(r.nr_err, sizeof(r.nr_err), "the dynamic agent was needed and not run");
	else
		ret = nfs_bounded(&r);
	if (ret < 0)
		nfs_log(req, LOG_ERR, "mount of %s failed after %ld ms: %s", what,
			nfs_now_ms() - r.nr_start_ms, r.nr_err);
	nfs_opts_free(&r.nr_opts);
	return ret;
}

static const char *const nfs_fstypes[] = { "nfs", "nfs4", NULL };

AM_MOUNT_MODULE(nfs) = {
	.abi = AM_MOUNT_ABI,
	.size = sizeof(struct am_mount_ops),
	.name = "nfs",
	.fstypes = nfs_fstypes,
	.mount = nfs_mount,
};
