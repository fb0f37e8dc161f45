// SPDX-License-Identifier: GPL-2.0
/*
 * The front's hand-over to the full agent (am_front.h): the one place that
 * decides what the front may not do itself.  Each am_front_need_*() returns
 * at once in the full agent (am_front_init() was not called) and when the
 * front can go on; otherwise it execs the full agent and does not return.
 * The descriptors the kernel passed (MOUNTFD, MNTNSFD, WRITEFD) are still
 * open, without close-on-exec, as the kernel gave them; everything the
 * front opened itself is close-on-exec.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "am_front.h"
#include "am_util.h"

#define FRONT_NSSWITCH	"/etc/nsswitch.conf"

static char **front_argv;

void am_front_init(char **argv)
{
	front_argv = argv;
}

bool am_front_active(void)
{
	return front_argv != NULL;
}

static void front_handover(const char *why)
{
	const char *full = getenv("AUTOFS_AGENT_FULL");

	if (!full || !*full)
		full = AM_FRONT_FULL;
	am_log(LOG_DEBUG, "handing over to %s: %s", full, why);
	fflush(NULL);
	execv(full, front_argv);
	am_log(LOG_ERR, "cannot run the full agent %s (%s), which %s needs",
	       full, strerror(errno), why);
	_exit(AM_EXIT_INTERNAL);
}

/*
 * Whether every source of DB in nsswitch.conf is one of BUILTIN (a list of
 * names, each followed by a space), as the C library reads the file: no
 * file or no line means its default, files (and dns for hosts), which
 * are built into it, static or not.
 */
static bool front_nss_builtin(const char *db, const char *builtin)
{
	char *text, *line, *save = NULL, *tok, *tsave, want[16];
	bool ok = true;
	size_t len;
	int err;

	err = am_read_file(FRONT_NSSWITCH, 1 << 20, &text, &len);
	if (err)	/* without the file, the defaults; unread, safer to hand over */
		return err == -ENOENT;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (strncmp(line, db, strlen(db)) || line[strlen(db)] != ':')
			continue;
		for (tok = strtok_r(line + strlen(db) + 1, " \t", &tsave);
		     tok && *tok != '#'; tok = strtok_r(NULL, " \t", &tsave)) {
			snprintf(want, sizeof(want), "%s ", tok);
			/* [NOTFOUND=return]: an action, not a source */
			if (*tok != '[' && !strchr(tok, ']') &&
			    (strlen(tok) >= sizeof(want) - 1 || !strstr(builtin, want)))
				ok = false;
		}
	}
	free(text);
	return ok;
}

void am_front_need_module(const char *name)
{
	char why[96];

	if (!front_argv)
		return;
	snprintf(why, sizeof(why), "module %.64s", name);
	front_handover(why);
}

void am_front_need_names(void)
{
	if (front_argv && !(front_nss_builtin("passwd", "files ") &&
			    front_nss_builtin("group", "files ")))
		front_handover("user and group names");
}

void am_front_need_host(const char *name)
{
	unsigned char addr[16];
	char why[300];

	if (!front_argv || inet_pton(AF_INET, name, addr) == 1 ||
	    inet_pton(AF_INET6, name, addr) == 1 || front_nss_builtin("hosts", "files dns "))
		return;
	snprintf(why, sizeof(why), "host name %.255s", name);
	front_handover(why);
}

void am_front_need_command(const char *command)
{
	char why[96];

	if (!front_argv || !strcmp(command, "lookup") || !strcmp(command, "list"))
		return;
	snprintf(why, sizeof(why), "command %.64s", command);
	front_handover(why);
}
