// SPDX-License-Identifier: GPL-2.0-only
/*
 * autofsng: the browse cache.
 *
 * "agent list" writes the map's keys, one per line, to WRITEFD, a write
 * only anonymous file whose builder collects them in an rbtree (which
 * drops duplicates).  When the agent exits the builder is closed (later
 * writes fail with EBADF) and, if the agent succeeded, flattened into a
 * sorted array: the new snapshot.  Readers hold a reference on the
 * snapshot they started with, so a refresh never changes a listing in
 * progress, and a failed refresh keeps the old snapshot.
 *
 * Refreshes run in the background, stale-while-revalidate: mounting a
 * browse map starts one, and a listing that finds the snapshot older
 * than cache_ttl gets that snapshot at once and starts another from a
 * kworker (autofsng_refresh_wq).  Only a listing that finds no snapshot
 * at all waits, for the refresh in flight or one it runs itself.  There
 * is at most one refresh per superblock (mc->refresh), none before
 * next_refresh (cache_ttl after a success, negative_timeout after a
 * failure), and each holds an active reference on its superblock: an
 * umount during a refresh succeeds, and the superblock goes when the
 * agent has exited.  A refresh runs the agent like any other: it takes
 * an agent slot (fs.autofsng.max_agents) and is killed past
 * fs.autofsng.agent_timeout.
 *
 * One refresh takes at most fs.autofsng.list_max_keys keys and
 * fs.autofsng.list_max_bytes bytes: past either, writes fail with EFBIG
 * and the refresh is cut off, like one whose agent fails, is killed or
 * runs out of time.  A cut off refresh keeps the old snapshot.  The keys
 * are charged to the writer's memory cgroup.  The builder mutex is never
 * held across user memory access (a write copies a page, then feeds it
 * under the mutex), so holding it is bounded and closing the builder,
 * which cannot fail, may wait for it; writers wait for it killably.
 *
 * Locking: mc->lock (a spinlock) protects mc->snap, mc->refresh,
 * mc->valid and mc->next_refresh, and is never held across an
 * allocation or a wait; the builder mutex nests inside nothing.
 */
#define pr_fmt(fmt) "autofsng: " fmt

#include <linux/fs.h>
#include <linux/file.h>
#include <linux/anon_inodes.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/jiffies.h>
#include <linux/user_namespace.h>
#include <linux/cred.h>
#include "autofsng_i.h"

/*
 * The keys written so far; count covers the WRITEFD file and the refresh.
 */
struct autofsng_builder {
	refcount_t		count;
	struct mutex		lock;		/* protects everything below */
	bool			closed;
	bool			nomem;
	bool			overflow;	/* past a limit: cut off */
	bool			bad_line;	/* current line is dropped */
	struct rb_root		keys;
	unsigned int		nr;
	unsigned int		total;		/* nr at close, for the log */
	unsigned int		max_keys;
	size_t			bytes;
	size_t			max_bytes;
	unsigned int		linelen;
	char			line[NAME_MAX];
};

struct autofsng_refresh {
	struct autofsng_helper	helper;
	struct autofsng_builder	*builder;
	struct super_block	*sb;		/* an active reference */
	struct work_struct	work;		/* a background refresh */
};

/* Background refreshes, at most AUTOFSNG_REFRESH_MAX_ACTIVE at once. */
static struct workqueue_struct *autofsng_refresh_wq;

static int autofsng_key_cmp(const char *a, unsigned int alen,
			    const char *b, unsigned int blen)
{
	int r = memcmp(a, b, min(alen, blen));

	if (r)
		return r;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return 0;
}

/**
 * autofsng_snapshot_put - drop a reference on a snapshot
 * @snap: the snapshot, or NULL
 */
void autofsng_snapshot_put(struct autofsng_snapshot *snap)
{
	unsigned int i;

	if (!snap || !refcount_dec_and_test(&snap->count))
		return;
	autofsng_snapshot_count(-(int)snap->nr);
	for (i = 0; i < snap->nr; i++) {
		kfree(snap->keys[i]);
		if (!(i & 1023))
			cond_resched();
	}
	kvfree(snap->keys);
	kfree(snap);
}

/**
 * autofsng_snapshot_has - whether a snapshot holds a key
 * @snap: the snapshot
 * @name: the key
 * @len: its length
 *
 * Return: true when found.
 */
