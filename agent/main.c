// SPDX-License-Identifier: GPL-2.0
/*
 * /sbin/autofs: the automounter's agent.  The kernel runs `lookup` and
 * `list`; an administrator runs start, stop, status, dump and test.  Only
 * main decides the exit code (see am_util.h and autofs-agent(8)).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "am_dynamic.h"
#include "am_lookup.h"
#include "am_stage.h"
#include "am_util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: autofs [-v] COMMAND\n"
		"  lookup                 mount one key (run by the kernel; env MAPNAME MAPKEY\n"
		"                         MAPOFFSET MAPOPTIONS MOUNTFD MNTNSFD UID GID)\n"
		"  list                   write a map's keys to WRITEFD (run by the kernel)\n"
		"  start [MASTER]         mount the autofsng triggers of the master map\n"
		"  stop                   remove the triggers that are not in use\n"
		"  status [--json]        triggers, their mounts and expiry countdowns\n"
		"  dump [MASTER]          every map as the agent parses it\n"
		"  test MAP KEY [OPTIONS] what a lookup would mount, mounting nothing;\n"
		"                         MAP may be a mount point of the master map\n"
		"  help                   this text\n");
}

/*
 * Whoever runs us with stdin, stdout or stderr closed would otherwise see the
 * next file we open (a map, the syslog socket) become fd 2, and log lines
 * written into it.  The kernel runs us that way, with no descriptors at all:
 * then stderr goes to the kernel log, so that what a library or the C
 * runtime prints there (a sanitizer report, an assertion) is not lost.
 */
static void stdio_ensure(void)
{
	int fd, want;

	for (want = STDIN_FILENO; want <= STDERR_FILENO; want++) {
		if (fcntl(want, F_GETFD) >= 0 || errno != EBADF)
			continue;
		fd = -1;
		if (want == STDERR_FILENO)
			fd = open("/dev/kmsg", O_WRONLY);
		if (fd < 0)
			fd = open("/dev/null", O_RDWR);
		if (fd >= 0 && fd != want) {
			dup2(fd, want);
			close(fd);
		}
	}
}

static bool kernel_command(const char *cmd)
{
	return !strcmp(cmd, "lookup") || !strcmp(cmd, "list");
}

static int dispatch(struct am_ctx *ctx, int argc, char **argv)
{
	const char *cmd = argv[0];

	if (!strcmp(cmd, "lookup") && argc == 1)
		return am_cmd_lookup(ctx);
	if (!strcmp(cmd, "list") && argc == 1)
		return am_cmd_list(ctx);
	if (!strcmp(cmd, "start") && argc <= 2)
		return am_cmd_start(ctx, argv[1]);
	if (!strcmp(cmd, "stop") && argc == 1)
		return am_cmd_stop(ctx);
	if (!strcmp(cmd, "status") && argc == 1)
		return am_cmd_status(ctx, false);
	if (!strcmp(cmd, "status") && argc == 2 && !strcmp(argv[1], "--json"))
		return am_cmd_status(ctx, true);
	if (!strcmp(cmd, "dump") && argc <= 2)
		return am_cmd_dump(ctx, argv[1]);
	if (!strcmp(cmd, "test") && (argc == 3 || argc == 4))
		return am_cmd_test(ctx, argv[1], argv[2], argv[3]);
	usage(stderr);
	return AM_EXIT_USAGE;
}

/*
 * The static agent keeps the kernel's commands, which it was made for, and
 * hands an administrator's to the dynamic agent before they start: they
 * mount and print as they go, and may need a module on the way.
 */
static int hand_over_command(const char *cmd)
{
	char why[64];

	if (kernel_command(cmd))
		return 0;
	snprintf(why, sizeof(why), "autofs %s", cmd);
	return am_dynamic_need(why);
}

int main(int argc, char **argv, char **envp)
{
	struct am_ctx ctx;
	bool verbose = false, interactive;
	unsigned int limit, pending;
	int ret;

	am_stage_begin();
	am_dynamic_save(argv, envp);
	stdio_ensure();
	am_signals_setup();
	argc--, argv++;
	while (argc && (!strcmp(argv[0], "-v") || !strcmp(argv[0], "--verbose"))) {
		verbose = true;
		argc--, argv++;
	}
	if (!argc || !strcmp(argv[0], "help") || !strcmp(argv[0], "--help")) {
		usage(argc ? stdout : stderr);
		return argc ? AM_EXIT_OK : AM_EXIT_USAGE;
	}
	interactive = !kernel_command(argv[0]);
	am_log_setup(verbose ? LOG_DEBUG : LOG_NOTICE, true, !interactive);
	ret = am_ctx_init(&ctx);
	if (ret) {
		am_ctx_free(&ctx);
		return ret == -ENOMEM ? AM_EXIT_INTERNAL : AM_EXIT_USAGE;
	}
	am_log_setup(verbose ? LOG_DEBUG : ctx.ac_conf.cf_log_level,
		     interactive || ctx.ac_conf.cf_log_stderr,
		     !interactive || !strcmp(argv[0], "start") || !strcmp(argv[0], "stop"));
	if (hand_over_command(argv[0])) {
		am_ctx_free(&ctx);
		return AM_EXIT_INTERNAL;
	}
	/*
	 * A lookup never outlives its sources and its mount by much; one the
	 * static agent handed over keeps the alarm it set (am_dynamic.h).
	 */
	limit = ctx.ac_conf.cf_program_timeout + ctx.ac_conf.cf_mount_timeout + 30;
	if (!interactive) {
		pending = alarm(0);
		alarm(pending && pending < limit ? pending : limit);
	}
	ret = dispatch(&ctx, argc, argv);
	am_ctx_free(&ctx);
	fflush(stdout);
	return ret;
}
