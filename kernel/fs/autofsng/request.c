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
 * of the two, and never runs the agent twice for one access.  A request
 * whose starter was killed before its agent could run (see helper.c)
 * ends with neither: its waiters start again.
 *
 * A trap that is the root of a mount sitting on an autofsng trap (a copy
 * of a trigger attached onto a trigger) is reached only through that
 * trap, right after it: running the agent there would leave one more
 * copy and fire again, for ever.  Such a walk fails with ELOOP before any
 * agent runs (autofsng_trap_on_trap()).
 *
 * Requests are hashed by trap dentry.  The negative cache is hashed by
 * key and bounded by fs.autofsng.negative_max per superblock: a new
 * entry beyond it evicts the oldest.  Both live under sbi->lock.
 *
 * A negative entry holds for every mount namespace only when it is the
 * map's answer (no such key, no map, a malformed entry, a source down:
 * what the agent decides before it joins the requester's namespace; for a
 * program map, its answer to whoever asked, as autofs-tools caches it) to
 * a requester of the initial user namespace.  Any other failure, and any
 * failure of a container's request, holds for the requester's mount
 * namespace alone, named by its sequence number, which no later namespace
 * reuses: a container whose copy refuses the attach (a full mount-max, a
 * mount stacked on the trap) must not make the key fail for the host or
 * for a namespace made after it.
 *
 * The agent mounts only in the walker's own mount namespace, so a walk
 * that reaches a trap through a mount of another one (a file descriptor
 * or /proc/PID/root from outside) fails with EXDEV before any request:
 * it would run an agent that cannot attach, for a mount it does not own.
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
#include <linux/hashtable.h>
#include <linux/sched/signal.h>
#include <linux/stringhash.h>
#include <linux/hash.h>
#include <linux/nsproxy.h>
#include "../mount.h"
#include "autofsng_i.h"

struct autofsng_request {
	struct autofsng_helper	helper;
	struct hlist_node	node;		/* sbi->requests, sbi->lock */
	struct path		path;		/* the trap, requester's mount */
	char			*key;
	u64			ns;		/* requester's mount namespace seq */
	bool			host;		/* requester in init_user_ns */
};

/* A key that recently failed; under sbi->lock. */
struct autofsng_negative {
	struct hlist_node	node;		/* sbi->negative_hash */
	struct list_head	list;		/* sbi->negative, oldest first */
	u64			ns;		/* mount namespace seq; 0: every one */
	unsigned long		expires;	/* jiffies */
	u32			hash;
	unsigned int		len;
	char			name[];
};

static const char *autofsng_key_of(struct autofsng_sb_info *sbi,
				   struct dentry *dentry)
{
	return sbi->direct ? sbi->mapkey : (const char *)dentry->d_name.name;
}

/**
 * autofsng_request_init - empty request and negative tables
 * @sbi: the new superblock info
 */
void autofsng_request_init(struct autofsng_sb_info *sbi)
{
	hash_init(sbi->requests);
	hash_init(sbi->negative_hash);
	INIT_LIST_HEAD(&sbi->negative);
	sbi->nr_negative = 0;
}

static u32 autofsng_negative_hash(struct autofsng_sb_info *sbi,
				  const struct qstr *name, u64 ns)
{
	u32 hash = full_name_hash(sbi, name->name, name->len);

	return ns ? hash ^ hash_64(ns, 32) : hash;
}

/*
 * The sequence number of the walker's mount namespace when @path's mount
 * is in it (never 0: anonymous namespaces have 0, and no task is in one),
 * else 0.  The mount namespace is the VFS's (fs/mount.h, as fs/proc/fd.c
 * reads it); its pointers are compared, never followed but for current's.
 */
static u64 autofsng_walker_ns(const struct path *path)
{
	struct nsproxy *nsp = current->nsproxy;

	if (!nsp || READ_ONCE(real_mount(path->mnt)->mnt_ns) != nsp->mnt_ns)
		return 0;
	return nsp->mnt_ns->seq;
}