bool autofsng_snapshot_has(const struct autofsng_snapshot *snap,
			   const char *name, unsigned int len)
{
	unsigned int lo = 0, hi = snap->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const struct autofsng_key *key = snap->keys[mid];
		int r = autofsng_key_cmp(name, len, key->name, key->len);

		if (!r)
			return true;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static void autofsng_builder_free_keys(struct autofsng_builder *b)
{
	struct autofsng_key *key, *next;
	unsigned int i = 0;

	rbtree_postorder_for_each_entry_safe(key, next, &b->keys, node) {
		kfree(key);
		if (!(++i & 1023))
			cond_resched();
	}
	b->keys = RB_ROOT;
	b->nr = 0;
}

static void autofsng_builder_put(struct autofsng_builder *b)
{
	if (!refcount_dec_and_test(&b->count))
		return;
	autofsng_builder_free_keys(b);
	kfree(b);
}

/* Insert the finished line; a duplicate is dropped. */
static void autofsng_builder_add(struct autofsng_builder *b,
				 const char *name, unsigned int len)
{
	struct rb_node **p = &b->keys.rb_node, *parent = NULL;
	struct autofsng_key *key;
	int r;

	while (*p) {
		key = rb_entry(*p, struct autofsng_key, node);
		r = autofsng_key_cmp(name, len, key->name, key->len);
		if (!r)
			return;
		parent = *p;
		p = r < 0 ? &(*p)->rb_left : &(*p)->rb_right;
	}
	if (b->nr >= b->max_keys) {
		b->overflow = true;
		return;
	}
	key = kmalloc(struct_size(key, name, len + 1), GFP_KERNEL_ACCOUNT);
	if (!key) {
		b->nomem = true;
		return;
	}
	key->len = len;
	memcpy(key->name, name, len);
	key->name[len] = '\0';
	rb_link_node(&key->node, parent, p);
	rb_insert_color(&key->node, &b->keys);
	b->nr++;
}

static void autofsng_builder_end_line(struct autofsng_builder *b)
{
	unsigned int len = b->linelen;
	bool dots = (len == 1 && b->line[0] == '.') ||
		    (len == 2 && b->line[0] == '.' && b->line[1] == '.');

	if (!b->bad_line && len && !dots)
		autofsng_builder_add(b, b->line, len);
	b->linelen = 0;
	b->bad_line = false;
}

/* Called with b->lock held.  Return: 0, -EBADF or -EFBIG. */
static int autofsng_builder_feed(struct autofsng_builder *b,
				 const char *buf, size_t len)
{
	size_t i;

	if (b->closed)
		return -EBADF;
	if (b->overflow || len > b->max_bytes - b->bytes) {
		b->overflow = true;
		return -EFBIG;
	}
	b->bytes += len;
	for (i = 0; i < len && !b->overflow; i++) {
		char c = buf[i];

		if (c == '\n') {
			autofsng_builder_end_line(b);
		} else if (c == '\0' || c == '/' || c == '*' ||
			   b->linelen == NAME_MAX) {
			b->bad_line = true;
		} else if (!b->bad_line) {
			b->line[b->linelen++] = c;
		}
	}
	return b->overflow ? -EFBIG : 0;
}

/* Copy a page at a time, then feed it to the builder under its mutex. */
static ssize_t autofsng_list_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct autofsng_builder *b = file->private_data;
	size_t done = 0, chunk;
	ssize_t err = 0;
	char *kbuf;

	kbuf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	while (done < count && !err) {
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		chunk = min_t(size_t, count - done, PAGE_SIZE);
		if (copy_from_user(kbuf, ubuf + done, chunk)) {
			err = -EFAULT;
			break;
		}
		if (mutex_lock_killable(&b->lock)) {
			err = -EINTR;
			break;
		}
		err = autofsng_builder_feed(b, kbuf, chunk);
		mutex_unlock(&b->lock);
		if (!err)
			done += chunk;
		cond_resched();
	}
	kfree(kbuf);
	return done ? done : err;
}

static int autofsng_list_release(struct inode *inode, struct file *file)
{
	autofsng_builder_put(file->private_data);
	return 0;
}

static const struct file_operations autofsng_list_fops = {
	.write		= autofsng_list_write,
	.release	= autofsng_list_release,
	.llseek		= noop_llseek,
};

