// SPDX-License-Identifier: GPL-2.0-only
/*
 * autofsng: the root directory, the traps and browse listings.
 *
 * An indirect mount's root holds one dentry per looked-up key.  A key
 * starts as a negative dentry marked DCACHE_NEED_AUTOMOUNT, so that any
 * path walk through it, stat() included, reaches ->d_automount; browse
 * keys already in the map cache start as empty directories instead (so
 * that "ls -l" of a browse map mounts nothing).  A direct mount's root
 * is itself the trap.  DCACHE_MANAGE_TRANSIT lets ->d_manage hold walkers
 * back while the agent is still working and let the agent's own process
 * group through.
 *
 * Locking: no lock of its own.  A listing takes its snapshot from the
 * browse cache (mapcache.c, under the cache's spinlock) at offset 0 and
 * walks the root's children under the parent's d_lock, each child's
 * d_lock nested.  Waits (a first browse fill) are killable.
 */
#define pr_fmt(fmt) "autofsng: " fmt

#include <linux/autofsng_compat.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/namei.h>
#include <linux/mount.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "autofsng_i.h"

/**
 * autofsng_set_trap - mark a dentry as an automount trap
 * @dentry: the dentry
 */
void autofsng_set_trap(struct dentry *dentry)
{
	spin_lock(&dentry->d_lock);
	dentry->d_flags |= DCACHE_NEED_AUTOMOUNT | DCACHE_MANAGE_TRANSIT;
	spin_unlock(&dentry->d_lock);
}

static int autofsng_d_manage(const struct path *path, bool rcu_walk)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(path->dentry->d_sb);

	/* Nothing in flight on this mount: nothing to wait for. */
	if (!atomic_read(&sbi->inflight))
		return 0;
	if (rcu_walk)
		return -ECHILD;
	/* The agent passes through: it sees the bare trap directory. */
	if (autofsng_is_helper(sbi))
		return d_mountpoint(path->dentry) ? 0 : -EISDIR;
	return autofsng_request_wait(path);
}

static struct vfsmount *autofsng_d_automount(struct path *path)
{
	return autofsng_request_mount(path);
}

/* Keys nobody mounted on are not kept once unused. */
static int autofsng_d_delete(const struct dentry *dentry)
{
	if (IS_ROOT(dentry))
		return 0;
	return !d_mountpoint(dentry);
}

const struct dentry_operations autofsng_dentry_ops = {
	.d_automount	= autofsng_d_automount,
	.d_manage	= autofsng_d_manage,
	.d_delete	= autofsng_d_delete,
};

static bool autofsng_key_valid(const struct qstr *name)
{
	if (name->len > NAME_MAX)
		return false;
	return !memchr(name->name, '*', name->len);
}

static struct dentry *autofsng_lookup(struct inode *dir, struct dentry *dentry,
				      unsigned int flags)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(dir->i_sb);
	struct autofsng_snapshot *snap;
	struct inode *inode = NULL;

	if (!autofsng_key_valid(&dentry->d_name))
		return ERR_PTR(-ENOENT);
	/* The agent creates nothing here; for it every key is missing. */
	if (autofsng_is_helper(sbi))
		return ERR_PTR(-ENOENT);
	if (autofsng_negative_cached(sbi, &dentry->d_name, 0))
		return ERR_PTR(-ENOENT);

	if (READ_ONCE(sbi->browse)) {
		snap = autofsng_snapshot_peek(dir->i_sb);
		if (snap && autofsng_snapshot_has(snap, dentry->d_name.name,
						  dentry->d_name.len)) {
			inode = autofsng_new_dir_inode(dir->i_sb);
			if (!inode) {
				autofsng_snapshot_put(snap);
				return ERR_PTR(-ENOMEM);
			}
		}
		autofsng_snapshot_put(snap);
	}
	autofsng_set_trap(dentry);
	d_add(dentry, inode);
	return NULL;
}

const struct inode_operations autofsng_indirect_root_iops = {
	.lookup		= autofsng_lookup,
};

/* The agent may look below a direct trap; there is nothing there. */
static struct dentry *autofsng_direct_lookup(struct inode *dir,
					     struct dentry *dentry,
					     unsigned int flags)
{
	return ERR_PTR(-ENOENT);
}

const struct inode_operations autofsng_direct_root_iops = {
	.lookup		= autofsng_direct_lookup,
};

/*
 * What one open directory lists: a snapshot of the map keys and the
 * mounted keys missing from it, both fixed when the listing starts at
 * offset 0.  Offsets: 0 ".", 1 "..", then the snapshot, then the extras.
 */