/* Called with sbi->lock held. */
static void autofsng_negative_drop(struct autofsng_sb_info *sbi,
				   struct autofsng_negative *neg)
{
	hash_del(&neg->node);
	list_del(&neg->list);
	sbi->nr_negative--;
	autofsng_negative_count(-1);
	kfree(neg);
}

/* The entry of @name for namespace @ns (0: every one); sbi->lock held. */
static struct autofsng_negative *
autofsng_negative_find(struct autofsng_sb_info *sbi, const struct qstr *name,
		       u64 ns)
{
	u32 hash = autofsng_negative_hash(sbi, name, ns);
	struct autofsng_negative *neg;

	hash_for_each_possible(sbi->negative_hash, neg, node, hash) {
		if (neg->hash == hash && neg->ns == ns &&
		    neg->len == name->len &&
		    !memcmp(neg->name, name->name, name->len))
			return neg;
	}
	return NULL;
}

/* Whether @name has a live entry for @ns; sbi->lock held. */
static bool autofsng_negative_live(struct autofsng_sb_info *sbi,
				   const struct qstr *name, u64 ns)
{
	struct autofsng_negative *neg = autofsng_negative_find(sbi, name, ns);

	if (!neg)
		return false;
	if (time_before(jiffies, neg->expires))
		return true;
	autofsng_negative_drop(sbi, neg);
	return false;
}

/**
 * autofsng_negative_cached - whether a key failed within negative_timeout
 * @sbi: the superblock
 * @name: the key
 * @ns: the sequence number of the requester's mount namespace, or 0 to
 *	ask about the entries of every namespace only
 *
 * An expired entry found is freed.
 *
 * Return: true while the key is negative for @ns.
 */
bool autofsng_negative_cached(struct autofsng_sb_info *sbi,
			      const struct qstr *name, u64 ns)
{
	bool found;

	spin_lock(&sbi->lock);
	found = autofsng_negative_live(sbi, name, 0) ||
		(ns && autofsng_negative_live(sbi, name, ns));
	spin_unlock(&sbi->lock);
	return found;
}

/* Make room for one entry: drop expired and, past the bound, old ones. */
static void autofsng_negative_trim(struct autofsng_sb_info *sbi,
				   unsigned int max)
{
	struct autofsng_negative *neg;

	while (!list_empty(&sbi->negative)) {
		neg = list_first_entry(&sbi->negative,
				       struct autofsng_negative, list);
		if (sbi->nr_negative < max &&
		    time_before(jiffies, neg->expires))
			break;
		autofsng_negative_drop(sbi, neg);
	}
}

static void autofsng_negative_add(struct autofsng_sb_info *sbi,
				  const struct qstr *name, u64 ns)
{
	unsigned int timeout = READ_ONCE(sbi->negative_timeout);
	unsigned int max = autofsng_negative_max();
	struct autofsng_negative *neg, *old;

	if (!timeout || !max)
		return;
	neg = kmalloc(struct_size(neg, name, name->len), GFP_KERNEL);
	if (!neg)
		return;
	neg->len = name->len;
	memcpy(neg->name, name->name, name->len);
	neg->hash = autofsng_negative_hash(sbi, name, ns);
	neg->ns = ns;
	neg->expires = jiffies + autofsng_secs_to_jiffies(timeout);
	spin_lock(&sbi->lock);
	old = autofsng_negative_find(sbi, name, ns);
	if (old)
		autofsng_negative_drop(sbi, old);
	autofsng_negative_trim(sbi, max);
	hash_add(sbi->negative_hash, &neg->node, neg->hash);
	list_add_tail(&neg->list, &sbi->negative);
	sbi->nr_negative++;
	autofsng_negative_count(1);
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
		autofsng_negative_drop(sbi, neg);
}

