// SPDX-License-Identifier: GPL-2.0-only
/*
 * autofsng: mount options (fs_context) and the superblock.
 *
 * Locking: the VFS holds sb->s_umount across fill_super and reconfigure;
 * the options a remount may change are written with WRITE_ONCE() and
 * read with READ_ONCE() without it.  Both may start a background browse
 * refresh (mapcache.c), which only queues work and never waits under
 * s_umount.
 */
#define pr_fmt(fmt) "autofsng: " fmt

#include <linux/autofsng_compat.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/dcache.h>
#include "autofsng_i.h"

enum autofsng_param {
	OPT_DIRECT,
	OPT_INDIRECT,
	OPT_BROWSE,
	OPT_NOBROWSE,
	OPT_MAPKEY,
	OPT_MAPOFFSET,
	OPT_OPT,
	OPT_NEGATIVE_TIMEOUT,
	OPT_CACHE_TTL,
};

static const struct fs_parameter_spec autofsng_param_specs[] = {
	fsparam_flag(AUTOFSNG_OPT_DIRECT,		OPT_DIRECT),
	fsparam_flag(AUTOFSNG_OPT_INDIRECT,		OPT_INDIRECT),
	fsparam_flag(AUTOFSNG_OPT_BROWSE,		OPT_BROWSE),
	fsparam_flag(AUTOFSNG_OPT_NOBROWSE,		OPT_NOBROWSE),
	fsparam_string(AUTOFSNG_OPT_MAPKEY,		OPT_MAPKEY),
	fsparam_string(AUTOFSNG_OPT_MAPOFFSET,		OPT_MAPOFFSET),
	fsparam_string(AUTOFSNG_OPT_OPT,		OPT_OPT),
	fsparam_u32(AUTOFSNG_OPT_NEGATIVE_TIMEOUT,	OPT_NEGATIVE_TIMEOUT),
	fsparam_u32(AUTOFSNG_OPT_CACHE_TTL,		OPT_CACHE_TTL),
	{}
};

/*
 * The options being parsed.  seen catches a second or contradicting
 * option at mount time; a remount takes the last of each, because
 * mount(8) hands back the options it found in mountinfo before the new
 * ones.
 */
struct autofsng_fs_context {
	struct autofsng_sb_info	*sbi;
	unsigned long		seen;		/* bit per enum autofsng_param */
};

static int autofsng_seen_once(struct fs_context *fc, unsigned long *seen,
			      int opt, int group, const char *key)
{
	if ((*seen & (BIT(opt) | BIT(group))) &&
	    fc->purpose != FS_CONTEXT_FOR_RECONFIGURE)
		return invalfc(fc, "option '%s' given twice or contradicted",
			       key);
	*seen |= BIT(opt) | BIT(group);
	return 0;
}

static int autofsng_parse_string(struct fs_context *fc, char **dst,
				 struct fs_parameter *param)
{
	if (!*param->string)
		return invalfc(fc, "option '%s' needs a value", param->key);
	kfree(*dst);
	*dst = param->string;
	param->string = NULL;
	return 0;
}

static int autofsng_parse_param(struct fs_context *fc,
				struct fs_parameter *param)
{
	struct autofsng_fs_context *ctx = fc->fs_private;
	struct autofsng_sb_info *sbi = ctx->sbi;
	struct fs_parse_result result;
	int opt, err;

	opt = fs_parse(fc, autofsng_param_specs, param, &result);
	if (opt < 0)
		return opt;

	/* direct/indirect and browse/nobrowse are each one choice */
	switch (opt) {
	case OPT_DIRECT:
	case OPT_INDIRECT:
		err = autofsng_seen_once(fc, &ctx->seen, OPT_DIRECT,
					 OPT_INDIRECT, param->key);
		break;
	case OPT_BROWSE:
	case OPT_NOBROWSE:
		err = autofsng_seen_once(fc, &ctx->seen, OPT_BROWSE,
					 OPT_NOBROWSE, param->key);
		break;
	default:
		err = autofsng_seen_once(fc, &ctx->seen, opt, opt, param->key);
		break;
	}
	if (err)
		return err;

	switch (opt) {
	case OPT_DIRECT:
		sbi->direct = true;
		break;
	case OPT_INDIRECT:
		sbi->direct = false;
		break;
	case OPT_BROWSE:
		sbi->browse = true;
		break;
	case OPT_NOBROWSE:
		sbi->browse = false;
		break;
	case OPT_MAPKEY:
		return autofsng_parse_string(fc, &sbi->mapkey, param);
	case OPT_MAPOFFSET:
		return autofsng_parse_string(fc, &sbi->mapoffset, param);
	case OPT_OPT:
		kfree(sbi->mapoptions);
		sbi->mapoptions = param->string;
		param->string = NULL;
		break;
	case OPT_NEGATIVE_TIMEOUT:
		sbi->negative_timeout = result.uint_32;
		break;
	case OPT_CACHE_TTL:
		sbi->cache_ttl = result.uint_32;
		break;
	}
	return 0;
}

