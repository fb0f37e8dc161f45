// SPDX-License-Identifier: GPL-2.0
/*
 * map_sss.so: automount maps served by SSSD (FreeIPA, Active Directory,
 * LDAP with caching), through SSSD's own client library libsss_autofs.so.
 * The library is opened at run time, so the agent builds and runs without
 * SSSD; a host without it has the source unavailable (-EAGAIN).
 *
 * The library waits up to 300 s for an answer on its socket, and a stopped
 * sssd_autofs never answers.  So every call runs in a child process
 * (sss_child.c), the only one that loads the library, which streams its
 * answers back over a pipe; the parent gives the whole answer [sss] timeout
 * seconds and SSS_MAX_ANSWER bytes, then kills the child and treats SSSD
 * as unavailable for the rest of this run.  No thread is left behind: the
 * agent must be single-threaded to join the requester's mount namespace.
 *
 * Library errors (protocol version 1): ENOENT is a missing map or key,
 * ECONNREFUSED an SSSD that is not running (a missing socket gives ENOENT
 * too, so the socket is looked for first),
 * EHOSTDOWN an SSSD that is offline with nothing cached, ETIMEDOUT and
 * EAGAIN a busy one.  All but ENOENT make the agent ask the next source.
 */
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
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "am_module.h"
#include "am_util.h"
#include "sss_priv.h"

/* configure: the multiarch directory of the build (maps/local.mk) */
#ifndef SSS_DEF_LIBRARY
#error "SSS_DEF_LIBRARY is set by configure"
#endif
#define SSS_DEF_SOCKET	"/var/lib/sss/pipes/autofs"
#define SSS_DEF_TIMEOUT	10
#define SSS_MAX_ANSWER	(64U << 20)	/* bytes of one call's records */

struct am_map {
	const struct am_host *m_host;
	char *m_name;
	const char *m_path;		/* of the library, loaded by the child */
	int m_timeout_ms;
	bool m_hung;			/* a call went unanswered: skip SSSD */
};

/* The parent's end of one call: its pipe, deadline and remaining bytes. */
struct sss_chan {
	int c_fd;
	long long c_deadline;		/* am_now_ms() when the whole answer is due */
	size_t c_left;			/* bytes the answer may still take */
};

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

/* ---- the parent: the child's records, read within one deadline ------- */

/*
 * The deadline and the byte bound are the call's, not the read's: a child
 * whose SSSD drips its answer a record at a time ends with them.
 * Returns: 0, -ETIMEDOUT past the deadline, -EFBIG past the byte bound,
 * -EIO at the end of the pipe.
 */
