/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent is two programs built from the same code (autofs-agent(8),
 * "The front and the full agent"): /sbin/autofs, the front, linked
 * statically where the build allows, which the kernel runs for every
 * lookup; and autofs-full, linked dynamically, which can do everything.
 * A static program cannot load a module, and the C library's user, group
 * and host lookups load modules of their own (nsswitch.conf) that crash a
 * static program.  So the front does what it can without them (the
 * built-in file map, bind and NFS, and which is what nearly every lookup
 * needs) and, at the first thing it cannot do, hands the whole run to the
 * full agent with execve(): same arguments, same environment, same
 * descriptors, before anything was mounted or written.  In the full agent
 * the am_front_need_*() calls return at once; in the front they return
 * only when the front can go on itself.
 */
#ifndef AM_FRONT_H
#define AM_FRONT_H

#include <stdbool.h>

/* The full agent's path, unless AUTOFS_AGENT_FULL names another. */
#define AM_FRONT_FULL	PKGLIBEXECDIR "/autofs-full"

/* Called by the front's main(), with main()'s argv, before anything else. */
void am_front_init(char **argv);

/* True in the front, until it hands over. */
bool am_front_active(void);

/* The front hands over to load module (or library) NAME. */
void am_front_need_module(const char *name);

/* The front hands over to look up users and groups, unless only files serve them. */
void am_front_need_names(void);

/*
 * The front hands over to resolve host NAME, unless it is an address or
 * only files and dns serve hosts (both built into the C library).
 */
void am_front_need_host(const char *name);

/* The front hands over COMMAND: only the kernel's lookup and list stay. */
void am_front_need_command(const char *command);

#endif
