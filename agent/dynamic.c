// SPDX-License-Identifier: GPL-2.0
/*
 * The static agent's hand-over to the dynamic one (am_dynamic.h).  Built
 * only into the static agent.
 *
 * Locking: none; the agent is one thread.  State: what main was given (its
 * arguments, environment and signal mask), the module path to find the
 * dynamic agent in, and whether a step that must not be done twice has been
 * taken (sealed).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nss.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <linux/close_range.h>
#include <sys/syscall.h>

#include "am_agent.h"
#include "am_dynamic.h"
#include "am_lookup.h"
#include "am_util.h"

/* The descriptors the kernel gives a lookup or a listing, by variable. */
static const char *const kernel_fds[] = { "MOUNTFD", "MNTNSFD", "WRITEFD" };

/*
 * Set in the dynamic agent's environment: a run handed over once is never
 * handed over again (an autofs-dynamic that is the static agent would
 * otherwise run itself without end).
 */
#define HANDED_VAR "AUTOFS_AGENT_HANDED_OVER"

static struct {
	char **dy_argv, **dy_envp;
	const char *dy_modpath;
	sigset_t dy_mask;
	pid_t dy_pid;
	bool dy_sealed, dy_again;
} dynamic;

void am_dynamic_save(char **argv, char **envp)
{
	dynamic.dy_argv = argv;
	dynamic.dy_envp = envp;
	dynamic.dy_pid = getpid();
	dynamic.dy_again = getenv(HANDED_VAR) != NULL;
	sigprocmask(SIG_SETMASK, NULL, &dynamic.dy_mask);
}

void am_dynamic_where(const char *modpath)
{
	dynamic.dy_modpath = modpath;
}

void am_dynamic_seal(void)
{
	dynamic.dy_sealed = true;
}

/*
 * What the dynamic agent inherits: the kernel's descriptors (named in the
 * environment it also inherits) and stdin, stdout, stderr; nothing the
 * static run opened.
 */
static void fds_for_exec(void)
{
	size_t i;
	int fd;

	syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
	for (i = 0; i < sizeof(kernel_fds) / sizeof(kernel_fds[0]); i++) {
		fd = am_env_fd(kernel_fds[i], false);
		if (fd >= 3)
			fcntl(fd, F_SETFD, 0);
	}
}