/* Close the builder and turn its keys into a snapshot (or NULL). */
static struct autofsng_snapshot *
autofsng_builder_close(struct autofsng_builder *b, bool ok)
{
	struct autofsng_snapshot *snap = NULL;
	struct rb_node *node;
	unsigned int i = 0;

	mutex_lock(&b->lock);
	b->closed = true;
	/* A last line without its newline still counts. */
	if (b->linelen && !b->overflow)
		autofsng_builder_end_line(b);
	b->total = b->nr;
	if (!ok || b->nomem || b->overflow)
		goto out;
	snap = kzalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		goto out;
	refcount_set(&snap->count, 1);
	snap->keys = kvmalloc_array(max(b->nr, 1U), sizeof(*snap->keys),
				    GFP_KERNEL);
	if (!snap->keys) {
		kfree(snap);
		snap = NULL;
		goto out;
	}
	for (node = rb_first(&b->keys); node; node = rb_next(node)) {
		snap->keys[i++] = rb_entry(node, struct autofsng_key, node);
		if (!(i & 1023))
			cond_resched();
	}
	snap->nr = i;
	autofsng_snapshot_count(i);
	/* The keys belong to the snapshot now. */
	b->keys = RB_ROOT;
	b->nr = 0;
out:
	autofsng_builder_free_keys(b);
	mutex_unlock(&b->lock);
	return snap;
}

/* Whether two snapshots, sorted both, hold the same keys. */
static bool autofsng_snapshot_same(const struct autofsng_snapshot *a,
				   const struct autofsng_snapshot *b)
{
	unsigned int i;

	if (!a || !b || a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++) {
		if (autofsng_key_cmp(a->keys[i]->name, a->keys[i]->len,
				     b->keys[i]->name, b->keys[i]->len))
			return false;
		if (!(i & 1023))
			cond_resched();
	}
	return true;
}

/*
 * A new snapshot, or NULL when @snap lists what the current one does: an
 * unchanged map makes no copy, so listings that stay open across
 * refreshes share one snapshot instead of each pinning its own.
 */
static struct autofsng_snapshot *
autofsng_snapshot_dedup(struct super_block *sb, struct autofsng_snapshot *snap)
{
	struct autofsng_snapshot *cur = autofsng_snapshot_peek(sb);

	if (autofsng_snapshot_same(cur, snap)) {
		autofsng_snapshot_put(snap);
		snap = NULL;
	}
	autofsng_snapshot_put(cur);
	return snap;
}

static void autofsng_refresh_finish(struct autofsng_helper *h)
{
	struct autofsng_refresh *r = container_of(h, struct autofsng_refresh,
						  helper);
	struct autofsng_sb_info *sbi = h->sbi;
	struct autofsng_mapcache *mc = &sbi->cache;
	struct autofsng_builder *b = r->builder;
	struct autofsng_snapshot *snap = NULL, *old = NULL;
	bool cancelled = h->status == AUTOFSNG_CANCELLED;
	unsigned int ttl;

	if (b)
		snap = autofsng_builder_close(b, !h->status);
	if (b && b->overflow)
		pr_warn_ratelimited("listing map %s cut off after %u keys and %zu bytes (fs.autofsng.list_max_keys, list_max_bytes), keeping the old keys\n",
				    sbi->mapname, b->total, b->bytes);
	else if (!snap && !cancelled)
		pr_info_ratelimited("listing map %s failed (status %d), keeping the old keys\n",
				    sbi->mapname, h->status);
	ttl = snap ? READ_ONCE(sbi->cache_ttl) : READ_ONCE(sbi->negative_timeout);
	if (snap)
		snap = autofsng_snapshot_dedup(r->sb, snap);

	spin_lock(&mc->lock);
	if (snap) {
		old = mc->snap;
		mc->snap = snap;
	}
	/* A reader killed before the agent ran leaves the cache as it was. */
	if (!cancelled) {
		mc->next_refresh = jiffies + autofsng_secs_to_jiffies(ttl);
		mc->valid = true;
	}
	mc->refresh = NULL;
	spin_unlock(&mc->lock);
	autofsng_snapshot_put(old);
}

static void autofsng_refresh_release(struct autofsng_helper *h)
{
	struct autofsng_refresh *r = container_of(h, struct autofsng_refresh,
						  helper);

	if (r->builder)
		autofsng_builder_put(r->builder);
	/* The last reference after an umount shuts the superblock down. */
	deactivate_super(r->sb);
	kfree(r);
}

