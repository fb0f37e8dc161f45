// SPDX-License-Identifier: GPL-2.0
/*
 * map_sss.so: automount maps served by SSSD (FreeIPA, Active Directory,
 * LDAP with caching), through SSSD's own client library libsss_autofs.so.
 * The library is opened at run time, so the agent builds and runs without
 * SSSD; a host without it has the source unavailable (-EAGAIN).
 *
 * The library waits up to 300 s for an answer on its socket, and a stopped
 * sssd_autofs never answers.  So every call runs in a child process that
 * streams its answers back over a pipe; the parent waits [sss] timeout
 * seconds for each answer, then kills the child and treats SSSD as
 * unavailable for the rest of this run.  No thread is left behind: the
 * agent must be single-threaded to join the requester's mount namespace.
 *
 * Library errors (protocol version 1): ENOENT is a missing map or key,
 * ECONNREFUSED an SSSD that is not running (a missing socket gives ENOENT
 * too, so the socket is looked for first),
 * EHOSTDOWN an SSSD that is offline with nothing cached, ETIMEDOUT and
 * EAGAIN a busy one.  All but ENOENT make the agent ask the next source.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "am_module.h"
#include "am_util.h"

#define SSS_DEF_LIBRARY	"/usr/lib/x86_64-linux-gnu/sssd/modules/libsss_autofs.so"
#define SSS_DEF_SOCKET	"/var/lib/sss/pipes/autofs"
#define SSS_DEF_TIMEOUT	10
#define SSS_PROTO	1		/* the error codes above */
#define SSS_MAX_KEY	((unsigned int)PATH_MAX)	/* the library's own limit */
#define SSS_MAX_VALUE	(1U << 20)

typedef unsigned int (*sss_proto_fn)(unsigned int);
typedef int (*sss_set_fn)(const char *, void **);
typedef int (*sss_get_fn)(char **, char **, void *);
typedef int (*sss_byname_fn)(const char *, char **, void *);
typedef int (*sss_end_fn)(void **);

struct sss_lib {
	sss_proto_fn sl_proto;		/* NULL in libraries before version 1 */
	sss_set_fn sl_set;
	sss_get_fn sl_get;
	sss_byname_fn sl_byname;
	sss_end_fn sl_end;
};

struct am_map {
	const struct am_host *m_host;
	char *m_name;
	const char *m_path;		/* of the library, for log lines */
	int m_timeout_ms;
	bool m_hung;			/* a call went unanswered: skip SSSD */
	struct sss_lib m_lib;
};

/* One answer of the child: an entry (0) or the end of the answers. */
struct sss_rec {
	int32_t r_status;		/* 0 entry, 1 end, <0 -errno of the library */
	uint32_t r_klen;
	uint32_t r_vlen;
};

/* What the child does with the library, after _sss_setautomntent. */
typedef int (*sss_job_fn)(struct am_map *map, int fd, void *ctx, const char *key);

#define sss_log(map, prio, ...) \
	((map)->m_host->ah_log((map)->m_host->ah_ctx, (prio), "sss: " __VA_ARGS__))

static const char *sss_conf(const struct am_host *h, const char *key)
{
	const char *v = h->ah_conf_get(h->ah_ctx, "sss", key);

	return v && *v ? v : NULL;
}

static int sss_timeout_ms(struct am_map *map)
{
	const char *t = sss_conf(map->m_host, "timeout");
	char *end = NULL;
	long n = t ? strtol(t, &end, 10) : SSS_DEF_TIMEOUT;

	if (n <= 0 || n > 3600 || (end && *end)) {
		sss_log(map, LOG_WARNING,
			"[sss] timeout = \"%s\" is not a number of seconds, using %d",
			t, SSS_DEF_TIMEOUT);
		n = SSS_DEF_TIMEOUT;
	}
	return (int)n * 1000;
}