/* Called with sbi->lock held; takes a reference on the request found. */
static struct autofsng_request *
autofsng_request_find(struct autofsng_sb_info *sbi, const struct path *path)
{
	struct autofsng_request *req;

	hash_for_each_possible(sbi->requests, req, node,
			       (unsigned long)path->dentry) {
		if (req->path.mnt == path->mnt &&
		    req->path.dentry == path->dentry) {
			refcount_inc(&req->helper.count);
			return req;
		}
	}
	return NULL;
}

static const char *const autofsng_exit_names[] = {
	[AUTOFSNG_EXIT_OK]		= "exited 0 but mounted nothing",
	[AUTOFSNG_EXIT_INTERNAL]	= "internal error",
	[AUTOFSNG_EXIT_USAGE]		= "usage or configuration error",
	[AUTOFSNG_EXIT_NOKEY]		= "no such key",
	[AUTOFSNG_EXIT_UNAVAIL]		= "map source unavailable",
	[AUTOFSNG_EXIT_MALFORMED]	= "malformed map entry",
	[AUTOFSNG_EXIT_MOUNT]		= "mount failed",
	[AUTOFSNG_EXIT_NOMAP]		= "map not found",
};

/* The agent's exit code from its wait status; -1 when it did not exit. */
static int autofsng_exit_code(int status)
{
	if (status > 0 && !(status & 0x7f))
		return (status >> 8) & 0xff;
	return -1;
}

/* Log why a lookup failed: once per request, at most a few per second. */
static void autofsng_request_log(struct autofsng_request *req, int status)
{
	const char *map = req->helper.sbi->mapname, *key = req->key ?: "";
	int code = autofsng_exit_code(status);
	int klen = strlen(key);	/* a name any user chose: printed escaped */

	if (code >= 0 && code < ARRAY_SIZE(autofsng_exit_names) &&
	    autofsng_exit_names[code])
		pr_info_ratelimited("lookup of key '%*pE' in map %s failed: agent exit %d (%s)\n",
				    klen, key, map, code, autofsng_exit_names[code]);
	else if (status > 0)
		pr_info_ratelimited("lookup of key '%*pE' in map %s failed: agent wait status %d\n",
				    klen, key, map, status);
	else if (status)
		pr_info_ratelimited("lookup of key '%*pE' in map %s failed: error %d\n",
				    klen, key, map, status);
	else
		pr_info_ratelimited("lookup of key '%*pE' in map %s failed: agent %s\n",
				    klen, key, map,
				    autofsng_exit_names[AUTOFSNG_EXIT_OK]);
}

/*
 * The namespace a failure holds for: 0 (every one) when it is the map's
 * answer to a host requester, else the requester's own.
 */
static u64 autofsng_failure_scope(struct autofsng_request *req, int status)
{
	int code = autofsng_exit_code(status);

	if (req->host &&
	    (code == AUTOFSNG_EXIT_NOKEY || code == AUTOFSNG_EXIT_NOMAP ||
	     code == AUTOFSNG_EXIT_MALFORMED || code == AUTOFSNG_EXIT_UNAVAIL ||
	     code == AUTOFSNG_EXIT_USAGE))
		return 0;
	return req->ns;
}

