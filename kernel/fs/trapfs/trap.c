// SPDX-License-Identifier: GPL-2.0
/*
 * trapfs lookup traps.
 *
 * On a mount with a helper, every negative dentry is a trap: it carries
 * DCACHE_MANAGE_TRANSIT, so a path walk that reaches it calls
 * trapfs_d_manage() with no directory lock held.  There the first walker
 * starts the helper for that (directory, name) and every walker waits,
 * killably and at most helper_timeout seconds, for it to finish.  The
 * helper creates the name with ordinary calls through the directory fd it
 * was given; doing so instantiates this very dentry, so when the walk goes
 * on it finds the file, directory, device or mount the helper left behind.
 * A name the helper did not create stays negative and is remembered for
 * negative_timeout seconds (dentry->d_time), so a loop of stat()s does not
 * run the helper each time.
 *
 * Creating a name (O_CREAT, mkdir, mknod, ...) looks the name up without
 * walking into it and so never runs the helper.  The helper runs in a
 * session of its own; walks by any task of its process group pass the
 * traps of its mount untouched.
 */
#define pr_fmt(fmt) "trapfs: " fmt

#include <linux/completion.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/limits.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/trap_helper.h>
#include <linux/umh.h>
#include <linux/workqueue.h>

#include "internal.h"

/* the directory's O_PATH descriptor in the helper: its first file */
static_assert(TRAP_HELPER_FD == 3);

static const char trapfs_env_dirfd[] = "TRAPFS_DIRFD=3";
static const char trapfs_env_home[] = "HOME=/";
static const char trapfs_env_path[] = "PATH=/sbin:/bin:/usr/sbin:/usr/bin";

static struct workqueue_struct *trapfs_wq;

/*
 * One run of the helper for one missing name.  References: one for being
 * in flight (in sbi->reqs and dentry->d_fsdata, dropped when the helper is
 * gone), one for the run work and the umh subprocess_info, one for a
 * pending kill work, and one per waiter.  The dentry and the directory
 * (with its mount) are held only while the helper may run: the run puts
 * them before it wakes the waiters, so a waiter that returns to user
 * space leaves nothing that keeps the mount busy.
 */
struct trapfs_req {
	struct kref kref;
	struct trapfs_sb_info *sbi;
	struct list_head list;
	kuid_t uid;			/* the first walker's real uid */
	struct dentry *dentry;		/* the missing name */
	struct path dir;		/* its directory, as the first walker saw it */
	struct trap_helper th;		/* the process (fs/trap_helper.c) */
	unsigned long deadline;		/* jiffies: waiters give up here */
	unsigned int timeout;		/* seconds, for the log */
	struct completion done;
	struct work_struct run;
	struct delayed_work kill;
	char *argv[2];
	char *envp[6];
};

static void trapfs_req_release(struct kref *kref)
{
	struct trapfs_req *req = container_of(kref, struct trapfs_req, kref);

	dput(req->dentry);
	path_put(&req->dir);
	trap_helper_put_files(&req->th);
	kfree(req->argv[0]);
	kfree(req->envp[1]);
	kfree(req->envp[2]);
	kfree(req);
}

static void trapfs_req_put(struct trapfs_req *req)
{
	kref_put(&req->kref, trapfs_req_release);
}

static bool trapfs_negative_cached(const struct dentry *dentry)
{
	unsigned long until = READ_ONCE(dentry->d_time);

	return until && time_before(jiffies, until);
}

/* Remember a miss for the mount's negative_timeout, if it has one. */
static void trapfs_cache_miss(struct dentry *dentry)
{
	unsigned int negative = READ_ONCE(trapfs_sb(dentry->d_sb)->negative_timeout);

	if (negative && d_really_is_negative(dentry))
		WRITE_ONCE(dentry->d_time, (jiffies + negative * HZ) | 1);
}

/* A name that exists is no trap, and a name created anew is not cached. */
void trapfs_disarm(struct dentry *dentry)
{
	spin_lock(&dentry->d_lock);
	dentry->d_flags &= ~DCACHE_MANAGE_TRANSIT;
	WRITE_ONCE(dentry->d_time, 0);
	spin_unlock(&dentry->d_lock);
}

