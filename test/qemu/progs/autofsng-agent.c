/*
 * autofsng-agent: the test agent of the autofsng suite.
 *
 * The kernel runs it as "agent lookup" or "agent list" with the protocol
 * environment (Documentation/filesystems/autofsng.rst).  It never runs a
 * shell.  Its behaviour per key comes from $AGENT_DIR/map (AGENT_DIR is
 * /run/autofsng-agent), one "key action [argument]" per line:
 *
 *   ok                 mount a tmpfs holding "hello" (the key and a
 *                      newline) and "env" (the environment it saw)
 *   sleep SECONDS      the same, after sleeping (fractions allowed)
 *   fail CODE          exit CODE without mounting
 *   crash              abort() without mounting
 *   hang               never exit (until killed)
 *   nomount            exit 0 without mounting
 *   selftrap           attach a clone of the trap itself onto the trap
 *                      (what a source resolved through the trap gives)
 *   passthrough PATH   a child in the agent's process group opens PATH
 *                      (normally the trap itself) first, then mount
 *
 * A key missing from the map exits 1.  "list" copies $AGENT_DIR/list to
 * WRITEFD in writes of $AGENT_DIR/chunk bytes (default: all at once),
 * exits 1 when $AGENT_DIR/list-fail exists, first sleeps the seconds
 * $AGENT_DIR/list-sleep holds (logged as "list-start"), and with $AGENT_DIR/late
 * leaves a child that writes once more after the agent exited and logs
 * the result.  Every call appends one line to $AGENT_DIR/log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AGENT_DIR "/run/autofsng-agent"

static const char *const env_names[] = {
	"MAPNAME", "MAPKEY", "MAPOFFSET", "MAPOPTIONS", "MOUNTFD", "MNTNSFD",
	"UID", "GID", "WRITEFD", "HOME", "PATH",
};

extern char **environ;
static FILE *log_file;

static void log_call(const char *cmd, const char *what)
{
	size_t i;
	int n = 0;

	if (!log_file)
		return;
	for (char **e = environ; *e; e++)
		n++;
	fprintf(log_file, "%s pid=%d pgid=%d sid=%d envc=%d", cmd, (int)getpid(),
		(int)getpgrp(), (int)getsid(0), n);
	for (i = 0; i < sizeof(env_names) / sizeof(env_names[0]); i++) {
		const char *v = getenv(env_names[i]);

		if (v)
			fprintf(log_file, " %s=%s", env_names[i], v);
	}
	fprintf(log_file, " -> %s\n", what);
	fflush(log_file);
}

static int env_fd(const char *name)
{
	const char *v = getenv(name);

	return v ? atoi(v) : -1;
}

/* Find KEY's line in the map: action and argument. */
static int map_find(const char *key, char *action, char *arg, size_t len)
{
	char line[4096], k[256], a[64], rest[2048];
	FILE *f = fopen(AGENT_DIR "/map", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		rest[0] = '\0';
		if (sscanf(line, "%255s %63s %2047[^\n]", k, a, rest) < 2)
			continue;
		if (strcmp(k, key) && strcmp(k, "*"))
			continue;
		snprintf(action, len, "%s", a);
		snprintf(arg, len, "%s", rest);
		found = 1;
	}
	fclose(f);
	return found;
}

static int write_file(int dirfd, const char *name, const char *text)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Join the requester's mount namespace.  Returns: MOUNTFD, or -1. */
static int enter_requester(void)
{
	int target = env_fd("MOUNTFD"), ns = env_fd("MNTNSFD");

	return ns < 0 || target < 0 || setns(ns, CLONE_NEWNS) < 0 ? -1 : target;
}

