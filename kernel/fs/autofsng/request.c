// SPDX-License-Identifier: GPL-2.0-only
/*
 * autofsng: lookups, one agent run per (mount, trap), and the negative
 * cache.
 *
 * A request is keyed by the requester's mount and the trap dentry: a
 * second mount namespace has its own copy of the autofsng mount, so it
 * gets its own agent run and its own mount.  Everybody else who walks
 * into the trap while the request runs waits killably in ->d_manage or
 * ->d_automount.  A request's end publishes its outcome before it leaves
 * sbi->requests: a success leaves a mount on the trap, a failure leaves
 * a negative cache entry.  So a walker that finds no request finds one
 * of the two, and never runs the agent twice for one access.
 */
#define pr_fmt(fmt) "autofsng: " fmt

#include <linux/fs.h>
#include <linux/file.h>
#include <linux/fcntl.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/proc_ns.h>
#include <linux/cred.h>
#include <linux/user_namespace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/jiffies.h>
#include "autofsng_i.h"

struct autofsng_request {
	struct autofsng_helper	helper;
	struct list_head	list;		/* sbi->requests, sbi->lock */
	struct path		path;		/* the trap, requester's mount */
	char			*key;
};

/* A key that recently failed; sbi->negative, under sbi->lock. */
struct autofsng_negative {
	struct list_head	list;
	unsigned long		expires;	/* jiffies */
	unsigned int		len;
	char			name[];
};

static const char *autofsng_key_of(struct autofsng_sb_info *sbi,
				   struct dentry *dentry)
{
	return sbi->direct ? sbi->mapkey : (const char *)dentry->d_name.name;
}

/**
 * autofsng_negative_cached - whether a key failed within negative_timeout
 * @sbi: the superblock
 * @name: the key
 *
 * Expired entries met on the way are freed.
 *
 * Return: true while the key is negative.
 */
bool autofsng_negative_cached(struct autofsng_sb_info *sbi,
			      const struct qstr *name)
{
	struct autofsng_negative *neg, *next;
	bool found = false;
	LIST_HEAD(expired);

	spin_lock(&sbi->lock);
	list_for_each_entry_safe(neg, next, &sbi->negative, list) {
		if (time_after_eq(jiffies, neg->expires)) {
			list_move(&neg->list, &expired);
			continue;
		}
		if (neg->len == name->len &&
		    !memcmp(neg->name, name->name, name->len))
			found = true;
	}
	spin_unlock(&sbi->lock);

	list_for_each_entry_safe(neg, next, &expired, list)
		kfree(neg);
	return found;
}

static void autofsng_negative_add(struct autofsng_sb_info *sbi,
				  const struct qstr *name)
{
	struct autofsng_negative *neg;

	if (!sbi->negative_timeout)
		return;
	neg = kmalloc(struct_size(neg, name, name->len), GFP_KERNEL);
	if (!neg)
		return;
	neg->len = name->len;
	memcpy(neg->name, name->name, name->len);
	neg->expires = jiffies + (unsigned long)sbi->negative_timeout * HZ;
	spin_lock(&sbi->lock);
	list_add(&neg->list, &sbi->negative);
	spin_unlock(&sbi->lock);
}

/**
 * autofsng_negative_free - drop the whole negative cache
 * @sbi: the superblock, being torn down
 */
void autofsng_negative_free(struct autofsng_sb_info *sbi)
{
	struct autofsng_negative *neg, *next;

	list_for_each_entry_safe(neg, next, &sbi->negative, list)
		kfree(neg);
	INIT_LIST_HEAD(&sbi->negative);
}

/* Called with sbi->lock held; takes a reference on the request found. */
static struct autofsng_request *
autofsng_request_find(struct autofsng_sb_info *sbi, const struct path *path)
{
	struct autofsng_request *req;

	list_for_each_entry(req, &sbi->requests, list) {
		if (req->path.mnt == path->mnt &&
		    req->path.dentry == path->dentry) {
			refcount_inc(&req->helper.count);
			return req;
		}
	}
	return NULL;
}