struct dentry *trapfs_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned int flags)
{
	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	/* __d_alloc() leaves d_time as the slab's last user had it */
	WRITE_ONCE(dentry->d_time, 0);
	if (trapfs_sb(dir->i_sb)->helper) {
		spin_lock(&dentry->d_lock);
		dentry->d_flags |= DCACHE_MANAGE_TRANSIT;
		spin_unlock(&dentry->d_lock);
	}
	d_add(dentry, NULL);
	return NULL;
}

/* Fills TRAPFS_DIR, TRAPFS_NAME and the helper's path. */
static int trapfs_req_env(struct trapfs_req *req)
{
	struct name_snapshot name;
	char *buf, *dir;
	int err = 0;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	dir = dentry_path_raw(req->dir.dentry, buf, PATH_MAX);
	if (IS_ERR(dir)) {
		err = PTR_ERR(dir);
		goto out_free;
	}
	while (*dir == '/')
		dir++;
	req->envp[1] = kasprintf(GFP_KERNEL, "TRAPFS_DIR=%s", *dir ? dir : ".");
	take_dentry_name_snapshot(&name, req->dentry);
	req->envp[2] = kasprintf(GFP_KERNEL, "TRAPFS_NAME=%s", name.name.name);
	release_dentry_name_snapshot(&name);
	req->argv[0] = kstrdup(req->sbi->helper, GFP_KERNEL);
	if (!req->envp[1] || !req->envp[2] || !req->argv[0])
		err = -ENOMEM;
	req->envp[0] = (char *)trapfs_env_dirfd;
	req->envp[3] = (char *)trapfs_env_home;
	req->envp[4] = (char *)trapfs_env_path;
out_free:
	kfree(buf);
	return err;
}

static void trapfs_req_run(struct work_struct *work);
static void trapfs_req_kill(struct work_struct *work);

static struct trapfs_req *trapfs_req_alloc(const struct path *path)
{
	struct trapfs_sb_info *sbi = trapfs_sb(path->dentry->d_sb);
	struct trapfs_req *req;
	struct file *dirfile;
	int err;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return ERR_PTR(-ENOMEM);
	kref_init(&req->kref);
	req->sbi = sbi;
	req->uid = current_uid();
	trap_helper_init(&req->th, &sbi->lock);
	INIT_LIST_HEAD(&req->list);
	init_completion(&req->done);
	INIT_WORK(&req->run, trapfs_req_run);
	INIT_DELAYED_WORK(&req->kill, trapfs_req_kill);
	req->dentry = dget(path->dentry);
	req->dir.mnt = mntget(path->mnt);
	req->dir.dentry = dget_parent(path->dentry);
	req->timeout = READ_ONCE(sbi->helper_timeout);
	req->deadline = jiffies + req->timeout * HZ;
	err = trapfs_req_env(req);
	dirfile = err ? NULL : dentry_open(&req->dir, O_PATH, current_cred());
	if (IS_ERR(dirfile))
		err = PTR_ERR(dirfile);
	else if (dirfile)
		err = trap_helper_add_file(&req->th, dirfile);
	if (err) {
		trapfs_req_put(req);
		return ERR_PTR(err);
	}
	return req;
}

/*
 * The helper is gone (or never started): stop the kill work, cache a miss,
 * let go of the dentry and the mount, and only then wake the waiters.
 */
static void trapfs_req_finish(struct trapfs_req *req, int status)
{
	struct trapfs_sb_info *sbi = req->sbi;
	struct dentry *dentry = req->dentry;

	/* A kill work that is running touches sbi: let it end first. */
	if (cancel_delayed_work_sync(&req->kill))
		trapfs_req_put(req);
	trap_helper_exit(&req->th);
	if (status)
		pr_info_ratelimited("helper %s for %*pE %*pE: wait status %#x\n",
				    req->argv[0], (int)strlen(req->envp[1]), req->envp[1],
				    (int)strlen(req->envp[2]), req->envp[2], status);
	spin_lock(&sbi->lock);
	list_del_init(&req->list);
	sbi->nr_reqs--;
	dentry->d_fsdata = NULL;
	trapfs_cache_miss(dentry);
	spin_unlock(&sbi->lock);
	req->dentry = NULL;
	dput(dentry);
	path_put(&req->dir);
	req->dir.dentry = NULL;
	req->dir.mnt = NULL;
	complete_all(&req->done);
	trapfs_req_put(req);	/* in flight */
	trapfs_req_put(req);	/* the run */
}