struct autofsng_dir {
	bool			ready;
	struct autofsng_snapshot *snap;
	struct dentry		**extra;
	unsigned int		nr_extra;
};

static void autofsng_dir_clear(struct autofsng_dir *d)
{
	unsigned int i;

	autofsng_snapshot_put(d->snap);
	for (i = 0; i < d->nr_extra; i++)
		dput(d->extra[i]);
	kfree(d->extra);
	memset(d, 0, sizeof(*d));
}

static bool autofsng_child_listed(struct dentry *child,
				  const struct autofsng_snapshot *snap)
{
	if (child->d_flags & DCACHE_DENTRY_CURSOR)
		return false;
	if (d_really_is_negative(child) || !d_mountpoint(child))
		return false;
	return !snap || !autofsng_snapshot_has(snap, child->d_name.name,
					       child->d_name.len);
}

/* Take references on the mounted children not in @d->snap. */
static int autofsng_dir_collect(struct dentry *parent, struct autofsng_dir *d)
{
	struct dentry *child;
	unsigned int n = 0, max;

	spin_lock(&parent->d_lock);
	autofsng_for_each_child(child, parent)
		n++;
	spin_unlock(&parent->d_lock);

	max = n + 16;
	d->extra = kcalloc(max, sizeof(*d->extra), GFP_KERNEL);
	if (!d->extra)
		return -ENOMEM;

	spin_lock(&parent->d_lock);
	autofsng_for_each_child(child, parent) {
		if (d->nr_extra == max)
			break;
		spin_lock_nested(&child->d_lock, DENTRY_D_LOCK_NESTED);
		if (autofsng_child_listed(child, d->snap))
			d->extra[d->nr_extra++] = dget_dlock(child);
		spin_unlock(&child->d_lock);
	}
	spin_unlock(&parent->d_lock);
	return 0;
}

static int autofsng_dir_prepare(struct file *file, struct autofsng_dir *d)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(file_inode(file)->i_sb);
	struct autofsng_snapshot *snap;

	autofsng_dir_clear(d);
	if (READ_ONCE(sbi->browse)) {
		snap = autofsng_snapshot_get(file_inode(file)->i_sb);
		if (IS_ERR(snap))
			return PTR_ERR(snap);
		d->snap = snap;
	}
	d->ready = true;
	return autofsng_dir_collect(file->f_path.dentry, d);
}

static int autofsng_dir_open(struct inode *inode, struct file *file)
{
	struct autofsng_dir *d;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	file->private_data = d;
	return 0;
}

static int autofsng_dir_release(struct inode *inode, struct file *file)
{
	struct autofsng_dir *d = file->private_data;

	autofsng_dir_clear(d);
	kfree(d);
	return 0;
}

static bool autofsng_emit(struct dir_context *ctx, const char *name,
			  unsigned int len)
{
	/* Inode numbers of listed keys are their offsets, never 0 or 1. */
	return dir_emit(ctx, name, len, ctx->pos + AUTOFSNG_ROOT_INO + 1,
			DT_DIR);
}

static int autofsng_readdir(struct file *file, struct dir_context *ctx)
{
	struct autofsng_dir *d = file->private_data;
	unsigned int nr_snap, i;
	int err;

	if (ctx->pos == 0 || !d->ready) {
		err = autofsng_dir_prepare(file, d);
		if (err)
			return err;
	}
	if (!dir_emit_dots(file, ctx))
		return 0;
	nr_snap = d->snap ? d->snap->nr : 0;
	if (ctx->pos - 2 >= (loff_t)nr_snap + d->nr_extra)
		return 0;
	for (i = ctx->pos - 2; i < nr_snap; i++, ctx->pos++) {
		struct autofsng_key *key = d->snap->keys[i];

		if (!autofsng_emit(ctx, key->name, key->len))
			return 0;
	}
	for (i = ctx->pos - 2 - nr_snap; i < d->nr_extra; i++, ctx->pos++) {
		struct dentry *child = d->extra[i];

		if (!autofsng_emit(ctx, child->d_name.name, child->d_name.len))
			return 0;
	}
	return 0;
}

const struct file_operations autofsng_indirect_root_fops = {
	.open		= autofsng_dir_open,
	.release	= autofsng_dir_release,
	.read		= generic_read_dir,
	.iterate_shared	= autofsng_readdir,
	.llseek		= generic_file_llseek,
};
