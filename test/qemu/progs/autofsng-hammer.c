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
	fprintf(stderr, "usage: see the comment at the top of %s\n", __FILE__);
	return 2;
}