static int autofsng_refresh_args(struct autofsng_refresh *r)
{
	struct autofsng_helper *h = &r->helper;
	struct autofsng_sb_info *sbi = h->sbi;
	struct autofsng_builder *b;
	struct file *file;
	char **envp;
	int i = 0, err;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	refcount_set(&b->count, 1);
	mutex_init(&b->lock);
	b->keys = RB_ROOT;
	b->max_keys = autofsng_list_max_keys();
	b->max_bytes = autofsng_list_max_bytes();
	r->builder = b;

	refcount_inc(&b->count);
	file = anon_inode_getfile("[autofsng-list]", &autofsng_list_fops, b,
				  O_WRONLY);
	if (IS_ERR(file)) {
		autofsng_builder_put(b);
		return PTR_ERR(file);
	}
	err = trap_helper_add_file(&h->th, file);
	if (err)
		return err;

	envp = autofsng_helper_envp(h, 3);
	if (!envp)
		return -ENOMEM;
	envp[i] = kasprintf(GFP_KERNEL, "MAPNAME=%s", sbi->mapname);
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "MAPOPTIONS=%s",
				      sbi->mapoptions ?: "");
	if (envp[i])
		envp[++i] = kasprintf(GFP_KERNEL, "WRITEFD=%d",
				      AUTOFSNG_HELPER_FD);
	return envp[i] ? 0 : -ENOMEM;
}

/*
 * The caller holds an active reference on @sb (an open directory of it,
 * or the mount being made): the refresh takes one of its own, so that
 * an umount while it runs leaves the superblock to its last reference.
 */
static struct autofsng_refresh *autofsng_refresh_alloc(struct super_block *sb)
{
	struct autofsng_refresh *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->helper.finish = autofsng_refresh_finish;
	r->helper.release = autofsng_refresh_release;
	atomic_inc(&sb->s_active);
	r->sb = sb;
	r->helper.status = autofsng_helper_init_common(&r->helper,
						       autofsng_sbi(sb),
						       "list");
	return r;
}

/* Run the refresh @r, installed as mc->refresh by the caller. */
static int autofsng_refresh_run(struct autofsng_refresh *r)
{
	struct autofsng_helper *h = &r->helper;
	int err;

	if (!h->status)
		h->status = autofsng_refresh_args(r);
	autofsng_helper_run(h);
	err = autofsng_helper_wait(h);
	autofsng_helper_put(h);
	return err;
}

/* A kworker runs the refresh: nobody waits for it but a first listing. */
static void autofsng_refresh_work(struct work_struct *work)
{
	autofsng_refresh_run(container_of(work, struct autofsng_refresh, work));
}

/* Called with mc->lock held. */
static bool autofsng_mapcache_fresh(const struct autofsng_mapcache *mc)
{
	return mc->valid && time_before(jiffies, mc->next_refresh);
}

/**
 * autofsng_mapcache_refresh - refresh a stale cache in the background
 * @sb: the autofsng superblock, on which the caller holds an active
 *	reference
 *
 * Starts "agent list" from a kworker unless the cache is fresh or a
 * refresh is in flight: one refresh per superblock at a time, and none
 * before next_refresh, whoever asks.  Readers meanwhile go on with the
 * current snapshot.  Only the initial user namespace starts refreshes.
 */
void autofsng_mapcache_refresh(struct super_block *sb)
{
	struct autofsng_mapcache *mc = &autofsng_sbi(sb)->cache;
	struct autofsng_refresh *r;
	bool idle;

	if (current_user_ns() != &init_user_ns)
		return;
	spin_lock(&mc->lock);
	idle = !mc->refresh && !autofsng_mapcache_fresh(mc);
	spin_unlock(&mc->lock);
	if (!idle)
		return;
	r = autofsng_refresh_alloc(sb);
	if (!r)
		return;
	INIT_WORK(&r->work, autofsng_refresh_work);
	spin_lock(&mc->lock);
	idle = !mc->refresh && !autofsng_mapcache_fresh(mc);
	if (idle)
		mc->refresh = r;
	spin_unlock(&mc->lock);
	if (idle)
		queue_work(autofsng_refresh_wq, &r->work);
	else
		autofsng_helper_put(&r->helper);
}

/**
 * autofsng_snapshot_peek - the current snapshot, never refreshed
 * @sb: the autofsng superblock
 *
 * Return: a referenced snapshot, or NULL when there is none yet.
 */
