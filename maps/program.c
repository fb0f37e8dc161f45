// SPDX-License-Identifier: GPL-2.0
/*
 * The program map backend: run the map with the key as its only argument;
 * what it prints on stdout is the entry.  Bounded in time (program_timeout,
 * from fork to exit) and in output (program_max_output); its stderr goes to
 * the log.  The program runs in a process group of its own, and when it
 * has exited, or at the deadline, the whole group is killed: a map that
 * left a child behind, or closed its output and kept running, holds
 * nothing.  Its environment is the agent's (ma_env), see autofs-maps(5).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "am_module.h"

struct am_map {
	char *pm_path;
	int pm_fd;			/* O_PATH: the file checked is the file run */
	const struct am_host *pm_host;
	const char *const *pm_env;	/* NULL: PATH only */
	int pm_cwd;			/* where it runs (O_PATH), or -1 */
	long pm_timeout_ms;
	size_t pm_max_output;
};

static void prog_close(struct am_map *map);

struct prog_run {
	char *pr_out;
	size_t pr_len;
	char pr_err[512];	/* current stderr line */
	size_t pr_errlen;
	unsigned int pr_errlines;
	bool pr_flood;
};

#define prog_log(map, prio, ...) \
	(map)->pm_host->ah_log((map)->pm_host->ah_ctx, prio, __VA_ARGS__)

static long prog_conf_num(const struct am_host *h, const char *key, long def)
{
	const char *v = h->ah_conf_get(h->ah_ctx, "general", key);

	return v ? strtol(v, NULL, 10) : def;
}

/*
 * The agent runs a program map as root with a key any user chose: only a
 * file root owns and nobody else may write is one.  It is checked and run
 * through one O_PATH descriptor, so a name swapped in between is never run.
 * Returns: the descriptor, or -errno.
 */