/* The agent has exited: publish the outcome, then leave the table. */
static void autofsng_request_finish(struct autofsng_helper *h)
{
	struct autofsng_request *req = container_of(h, struct autofsng_request,
						    helper);
	struct autofsng_sb_info *sbi = h->sbi;
	struct dentry *dentry = req->path.dentry;
	bool mounted = path_is_mountpoint(&req->path);
	u64 scope;

	if (h->status != AUTOFSNG_CANCELLED && (h->status || !mounted)) {
		autofsng_request_log(req, h->status);
		scope = autofsng_failure_scope(req, h->status);
		/* req->ns is never 0: 0 names every namespace */
		if (!scope || req->ns)
			autofsng_negative_add(sbi, &dentry->d_name, scope);
		/*
		 * A key that failed everywhere is forgotten unless some
		 * namespace has it mounted; one that failed in one namespace
		 * stays, for the others' requests that may be running on it
		 * (an attach onto an unhashed dentry fails).
		 */
		if (!scope && !IS_ROOT(dentry) && !d_mountpoint(dentry))
			d_drop(dentry);
	}
	spin_lock(&sbi->lock);
	hash_del(&req->node);
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
	int i = 0, err;

	file = dentry_open(&req->path, O_PATH, current_cred());
	if (IS_ERR(file))
		return PTR_ERR(file);
	err = trap_helper_add_file(&h->th, file);
	if (err)
		return err;
	file = autofsng_open_mntns();
	if (IS_ERR(file))
		return PTR_ERR(file);
	err = trap_helper_add_file(&h->th, file);
	if (err)
		return err;

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
autofsng_request_alloc(struct autofsng_sb_info *sbi, const struct path *path,
		       u64 ns)
{
	struct autofsng_request *req;
	int err;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return NULL;
	req->helper.finish = autofsng_request_finish;
	req->helper.release = autofsng_request_release;
	INIT_HLIST_NODE(&req->node);
	req->path = *path;
	path_get(&req->path);
	req->host = current_user_ns() == &init_user_ns;
	req->ns = ns;
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
 * The request for @path, with a reference, or NULL.  A caller that finds
 * one waits for it: it joins it (autofsng_helper_join()).
 */
static struct autofsng_request *
autofsng_request_join(struct autofsng_sb_info *sbi, const struct path *path)
{
	struct autofsng_request *req;

	spin_lock(&sbi->lock);
	req = autofsng_request_find(sbi, path);
	spin_unlock(&sbi->lock);
	if (req)
		autofsng_helper_join(&req->helper);
	return req;
}

/*
 * Whether the agent would refuse the key of an indirect map's trap: one
 * that starts with '-' or holds a control character (the agent's
 * am_key_invalid(); the VFS already keeps '/', "." and ".." out of a
 * name).  Any user can ask for any name: such a key fails at once, with
 * no agent run for it.
 */
static bool autofsng_key_refused(struct autofsng_sb_info *sbi,
				 const struct qstr *name)
{
	unsigned int i;

	if (sbi->direct)
		return false;
	if (name->name[0] == '-')
		return true;
	for (i = 0; i < name->len; i++)
		if (name->name[i] < 0x20 || name->name[i] == 0x7f)
			return true;
	return false;
}

/*
 * Find the request for @path, walked from mount namespace @ns, or start
 * one.  Returns the request with a reference, NULL when the key is already
 * mounted, or an error.
 */
static struct autofsng_request *
autofsng_request_get(struct autofsng_sb_info *sbi, struct path *path,
		     u64 ns, bool *started)
{
	struct autofsng_request *req, *new;

	req = autofsng_request_join(sbi, path);
	if (req)
		return req;
	if (path_is_mountpoint(path))
		return NULL;
	if (autofsng_negative_cached(sbi, &path->dentry->d_name, ns) ||
	    autofsng_key_refused(sbi, &path->dentry->d_name))
		return ERR_PTR(-ENOENT);

	new = autofsng_request_alloc(sbi, path, ns);
	if (!new)
		return ERR_PTR(-ENOMEM);
	spin_lock(&sbi->lock);
	req = autofsng_request_find(sbi, path);
	if (!req) {
		hash_add(sbi->requests, &new->node,
			 (unsigned long)path->dentry);
		req = new;
		new = NULL;
		*started = true;
	}
	spin_unlock(&sbi->lock);
	if (new) {	/* another walker started it meanwhile */
		autofsng_helper_put(&new->helper);
		autofsng_helper_join(&req->helper);
	}
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

/* Whether the trap @path is the root of a mount on an autofsng trap. */
static bool autofsng_trap_on_trap(const struct path *path)
{
	struct path up = *path;
	bool trap = false;

	if (path->dentry != path->mnt->mnt_root)
		return false;
	path_get(&up);
	if (follow_up(&up) &&
	    up.dentry->d_sb->s_type == path->dentry->d_sb->s_type)
		trap = READ_ONCE(up.dentry->d_flags) & DCACHE_NEED_AUTOMOUNT;
	path_put(&up);
	return trap;
}

/* A walk through a mount of another mount namespace: never served. */
static struct vfsmount *autofsng_foreign_walk(struct autofsng_sb_info *sbi,
					      struct dentry *dentry)
{
	const char *key = autofsng_key_of(sbi, dentry);

	pr_info_ratelimited("refused lookup of key '%*pE' in map %s: walked through a mount of another mount namespace, where the agent cannot mount (EXDEV)\n",
			    (int)strlen(key), key, sbi->mapname);
	return ERR_PTR(-EXDEV);
}

/**
 * autofsng_request_mount - ->d_automount of every trap
 * @path: the trap in the requester's mount
 *
 * Runs the agent, or waits for the run already in flight for @path.
 *
 * A requester in a user namespace (a rootless container) is served as
 * the host user its uid is: the agent runs in the initial namespaces with
 * that uid in UID, mounts in its own namespace, and attaches on the
 * requester's copy of the trap, where the VFS locks the tree as
 * propagation into that namespace would have (attach_recursive_mnt()).
 *
 * Return: NULL when a mount now covers @path (the walk continues into
 * it), or an error: -ENOENT for a key the agent did not mount, -EISDIR
 * for the agent itself, -ELOOP for a trap mounted on a trap, -EXDEV for a
 * walk through a mount of another mount namespace.
 */
struct vfsmount *autofsng_request_mount(struct path *path)
{
	struct dentry *dentry = path->dentry;
	struct autofsng_sb_info *sbi = autofsng_sbi(dentry->d_sb);
	struct autofsng_request *req;
	bool started = false;
	int status, err;
	u64 ns;

	if (autofsng_is_helper(sbi))
		return ERR_PTR(-EISDIR);
	if (autofsng_trap_on_trap(path)) {
		pr_warn_ratelimited("refused lookup of key '%*pE' in map %s: its trigger is mounted on a trigger, which a walk would enter again (ELOOP)\n",
				    (int)strlen(autofsng_key_of(sbi, dentry)),
				    autofsng_key_of(sbi, dentry), sbi->mapname);
		return ERR_PTR(-ELOOP);
	}
	do {
		/*
		 * Read once a pass and passed on: the mount may leave the
		 * namespace (umount -l) while a pass waits.
		 */
		ns = autofsng_walker_ns(path);
		if (!ns)
			return autofsng_foreign_walk(sbi, dentry);
		started = false;
		req = autofsng_request_get(sbi, path, ns, &started);
		if (IS_ERR_OR_NULL(req))
			return ERR_CAST(req);
		if (started)
			autofsng_request_start(req);
		err = autofsng_helper_wait(&req->helper);
		status = req->helper.status;
		autofsng_helper_put(&req->helper);
		if (err)
			return ERR_PTR(err);
		/* Its starter died in the queue: take its place. */
	} while (status == AUTOFSNG_CANCELLED && !fatal_signal_pending(current));
	if (status == AUTOFSNG_CANCELLED)
		return ERR_PTR(-EINTR);
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
 * Return: 0 when no request runs, it mounted or it was cancelled (the
 * walk goes on to ->d_automount), -EINTR when the walker was killed,
 * -ENOENT or -ETIMEDOUT when the request failed.
 */
int autofsng_request_wait(const struct path *path)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(path->dentry->d_sb);
	struct autofsng_request *req;
	int err, status;

	req = autofsng_request_join(sbi, path);
	if (!req)
		return 0;
	err = autofsng_helper_wait(&req->helper);
	status = req->helper.status;
	autofsng_helper_put(&req->helper);
	if (err)
		return err;
	if (path_is_mountpoint(path) || status == AUTOFSNG_CANCELLED)
		return 0;
	return status == -ETIMEDOUT ? -ETIMEDOUT : -ENOENT;
}