static void *sss_sym(void *dh, const char *name, bool *missing)
{
	void *f = dlsym(dh, name);

	*missing |= !f;
	return f;
}

/* Returns: 0, or -EAGAIN when the library is absent or not SSSD's. */
static int sss_lib_open(struct am_map *map)
{
	struct sss_lib *l = &map->m_lib;
	bool missing = false;
	void *dh;

	dh = dlopen(map->m_path, RTLD_NOW | RTLD_LOCAL);
	if (!dh) {
		sss_log(map, LOG_ERR, "map %s: cannot load SSSD's client library: %s",
			map->m_name, dlerror());
		return -EAGAIN;
	}
	l->sl_proto = (sss_proto_fn)dlsym(dh, "_sss_auto_protocol_version");
	l->sl_set = (sss_set_fn)sss_sym(dh, "_sss_setautomntent", &missing);
	l->sl_get = (sss_get_fn)sss_sym(dh, "_sss_getautomntent_r", &missing);
	l->sl_byname = (sss_byname_fn)sss_sym(dh, "_sss_getautomntbyname_r", &missing);
	l->sl_end = (sss_end_fn)sss_sym(dh, "_sss_endautomntent", &missing);
	if (missing) {
		sss_log(map, LOG_ERR, "map %s: %s lacks the autofs calls of SSSD",
			map->m_name, map->m_path);
		dlclose(dh);
		return -EAGAIN;
	}
	/* the library stays loaded: it keeps its socket and lock in globals */
	return 0;
}

/* Returns: the module convention for an error of the library, logging why. */
static int sss_error(struct am_map *map, int err, const char *what)
{
	switch (err) {
	case 0:
		return 0;
	case ENOENT:
		return -ENOENT;
	case ENOMEM:
		return -ENOMEM;
	case ECONNREFUSED:
	case ENOTCONN:
	case ECONNRESET:
	case EPIPE:
		sss_log(map, LOG_ERR, "map %s: %s: SSSD is not running (%s)",
			map->m_name, what, strerror(err));
		return -EAGAIN;
	case EHOSTDOWN:
		sss_log(map, LOG_ERR,
			"map %s: %s: SSSD is offline: its server is unreachable and the map is not cached",
			map->m_name, what);
		return -EAGAIN;
	case EAGAIN:
	case ETIMEDOUT:
	case EBUSY:
		sss_log(map, LOG_ERR, "map %s: %s: SSSD is busy (%s)",
			map->m_name, what, strerror(err));
		return -EAGAIN;
	default:
		sss_log(map, LOG_ERR, "map %s: %s: SSSD answered: %s",
			map->m_name, what, strerror(err));
		return -EIO;
	}
}

/* ---- the child: library calls, answers written to the pipe ----------- */

static int sss_put(int fd, int32_t status, const char *key, const char *val)
{
	struct sss_rec r = {
		.r_status = status,
		.r_klen = key ? (uint32_t)strlen(key) : 0,
		.r_vlen = val ? (uint32_t)strlen(val) : 0,
	};

	if (am_write_full(fd, &r, sizeof(r)) ||
	    am_write_full(fd, key ? key : "", r.r_klen) ||
	    am_write_full(fd, val ? val : "", r.r_vlen))
		return -EIO;
	return 0;
}

/* Returns: true when KEY and VAL fit the limits, logging the one that does not. */
static bool sss_fits(struct am_map *map, const char *key, const char *val)
{
	size_t kl = strlen(key), vl = strlen(val);

	if (kl <= SSS_MAX_KEY && vl <= SSS_MAX_VALUE)
		return true;
	sss_log(map, LOG_ERR,
		"map %s: refused an entry with a key of %zu bytes (at most %u) or a value of %zu (at most %u)",
		map->m_name, kl, SSS_MAX_KEY, vl, SSS_MAX_VALUE);
	return false;
}

