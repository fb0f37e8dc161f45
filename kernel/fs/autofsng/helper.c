// SPDX-License-Identifier: GPL-2.0-only
/*
 * autofsng: running the agent.
 *
 * The agent runs through call_usermodehelper in the initial namespaces,
 * as a trap_helper (fs/trap_helper.c, shared with trapfs): its init
 * callback, in the new process before exec, makes it the leader of a new
 * session (so that its process group identifies it and its children at
 * the traps) and installs the request's files at fds 3 and up.  The
 * starter waits killably; the cleanup callback, which runs once the agent
 * has exited or could not start, publishes the status and wakes every
 * waiter.  A delayed work item kills the agent's process group when it
 * runs past fs.autofsng.agent_timeout.
 *
 * At most fs.autofsng.max_agents agents run at once per superblock.  A
 * starter beyond that queues and waits killably; an agent that ends hands
 * its slot to the next waiter.  Waiters are served round-robin by the
 * starter's real uid (from a user namespace, its owner's: every uid a
 * container maps counts as the user who made it), each uid's in the order
 * they came: sbi->slot_waiters
 * holds the first waiter of each uid, the uid that was served goes to the
 * back, and its next waiter (on the first one's peers ring) takes its
 * place.  So one user's backlog delays another user's request by at most
 * one slot per other waiting uid, not by the backlog.  A uid that already
 * runs fs.autofsng.max_agents_per_user agents waits for one of them to end,
 * and the next uid is served meanwhile: one user's slow keys cannot hold
 * every slot.  A request another user walks into while it is queued moves
 * to that user's turn if the user has nothing queued
 * (autofsng_helper_join()): queueing the key of somebody else's home
 * behind a backlog of one's own does not make its owner wait for the
 * backlog.  Finding a uid's waiters is linear in the uids waiting, not in
 * the waiters; counting its agents is linear in the slots.  A starter
 * killed in the queue cancels its helper (status AUTOFSNG_CANCELLED): no
 * agent runs for it.  All of it is under sbi->lock.
 */
#define pr_fmt(fmt) "autofsng: " fmt

#include <linux/fs.h>
#include <linux/cred.h>
#include <linux/user_namespace.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/umh.h>
#include "autofsng_i.h"

/* Every helper gets these after its own variables. */
static const char *const autofsng_env_fixed[] = {
	"HOME=/",
	"PATH=/sbin:/bin:/usr/sbin:/usr/bin",
};

/**
 * autofsng_helper_envp - give a helper its NULL-terminated environment
 * @h: the helper, with no environment yet
 * @nr: the number of variables the caller will put first
 *
 * The array ends with HOME and PATH, already filled in: the caller fills
 * slots 0 to @nr - 1 in order and stops at the first failed allocation.
 * autofsng_helper_free_args() frees the array, however much was filled.
 *
 * Return: the array (also in @h->envp), or NULL.
 */
char **autofsng_helper_envp(struct autofsng_helper *h, unsigned int nr)
{
	unsigned int i;

	h->envp = kcalloc(nr + ARRAY_SIZE(autofsng_env_fixed) + 1,
			  sizeof(char *), GFP_KERNEL);
	if (!h->envp)
		return NULL;
	h->envc = nr + ARRAY_SIZE(autofsng_env_fixed);
	for (i = 0; i < ARRAY_SIZE(autofsng_env_fixed); i++) {
		h->envp[nr + i] = kstrdup(autofsng_env_fixed[i], GFP_KERNEL);
		if (!h->envp[nr + i])
			return NULL;
	}
	return h->envp;
}

/**
 * autofsng_helper_free_args - free argv, envp and the files of a helper
 * @h: the helper
 */
void autofsng_helper_free_args(struct autofsng_helper *h)
{
	unsigned int i;

	kfree(h->argv[0]);
	h->argv[0] = NULL;
	if (h->envp) {
		for (i = 0; i < h->envc; i++)
			kfree(h->envp[i]);
		kfree(h->envp);
		h->envp = NULL;
		h->envc = 0;
	}
	trap_helper_put_files(&h->th);
}

/**
 * autofsng_helper_put - drop a reference on a helper
 * @h: the helper
 */
void autofsng_helper_put(struct autofsng_helper *h)
{
	if (!refcount_dec_and_test(&h->count))
		return;
	autofsng_helper_free_args(h);
	h->release(h);
}

