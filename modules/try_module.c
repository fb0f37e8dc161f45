// SPDX-License-Identifier: GPL-2.0
/*
 * try-module: load one mount module the way the agent does, ask it for the
 * mount argv describes, attach the result on TARGET and print the new
 * mount's line of /proc/self/mountinfo.  A test driver, not installed.
 *
 *   try-module [-o OPTS] [-t TIMEOUT_MS] [-T FSTYPE] [-c SECTION.KEY=VAL]...
 *              [-r FILE] MODULE.so TARGET LOCATION...
 *
 * LOCATION is "host:/path", "host(weight):/path", "h1,h2(5):/path",
 * "[v6addr]:/path" or a local "/path".  -r FILE reads the first byte of
 * TARGET/FILE after attaching and prints the time from the start of the
 * mount to that byte.  Exit: 0 mounted, 6 mount failed (as the agent), 2 usage.
 *
 *   try-module -M [-c SECTION.KEY=VAL]... MAP.so [KEY]
 *
 * loads a map backend instead: prints KEY's entry, or without KEY every
 * "key<TAB>entry" its ->enumerate gives.  Exit: 0, 1 no such key, 6 error.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>

#include "am_module.h"

#define TRY_MAX_CONF	32
#define TRY_MAX_LOCS	32

struct try_conf {
	char *tc_section;
	char *tc_key;
	char *tc_val;
};

static struct try_conf try_confs[TRY_MAX_CONF];
static size_t try_nconfs;

static const char *try_conf_get(void *ctx, const char *section, const char *key)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < try_nconfs; i++)
		if (!strcmp(try_confs[i].tc_section, section) &&
		    !strcmp(try_confs[i].tc_key, key))
			return try_confs[i].tc_val;
	return NULL;
}

static void try_log(void *ctx, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void try_log(void *ctx, int prio, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	fprintf(stderr, "<%d> ", prio);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static long try_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static int try_add_conf(char *arg)
{
	char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');

	if (!dot || !eq || eq < dot || try_nconfs == TRY_MAX_CONF)
		return -EINVAL;
	*dot = *eq = '\0';
	try_confs[try_nconfs].tc_section = arg;
	try_confs[try_nconfs].tc_key = dot + 1;
	try_confs[try_nconfs].tc_val = eq + 1;
	try_nconfs++;
	return 0;
}

/* "h1,h2(5):/path" -> one location per host.  Writes into ARG. */
static int try_parse_loc(char *arg, struct am_location *locs, size_t *n)
{
	char *path, *host, *save = NULL, *w, *close_br;

	if (arg[0] == '/') {
		if (*n == TRY_MAX_LOCS)
			return -E2BIG;
		locs[(*n)++] = (struct am_location){ NULL, arg, 0 };
		return 0;
	}
	close_br = strrchr(arg, ']');
	path = strstr(close_br ? close_br : arg, ":/");
	if (!path)
		return -EINVAL;
	*path = '\0';
	path++;
	for (host = strtok_r(arg, ",", &save); host; host = strtok_r(NULL, ",", &save)) {
		unsigned int weight = 0;

		w = strchr(host, '(');
		if (w) {
			*w = '\0';
			weight = strtoul(w + 1, NULL, 10);
		}
		if (*n == TRY_MAX_LOCS)
			return -E2BIG;
		locs[(*n)++] = (struct am_location){ host, path, weight };
	}
	return 0;
}

static const struct am_mount_ops *try_load(const char *path)
{
	const struct am_mount_ops *ops;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "try-module: %s\n", dlerror());
		return NULL;
	}
	ops = dlsym(h, AM_MOUNT_SYMBOL);
	if (!ops || ops->abi != AM_MOUNT_ABI || ops->size < sizeof(*ops)) {
		fprintf(stderr, "try-module: %s: no usable %s\n", path, AM_MOUNT_SYMBOL);
		return NULL;
	}
	return ops;
}

/* Print the last mountinfo line whose mount point is TARGET. */
static void try_print_mountinfo(const char *target)
{
	char real[PATH_MAX], line[4096], last[4096] = "", mp[PATH_MAX];
	FILE *f;

	if (!realpath(target, real))
		snprintf(real, sizeof(real), "%s", target);
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1 && !strcmp(mp, real))
			snprintf(last, sizeof(last), "%s", line);
	fclose(f);
	fputs(last, stdout);
}