/* The seed's rules: direct needs mapkey and mapoffset, indirect refuses them. */
static int autofsng_check_options(struct fs_context *fc,
				  struct autofsng_sb_info *sbi)
{
	if (!fc->source || !*fc->source)
		return invalfc(fc, "the mount source must name the map");
	if (sbi->direct) {
		if (!sbi->mapkey)
			return invalfc(fc, "option 'mapkey' is required for direct mounts");
		if (!sbi->mapoffset)
			return invalfc(fc, "option 'mapoffset' is required for direct mounts");
		if (sbi->browse)
			return invalfc(fc, "option 'browse' is not valid for direct mounts");
	} else {
		if (sbi->mapkey)
			return invalfc(fc, "option 'mapkey' is not valid for indirect mounts");
		if (sbi->mapoffset)
			return invalfc(fc, "option 'mapoffset' is not valid for indirect mounts");
	}
	return 0;
}

/**
 * autofsng_new_dir_inode - a fresh empty directory inode
 * @sb: the autofsng superblock
 *
 * Return: the inode with simple directory operations, or NULL.
 */
struct inode *autofsng_new_dir_inode(struct super_block *sb)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode->i_mode = S_IFDIR | 0555;
	autofsng_inode_times_now(inode);
	inode->i_op = &simple_dir_inode_operations;
	inode->i_fop = &simple_dir_operations;
	set_nlink(inode, 2);
	return inode;
}

static int autofsng_show_options(struct seq_file *m, struct dentry *root)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(root->d_sb);

	seq_printf(m, ",%s", sbi->direct ? AUTOFSNG_OPT_DIRECT :
					   AUTOFSNG_OPT_INDIRECT);
	seq_printf(m, ",%s", READ_ONCE(sbi->browse) ? AUTOFSNG_OPT_BROWSE :
						      AUTOFSNG_OPT_NOBROWSE);
	if (sbi->mapkey)
		seq_show_option(m, AUTOFSNG_OPT_MAPKEY, sbi->mapkey);
	if (sbi->mapoffset)
		seq_show_option(m, AUTOFSNG_OPT_MAPOFFSET, sbi->mapoffset);
	if (sbi->mapoptions)
		seq_show_option(m, AUTOFSNG_OPT_OPT, sbi->mapoptions);
	seq_printf(m, ",%s=%u,%s=%u",
		   AUTOFSNG_OPT_NEGATIVE_TIMEOUT, READ_ONCE(sbi->negative_timeout),
		   AUTOFSNG_OPT_CACHE_TTL, READ_ONCE(sbi->cache_ttl));
	return 0;
}

static const struct super_operations autofsng_sops = {
	.statfs		= simple_statfs,
	.show_options	= autofsng_show_options,
	.drop_inode	= generic_delete_inode,
};

static int autofsng_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct autofsng_fs_context *ctx = fc->fs_private;
	struct autofsng_sb_info *sbi = ctx->sbi;
	struct inode *inode;
	int err;

	err = autofsng_check_options(fc, sbi);
	if (err)
		return err;
	sbi->mapname = kstrdup(fc->source, GFP_KERNEL);
	if (!sbi->mapname)
		return -ENOMEM;

	sb->s_fs_info = sbi;
	ctx->sbi = NULL;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = AUTOFSNG_SUPER_MAGIC;
	sb->s_op = &autofsng_sops;
	sb->s_d_op = &autofsng_dentry_ops;
	sb->s_time_gran = 1;

	inode = autofsng_new_dir_inode(sb);
	if (!inode)
		return -ENOMEM;
	inode->i_ino = AUTOFSNG_ROOT_INO;
	if (sbi->direct) {
		inode->i_op = &autofsng_direct_root_iops;
	} else {
		inode->i_op = &autofsng_indirect_root_iops;
		inode->i_fop = &autofsng_indirect_root_fops;
	}
	sb->s_root = d_make_root(inode);
	if (!sb->s_root)
		return -ENOMEM;
	if (sbi->direct)
		autofsng_set_trap(sb->s_root);
	/* List the map now, so that the first listing finds the keys. */
	if (sbi->browse)
		autofsng_mapcache_refresh(sb);
	return 0;
}

static int autofsng_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, autofsng_fill_super);
}

static void autofsng_free_sbi(struct autofsng_sb_info *sbi)
{
	if (!sbi)
		return;
	autofsng_negative_free(sbi);
	autofsng_mapcache_destroy(&sbi->cache);
	kfree(sbi->mapname);
	kfree(sbi->mapkey);
	kfree(sbi->mapoffset);
	kfree(sbi->mapoptions);
	kfree(sbi);
}