struct autofsng_snapshot *autofsng_snapshot_peek(struct super_block *sb)
{
	struct autofsng_mapcache *mc = &autofsng_sbi(sb)->cache;
	struct autofsng_snapshot *snap;

	spin_lock(&mc->lock);
	snap = mc->snap;
	if (snap)
		refcount_inc(&snap->count);
	spin_unlock(&mc->lock);
	return snap;
}

/*
 * There is no snapshot: wait for the refresh in flight, or run one and
 * wait for it.  Return: 0 once one ended, -EINTR or -ENOMEM.
 */
static int autofsng_snapshot_fill(struct super_block *sb)
{
	struct autofsng_mapcache *mc = &autofsng_sbi(sb)->cache;
	struct autofsng_refresh *r, *running;
	int err;

	r = autofsng_refresh_alloc(sb);
	if (!r)
		return -ENOMEM;
	spin_lock(&mc->lock);
	running = mc->refresh;
	if (running)
		refcount_inc(&running->helper.count);
	else
		mc->refresh = r;
	spin_unlock(&mc->lock);
	if (!running)
		return autofsng_refresh_run(r);
	autofsng_helper_put(&r->helper);
	autofsng_helper_join(&running->helper);
	err = autofsng_helper_wait(&running->helper);
	autofsng_helper_put(&running->helper);
	return err;
}

/**
 * autofsng_snapshot_get - the snapshot to list, refreshed when stale
 * @sb: the autofsng superblock, held active by the caller
 *
 * Stale-while-revalidate: a stale snapshot is returned at once and a
 * background refresh started (autofsng_mapcache_refresh()).  Only a
 * cache with no snapshot and no valid failure makes the caller wait:
 * for the refresh in flight (the one started at mount), or for one it
 * runs itself.
 *
 * Return: a referenced snapshot, NULL when the map has none, or
 * ERR_PTR(-EINTR) / ERR_PTR(-ENOMEM).
 */
struct autofsng_snapshot *autofsng_snapshot_get(struct super_block *sb)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(sb);
	struct autofsng_mapcache *mc = &sbi->cache;
	struct autofsng_snapshot *snap;
	bool fresh;
	int err;

	/* The agent listing itself must not wait for its own refresh. */
	if (autofsng_is_helper(sbi))
		return autofsng_snapshot_peek(sb);
	spin_lock(&mc->lock);
	snap = mc->snap;
	fresh = autofsng_mapcache_fresh(mc);
	spin_unlock(&mc->lock);
	if (!snap && !fresh && current_user_ns() == &init_user_ns) {
		err = autofsng_snapshot_fill(sb);
		if (err)
			return ERR_PTR(err);
	} else if (!fresh) {
		autofsng_mapcache_refresh(sb);
	}
	return autofsng_snapshot_peek(sb);
}

/**
 * autofsng_mapcache_setup - make the workqueue of background refreshes
 *
 * Unbound, and at most AUTOFSNG_REFRESH_MAX_ACTIVE refreshes at once for
 * the whole system, so that mounting many browse maps at once does not
 * start as many agents.
 *
 * Return: 0 or -ENOMEM.
 */
int __init autofsng_mapcache_setup(void)
{
	autofsng_refresh_wq = alloc_workqueue("autofsng_refresh", WQ_UNBOUND,
					      AUTOFSNG_REFRESH_MAX_ACTIVE);
	return autofsng_refresh_wq ? 0 : -ENOMEM;
}

/**
 * autofsng_mapcache_init - an empty cache that refreshes on first use
 * @mc: the cache
 */
void autofsng_mapcache_init(struct autofsng_mapcache *mc)
{
	spin_lock_init(&mc->lock);
	mc->snap = NULL;
	mc->refresh = NULL;
	mc->valid = false;
}

/**
 * autofsng_mapcache_expire - refresh at the next listing
 * @mc: the cache
 */
void autofsng_mapcache_expire(struct autofsng_mapcache *mc)
{
	spin_lock(&mc->lock);
	mc->valid = false;
	spin_unlock(&mc->lock);
}

/**
 * autofsng_mapcache_destroy - free a cache; no refresh can be running
 * @mc: the cache
 */
void autofsng_mapcache_destroy(struct autofsng_mapcache *mc)
{
	autofsng_snapshot_put(mc->snap);
	mc->snap = NULL;
}