/* The agent has exited: publish the outcome, then leave the list. */
static void autofsng_request_finish(struct autofsng_helper *h)
{
	struct autofsng_request *req = container_of(h, struct autofsng_request,
						    helper);
	struct autofsng_sb_info *sbi = h->sbi;
	struct dentry *dentry = req->path.dentry;
	bool mounted = path_is_mountpoint(&req->path);

	if (h->status || !mounted) {
		if (h->status > 0)
			pr_info("lookup of key '%s' in map %s failed: agent wait status %d\n",
				req->key ?: "", sbi->mapname, h->status);
		else if (h->status)
			pr_info("lookup of key '%s' in map %s failed: error %d\n",
				req->key ?: "", sbi->mapname, h->status);
		else
			pr_info("lookup of key '%s' in map %s failed: agent exited 0 but mounted nothing\n",
				req->key ?: "", sbi->mapname);
		autofsng_negative_add(sbi, &dentry->d_name);
		/* Forget the key unless some namespace has it mounted. */
		if (!IS_ROOT(dentry) && !d_mountpoint(dentry))
			d_drop(dentry);
	}
	spin_lock(&sbi->lock);
	list_del_init(&req->list);
	spin_unlock(&sbi->lock);
}

static void autofsng_request_release(struct autofsng_helper *h)
{
	struct autofsng_request *req = container_of(h, struct autofsng_request,
						    helper);

	path_put(&req->path);
	kfree(req->key);
	kfree(req);
}

static struct file *autofsng_open_mntns(void)
{
	struct path ns_path;
	struct file *file;
	int err;

	err = ns_get_path(&ns_path, current, &mntns_operations);
	if (err)
		return ERR_PTR(err);
	file = dentry_open(&ns_path, O_RDONLY, current_cred());
	path_put(&ns_path);
	return file;
}

/* The files and environment of a lookup, taken from the requester. */
static int autofsng_request_args(struct autofsng_request *req)
{
	struct autofsng_helper *h = &req->helper;
	struct autofsng_sb_info *sbi = h->sbi;
	struct file *file;
	char **envp;
	int i = 0;

	file = dentry_open(&req->path, O_PATH, current_cred());
	if (IS_ERR(file))
		return PTR_ERR(file);
	h->files[h->nr_files++] = file;
	file = autofsng_open_mntns();
	if (IS_ERR(file))
		return PTR_ERR(file);
	h->files[h->nr_files++] = file;

	envp = autofsng_helper_envp(h, 8);
	if (!envp)
		return -ENOMEM;
	envp[i] = kasprintf(GFP_KERNEL, "MAPNAME=%s", sbi->mapname);
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "MAPKEY=%s", req->key);
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "MAPOFFSET=%s",
				      sbi->mapoffset ?: "");
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "MAPOPTIONS=%s",
				      sbi->mapoptions ?: "");
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "MOUNTFD=%d",
				      AUTOFSNG_HELPER_FD);
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "MNTNSFD=%d",
				      AUTOFSNG_HELPER_FD + 1);
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "UID=%u",
				      from_kuid(&init_user_ns, current_uid()));
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "GID=%u",
				      from_kgid(&init_user_ns, current_gid()));
	return envp[i] ? 0 : -ENOMEM;
}

static struct autofsng_request *
autofsng_request_alloc(struct autofsng_sb_info *sbi, const struct path *path)
{
	struct autofsng_request *req;
	int err;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return NULL;
	req->helper.finish = autofsng_request_finish;
	req->helper.release = autofsng_request_release;
	INIT_LIST_HEAD(&req->list);
	req->path = *path;
	path_get(&req->path);
	err = autofsng_helper_init_common(&req->helper, sbi, "lookup");
	/* The status carries a preparation failure to autofsng_helper_run. */
	req->helper.status = err;
	return req;
}

/*
 * Give a negative key dentry a directory inode for the agent to mount on.
 * Nothing else in autofsng makes key dentries positive, so a mutex of our
 * own (killable, unlike the parent's i_rwsem, which a browse listing may
 * hold shared while it waits for "agent list") is enough.
 */
static int autofsng_trap_instantiate(struct autofsng_sb_info *sbi,
				     struct dentry *dentry)
{
	struct inode *inode;
	int err = 0;

	if (d_really_is_positive(dentry))
		return 0;
	inode = autofsng_new_dir_inode(dentry->d_sb);
	if (!inode)
		return -ENOMEM;
	if (mutex_lock_killable(&sbi->instantiate_lock)) {
		iput(inode);
		return -EINTR;
	}
	if (d_unhashed(dentry)) {
		err = -ENOENT;
	} else if (d_really_is_negative(dentry)) {
		d_instantiate(dentry, inode);
		inode = NULL;
	}
	mutex_unlock(&sbi->instantiate_lock);
	iput(inode);
	return err;
}