static void autofsng_helper_timeout(struct work_struct *work)
{
	struct autofsng_helper *h = container_of(to_delayed_work(work),
						 struct autofsng_helper,
						 timeout);

	pr_warn_ratelimited("agent '%s %s' for map %s ran past fs.autofsng.agent_timeout, killing it\n",
			    h->argv[0], h->argv[1], h->sbi->mapname);
	trap_helper_kill(&h->th);
}

/* Runs in the new process, before exec. */
static int autofsng_helper_setup(struct subprocess_info *info,
				 struct cred *new)
{
	struct autofsng_helper *h = info->data;

	return trap_helper_enter(&h->th);
}

/* The first waiter of @uid, or NULL; called with sbi->lock held. */
static struct autofsng_helper *autofsng_slot_first(struct autofsng_sb_info *sbi,
						   kuid_t uid)
{
	struct autofsng_helper *h;

	list_for_each_entry(h, &sbi->slot_waiters, queue) {
		if (uid_eq(h->uid, uid))
			return h;
	}
	return NULL;
}

/* Queue @h behind its uid's waiters; called with sbi->lock held. */
static void autofsng_slot_enqueue(struct autofsng_sb_info *sbi,
				  struct autofsng_helper *h)
{
	struct autofsng_helper *first = autofsng_slot_first(sbi, h->uid);

	if (first)
		list_add_tail(&h->peers, &first->peers);
	else
		list_add_tail(&h->queue, &sbi->slot_waiters);
}

/*
 * Take @h out of the queue, if it is in it.  The next waiter of its uid
 * becomes the uid's first: at the back of the round when @h was served
 * (@served), in @h's place when @h gave up.  Called with sbi->lock held.
 */
static void autofsng_slot_dequeue(struct autofsng_sb_info *sbi,
				  struct autofsng_helper *h, bool served)
{
	struct autofsng_helper *next = NULL;

	if (!list_empty(&h->peers))
		next = list_first_entry(&h->peers, struct autofsng_helper,
					peers);
	list_del_init(&h->peers);
	if (list_empty(&h->queue))
		return;
	if (next && !served) {
		list_replace_init(&h->queue, &next->queue);
		return;
	}
	list_del_init(&h->queue);
	if (next)
		list_add_tail(&next->queue, &sbi->slot_waiters);
}

/* Whether @h waits for a slot; called with sbi->lock held. */
static bool autofsng_slot_queued(struct autofsng_helper *h)
{
	return !list_empty(&h->queue) || !list_empty(&h->peers);
}

/* How many slots @uid holds; called with sbi->lock held. */
static unsigned int autofsng_slot_held(struct autofsng_sb_info *sbi,
				       kuid_t uid)
{
	struct autofsng_helper *h;
	unsigned int n = 0;

	list_for_each_entry(h, &sbi->slot_holders, held)
		n += uid_eq(h->uid, uid);
	return n;
}

/*
 * The first uid's first waiter, in turn order, whose uid holds fewer than
 * fs.autofsng.max_agents_per_user slots, or NULL; sbi->lock held.
 */
static struct autofsng_helper *autofsng_slot_next(struct autofsng_sb_info *sbi)
{
	unsigned int cap = autofsng_max_agents_per_user();
	struct autofsng_helper *h;

	list_for_each_entry(h, &sbi->slot_waiters, queue) {
		if (autofsng_slot_held(sbi, h->uid) < cap)
			return h;
	}
	return NULL;
}

/* Hand out free slots, a uid at a time; called with sbi->lock held. */
static void autofsng_slot_grant(struct autofsng_sb_info *sbi)
{
	struct autofsng_helper *next;

	while (sbi->nr_agents < autofsng_max_agents()) {
		next = autofsng_slot_next(sbi);
		if (!next)
			break;
		autofsng_slot_dequeue(sbi, next, true);
		next->slot = true;
		list_add(&next->held, &sbi->slot_holders);
		sbi->nr_agents++;
		complete(&next->granted);
	}
}

/* Give back @h's slot, if it holds one, to the next in the queue. */
static void autofsng_slot_put(struct autofsng_helper *h)
{
	struct autofsng_sb_info *sbi = h->sbi;

	spin_lock(&sbi->lock);
	if (h->slot) {
		h->slot = false;
		list_del_init(&h->held);
		sbi->nr_agents--;
		autofsng_slot_grant(sbi);
	}
	spin_unlock(&sbi->lock);
}

