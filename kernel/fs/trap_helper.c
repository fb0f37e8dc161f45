// SPDX-License-Identifier: GPL-2.0
/*
 * The helper process of a trap filesystem: what autofsng's agent and
 * trapfs's helper have in common.  See include/linux/trap_helper.h.
 *
 * The owner sets the helper up with trap_helper_init() and
 * trap_helper_add_file(), calls trap_helper_enter() from the init
 * callback of call_usermodehelper_setup() (in the new process, before
 * exec), trap_helper_exit() from its cleanup callback (the helper has
 * exited), and trap_helper_kill() from its timer.  Locking: the owner's
 * spinlock th->lock protects th->pgrp and th->killed; the files belong to
 * the owner until trap_helper_put_files().
 */
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/trap_helper.h>

/**
 * trap_helper_init - an empty helper
 * @th: the helper
 * @lock: the owner's spinlock, over @th's process group
 */
void trap_helper_init(struct trap_helper *th, spinlock_t *lock)
{
	memset(th, 0, sizeof(*th));
	th->lock = lock;
}

/**
 * trap_helper_add_file - give the helper its next descriptor
 * @th: the helper, not started
 * @file: the file, whose reference @th takes over
 *
 * Return: 0, or -EMFILE (and @file is put) past TRAP_HELPER_MAX_FILES.
 */
int trap_helper_add_file(struct trap_helper *th, struct file *file)
{
	if (th->nr_files == TRAP_HELPER_MAX_FILES) {
		fput(file);
		return -EMFILE;
	}
	th->files[th->nr_files++] = file;
	return 0;
}

/**
 * trap_helper_put_files - drop the helper's files
 * @th: the helper, exited or never started
 *
 * In a kernel thread (a workqueue running the helper) the last reference
 * goes at once, not from the delayed fput work: a waiter woken next may
 * unmount the filesystem the file holds.
 */
void trap_helper_put_files(struct trap_helper *th)
{
	struct file *file;

	while (th->nr_files) {
		file = th->files[--th->nr_files];
		if (current->flags & PF_KTHREAD)
			__fput_sync(file);
		else
			fput(file);
	}
}

static void trap_helper_stdio(void)
{
	struct file *null;
	unsigned int fd;

	null = filp_open("/dev/null", O_RDWR, 0);
	if (IS_ERR(null))
		return;
	for (fd = 0; fd < 3; fd++)
		replace_fd(fd, null, 0);
	fput(null);
}

/**
 * trap_helper_enter - make the current process the helper
 * @th: the helper
 *
 * Called from the usermode helper's init callback, before exec: a new
 * session, its process group recorded, /dev/null on 0 to 2, the files on
 * TRAP_HELPER_FD and up.
 *
 * Return: 0, -ETIME when the helper ran out of time before it started,
 * or the error of setsid() or of installing a file.
 */
int trap_helper_enter(struct trap_helper *th)
{
	unsigned int i;
	int err;

	err = ksys_setsid();
	if (err < 0)
		return err;
	spin_lock(th->lock);
	if (th->killed) {
		spin_unlock(th->lock);
		return -ETIME;
	}
	th->pgrp = get_pid(task_pgrp(current));
	spin_unlock(th->lock);

	trap_helper_stdio();
	for (i = 0; i < th->nr_files; i++) {
		err = replace_fd(TRAP_HELPER_FD + i, th->files[i], 0);
		if (err < 0)
			return err;
	}
	return 0;
}

/**
 * trap_helper_exit - the helper has exited (or never started)
 * @th: the helper
 *
 * Forgets its process group and drops its files, whose references (a
 * mount's, for an O_PATH file) must not outlive the run.
 *
 * Return: whether it was killed for running out of time.
 */
bool trap_helper_exit(struct trap_helper *th)
{
	struct pid *pgrp;
	bool killed;

	spin_lock(th->lock);
	pgrp = th->pgrp;
	th->pgrp = NULL;
	killed = th->killed;
	spin_unlock(th->lock);
	put_pid(pgrp);
	trap_helper_put_files(th);
	return killed;
}

/**
 * trap_helper_kill - the helper is out of time
 * @th: the helper
 *
 * Kills its whole process group with SIGKILL; a helper not started yet
 * will not start.
 *
 * Return: whether a running helper was killed.
 */
bool trap_helper_kill(struct trap_helper *th)
{
	struct pid *pgrp;

	spin_lock(th->lock);
	th->killed = true;
	pgrp = get_pid(th->pgrp);
	spin_unlock(th->lock);
	if (!pgrp)
		return false;
	kill_pgrp(pgrp, SIGKILL, 1);
	put_pid(pgrp);
	return true;
}