/* Runs in the helper's task before it executes the helper. */
static int trapfs_helper_init(struct subprocess_info *info, struct cred *new)
{
	struct trapfs_req *req = info->data;

	return trap_helper_enter(&req->th);
}

/* Called exactly once per subprocess_info, after the helper has exited. */
static void trapfs_helper_cleanup(struct subprocess_info *info)
{
	trapfs_req_finish(info->data, info->retval);
}

static void trapfs_req_run(struct work_struct *work)
{
	struct trapfs_req *req = container_of(work, struct trapfs_req, run);
	struct subprocess_info *info;

	info = call_usermodehelper_setup(req->argv[0], req->argv, req->envp,
					 GFP_KERNEL, trapfs_helper_init,
					 trapfs_helper_cleanup, req);
	if (!info) {
		trapfs_req_finish(req, -ENOMEM);
		return;
	}
	/* killable only so that a long run does not look like a hung task */
	call_usermodehelper_exec(info, UMH_WAIT_PROC | UMH_KILLABLE);
}

/* helper_timeout has passed: the helper and its process group die. */
static void trapfs_req_kill(struct work_struct *work)
{
	struct trapfs_req *req = container_of(to_delayed_work(work),
					      struct trapfs_req, kill);

	if (trap_helper_kill(&req->th))
		pr_warn_ratelimited("helper %s for %*pE %*pE: no answer in %u s, killed\n",
				    req->argv[0], (int)strlen(req->envp[1]), req->envp[1],
				    (int)strlen(req->envp[2]), req->envp[2], req->timeout);
	trapfs_req_put(req);
}

/*
 * Whether @uid has TRAPFS_MAX_USER_REQUESTS helpers in flight, so that one
 * user cannot take all TRAPFS_MAX_REQUESTS of a mount and make everybody
 * else's lookups fail.  Called with sbi->lock held.
 */
static bool trapfs_user_full(struct trapfs_sb_info *sbi, kuid_t uid)
{
	struct trapfs_req *r;
	unsigned int n = 0;

	list_for_each_entry(r, &sbi->reqs, list)
		n += uid_eq(r->uid, uid);
	return n >= TRAPFS_MAX_USER_REQUESTS;
}

/*
 * Returns the running request for @path's dentry with a reference for the
 * caller, NULL when the dentry's state changed under us (look again), or
 * an ERR_PTR.
 */
static struct trapfs_req *trapfs_req_start(const struct path *path)
{
	struct trapfs_sb_info *sbi = trapfs_sb(path->dentry->d_sb);
	struct dentry *dentry = path->dentry;
	struct trapfs_req *req;

	req = trapfs_req_alloc(path);
	if (IS_ERR(req))
		return req;
	spin_lock(&sbi->lock);
	if (dentry->d_fsdata) {
		spin_unlock(&sbi->lock);
		trapfs_req_put(req);
		return NULL;
	}
	if (sbi->nr_reqs >= TRAPFS_MAX_REQUESTS ||
	    trapfs_user_full(sbi, req->uid)) {
		spin_unlock(&sbi->lock);
		pr_warn_ratelimited("%s: %u helpers running, %*pE refused\n",
				    sbi->helper, sbi->nr_reqs,
				    (int)strlen(req->envp[2]), req->envp[2]);
		trapfs_req_put(req);
		return ERR_PTR(-EAGAIN);
	}
	dentry->d_fsdata = req;
	list_add(&req->list, &sbi->reqs);
	sbi->nr_reqs++;
	kref_get(&req->kref);	/* in flight */
	spin_unlock(&sbi->lock);

	/*
	 * The kill work is armed before the run is queued: a run that ends
	 * at once then finds it pending and cancels it, and does not leave
	 * it holding the request until helper_timeout.
	 */
	kref_get(&req->kref);	/* the kill */
	queue_delayed_work(system_wq, &req->kill, req->timeout * HZ);
	kref_get(&req->kref);	/* the run */
	queue_work(trapfs_wq, &req->run);
	return req;
}

