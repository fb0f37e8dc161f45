/*
 * autofsng-hammer: concurrent walks and timings for the autofsng suite.
 *
 *   autofsng-hammer same N PATH          N processes stat PATH at once
 *   autofsng-hammer keys N PREFIX SUFFIX process i stats PREFIX i SUFFIX
 *   autofsng-hammer time PATH            microseconds of one stat(PATH)
 *   autofsng-hammer statloop N PATH      nanoseconds per stat(PATH), N times
 *   autofsng-hammer readdir DIR          entries of DIR (no . ..), and ms
 *   autofsng-hammer readdir-pause DIR FILE
 *                                        read one small batch of DIR, create
 *                                        FILE.started, wait until FILE
 *                                        exists, read the rest:
 *                                        prints the entry count
 *   autofsng-hammer flood N PAR HOLD PREFIX
 *                                        stat PREFIX0 .. PREFIX(N-1), at
 *                                        most PAR at once, each child
 *                                        killed by SIGALRM after HOLD
 *                                        seconds (0: never); prints
 *                                        "ok=X fail=Y killed=Z ms=T"
 *   autofsng-hammer census STOPFILE COMM...
 *                                        until STOPFILE exists (at least
 *                                        once), count the session leaders
 *                                        named COMM in /proc (an agent
 *                                        leads its session; its forked
 *                                        children share its name until
 *                                        they exec, and do not count);
 *                                        prints "max=M samples=S"
 *
 * "same" and "keys" start all children together and print
 * "ok=X fail=Y ms=Z"; a child fails when its stat fails.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int hammer(int n, const char *prefix, const char *suffix)
{
	int go[2], i, ok = 0, fail = 0, status;
	double start;
	char c;

	if (pipe(go) < 0)
		return 1;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			char path[4096];
			struct stat st;

			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(2);
			if (suffix)
				snprintf(path, sizeof(path), "%s%d%s", prefix, i, suffix);
			else
				snprintf(path, sizeof(path), "%s", prefix);
			if (stat(path, &st) < 0) {
				fprintf(stderr, "stat %s: %s\n", path, strerror(errno));
				_exit(1);
			}
			_exit(0);
		}
	}
	close(go[0]);
	start = now();
	close(go[1]);
	while (wait(&status) > 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			ok++;
		else
			fail++;
	}
	printf("ok=%d fail=%d ms=%.0f\n", ok, fail, (now() - start) * 1e3);
	return fail != 0;
}

static int read_some(int fd, long *count, size_t bufsize)
{
	char buf[1 << 16];
	long off;
	int n;

	n = syscall(SYS_getdents64, fd, buf, bufsize);
	if (n <= 0)
		return n;
	for (off = 0; off < n;) {
		struct dirent64 *d = (struct dirent64 *)(buf + off);

		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			(*count)++;
		off += d->d_reclen;
	}
	return n;
}

static int list(const char *dir, const char *wait_for)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY), n;
	long count = 0;
	double start = now();

	if (fd < 0) {
		perror(dir);
		return 1;
	}
	if (wait_for) {
		char started[4096];
		int sfd;

		if (read_some(fd, &count, 512) < 0)
			return 1;
		snprintf(started, sizeof(started), "%s.started", wait_for);
		sfd = open(started, O_WRONLY | O_CREAT, 0644);
		if (sfd >= 0)
			close(sfd);
		while (access(wait_for, F_OK) < 0)
			usleep(20000);
	}
	while ((n = read_some(fd, &count, 1 << 16)) > 0)
		;
	if (n < 0) {
		perror("getdents64");
		return 1;
	}
	if (wait_for)
		printf("%ld\n", count);
	else
		printf("%ld %.1f\n", count, (now() - start) * 1e3);
	return 0;
}

/* One child of the flood: stat one key, die of SIGALRM after hold s. */
static void flood_child(const char *prefix, long i, int hold)
{
	char path[4096];
	struct stat st;

	if (hold)
		alarm(hold);
	snprintf(path, sizeof(path), "%s%ld", prefix, i);
	_exit(stat(path, &st) < 0 ? 1 : 0);
}

static void flood_count(int status, long *ok, long *fail, long *killed)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		(*ok)++;
	else if (WIFSIGNALED(status))
		(*killed)++;
	else
		(*fail)++;
}

static int flood(long n, int par, int hold, const char *prefix)
{
	long i = 0, running = 0, ok = 0, fail = 0, killed = 0;
	double start = now();
	int status;

	while (i < n || running) {
		if (i < n && running < par) {
			pid_t pid = fork();

			if (pid == 0)
				flood_child(prefix, i, hold);
			if (pid > 0) {
				running++;
				i++;
				continue;
			}
		}
		if (wait(&status) < 0)
			break;
		running--;
		flood_count(status, &ok, &fail, &killed);
	}
	printf("ok=%ld fail=%ld killed=%ld ms=%.0f\n", ok, fail, killed,
	       (now() - start) * 1e3);
	return 0;
}

/* Whether /proc/PID/stat names a session leader called one of names. */
static int census_match(const char *pid, char **names, int nr)
{
	char path[300], line[512], *open_paren, *close_paren;
	int i, sid = -1, match = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f)) {
		open_paren = strchr(line, '(');
		close_paren = strrchr(line, ')');
		if (open_paren && close_paren) {
			*close_paren = '\0';
			/* after "(comm)": state ppid pgrp session */
			if (sscanf(close_paren + 2, "%*c %*d %*d %d", &sid) != 1)
				sid = -1;
			for (i = 0; i < nr; i++)
				match |= !strcmp(open_paren + 1, names[i]);
		}
	}
	fclose(f);
	return match && sid == atoi(pid);
}

static int census_one(char **names, int nr)
{
	struct dirent *d;
	int count = 0;
	DIR *proc = opendir("/proc");

	if (!proc)
		return -1;
	while ((d = readdir(proc))) {
		if (d->d_name[0] >= '0' && d->d_name[0] <= '9')
			count += census_match(d->d_name, names, nr);
	}
	closedir(proc);
	return count;
}

static int census(const char *stop, char **names, int nr)
{
	long samples = 0;
	int max = 0, c;

	do {
		c = census_one(names, nr);
		if (c > max)
			max = c;
		samples++;
		usleep(20000);
	} while (access(stop, F_OK) < 0);
	printf("max=%d samples=%ld\n", max, samples);
	return 0;
}

int main(int argc, char **argv)
{
	struct stat st;
	double start;
	long i, n;

	if (argc == 4 && !strcmp(argv[1], "same"))
		return hammer(atoi(argv[2]), argv[3], NULL);
	if (argc == 5 && !strcmp(argv[1], "keys"))
		return hammer(atoi(argv[2]), argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "time")) {
		start = now();
		if (stat(argv[2], &st) < 0) {
			perror(argv[2]);
			return 1;
		}
		printf("%.0f\n", (now() - start) * 1e6);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "statloop")) {
		n = atol(argv[2]);
		start = now();
		for (i = 0; i < n; i++) {
			if (stat(argv[3], &st) < 0) {
				perror(argv[3]);
				return 1;
			}
		}
		printf("%.0f\n", (now() - start) * 1e9 / n);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "readdir"))
		return list(argv[2], NULL);
	if (argc == 4 && !strcmp(argv[1], "readdir-pause"))
		return list(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "flood"))
		return flood(atol(argv[2]), atoi(argv[3]), atoi(argv[4]), argv[5]);
	if (argc >= 4 && !strcmp(argv[1], "census"))
		return census(argv[2], argv + 3, argc - 3);
	fprintf(stderr, "usage: see the comment at the top of %s\n", __FILE__);
	return 2;
}
