// SPDX-License-Identifier: GPL-2.0
/*
 * map-probe: load one map backend the way the agent does and call it, so
 * the backends can be tested against real servers on their own.
 *
 *   map-probe MODULE.so MAP lookup KEY...   print each KEY's entry; a KEY
 *                                           "--pause" waits for a line on
 *                                           stdin (the test changes the
 *                                           servers meanwhile)
 *   map-probe MODULE.so MAP list            print "key<TAB>entry" lines
 *   map-probe MODULE.so MAP count           print the number of entries
 *
 * Configuration: the ini file named by AUTOFS_AGENT_CONF ([section] and
 * key = value lines).  Log lines go to stderr as "LEVEL: text".
 * Exit codes as the agent's: 0, 3 no such key, 4 source unavailable,
 * 1 any other failure, 2 usage.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "am_module.h"

#define MAX_CONF 128

struct probe_conf {
	char *pc_section[MAX_CONF];
	char *pc_key[MAX_CONF];
	char *pc_value[MAX_CONF];
	int pc_n;
};

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static void conf_load(struct probe_conf *pc, const char *path)
{
	char line[4096], section[128] = "", *s, *eq;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "map-probe: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), f) && pc->pc_n < MAX_CONF) {
		s = trim(line);
		if (*s == '#' || *s == ';' || !*s)
			continue;
		if (*s == '[') {
			snprintf(section, sizeof(section), "%.*s",
				 (int)strcspn(s + 1, "]"), s + 1);
			continue;
		}
		eq = strchr(s, '=');
		if (!eq)
			continue;
		*eq = '\0';
		pc->pc_section[pc->pc_n] = strdup(section);
		pc->pc_key[pc->pc_n] = strdup(trim(s));
		pc->pc_value[pc->pc_n] = strdup(trim(eq + 1));
		pc->pc_n++;
	}
	fclose(f);
}

static void conf_free(struct probe_conf *pc)
{
	int i;

	for (i = 0; i < pc->pc_n; i++) {
		free(pc->pc_section[i]);
		free(pc->pc_key[i]);
		free(pc->pc_value[i]);
	}
	pc->pc_n = 0;
}

static const char *probe_conf_get(void *ctx, const char *section, const char *key)
{
	struct probe_conf *pc = ctx;
	int i;

	for (i = pc->pc_n - 1; i >= 0; i--)
		if (!strcmp(pc->pc_section[i], section) && !strcmp(pc->pc_key[i], key))
			return pc->pc_value[i];
	return NULL;
}

__attribute__((format(printf, 3, 4)))
static void probe_log(void *ctx, int prio, const char *fmt, ...)
{
	static const char *const names[] = {
		"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
	};
	va_list ap;

	(void)ctx;
	fprintf(stderr, "%s: ", names[prio & 7]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int exit_code(int ret)
{
	if (ret == -ENOENT)
		return 3;
	if (ret == -EAGAIN)
		return 4;
	return ret ? 1 : 0;
}

static int print_entry(const char *key, const char *entry, void *arg)
{
	(void)arg;
	printf("%s\t%s\n", key, entry);
	return 0;
}

static int count_entry(const char *key, const char *entry, void *arg)
{
	(void)key;
	(void)entry;
	++*(unsigned long *)arg;
	return 0;
}

static const struct am_map_ops *module_load(const char *path)
{
	const struct am_map_ops *ops;
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!dl) {
		fprintf(stderr, "map-probe: %s\n", dlerror());
		exit(1);
	}
	ops = dlsym(dl, AM_MAP_SYMBOL);
	if (!ops || ops->abi != AM_MAP_ABI || ops->size < sizeof(*ops)) {
		fprintf(stderr, "map-probe: %s: no map module of ABI %d\n", path,
			AM_MAP_ABI);
		exit(1);
	}
	return ops;
}

static int run(const struct am_map_ops *ops, struct am_map *map, int argc,
	       char **argv)
{
	unsigned long n = 0;
	char *entry;
	int i, ret = 0;

	if (!strcmp(argv[0], "list"))
		return ops->enumerate(map, print_entry, NULL);
	if (!strcmp(argv[0], "count")) {
		ret = ops->enumerate(map, count_entry, &n);
		if (!ret)
			printf("%lu\n", n);
		return ret;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pause")) {
			char line[64];

			if (!fgets(line, sizeof(line), stdin))
				return -EIO;
			continue;
		}
		ret = ops->lookup(map, argv[i], &entry);
		if (ret) {
			fprintf(stderr, "map-probe: lookup %s: %s\n", argv[i],
				strerror(-ret));
			return ret;
		}
		printf("%s\n", entry);
		fflush(stdout);
		free(entry);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct probe_conf pc = { .pc_n = 0 };
	struct am_host host = {
		.ah_size = sizeof(host), .ah_ctx = &pc,
		.ah_conf_get = probe_conf_get, .ah_log = probe_log,
	};
	const char *const noargs[] = { NULL };
	struct am_map_args args = {
		.ma_size = sizeof(args), .ma_argc = 0, .ma_argv = noargs,
		.ma_host = &host,
	};
	const struct am_map_ops *ops;
	struct am_map *map;
	const char *conf = getenv("AUTOFS_AGENT_CONF");
	int ret;

	if (argc < 4 || (strcmp(argv[3], "lookup") && strcmp(argv[3], "list") &&
			 strcmp(argv[3], "count"))) {
		fprintf(stderr, "usage: map-probe MODULE.so MAP lookup KEY...|list|count\n");
		return 2;
	}
	if (conf)
		conf_load(&pc, conf);
	ops = module_load(argv[1]);
	args.ma_name = argv[2];
	ret = ops->open(&map, &args);
	if (ret) {
		fprintf(stderr, "map-probe: open %s:%s: %s\n", ops->name, argv[2],
			strerror(-ret));
	} else {
		ret = run(ops, map, argc - 3, argv + 3);
		ops->close(map);
	}
	conf_free(&pc);
	return exit_code(ret);
}