static int prog_owned(const struct am_map_args *args)
{
	const struct am_host *h = args->ma_host;
	struct stat st;
	int fd;

	fd = open(args->ma_name, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENOENT : -EAGAIN;
	if (fstat(fd, &st)) {
		close(fd);
		return -EAGAIN;
	}
	if (S_ISREG(st.st_mode) && st.st_uid == 0 && !(st.st_mode & 022) && (st.st_mode & 0111))
		return fd;
	h->ah_log(h->ah_ctx, LOG_ERR, "program map %s: not run: %s", args->ma_name,
		  !S_ISREG(st.st_mode) || !(st.st_mode & 0111) ? "not an executable file" :
		  st.st_uid ? "not owned by root" : "writable by others than root");
	close(fd);
	return -EACCES;
}

static int prog_open(struct am_map **mapp, const struct am_map_args *args)
{
	struct am_map *map;
	int fd;

	fd = prog_owned(args);
	if (fd < 0)
		return fd;
	map = calloc(1, sizeof(*map));
	if (!map) {
		close(fd);
		return -ENOMEM;
	}
	map->pm_fd = fd;
	map->pm_path = strdup(args->ma_name);
	if (!map->pm_path) {
		prog_close(map);
		return -ENOMEM;
	}
	map->pm_host = args->ma_host;
	if (args->ma_size >= offsetof(struct am_map_args, ma_env) + sizeof(args->ma_env))
		map->pm_env = args->ma_env;
	map->pm_cwd = -1;
	if (args->ma_size >= offsetof(struct am_map_args, ma_cwd) + sizeof(args->ma_cwd))
		map->pm_cwd = args->ma_cwd;
	map->pm_timeout_ms = prog_conf_num(map->pm_host, "program_timeout", 10) * 1000;
	map->pm_max_output = (size_t)prog_conf_num(map->pm_host, "program_max_output", 65536);
	*mapp = map;
	return 0;
}

static long long prog_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The program runs from the descriptor prog_owned() checked, at fd 3 (a
 * script's interpreter opens it as /dev/fd/3), with SIGPIPE as a program
 * expects it, not as the agent ignores it, in the mount point of the
 * lookup when there is one (autofs-tools' maps read it from $PWD).
 */
static void prog_child(const struct am_map *map, const char *key, int out, int err)
{
	static const char *const path_only[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL };
	const char *path = map->pm_path;
	int devnull;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (map->pm_cwd >= 0 && fchdir(map->pm_cwd) < 0)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	devnull = open("/dev/null", O_RDONLY);
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	/* dup2 onto itself would keep close-on-exec */
	if ((map->pm_fd == 3 ? fcntl(3, F_SETFD, 0) : dup2(map->pm_fd, 3)) < 0)
		_exit(127);
	closefrom(4);
	syscall(SYS_execveat, 3, "", (char *const[]){ (char *)path, (char *)key, NULL },
		(char *const *)(map->pm_env ? map->pm_env : path_only), AT_EMPTY_PATH);
	_exit(127);
}

/* Log complete stderr lines of the map; at most 20 per run. */
static void prog_stderr(struct am_map *map, struct prog_run *r, const char *buf,
			size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n' && r->pr_errlen < sizeof(r->pr_err) - 1) {
			r->pr_err[r->pr_errlen++] = buf[i];
			continue;
		}
		if (buf[i] != '\n')
			continue;
		r->pr_err[r->pr_errlen] = '\0';
		if (r->pr_errlines++ < 20)
			prog_log(map, LOG_WARNING, "program map %s: key %s: stderr: %s",
				 map->pm_path, key, r->pr_err);
		r->pr_errlen = 0;
	}
}

static int prog_stdout(struct am_map *map, struct prog_run *r, const char *buf, size_t n)
{
	char *p;

	if (r->pr_len + n > map->pm_max_output) {
		r->pr_flood = true;
		return -EMSGSIZE;
	}
	p = realloc(r->pr_out, r->pr_len + n + 1);
	if (!p)
		return -ENOMEM;
	memcpy(p + r->pr_len, buf, n);
	r->pr_out = p;
	r->pr_len += n;
	p[r->pr_len] = '\0';
	return 0;
}

/* A poll entry has data, EOF or an error: read it.  Returns: 0, -errno. */
static int prog_read(struct am_map *map, struct prog_run *r, struct pollfd *pfd,
		     bool is_err, const char *key)
{
	char buf[8192];
	ssize_t n;

	n = read(pfd->fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		pfd->fd = -1;
		return 0;
	}
	if (is_err) {
		prog_stderr(map, r, buf, (size_t)n, key);
		return 0;
	}
	return prog_stdout(map, r, buf, (size_t)n);
}

/*
 * Read both pipes until EOF and watch PIDFD until the program has exited,
 * all within the deadline.  Returns: 0, -ETIMEDOUT, -EMSGSIZE, -errno.
 */
static int prog_collect(struct am_map *map, struct prog_run *r, int out, int err,
			int pidfd, const char *key)
{
	struct pollfd pfd[3] = {
		{ .fd = out, .events = POLLIN }, { .fd = err, .events = POLLIN },
		{ .fd = pidfd, .events = POLLIN },
	};
	long long deadline = prog_now_ms() + map->pm_timeout_ms;
	int i, n, ret;

	while (pfd[0].fd >= 0 || pfd[1].fd >= 0 || pfd[2].fd >= 0) {
		long long left = deadline - prog_now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(pfd, 3, (int)left);
		if (n < 0 && errno != EINTR)
			return -errno;
		for (i = 0; i < 3 && n > 0; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			if (i == 2) {
				pfd[2].fd = -1;		/* exited: reaped by prog_finish */
				continue;
			}
			ret = prog_read(map, r, &pfd[i], i == 1, key);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Continuation lines joined, newlines become blanks, trailing blanks cut. */
static void prog_tidy(char *s)
{
	char *d = s, *p;

	for (p = s; *p; p++) {
		if (*p == '\\' && p[1] == '\n') {
			p++;
			continue;
		}
		*d++ = *p == '\n' ? ' ' : *p;
	}
	while (d > s && (d[-1] == ' ' || d[-1] == '\t'))
		d--;
	*d = '\0';
}

static int prog_finish(struct am_map *map, struct prog_run *r, pid_t pid, int ret,
		       const char *key, char **entry)
{
	int status = 0;

	/*
	 * Whatever is left in the program's group dies with it.  A leader
	 * that exited is a zombie until the waitpid below, so its pid still
	 * names the group and no other process can have it.
	 */
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (ret == -ETIMEDOUT) {
		prog_log(map, LOG_ERR, "program map %s: key %s: no answer within %ld s, killed",
			 map->pm_path, key, map->pm_timeout_ms / 1000);
		return -EAGAIN;
	}
	if (ret == -EMSGSIZE) {
		prog_log(map, LOG_ERR, "program map %s: key %s: more than %zu bytes of output, killed",
			 map->pm_path, key, map->pm_max_output);
		return -EIO;
	}
	if (ret)
		return ret;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		prog_log(map, LOG_DEBUG, "program map %s: key %s: exit status %d",
			 map->pm_path, key, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -ENOENT;
	}
	if (!r->pr_out || memchr(r->pr_out, '\0', r->pr_len)) {
		if (r->pr_out)
			prog_log(map, LOG_ERR, "program map %s: key %s: NUL byte in output",
				 map->pm_path, key);
		return -ENOENT;
	}
	prog_tidy(r->pr_out);
	if (!*r->pr_out)
		return -ENOENT;
	*entry = r->pr_out;
	r->pr_out = NULL;
	return 0;
}

static int prog_lookup(struct am_map *map, const char *key, char **entry)
{
	struct prog_run r = { 0 };
	int out[2], err[2], pidfd, ret;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		ret = -errno;
		goto close_out;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto close_err;
	}
	if (pid == 0)
		prog_child(map, key, out[1], err[1]);
	/* both sides: the group exists before either can signal or exec */
	setpgid(pid, pid);
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		ret = -errno;
		prog_log(map, LOG_ERR, "program map %s: key %s: pidfd_open: %s", map->pm_path,
			 key, strerror(errno));
	} else {
		ret = prog_collect(map, &r, out[0], err[0], pidfd, key);
		close(pidfd);
	}
	ret = prog_finish(map, &r, pid, ret, key, entry);
	free(r.pr_out);
close_err:
	close(err[0]);
	if (err[1] >= 0)
		close(err[1]);
close_out:
	close(out[0]);
	if (out[1] >= 0)
		close(out[1]);
	return ret;
}

static void prog_close(struct am_map *map)
{
	close(map->pm_fd);
	free(map->pm_path);
	free(map);
}

AM_MAP_MODULE(program) = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "program",
	.open = prog_open,
	.lookup = prog_lookup,
	.enumerate = NULL,
	.close = prog_close,
};