/*
 * Find the request for @path or start one.  Returns the request with a
 * reference, NULL when the key is already mounted, or an error.
 */
static struct autofsng_request *
autofsng_request_get(struct autofsng_sb_info *sbi, struct path *path,
		     bool *started)
{
	struct autofsng_request *req, *new;

	spin_lock(&sbi->lock);
	req = autofsng_request_find(sbi, path);
	spin_unlock(&sbi->lock);
	if (req)
		return req;
	if (path_is_mountpoint(path))
		return NULL;
	if (autofsng_negative_cached(sbi, &path->dentry->d_name))
		return ERR_PTR(-ENOENT);

	new = autofsng_request_alloc(sbi, path);
	if (!new)
		return ERR_PTR(-ENOMEM);
	spin_lock(&sbi->lock);
	req = autofsng_request_find(sbi, path);
	if (!req) {
		list_add(&new->list, &sbi->requests);
		req = new;
		new = NULL;
		*started = true;
	}
	spin_unlock(&sbi->lock);
	if (new)
		autofsng_helper_put(&new->helper);
	return req;
}

static int autofsng_request_start(struct autofsng_request *req)
{
	struct autofsng_helper *h = &req->helper;

	req->key = kstrdup(autofsng_key_of(h->sbi, req->path.dentry),
			   GFP_KERNEL);
	if (!h->status)
		h->status = req->key ? 0 : -ENOMEM;
	if (!h->status)
		h->status = autofsng_trap_instantiate(h->sbi, req->path.dentry);
	if (!h->status)
		h->status = autofsng_request_args(req);
	return autofsng_helper_run(h);
}

/**
 * autofsng_request_mount - ->d_automount of every trap
 * @path: the trap in the requester's mount
 *
 * Runs the agent, or waits for the run already in flight for @path.
 *
 * Return: NULL when a mount now covers @path (the walk continues into
 * it), or an error: -ENOENT for a key the agent did not mount, -EISDIR
 * for the agent itself, -EPERM for a non-initial user namespace.
 */
struct vfsmount *autofsng_request_mount(struct path *path)
{
	struct dentry *dentry = path->dentry;
	struct autofsng_sb_info *sbi = autofsng_sbi(dentry->d_sb);
	struct autofsng_request *req;
	bool started = false;
	int status, err;

	if (autofsng_is_helper(sbi))
		return ERR_PTR(-EISDIR);
	if (current_user_ns() != &init_user_ns) {
		pr_warn_ratelimited("refused lookup of key '%s' in map %s from pid %d: non-initial user namespace\n",
				    autofsng_key_of(sbi, dentry), sbi->mapname,
				    task_pid_nr(current));
		return ERR_PTR(-EPERM);
	}
	req = autofsng_request_get(sbi, path, &started);
	if (IS_ERR_OR_NULL(req))
		return ERR_CAST(req);
	if (started)
		autofsng_request_start(req);
	err = autofsng_helper_wait(&req->helper);
	status = req->helper.status;
	autofsng_helper_put(&req->helper);
	if (err)
		return ERR_PTR(err);
	if (path_is_mountpoint(path))
		return NULL;
	return ERR_PTR(status == -ETIMEDOUT ? -ETIMEDOUT : -ENOENT);
}

/**
 * autofsng_request_wait - hold a walker back while @path's request runs
 * @path: the trap in the walker's mount
 *
 * A walker that waited for a request that mounted nothing fails with the
 * request: it must not go on to see the empty trap directory.
 *
 * Return: 0 when no request runs or it mounted, -EINTR when the walker
 * was killed, -ENOENT or -ETIMEDOUT when the request failed.
 */
int autofsng_request_wait(const struct path *path)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(path->dentry->d_sb);
	struct autofsng_request *req;
	int err, status;

	spin_lock(&sbi->lock);
	req = autofsng_request_find(sbi, path);
	spin_unlock(&sbi->lock);
	if (!req)
		return 0;
	err = autofsng_helper_wait(&req->helper);
	status = req->helper.status;
	autofsng_helper_put(&req->helper);
	if (err)
		return err;
	if (path_is_mountpoint(path))
		return 0;
	return status == -ETIMEDOUT ? -ETIMEDOUT : -ENOENT;
}