static void autofsng_free_fc(struct fs_context *fc)
{
	struct autofsng_fs_context *ctx = fc->fs_private;

	if (!ctx)
		return;
	autofsng_free_sbi(ctx->sbi);
	kfree(ctx);
}

static bool autofsng_same_string(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The first option of a remount that would change what mount fixed. */
static const char *autofsng_fixed_changed(const struct autofsng_fs_context *ctx,
					  const struct autofsng_sb_info *sbi)
{
	const struct autofsng_sb_info *want = ctx->sbi;

	if ((ctx->seen & BIT(OPT_DIRECT)) && want->direct != sbi->direct)
		return want->direct ? AUTOFSNG_OPT_DIRECT : AUTOFSNG_OPT_INDIRECT;
	if ((ctx->seen & BIT(OPT_MAPKEY)) &&
	    !autofsng_same_string(want->mapkey, sbi->mapkey))
		return AUTOFSNG_OPT_MAPKEY;
	if ((ctx->seen & BIT(OPT_MAPOFFSET)) &&
	    !autofsng_same_string(want->mapoffset, sbi->mapoffset))
		return AUTOFSNG_OPT_MAPOFFSET;
	if ((ctx->seen & BIT(OPT_OPT)) &&
	    !autofsng_same_string(want->mapoptions, sbi->mapoptions))
		return AUTOFSNG_OPT_OPT;
	return NULL;
}

/*
 * A remount changes browse/nobrowse, negative_timeout and cache_ttl, and
 * refuses to change the others (the map a trap stands for, and what a
 * request hands the agent, are the mount's identity).  Giving a fixed
 * option its current value is not a change.
 */
static int autofsng_reconfigure(struct fs_context *fc)
{
	struct autofsng_fs_context *ctx = fc->fs_private;
	struct autofsng_sb_info *sbi = autofsng_sbi(fc->root->d_sb);
	struct autofsng_sb_info *want = ctx->sbi;
	const char *fixed = autofsng_fixed_changed(ctx, sbi);

	if (fixed)
		return invalfc(fc, "option '%s' cannot be changed by remount",
			       fixed);
	if ((ctx->seen & BIT(OPT_BROWSE)) && want->browse && sbi->direct)
		return invalfc(fc, "option '%s' is not valid for direct mounts",
			       AUTOFSNG_OPT_BROWSE);
	if (ctx->seen & BIT(OPT_BROWSE))
		WRITE_ONCE(sbi->browse, want->browse);
	if (ctx->seen & BIT(OPT_NEGATIVE_TIMEOUT))
		WRITE_ONCE(sbi->negative_timeout, want->negative_timeout);
	if (ctx->seen & BIT(OPT_CACHE_TTL)) {
		WRITE_ONCE(sbi->cache_ttl, want->cache_ttl);
		autofsng_mapcache_expire(&sbi->cache);
	}
	if (READ_ONCE(sbi->browse))
		autofsng_mapcache_refresh(fc->root->d_sb);
	return 0;
}

static const struct fs_context_operations autofsng_context_ops = {
	.free		= autofsng_free_fc,
	.parse_param	= autofsng_parse_param,
	.get_tree	= autofsng_get_tree,
	.reconfigure	= autofsng_reconfigure,
};

/**
 * autofsng_init_fs_context - set up the context of a new mount
 * @fc: the context
 *
 * Return: 0 or -ENOMEM.
 */
int autofsng_init_fs_context(struct fs_context *fc)
{
	struct autofsng_fs_context *ctx;
	struct autofsng_sb_info *sbi;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi) {
		kfree(ctx);
		return -ENOMEM;
	}
	sbi->negative_timeout = AUTOFSNG_DEFAULT_NEGATIVE_TIMEOUT;
	sbi->cache_ttl = AUTOFSNG_DEFAULT_CACHE_TTL;
	spin_lock_init(&sbi->lock);
	INIT_LIST_HEAD(&sbi->helpers);
	INIT_LIST_HEAD(&sbi->slot_waiters);
	INIT_LIST_HEAD(&sbi->slot_holders);
	autofsng_request_init(sbi);
	atomic_set(&sbi->inflight, 0);
	mutex_init(&sbi->instantiate_lock);
	autofsng_mapcache_init(&sbi->cache);

	ctx->sbi = sbi;
	fc->fs_private = ctx;
	fc->ops = &autofsng_context_ops;
	return 0;
}

/**
 * autofsng_kill_sb - tear down a superblock
 * @sb: the superblock
 *
 * Every helper holds a reference on a mount of @sb, so none is running.
 */
void autofsng_kill_sb(struct super_block *sb)
{
	struct autofsng_sb_info *sbi = autofsng_sbi(sb);

	kill_anon_super(sb);
	autofsng_free_sbi(sbi);
}