/*
 * Take one of the superblock's agent slots, after those who asked before
 * with the caller's uid and at the caller's uid's turn.  Return: 0, or
 * -EINTR when the caller was killed in the queue.
 */
static int autofsng_slot_get(struct autofsng_helper *h)
{
	struct autofsng_sb_info *sbi = h->sbi;
	bool queued;

	spin_lock(&sbi->lock);
	autofsng_slot_enqueue(sbi, h);
	autofsng_slot_grant(sbi);
	queued = !h->slot;
	spin_unlock(&sbi->lock);
	if (!queued || !wait_for_completion_killable(&h->granted))
		return 0;

	spin_lock(&sbi->lock);
	autofsng_slot_dequeue(sbi, h, false);
	spin_unlock(&sbi->lock);
	/* The slot may have come between the signal and the lock. */
	autofsng_slot_put(h);
	return -EINTR;
}

static void autofsng_helper_complete(struct autofsng_helper *h, int status)
{
	h->status = status;
	if (h->finish)
		h->finish(h);
	complete_all(&h->done);
}

/* Runs once the agent has exited, or when it could not be started. */
static void autofsng_helper_cleanup(struct subprocess_info *info)
{
	struct autofsng_helper *h = info->data;
	struct autofsng_sb_info *sbi = h->sbi;
	int status = info->retval;

	cancel_delayed_work_sync(&h->timeout);
	spin_lock(&sbi->lock);
	list_del_init(&h->list);
	spin_unlock(&sbi->lock);
	if (trap_helper_exit(&h->th))
		status = -ETIMEDOUT;
	atomic_dec(&sbi->inflight);
	autofsng_slot_put(h);

	autofsng_helper_complete(h, status);
	autofsng_helper_put(h);
}

/*
 * The uid a request is charged to: the starter's real uid, or, from a user
 * namespace, the owner of its outermost user namespace below the initial
 * one.  The uids a container maps (subuids) are all its owner's, so that
 * a container cannot take a slot and a turn per uid it maps.
 */
static kuid_t autofsng_charged_uid(void)
{
	const struct user_namespace *ns = current_user_ns();

	if (ns == &init_user_ns)
		return current_uid();
	while (ns->parent != &init_user_ns)
		ns = ns->parent;
	return ns->owner;
}

/**
 * autofsng_helper_init_common - prepare a helper for one agent command
 * @h: the helper, zeroed, with ->finish and ->release set
 * @sbi: the superblock it works for
 * @cmd: "lookup" or "list"
 *
 * The caller holds the only reference and adds the environment and files.
 *
 * Return: 0, -ENOENT when no agent is configured, or -ENOMEM.
 */
int autofsng_helper_init_common(struct autofsng_helper *h,
				struct autofsng_sb_info *sbi,
				const char *cmd)
{
	refcount_set(&h->count, 1);
	h->sbi = sbi;
	trap_helper_init(&h->th, &sbi->lock);
	INIT_LIST_HEAD(&h->list);
	INIT_LIST_HEAD(&h->queue);
	INIT_LIST_HEAD(&h->peers);
	INIT_LIST_HEAD(&h->held);
	h->uid = autofsng_charged_uid();
	init_completion(&h->granted);
	init_completion(&h->done);
	INIT_DELAYED_WORK(&h->timeout, autofsng_helper_timeout);
	h->argv[1] = (char *)cmd;
	h->argv[0] = autofsng_agent_path();
	if (!h->argv[0])
		return -ENOMEM;
	if (!h->argv[0][0])
		return -ENOENT;
	return 0;
}

/**
 * autofsng_helper_run - run the agent and wait for it
 * @h: the helper, prepared; failure to prepare is passed as @h->status
 *
 * Waits for an agent slot first.  Completes @h in every case: waiters see
 * the status through autofsng_helper_wait(), AUTOFSNG_CANCELLED when the
 * caller was killed before the agent started.  Once the agent runs, a
 * killed caller returns early and the agent goes on.
 *
 * Return: 0, or a negative error when the agent could not be started or
 * the caller was killed.
 */