/* main's environment and HANDED_VAR.  Returns: NULL when out of memory. */
static char **env_for_exec(void)
{
	size_t n = 0;
	char **env;

	while (dynamic.dy_envp[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	memcpy(env, dynamic.dy_envp, n * sizeof(*env));
	env[n] = HANDED_VAR "=1";
	return env;
}

/*
 * exec PATH as main was run.  The alarm stays: the dynamic agent's limit
 * counts from the static one's start.  Returns: -errno when it could not.
 */
static int exec_dynamic(const char *path)
{
	char **env = env_for_exec();
	sigset_t now;
	int err;

	if (!env)
		return -ENOMEM;
	sigprocmask(SIG_SETMASK, &dynamic.dy_mask, &now);
	fds_for_exec();
	execve(path, dynamic.dy_argv, env);
	err = errno;
	sigprocmask(SIG_SETMASK, &now, NULL);
	free(env);
	return -err;
}

/* Returns: why this run may not hand over, or NULL. */
static const char *hand_over_refused(void)
{
	if (dynamic.dy_sealed)
		return "this run is past the point of handing over";
	if (getpid() != dynamic.dy_pid)
		return "a child process of the agent cannot hand over";
	if (dynamic.dy_again)
		return "this run was handed over once already: " AM_DYNAMIC_FILE " is not the dynamic agent";
	return NULL;
}

int am_dynamic_need(const char *why)
{
	const char *refused = hand_over_refused();
	char *path;
	int err;

	if (refused) {
		am_log(LOG_ERR, "%s needs the dynamic agent, and %s", why, refused);
		return -EPERM;
	}
	err = dynamic.dy_modpath ? am_module_path(dynamic.dy_modpath, AM_DYNAMIC_FILE, &path) :
				   -ENOENT;
	if (err) {
		am_log(LOG_ERR, "%s needs the dynamic agent: no %s in %s", why, AM_DYNAMIC_FILE,
		       dynamic.dy_modpath ? dynamic.dy_modpath : "the module path");
		return err;
	}
	am_log(LOG_DEBUG, "%s: handing over to %s", why, path);
	err = exec_dynamic(path);
	am_log(LOG_ERR, "%s: running %s: %s", why, path, strerror(-err));
	free(path);
	return err;
}

/* The word at *P (a service, or a "[...]" action group), and past it. */
static size_t nss_word(const char **p)
{
	const char *s = *p;
	size_t n = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '[') {
		n = strcspn(s, "]");
		n += s[n] == ']';
	} else {
		while (s[n] && !isspace((unsigned char)s[n]) && s[n] != '[')
			n++;
	}
	*p = s;
	return n;
}

/* Whether the services of LINE are all built in ("#" is a service too). */
static bool nss_services_builtin(const char *line)
{
	const char *p = line;
	size_t n;

	for (; (n = nss_word(&p)); p += n) {
		if (*p == '[')
			continue;
		if (!((n == 5 && !strncmp(p, "files", 5)) || (n == 3 && !strncmp(p, "dns", 3))))
			return false;
	}
	return true;
}

/*
 * The services of LINE when it is one of DB's, as the C library reads it
 * (nss_database.c): blanks, the name up to a blank or a colon, then blanks
 * and colons.  The name is taken in any case, which reads more lines than
 * the library: the answer is then only more often "hand over".
 */
static const char *nss_line_of(const char *line, const char *db)
{
	size_t dblen = strlen(db);

	while (isspace((unsigned char)*line))
		line++;
	if (strncasecmp(line, db, dblen) || (line[dblen] != ':' && !isspace((unsigned char)line[dblen])))
		return NULL;
	line += dblen;
	while (*line == ':' || isspace((unsigned char)*line))
		line++;
	return line;
}

/* nsswitch.conf, read once for the run.  Returns: 0, -errno (kept too). */
static int nss_text(const char **text, size_t *size)
{
	static char *data;
	static size_t len;
	static int err = 1;

	if (err > 0)
		err = am_read_file("/etc/nsswitch.conf", 1 << 20, &data, &len);
	*text = data;
	*size = len;
	return err;
}

/*
 * Whether every DB line of nsswitch.conf names only services the static C
 * library has built in, and into SERVICES (LEN bytes) the last one's, the
 * one the library uses (or DEF: its default without a line).  A line is
 * read as the library reads it, up to a NUL or its end.
 */
static bool nss_builtin(const char *db, const char *def, char *services, size_t len)
{
	const char *line, *end, *svc, *text;
	char *copy;
	size_t size;
	bool ok = true;
	int err;

	snprintf(services, len, "%s", def);
	err = nss_text(&text, &size);
	if (err)
		return err == -ENOENT;
	for (line = text; ok && line < text + size; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text + size - line));
		end = end ? end : text + size;
		copy = strndup(line, (size_t)(end - line));
		svc = copy ? nss_line_of(copy, db) : NULL;
		ok = copy && (!svc || nss_services_builtin(svc));
		if (ok && svc && strlen(svc) < len)
			snprintf(services, len, "%s", svc);
		ok = ok && (!svc || strlen(svc) < len);
		free(copy);
	}
	return ok;
}

/*
 * The services the C library may use for DB in this process, set to what
 * nss_builtin() checked: whatever the check may misread, the static library
 * then never loads a service of its own.
 */
int am_dynamic_nss(const char *db)
{
	const char *def = strcmp(db, "hosts") ? "files" : "dns [!UNAVAIL=return] files";
	char why[64], services[512];

	if (nss_builtin(db, def, services, sizeof(services)) &&
	    !__nss_configure_lookup(db, services))
		return 0;
	snprintf(why, sizeof(why), "an NSS service of %s", db);
	return am_dynamic_need(why);
}
