/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helper process of a trap filesystem (autofsng, trapfs), run through
 * call_usermodehelper(): it leads a session of its own, so that its process
 * group names it and its children at the traps; its standard input, output
 * and error are /dev/null; the files its owner gave it sit at descriptor
 * TRAP_HELPER_FD and up; when it runs out of time its whole process group
 * is killed.  The owner keeps the request, the waiting and the timer.
 *
 * Locking: the owner's spinlock *lock protects pgrp and killed.
 */
#ifndef _LINUX_TRAP_HELPER_H
#define _LINUX_TRAP_HELPER_H

#include <linux/spinlock.h>
#include <linux/types.h>

struct file;
struct pid;

#define TRAP_HELPER_FD		3	/* the descriptor of the first file */
#define TRAP_HELPER_MAX_FILES	2

struct trap_helper {
	spinlock_t	*lock;		/* the owner's */
	struct pid	*pgrp;		/* the helper's group while it runs */
	bool		killed;		/* out of time: killed, or never started */
	unsigned int	nr_files;
	struct file	*files[TRAP_HELPER_MAX_FILES];
};

void trap_helper_init(struct trap_helper *th, spinlock_t *lock);
int trap_helper_add_file(struct trap_helper *th, struct file *file);
void trap_helper_put_files(struct trap_helper *th);
int trap_helper_enter(struct trap_helper *th);
bool trap_helper_exit(struct trap_helper *th);
bool trap_helper_kill(struct trap_helper *th);

#endif /* _LINUX_TRAP_HELPER_H */