/* A lookup; the wildcard may be stored as "*" or "/" (rfc2307 maps). */
static int sss_job_lookup(struct am_map *map, int fd, void *ctx, const char *key)
{
	char *val = NULL;
	int err;

	err = map->m_lib.sl_byname(key, &val, ctx);
	if (err == ENOENT && !strcmp(key, "*"))
		err = map->m_lib.sl_byname("/", &val, ctx);
	if (err || !val)
		return sss_put(fd, -(err ? err : ENOENT), NULL, NULL);
	if (!sss_fits(map, key, val))
		err = sss_put(fd, -EFBIG, NULL, NULL);
	else
		err = sss_put(fd, 0, key, val);
	free(val);
	return err ? err : sss_put(fd, 1, NULL, NULL);
}

static int sss_job_list(struct am_map *map, int fd, void *ctx, const char *key)
{
	char *k, *v;
	int err;

	(void)key;
	for (;;) {
		k = v = NULL;
		err = map->m_lib.sl_get(&k, &v, ctx);
		if (err == ENOENT || (!err && !k))
			return sss_put(fd, 1, NULL, NULL);
		if (err)
			return sss_put(fd, -err, NULL, NULL);
		if (sss_fits(map, k, v ? v : ""))
			err = sss_put(fd, 0, strcmp(k, "/") ? k : "*", v ? v : "");
		free(k);
		free(v);
		if (err)
			return err;
	}
}

static void sss_child(struct am_map *map, int fd, sss_job_fn job, const char *key)
{
	void *ctx = NULL;
	int err;

	err = map->m_lib.sl_set(map->m_name, &ctx);
	if (err)
		_exit(sss_put(fd, -err, NULL, NULL) ? 1 : 0);
	err = job ? job(map, fd, ctx, key) : sss_put(fd, 1, NULL, NULL);
	map->m_lib.sl_end(&ctx);
	_exit(err ? 1 : 0);
}

/* ---- the parent: answers read within the deadline -------------------- */