static int sss_read(struct sss_chan *ch, void *buf, size_t len)
{
	struct pollfd pfd = { .fd = ch->c_fd, .events = POLLIN };
	long long left;
	char *p = buf;
	ssize_t n;

	if (len > ch->c_left)
		return -EFBIG;
	ch->c_left -= len;
	while (len) {
		left = ch->c_deadline - am_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		n = read(ch->c_fd, p, len);
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
static char *sss_read_str(struct sss_chan *ch, uint32_t len, int *err)
{
	char *s = malloc((size_t)len + 1);

	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = sss_read(ch, s, len);
	if (*err) {
		free(s);
		return NULL;
	}
	s[len] = '\0';
	return s;
}

/* Returns: -EAGAIN, after logging why the child could not load the library. */
static int sss_read_nolib(struct am_map *map, struct sss_chan *ch, const struct sss_rec *r)
{
	char *why;
	int err;

	if (r->r_vlen > SSS_MAX_WHY)
		return -EIO;		/* the child checked: it is not ours */
	why = sss_read_str(ch, r->r_vlen, &err);
	if (!why)
		return err;
	/* dlerror() names the file */
	sss_log(map, LOG_ERR, "map %s: cannot load SSSD's client library: %s",
		map->m_name, why);
	free(why);
	return -EAGAIN;
}

static void sss_log_refused(struct am_map *map, const struct sss_rec *r)
{
	sss_log(map, LOG_ERR,
		"map %s: refused an entry with a key of %s%u bytes (at most %u) and a value of %s%u (at most %u)",
		map->m_name, r->r_klen > SSS_MAX_KEY ? "more than " : "",
		r->r_klen > SSS_MAX_KEY ? SSS_MAX_KEY : r->r_klen, SSS_MAX_KEY,
		r->r_vlen > SSS_MAX_VALUE ? "more than " : "",
		r->r_vlen > SSS_MAX_VALUE ? SSS_MAX_VALUE : r->r_vlen, SSS_MAX_VALUE);
}

/*
 * One record: an entry is passed to FN.  Returns: 0 for an entry (or one
 * refused), 1 at the end, the library's error as the module convention,
 * -ETIMEDOUT, -EFBIG, -EIO.
 */
static int sss_read_one(struct am_map *map, struct sss_chan *ch, const char *what,
			am_key_fn fn, void *arg, int *stop)
{
	struct sss_rec r;
	char *k, *v = NULL;
	int err;

	err = sss_read(ch, &r, sizeof(r));
	if (err)
		return err;
	if (r.r_status == SSS_REC_NOLIB)
		return sss_read_nolib(map, ch, &r);
	if (r.r_status == SSS_REC_REFUSED) {
		sss_log_refused(map, &r);
		return 0;
	}
	if (r.r_status)
		return r.r_status == SSS_REC_END ? 1 :
			r.r_status < 0 ? sss_error(map, -r.r_status, what) : -EIO;
	if (r.r_klen > SSS_MAX_KEY || r.r_vlen > SSS_MAX_VALUE)
		return -EIO;		/* the child checked: it is not ours */
	k = sss_read_str(ch, r.r_klen, &err);
	if (k)
		v = sss_read_str(ch, r.r_vlen, &err);
	if (v && !*stop)
		*stop = fn(k, v, arg);
	free(k);
	free(v);
	return err;
}

/* Returns: FN's non-zero stop value, 0, or the error of the first answer. */
static int sss_collect(struct am_map *map, struct sss_chan *ch, const char *what,
		       am_key_fn fn, void *arg)
{
	int err, stop = 0;

	do
		err = sss_read_one(map, ch, what, fn, arg, &stop);
	while (!err);
	if (err == -ETIMEDOUT) {
		sss_log(map, LOG_ERR,
			"map %s: %s: SSSD did not answer within %d s ([sss] timeout), not asked again",
			map->m_name, what, map->m_timeout_ms / 1000);
		map->m_hung = true;
		return -EAGAIN;
	}
	if (err == -EFBIG) {
		sss_log(map, LOG_ERR, "map %s: %s: SSSD's answer is longer than %u MiB, refused",
			map->m_name, what, SSS_MAX_ANSWER >> 20);
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
static int sss_run(struct am_map *map, const char *what, enum sss_job job,
		   const char *key, am_key_fn fn, void *arg)
{
	struct sss_call call = {
		.sc_job = job, .sc_library = map->m_path,
		.sc_map = map->m_name, .sc_key = key, .sc_agent = getpid(),
	};
	struct sss_chan ch = { .c_left = SSS_MAX_ANSWER };
	int p[2], err, status;
	pid_t pid;

	if (map->m_hung)
		return -EAGAIN;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	ch.c_deadline = am_now_ms() + map->m_timeout_ms;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!pid)
		sss_child_main(&call, p[1]);
	close(p[1]);
	ch.c_fd = p[0];
	err = sss_collect(map, &ch, what, fn, arg);
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
	if (ret)
		goto fail;
	/* a missing map (-ENOENT) and a down SSSD are told apart here */
	ret = sss_run(map, "open", SSS_JOB_OPEN, NULL, NULL, NULL);
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
	ret = sss_run(map, "lookup", SSS_JOB_LOOKUP, key, sss_keep, &val);
	if (ret == 1 && val) {
		*entry = val;
		return 0;
	}
	free(val);
	return ret < 0 ? ret : -ENOENT;
}

static int sss_map_enumerate(struct am_map *map, am_key_fn fn, void *arg)
{
	return sss_run(map, "list", SSS_JOB_LIST, NULL, fn, arg);
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