static struct trapfs_req *trapfs_req_get(struct dentry *dentry)
{
	struct trapfs_sb_info *sbi = trapfs_sb(dentry->d_sb);
	struct trapfs_req *req;

	spin_lock(&sbi->lock);
	req = dentry->d_fsdata;
	if (req)
		kref_get(&req->kref);
	spin_unlock(&sbi->lock);
	return req;
}

/* Is the caller the helper of a run on this mount, or one of its children? */
static bool trapfs_is_helper(struct trapfs_sb_info *sbi)
{
	struct pid *pgrp = task_pgrp(current);
	struct trapfs_req *req;
	bool found = false;

	spin_lock(&sbi->lock);
	list_for_each_entry(req, &sbi->reqs, list) {
		if (req->th.pgrp == pgrp) {
			found = true;
			break;
		}
	}
	spin_unlock(&sbi->lock);
	return found;
}

static int trapfs_req_wait(struct trapfs_req *req)
{
	long left = (long)(req->deadline - jiffies);

	if (left <= 0)
		return 0;
	if (wait_for_completion_killable_timeout(&req->done, left) < 0)
		return -EINTR;
	return 0;
}

/*
 * The helper renamed something over the name, or created the name and
 * removed it again: either way the dentry the walk holds is gone from the
 * hash (and may still carry the removed inode).  Look the name up afresh,
 * without running the helper: if it exists now, the walk starts again
 * (-ESTALE, retried with LOOKUP_REVAL) and finds it; if not, the miss is
 * cached on the new dentry and the walk ends with ENOENT.
 */
static int trapfs_recheck(const struct path *path)
{
	struct dentry *parent = dget_parent(path->dentry);
	struct name_snapshot name;
	struct dentry *found;
	int ret = -ENOENT;

	take_dentry_name_snapshot(&name, path->dentry);
	found = lookup_one_len_unlocked(name.name.name, parent, name.name.len);
	release_dentry_name_snapshot(&name);
	dput(parent);
	if (IS_ERR(found))
		return PTR_ERR(found);
	if (d_really_is_positive(found))
		ret = -ESTALE;
	else
		trapfs_cache_miss(found);
	dput(found);
	return ret;
}

/*
 * The helper runs with full privileges in the initial namespaces; a
 * process in a user namespace of its own, which a path walk there would
 * give no such power, does not get to run it (autofsng refuses the same).
 */
static int trapfs_refuse_userns(struct dentry *dentry)
{
	struct name_snapshot name;

	take_dentry_name_snapshot(&name, dentry);
	pr_warn_ratelimited("%s: refused lookup of %*pE from pid %d: non-initial user namespace\n",
			    trapfs_sb(dentry->d_sb)->helper, (int)name.name.len,
			    name.name.name, task_pid_nr(current));
	release_dentry_name_snapshot(&name);
	return -EPERM;
}

static int trapfs_d_manage(const struct path *path, bool rcu_walk)
{
	struct dentry *dentry = path->dentry;
	struct trapfs_req *req;
	int err;

	for (;;) {
		if (d_really_is_positive(dentry) ||
		    trapfs_negative_cached(dentry))
			return 0;
		if (rcu_walk)
			return -ECHILD;
		if (trapfs_is_helper(trapfs_sb(dentry->d_sb)))
			return 0;
		if (current_user_ns() != &init_user_ns)
			return trapfs_refuse_userns(dentry);
		req = trapfs_req_get(dentry);
		if (!req)
			req = trapfs_req_start(path);
		if (IS_ERR(req))
			return PTR_ERR(req);
		if (req)
			break;
	}
	err = trapfs_req_wait(req);
	trapfs_req_put(req);
	if (err)
		return err;
	if (d_unhashed(dentry))
		return trapfs_recheck(path);
	return 0;
}

/* Keep a negative dentry only while it caches a miss. */
static int trapfs_d_delete(const struct dentry *dentry)
{
	return d_really_is_negative(dentry) && !trapfs_negative_cached(dentry);
}

const struct dentry_operations trapfs_dentry_operations = {
	.d_delete	= trapfs_d_delete,
	.d_manage	= trapfs_d_manage,
};

int __init trapfs_trap_init(void)
{
	trapfs_wq = alloc_workqueue("trapfs", WQ_UNBOUND, 0);
	return trapfs_wq ? 0 : -ENOMEM;
}