/* Returns: 0, -ETIMEDOUT when nothing came for the timeout, -EIO at EOF. */
static int sss_read(struct am_map *map, int fd, void *buf, size_t len)
{
	long long deadline = am_now_ms() + map->m_timeout_ms, left;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char *p = buf;
	ssize_t n;

	while (len) {
		left = deadline - am_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, (int)left);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		n = read(fd, p, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Returns: a malloc'd string of LEN bytes read from the child, or NULL. */
static char *sss_read_str(struct am_map *map, int fd, uint32_t len, int *err)
{
	char *s = malloc((size_t)len + 1);

	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = sss_read(map, fd, s, len);
	if (*err) {
		free(s);
		return NULL;
	}
	s[len] = '\0';
	return s;
}

/*
 * One answer: an entry is passed to FN.  Returns: 0 for an entry, 1 at the
 * end, the library's error as the module convention, -ETIMEDOUT, -EIO.
 */
static int sss_read_one(struct am_map *map, int fd, const char *what,
			am_key_fn fn, void *arg, int *stop)
{
	struct sss_rec r;
	char *k, *v = NULL;
	int err;

	err = sss_read(map, fd, &r, sizeof(r));
	if (err)
		return err;
	if (r.r_status)
		return r.r_status > 0 ? 1 : sss_error(map, -r.r_status, what);
	if (r.r_klen > SSS_MAX_KEY || r.r_vlen > SSS_MAX_VALUE)
		return -EIO;		/* the child checked: it is not ours */
	k = sss_read_str(map, fd, r.r_klen, &err);
	if (k)
		v = sss_read_str(map, fd, r.r_vlen, &err);
	if (v && !*stop)
		*stop = fn(k, v, arg);
	free(k);
	free(v);
	return err;
}

/* Returns: FN's non-zero stop value, 0, or the error of the first answer. */
static int sss_collect(struct am_map *map, int fd, const char *what,
		       am_key_fn fn, void *arg)
{
	int err, stop = 0;

	do
		err = sss_read_one(map, fd, what, fn, arg, &stop);
	while (!err);
	if (err == -ETIMEDOUT) {
		sss_log(map, LOG_ERR, "map %s: %s: SSSD did not answer within %d s, not asked again",
			map->m_name, what, map->m_timeout_ms / 1000);
		map->m_hung = true;
		return -EAGAIN;
	}
	if (err == -EIO)
		sss_log(map, LOG_ERR, "map %s: %s: the SSSD client ended without an answer",
			map->m_name, what);
	return err == 1 ? stop : err;
}

/*
 * Runs JOB for KEY in a child, FN for each entry it finds; WHAT names the
 * call in log lines.  Returns: as sss_collect.
 */
static int sss_run(struct am_map *map, const char *what, sss_job_fn job,
		   const char *key, am_key_fn fn, void *arg)
{
	int p[2], err, status;
	pid_t pid;

	if (map->m_hung)
		return -EAGAIN;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!pid) {
		close(p[0]);
		sss_child(map, p[1], job, key);
	}
	close(p[1]);
	err = sss_collect(map, p[0], what, fn, arg);
	close(p[0]);
	kill(pid, SIGKILL);	/* done or hung: it has nothing more to say */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return err;
}

/* ---- operations ------------------------------------------------------ */

/* Returns: 0, or -EAGAIN when SSSD's autofs responder has no socket. */
static int sss_socket_check(struct am_map *map)
{
	const char *path = sss_conf(map->m_host, "socket");
	struct stat st;

	if (!path)
		path = SSS_DEF_SOCKET;
	if (!stat(path, &st) && S_ISSOCK(st.st_mode))
		return 0;
	sss_log(map, LOG_ERR, "map %s: SSSD is not running: no socket %s",
		map->m_name, path);
	return -EAGAIN;
}

static void sss_map_close(struct am_map *map)
{
	if (!map)
		return;
	free(map->m_name);
	free(map);
}

static int sss_map_open(struct am_map **mapp, const struct am_map_args *args)
{
	const char *lib = sss_conf(args->ma_host, "library");
	struct am_map *map;
	int ret;

	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->m_host = args->ma_host;
	map->m_path = lib ? lib : SSS_DEF_LIBRARY;
	map->m_name = strdup(args->ma_name);
	if (!map->m_name) {
		ret = -ENOMEM;
		goto fail;
	}
	map->m_timeout_ms = sss_timeout_ms(map);
	ret = sss_socket_check(map);
	if (!ret)
		ret = sss_lib_open(map);
	if (ret)
		goto fail;
	if (map->m_lib.sl_proto)
		map->m_lib.sl_proto(SSS_PROTO);
	/* a missing map (-ENOENT) and a down SSSD are told apart here */
	ret = sss_run(map, "open", NULL, NULL, NULL, NULL);
	if (ret)
		goto fail;
	*mapp = map;
	return 0;
fail:
	sss_map_close(map);
	return ret;
}

static int sss_keep(const char *key, const char *entry, void *arg)
{
	(void)key;
	*(char **)arg = strdup(entry);
	return *(char **)arg ? 1 : -ENOMEM;
}

static int sss_map_lookup(struct am_map *map, const char *key, char **entry)
{
	char *val = NULL;
	int ret;

	if (strlen(key) >= SSS_MAX_KEY)
		return -ENOENT;
	ret = sss_run(map, "lookup", sss_job_lookup, key, sss_keep, &val);
	if (ret == 1 && val) {
		*entry = val;
		return 0;
	}
	free(val);
	return ret < 0 ? ret : -ENOENT;
}

static int sss_map_enumerate(struct am_map *map, am_key_fn fn, void *arg)
{
	return sss_run(map, "list", sss_job_list, NULL, fn, arg);
}

AM_MAP_MODULE(sss) = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "sss",
	.open = sss_map_open,
	.lookup = sss_map_lookup,
	.enumerate = sss_map_enumerate,
	.close = sss_map_close,
};
