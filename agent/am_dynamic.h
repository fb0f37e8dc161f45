/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The static agent and the dynamic one (dynamic.c).  A release build makes
 * /sbin/autofs a static program (configure --enable-static-agent): the
 * kernel runs it for every lookup, and it spends nothing in the dynamic
 * loader.  The file map and the bind, NFS and generic mounts are built in.
 *
 * What a static program cannot do safely is load a shared object: a module
 * or an NSS service other than the C library's own "files" and "dns".
 * Each place that would calls am_dynamic_need() first, which
 * hands the run to the dynamic agent (autofs-dynamic, found in the module
 * path) by exec, with the arguments, environment and kernel descriptors the
 * static one was given.  That is safe only while the run has done nothing
 * the dynamic agent would do again or cannot undo; am_dynamic_seal() marks
 * the first such step (joining the requester's namespace, the first key
 * written to WRITEFD), after which am_dynamic_need() refuses; so does a
 * child process, and a run handed over once already.
 *
 * In the dynamic agent and in the modules every call is a no-op.
 */
#ifndef AM_DYNAMIC_H
#define AM_DYNAMIC_H

#include <stdbool.h>

#define AM_DYNAMIC_FILE "autofs-dynamic"

#ifdef AM_STATIC
void am_dynamic_save(char **argv, char **envp);
void am_dynamic_where(const char *modpath);
/* Returns only when the hand-over failed or was refused: -errno. */
int am_dynamic_need(const char *why);
/*
 * Hands over unless nsswitch.conf's DB lines name only "files" and "dns";
 * when they do, the C library is told to use just what was checked.
 */
int am_dynamic_nss(const char *db);
void am_dynamic_seal(void);
#else
static inline void am_dynamic_save(char **argv, char **envp)
{
	(void)argv;
	(void)envp;
}

static inline void am_dynamic_where(const char *modpath)
{
	(void)modpath;
}

static inline int am_dynamic_need(const char *why)
{
	(void)why;
	return 0;
}

static inline int am_dynamic_nss(const char *db)
{
	(void)db;
	return 0;
}

static inline void am_dynamic_seal(void)
{
}
#endif

#endif