/* Attach the detached mount MFD onto TARGET.  Returns: 0, -1. */
static int attach(int mfd, int target)
{
	if (move_mount(mfd, "", target, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return -1;
	close(mfd);
	return 0;
}

/* Build a tmpfs detached, fill it, attach it onto MOUNTFD. */
static int mount_tmpfs(const char *key)
{
	int fsfd, mfd, target;
	char envtext[8192] = "", hello[300];
	size_t i;

	for (i = 0; i < sizeof(env_names) / sizeof(env_names[0]); i++) {
		const char *v = getenv(env_names[i]);

		if (v) {
			strncat(envtext, env_names[i], sizeof(envtext) - strlen(envtext) - 1);
			strncat(envtext, "=", sizeof(envtext) - strlen(envtext) - 1);
			strncat(envtext, v, sizeof(envtext) - strlen(envtext) - 1);
			strncat(envtext, "\n", sizeof(envtext) - strlen(envtext) - 1);
		}
	}
	target = enter_requester();
	if (target < 0)
		return -1;
	fsfd = fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -1;
	if (fsconfig(fsfd, FSCONFIG_SET_STRING, "size", "1m", 0) < 0 ||
	    fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -1;
	mfd = fsmount(fsfd, FSMOUNT_CLOEXEC, 0);
	close(fsfd);
	if (mfd < 0)
		return -1;
	snprintf(hello, sizeof(hello), "%s\n", key);
	if (write_file(mfd, "hello", hello) < 0 || write_file(mfd, "env", envtext) < 0)
		return -1;
	return attach(mfd, target);
}

/* Clone the trap MOUNTFD names and attach the clone onto it. */
static int mount_selftrap(void)
{
	int target = enter_requester(), mfd;

	if (target < 0)
		return -1;
	mfd = open_tree(target, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	return mfd < 0 ? -1 : attach(mfd, target);
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A child in our process group walks into PATH; it must not block. */
static int passthrough(const char *path, char *what, size_t len)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd = open(path, O_RDONLY | O_DIRECTORY);

		_exit(fd < 0 ? 10 + errno % 100 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	snprintf(what, len, "passthrough open %s status %d", path,
		 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

static int do_lookup(void)
{
	const char *key = getenv("MAPKEY");
	char action[2048], arg[2048], what[4200];

	if (!key || !map_find(key, action, arg, sizeof(action))) {
		log_call("lookup", "not in map: exit 1");
		return 1;
	}
	if (!strcmp(action, "fail")) {
		log_call("lookup", "fail");
		return atoi(arg);
	}
	if (!strcmp(action, "crash")) {
		log_call("lookup", "crash");
		abort();
	}
	if (!strcmp(action, "hang")) {
		log_call("lookup", "hang");
		for (;;)
			pause();
	}
	if (!strcmp(action, "nomount")) {
		log_call("lookup", "nomount");
		return 0;
	}
	if (!strcmp(action, "selftrap")) {
		snprintf(what, sizeof(what), "selftrap: %s",
			 mount_selftrap() ? strerror(errno) : "attached");
		log_call("lookup", what);
		return 0;
	}
	if (!strcmp(action, "sleep"))
		sleep_seconds(atof(arg));
	snprintf(what, sizeof(what), "%s", action);
	if (!strcmp(action, "passthrough") && passthrough(arg, what, sizeof(what)) < 0)
		snprintf(what, sizeof(what), "passthrough fork failed");
	if (mount_tmpfs(key) < 0) {
		char err[4300];

		snprintf(err, sizeof(err), "%s; mount failed: %s", what, strerror(errno));
		log_call("lookup", err);
		return 2;
	}
	log_call("lookup", what);
	return 0;
}

static void late_writer(int fd)
{
	pid_t pid = fork();

	if (pid != 0)
		return;
	/* Outlive the agent, then try the descriptor once more. */
	setsid();
	sleep_seconds(1.0);
	if (write(fd, "late\n", 5) < 0) {
		char what[128];

		snprintf(what, sizeof(what), "late write: %s", strerror(errno));
		log_call("late", what);
	} else {
		log_call("late", "late write: accepted");
	}
	_exit(0);
}

/* Sleep as long as $AGENT_DIR/list-sleep says, if it exists. */
static void list_sleep(void)
{
	FILE *f = fopen(AGENT_DIR "/list-sleep", "r");
	double s;

	if (!f)
		return;
	if (fscanf(f, "%lf", &s) == 1) {
		log_call("list-start", "sleeping");
		sleep_seconds(s);
	}
	fclose(f);
}

static int do_list(void)
{
	int out = env_fd("WRITEFD"), in;
	size_t chunk = 0;
	char *buf, what[64];
	ssize_t n;
	FILE *f;

	if (access(AGENT_DIR "/list-fail", F_OK) == 0) {
		log_call("list", "fail");
		return 1;
	}
	f = fopen(AGENT_DIR "/chunk", "r");
	if (f) {
		if (fscanf(f, "%zu", &chunk) != 1)
			chunk = 0;
		fclose(f);
	}
	list_sleep();
	in = open(AGENT_DIR "/list", O_RDONLY);
	if (in < 0 || out < 0) {
		log_call("list", "no list");
		return 1;
	}
	buf = malloc(1 << 20);
	if (!buf)
		return 1;
	while ((n = read(in, buf, chunk ? chunk : 1 << 20)) > 0) {
		ssize_t off = 0;

		while (off < n) {
			ssize_t w = write(out, buf + off, n - off);

			if (w < 0) {
				snprintf(what, sizeof(what), "write: %s", strerror(errno));
				log_call("list", what);
				return 1;
			}
			off += w;
		}
	}
	close(in);
	free(buf);
	if (access(AGENT_DIR "/late", F_OK) == 0)
		late_writer(out);
	log_call("list", "ok");
	return 0;
}

int main(int argc, char **argv)
{
	int fd = open(AGENT_DIR "/log", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	if (fd >= 0)
		log_file = fdopen(fd, "a");
	if (argc == 2 && !strcmp(argv[1], "lookup"))
		return do_lookup();
	if (argc == 2 && !strcmp(argv[1], "list"))
		return do_list();
	log_call(argc > 1 ? argv[1] : "?", "bad usage");
	return 64;
}
