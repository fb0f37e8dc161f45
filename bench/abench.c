// SPDX-License-Identifier: GPL-2.0
/*
 * abench: the timing loops of the benchmark suite (test/qemu/suites/bench.sh).
 * Each measurement runs inside this one process, so the fork+exec of a shell
 * command (tens of ms under TCG) never enters a figure.  Times are printed in
 * microseconds, one sample a line, unless said otherwise.
 *
 *   abench first N FILE SIDE...
 *	N rounds; in each, one sample of every SIDE in turn (A B C A B C ...,
 *	so that a change in the machine's load lands on every side alike).
 *	A sample is "access to BASE/kNN/FILE until its first byte is read",
 *	then umount2(BASE/kNN); round i uses the key k<i>.  SIDE is
 *	MODE,SRC,BASE[,AGENT]: MODE auto, the automounter mounts on the access
 *	(AGENT, if given, is written to fs.autofsng.agent first); bind: mount(2)
 *	MS_BIND of SRC first; nfs: the new mount API (fsopen "nfs", vers=4.2)
 *	of SRC (HOST:PATH, HOST an IPv4 literal) first.  Prints "SIDE US
 *	START" lines, SIDE counted from 0, START the CLOCK_MONOTONIC
 *	microsecond the sample began.
 *   abench walk PATH N R       R samples of the mean ns of one stat(PATH), N stats each
 *   abench par NPROC PATHFMT   NPROC processes stat PATHFMT (a %d becomes 1..NPROC)
 *				at once: prints "us=T failed=F first=A median=M last=L"
 *				(A, M, L: when the first, median, last stat returned)
 *   abench neg PATH SECS       stat PATH (which must fail) for SECS: prints "ops=N errno=E"
 *   abench ls DIR              one readdir of DIR: prints "us=T entries=N"
 *   abench hold DIRFMT N SECS  open DIRFMT (%d 1..N, printf format) as directories,
 *				keep them open SECS, close: prints "opened=N us=T"
 *				(T: the time the N opens took)
 *   abench gone PREFIX SECS    wait until no mount below PREFIX is left, at most
 *				SECS: prints "left=N ms=T"
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FSCONFIG_SET_STRING
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_CMD_CREATE 6
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/*
 * PATTERN with its one "%d" or "%0Nd" replaced by I, into BUF: the key
 * patterns of par and hold ("/mnt/ng/bind/k%02d/hello").
 */
static void key_path(char *buf, size_t len, const char *pattern, int i)
{
	const char *pct = strchr(pattern, '%');
	int width = 0, used;
	char *end;

	if (!pct) {
		snprintf(buf, len, "%s", pattern);
		return;
	}
	width = (int)strtol(pct + 1, &end, 10);
	if (*end != 'd')
		die("key pattern: only %d or %0Nd");
	used = snprintf(buf, len, "%.*s%0*d", (int)(pct - pattern), pattern, width, i);
	if (used > 0 && (size_t)used < len)
		snprintf(buf + used, len - used, "%s", end + 1);
}

static int nfs_mount(const char *src, const char *mp)
{
	char host[64];
	const char *colon = strchr(src, ':');
	int fs, mnt, rc;

	if (!colon || (size_t)(colon - src) >= sizeof(host))
		return -1;
	memcpy(host, src, colon - src);
	host[colon - src] = '\0';
	fs = syscall(SYS_fsopen, "nfs", 0);
	if (fs < 0)
		return -1;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "source", src, 0) ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "vers", "4.2", 0) ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "addr", host, 0) ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "clientaddr", host, 0) ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		close(fs);
		return -1;
	}
	mnt = syscall(SYS_fsmount, fs, 0, 0);
	close(fs);
	if (mnt < 0)
		return -1;
	rc = syscall(SYS_move_mount, mnt, "", AT_FDCWD, mp, MOVE_MOUNT_F_EMPTY_PATH);
	close(mnt);
	return rc;
}

struct side {
	char mode[16], src[256], base[1024], agent[1024];
};

/* "MODE,SRC,BASE[,AGENT]" into SD.  Returns: 0 or -1. */
static int side_parse(const char *spec, struct side *sd)
{
	memset(sd, 0, sizeof(*sd));
	if (sscanf(spec, "%15[^,],%255[^,],%1023[^,],%1023s", sd->mode, sd->src,
		   sd->base, sd->agent) < 3)
		return -1;
	return strcmp(sd->mode, "auto") && strcmp(sd->mode, "bind") &&
	       strcmp(sd->mode, "nfs") ? -1 : 0;
}

static void agent_set(const char *agent)
{
	int fd = open("/proc/sys/fs/autofsng/agent", O_WRONLY);

	if (fd < 0 || write(fd, agent, strlen(agent)) < 0)
		die("fs.autofsng.agent");
	close(fd);
}

/* One first access to SD's key I: prints "SIDE US START" (START: CLOCK_MONOTONIC us). */
static void first_one(const struct side *sd, int k, const char *file, int i)
{
	char mp[1100], path[1400], c;
	long long t0, t1;
	int fd;

	snprintf(mp, sizeof(mp), "%s/k%02d", sd->base, i);
	snprintf(path, sizeof(path), "%s/%s", mp, file);
	if (sd->agent[0])
		agent_set(sd->agent);
	t0 = now_ns();
	if (!strcmp(sd->mode, "bind") && mount(sd->src, mp, NULL, MS_BIND, NULL))
		die("mount --bind");
	if (!strcmp(sd->mode, "nfs") && nfs_mount(sd->src, mp))
		die("fsmount nfs");
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1)
		die(path);
	t1 = now_ns();
	close(fd);
	if (umount2(mp, 0))
		umount2(mp, MNT_DETACH);
	printf("%d %lld %lld\n", k, (t1 - t0) / 1000, t0 / 1000);
	fflush(stdout);
}