static int try_first_byte(const char *target, const char *file, long start)
{
	char path[PATH_MAX], c;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", target, file);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1) {
		fprintf(stderr, "try-module: read %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	printf("first-byte-us %ld\n", try_now_us() - start);
	return 0;
}

static int try_print_key(const char *key, const char *entry, void *arg)
{
	(void)arg;
	printf("%s\t%s\n", key, entry);
	return 0;
}

/* -M MAP.so [KEY]: a map backend's entry for KEY, or all it enumerates. */
static int try_map(int argc, char **argv, const struct am_host *host)
{
	const char *const noargv[] = { NULL };
	struct am_map_args args = { .ma_size = sizeof(args), .ma_name = "",
				    .ma_argv = noargv, .ma_host = host };
	const struct am_map_ops *ops;
	struct am_map *map;
	char *entry = NULL;
	void *h;
	int ret;

	h = dlopen(argv[0], RTLD_NOW | RTLD_LOCAL);
	ops = h ? dlsym(h, AM_MAP_SYMBOL) : NULL;
	if (!ops || ops->abi != AM_MAP_ABI || ops->size < sizeof(*ops)) {
		fprintf(stderr, "try-module: %s: no usable %s\n", argv[0], AM_MAP_SYMBOL);
		return 2;
	}
	ret = ops->open(&map, &args);
	if (ret) {
		fprintf(stderr, "try-module: open: %s\n", strerror(-ret));
		return 6;
	}
	if (argc > 1) {
		ret = ops->lookup(map, argv[1], &entry);
		if (!ret)
			printf("%s\n", entry);
		free(entry);
	} else {
		ret = ops->enumerate ? ops->enumerate(map, try_print_key, NULL) : 0;
	}
	ops->close(map);
	if (ret)
		fprintf(stderr, "try-module: %s: %s\n", argc > 1 ? argv[1] : "enumerate",
			strerror(-ret));
	return ret == -ENOENT ? 1 : ret ? 6 : 0;
}

static int try_usage(void)
{
	fprintf(stderr, "usage: try-module [-o OPTS] [-t TIMEOUT_MS] [-T FSTYPE] "
		"[-c SECTION.KEY=VAL]... [-r FILE] MODULE.so TARGET LOCATION...\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct am_location locs[TRY_MAX_LOCS];
	struct am_host host = { .ah_size = sizeof(host), .ah_conf_get = try_conf_get,
				.ah_log = try_log };
	struct am_mount_req req = { .mr_size = sizeof(req), .mr_fstype = "nfs",
				    .mr_locs = locs, .mr_host = &host };
	const struct am_mount_ops *ops;
	const char *readfile = NULL;
	bool map = false;
	long start;
	int c, fd;

	while ((c = getopt(argc, argv, "Mo:t:T:c:r:")) != -1) {
		switch (c) {
		case 'o': req.mr_options = optarg; break;
		case 't': req.mr_timeout_ms = strtoul(optarg, NULL, 10); break;
		case 'T': req.mr_fstype = optarg; break;
		case 'c': if (try_add_conf(optarg)) return try_usage(); break;
		case 'r': readfile = optarg; break;
		case 'M': map = true; break;
		default: return try_usage();
		}
	}
	if (map && argc - optind >= 1)
		return try_map(argc - optind, argv + optind, &host);
	if (argc - optind < 3)
		return try_usage();
	for (c = optind + 2; c < argc; c++)
		if (try_parse_loc(argv[c], locs, &req.mr_nlocs))
			return try_usage();
	ops = try_load(argv[optind]);
	if (!ops)
		return 2;
	start = try_now_us();
	fd = ops->mount(&req);
	if (fd < 0) {
		fprintf(stderr, "try-module: mount failed: %s (%ld ms)\n",
			strerror(-fd), (try_now_us() - start) / 1000);
		return 6;
	}
	if (move_mount(fd, "", AT_FDCWD, argv[optind + 1], MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		fprintf(stderr, "try-module: attach on %s: %s\n", argv[optind + 1],
			strerror(errno));
		return 6;
	}
	close(fd);
	fprintf(stderr, "try-module: mounted in %ld ms\n", (try_now_us() - start) / 1000);
	if (readfile && try_first_byte(argv[optind + 1], readfile, start))
		return 6;
	try_print_mountinfo(argv[optind + 1]);
	return 0;
}