int autofsng_helper_run(struct autofsng_helper *h)
{
	struct autofsng_sb_info *sbi = h->sbi;
	struct subprocess_info *info;

	if (h->status) {
		autofsng_helper_complete(h, h->status);
		return h->status;
	}
	if (autofsng_slot_get(h)) {
		autofsng_helper_complete(h, AUTOFSNG_CANCELLED);
		return -EINTR;
	}
	info = call_usermodehelper_setup(h->argv[0], h->argv, h->envp,
					 GFP_KERNEL, autofsng_helper_setup,
					 autofsng_helper_cleanup, h);
	if (!info) {
		autofsng_slot_put(h);
		autofsng_helper_complete(h, -ENOMEM);
		return -ENOMEM;
	}
	refcount_inc(&h->count);
	spin_lock(&sbi->lock);
	list_add(&h->list, &sbi->helpers);
	spin_unlock(&sbi->lock);
	atomic_inc(&sbi->inflight);
	schedule_delayed_work(&h->timeout, autofsng_agent_timeout());
	return call_usermodehelper_exec(info, UMH_WAIT_PROC | UMH_KILLABLE);
}

/*
 * Whether @h, queued, would wait less at a turn of @uid: @uid has nothing
 * queued and holds fewer slots than its cap, while @h waits behind
 * requests of its own uid or its uid is at its cap.  A move never makes
 * @h wait longer, and happens once: two users cannot pass a request back
 * and forth to the back of the queue.  Called with sbi->lock held.
 */
static bool autofsng_join_helps(struct autofsng_sb_info *sbi,
				struct autofsng_helper *h, kuid_t uid)
{
	unsigned int cap = autofsng_max_agents_per_user();

	/*
	 * Only users of the host: ids a user namespace maps (subuids) would
	 * let one user take every slot, one moved request at a time.
	 */
	if (current_user_ns() != &init_user_ns)
		return false;
	if (h->moved || !autofsng_slot_queued(h) || uid_eq(uid, h->uid) ||
	    autofsng_slot_first(sbi, uid) ||
	    autofsng_slot_held(sbi, uid) >= cap)
		return false;
	return list_empty(&h->queue) || autofsng_slot_held(sbi, h->uid) >= cap;
}

/**
 * autofsng_helper_join - the caller waits for @h too
 * @h: a helper the caller found started by somebody, on which it holds a
 *     reference
 *
 * While @h waits for a slot behind other requests of its starter's uid,
 * or while that uid runs all the agents it may, a caller of another uid
 * that has nothing queued and may run an agent takes it to a turn of its
 * own uid (autofsng_join_helps()): it then waits no longer than for a
 * request it started itself.  Still one agent for the key.
 */
void autofsng_helper_join(struct autofsng_helper *h)
{
	struct autofsng_sb_info *sbi = h->sbi;
	kuid_t uid = autofsng_charged_uid();

	spin_lock(&sbi->lock);
	if (autofsng_join_helps(sbi, h, uid)) {
		autofsng_slot_dequeue(sbi, h, false);
		h->uid = uid;
		h->moved = true;
		autofsng_slot_enqueue(sbi, h);
		autofsng_slot_grant(sbi);
	}
	spin_unlock(&sbi->lock);
}

/**
 * autofsng_helper_wait - wait killably until a helper has completed
 * @h: the helper, on which the caller holds a reference
 *
 * Return: 0, or -EINTR when the caller was killed.
 */
int autofsng_helper_wait(struct autofsng_helper *h)
{
	if (wait_for_completion_killable(&h->done))
		return -EINTR;
	return 0;
}

/**
 * autofsng_is_helper - whether current belongs to a running agent
 * @sbi: the superblock whose agents count
 *
 * Return: true when current is in the process group of one of them.
 */
bool autofsng_is_helper(struct autofsng_sb_info *sbi)
{
	struct autofsng_helper *h;
	struct pid *pgrp;
	bool found = false;

	if (!atomic_read(&sbi->inflight))
		return false;
	rcu_read_lock();
	pgrp = task_pgrp(current);
	spin_lock(&sbi->lock);
	list_for_each_entry(h, &sbi->helpers, list) {
		if (h->th.pgrp && h->th.pgrp == pgrp) {
			found = true;
			break;
		}
	}
	spin_unlock(&sbi->lock);
	rcu_read_unlock();
	return found;
}