static int cmd_first(int ac, char **av)
{
	int n = atoi(av[0]), nsides = ac - 2, i, k;
	struct side *sides = calloc(nsides > 0 ? nsides : 1, sizeof(*sides));

	if (!sides || nsides < 1 || n < 1 || n > 99)
		die("first: N (1-99) FILE SIDE...");
	for (k = 0; k < nsides; k++)
		if (side_parse(av[2 + k], &sides[k]))
			die("first: SIDE is MODE,SRC,BASE[,AGENT], MODE auto, bind or nfs");
	for (i = 1; i <= n; i++)
		for (k = 0; k < nsides; k++)
			first_one(&sides[k], k, av[1], i);
	free(sides);
	return 0;
}

static int cmd_walk(char **av)
{
	const char *path = av[0];
	int n = atoi(av[1]), r = atoi(av[2]), i, j;
	struct stat st;
	long long t0;

	if (stat(path, &st))
		die(path);
	for (j = 0; j < r; j++) {
		t0 = now_ns();
		for (i = 0; i < n; i++)
			stat(path, &st);
		printf("%lld\n", (now_ns() - t0) / n);
	}
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * Each child sends the moment its stat() returned through a pipe, so the
 * total splits into the wait for the lookup (first) and the time the
 * other waiters take to wake and finish (first to last).
 */
static int cmd_par(char **av)
{
	int n = atoi(av[0]), i, status, failed = 0, go[2], done[2], got = 0;
	const char *fmt = av[1];
	long long t0, t, *ends;
	char c;

	if (n < 1 || pipe(go) || pipe(done))
		die("par");
	ends = calloc(n, sizeof(*ends));
	if (!ends)
		die("calloc");
	for (i = 1; i <= n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			char path[4096];
			struct stat st;
			int rc;

			close(go[1]);
			close(done[0]);
			key_path(path, sizeof(path), fmt, i);
			if (read(go[0], &c, 1) < 0)
				_exit(3);
			rc = stat(path, &st) ? 1 : 0;
			t = now_ns();
			if (write(done[1], &t, sizeof(t)) != sizeof(t))
				_exit(4);
			_exit(rc);
		}
	}
	close(go[0]);
	close(done[1]);
	usleep(200000);	/* every child is parked in read() */
	t0 = now_ns();
	close(go[1]);
	while (got < n && read(done[0], &t, sizeof(t)) == sizeof(t))
		ends[got++] = t - t0;
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	t = now_ns() - t0;
	qsort(ends, got, sizeof(*ends), cmp_ll);
	printf("us=%lld failed=%d first=%lld median=%lld last=%lld\n",
	       t / 1000, failed + n - got, got ? ends[0] / 1000 : -1,
	       got ? ends[got / 2] / 1000 : -1, got ? ends[got - 1] / 1000 : -1);
	free(ends);
	return 0;
}

static int cmd_neg(char **av)
{
	const char *path = av[0];
	long long end = now_ns() + atoll(av[1]) * 1000000000LL, ops = 0;
	struct stat st;
	int err = 0;

	while (now_ns() < end) {
		if (!stat(path, &st)) {
			fprintf(stderr, "%s exists\n", path);
			return 1;
		}
		err = errno;
		ops++;
	}
	printf("ops=%lld errno=%d\n", ops, err);
	return 0;
}

static int cmd_ls(char **av)
{
	long long t0 = now_ns(), n = 0;
	DIR *d = opendir(av[0]);

	if (!d)
		die(av[0]);
	while (readdir(d))
		n++;
	closedir(d);
	printf("us=%lld entries=%lld\n", (now_ns() - t0) / 1000, n - 2);
	return 0;
}

static int cmd_hold(char **av)
{
	const char *fmt = av[0];
	int n = atoi(av[1]), secs = atoi(av[2]), i, opened = 0;
	int *fds = calloc(n + 1, sizeof(int));
	char path[4096];
	long long t0 = now_ns(), t;

	if (!fds)
		die("calloc");
	for (i = 1; i <= n; i++) {
		key_path(path, sizeof(path), fmt, i);
		fds[i] = open(path, O_RDONLY | O_DIRECTORY);
		if (fds[i] >= 0)
			opened++;
	}
	t = now_ns() - t0;
	printf("opened=%d us=%lld\n", opened, t / 1000);
	fflush(stdout);
	sleep(secs);
	for (i = 1; i <= n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return 0;
}

static int count_below(const char *prefix)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[8192], mp[4096];
	size_t len = strlen(prefix);
	int n = 0;

	if (!f)
		die("mountinfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1 &&
		    !strncmp(mp, prefix, len) && mp[len] == '/')
			n++;
	fclose(f);
	return n;
}

static int cmd_gone(char **av)
{
	long long t0 = now_ns(), end = t0 + atoll(av[1]) * 1000000000LL;
	int left;

	while ((left = count_below(av[0])) > 0 && now_ns() < end)
		usleep(100000);
	printf("left=%d ms=%lld\n", left, (now_ns() - t0) / 1000000);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int args;
		int (*fn)(char **av);
	} cmds[] = {
		{ "walk", 3, cmd_walk },
		{ "par", 2, cmd_par }, { "neg", 2, cmd_neg }, { "ls", 1, cmd_ls },
		{ "hold", 3, cmd_hold }, { "gone", 2, cmd_gone },
	};
	size_t i;

	if (argc >= 5 && !strcmp(argv[1], "first"))
		return cmd_first(argc - 2, argv + 2);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name) && argc - 2 == cmds[i].args)
			return cmds[i].fn(argv + 2);
	fprintf(stderr, "usage: see the head of bench/abench.c\n");
	return 2;
}
