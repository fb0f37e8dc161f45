// SPDX-License-Identifier: GPL-2.0
/*
 * trapfs: a ramfs that, mounted with helper=PATH, runs the helper when a
 * lookup finds nothing and returns whatever the helper left behind.
 * Without helper= it is a plain ramfs.  See
 * Documentation/filesystems/trapfs.rst.
 */
#define pr_fmt(fmt) "trapfs: " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/fs_struct.h>
#include <linux/init.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

enum trapfs_param {
	TRAPFS_OPT_MODE,
	TRAPFS_OPT_HELPER,
	TRAPFS_OPT_NEGATIVE_TIMEOUT,
	TRAPFS_OPT_HELPER_TIMEOUT,
};

static const struct fs_parameter_spec trapfs_fs_parameters[] = {
	fsparam_u32oct("mode",			TRAPFS_OPT_MODE),
	fsparam_string("helper",		TRAPFS_OPT_HELPER),
	/* mount(8) takes helper= for itself (the umount helper) and drops it */
	fsparam_string("trap_helper",		TRAPFS_OPT_HELPER),
	fsparam_u32("negative_timeout",		TRAPFS_OPT_NEGATIVE_TIMEOUT),
	fsparam_u32("helper_timeout",		TRAPFS_OPT_HELPER_TIMEOUT),
	{}
};

/* What one mount or remount asked for. */
struct trapfs_fs_context {
	struct trapfs_sb_info *sbi;
	unsigned int set;	/* BIT(Opt_*) of the options given */
};

static void trapfs_sbi_free(struct trapfs_sb_info *sbi)
{
	if (!sbi)
		return;
	kfree(sbi->helper);
	kfree(sbi);
}

/*
 * The helper runs from the kernel in the initial namespaces, so it must be
 * an executable file there, whatever the mounter's root is.
 */
static int trapfs_check_helper(struct fs_context *fc, const char *helper)
{
	struct path root;
	struct file *file;
	int err = 0;

	if (helper[0] != '/')
		return invalfc(fc, "helper=%s: not an absolute path", helper);
	task_lock(&init_task);
	get_fs_root(init_task.fs, &root);
	task_unlock(&init_task);
	file = file_open_root(&root, helper, O_PATH, 0);
	path_put(&root);
	if (IS_ERR(file))
		return invalfc(fc, "helper=%s: not found in the initial namespace (error %ld)",
			       helper, PTR_ERR(file));
	if (!d_is_reg(file->f_path.dentry) ||
	    !(file_inode(file)->i_mode & 0111) || path_noexec(&file->f_path))
		err = invalfc(fc, "helper=%s: not an executable file", helper);
	fput(file);
	return err;
}

static int trapfs_parse_timeout(struct fs_context *fc, struct fs_parameter *param,
				unsigned int value, unsigned int min)
{
	if (value < min || value > TRAPFS_MAX_TIMEOUT)
		return invalfc(fc, "%s=%u: must be %u to %u seconds",
			       param->key, value, min, TRAPFS_MAX_TIMEOUT);
	return 0;
}

static int trapfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct trapfs_fs_context *ctx = fc->fs_private;
	struct trapfs_sb_info *sbi = ctx->sbi;
	struct fs_parse_result result;
	int opt, err = 0;

	opt = fs_parse(fc, trapfs_fs_parameters, param, &result);
	if (opt < 0)
		return opt;

	switch (opt) {
	case TRAPFS_OPT_MODE:
		sbi->mode = result.uint_32 & S_IALLUGO;
		break;
	case TRAPFS_OPT_HELPER:
		err = trapfs_check_helper(fc, param->string);
		if (err)
			return err;
		kfree(sbi->helper);
		sbi->helper = param->string;
		param->string = NULL;
		break;
	case TRAPFS_OPT_NEGATIVE_TIMEOUT:
		err = trapfs_parse_timeout(fc, param, result.uint_32, 0);
		sbi->negative_timeout = result.uint_32;
		break;
	case TRAPFS_OPT_HELPER_TIMEOUT:
		err = trapfs_parse_timeout(fc, param, result.uint_32, 1);
		sbi->helper_timeout = result.uint_32;
		break;
	}
	ctx->set |= BIT(opt);
	return err;
}

static int trapfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct trapfs_sb_info *sbi = trapfs_sb(root->d_sb);

	if (sbi->mode != TRAPFS_DEFAULT_MODE)
		seq_printf(m, ",mode=%o", sbi->mode);
	if (!sbi->helper)
		return 0;
	seq_show_option(m, "helper", sbi->helper);
	seq_printf(m, ",negative_timeout=%u,helper_timeout=%u",
		   READ_ONCE(sbi->negative_timeout),
		   READ_ONCE(sbi->helper_timeout));
	return 0;
}

static const struct super_operations trapfs_ops = {
	.statfs		= simple_statfs,
	.drop_inode	= generic_delete_inode,
	.show_options	= trapfs_show_options,
};

static int trapfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct trapfs_sb_info *sbi = trapfs_sb(sb);
	struct inode *inode;

	sb->s_maxbytes		= MAX_LFS_FILESIZE;
	sb->s_blocksize		= PAGE_SIZE;
	sb->s_blocksize_bits	= PAGE_SHIFT;
	sb->s_magic		= TRAPFS_MAGIC;
	sb->s_op		= &trapfs_ops;
	sb->s_time_gran		= 1;
	sb->s_d_op = sbi->helper ? &trapfs_dentry_operations :
				   &simple_dentry_operations;

	inode = trapfs_get_inode(sb, NULL, S_IFDIR | sbi->mode, 0);
	sb->s_root = d_make_root(inode);
	if (!sb->s_root)
		return -ENOMEM;
	return 0;
}

static int trapfs_get_tree(struct fs_context *fc)
{
	struct trapfs_fs_context *ctx = fc->fs_private;
	int err;

	/* get_tree_nodev() hands fc->s_fs_info to the new super block */
	fc->s_fs_info = ctx->sbi;
	ctx->sbi = NULL;
	err = get_tree_nodev(fc, trapfs_fill_super);
	if (fc->s_fs_info) {
		ctx->sbi = fc->s_fs_info;
		fc->s_fs_info = NULL;
	}
	return err;
}

/* A remount may change the timeouts; the helper stays what it was. */
static int trapfs_reconfigure(struct fs_context *fc)
{
	struct trapfs_fs_context *ctx = fc->fs_private;
	struct trapfs_sb_info *sbi = trapfs_sb(fc->root->d_sb);
	struct trapfs_sb_info *want = ctx->sbi;

	if ((ctx->set & BIT(TRAPFS_OPT_HELPER)) &&
	    (!sbi->helper || strcmp(sbi->helper, want->helper)))
		return invalfc(fc, "helper=%s: cannot be changed by remount",
			       want->helper);
	if (ctx->set & BIT(TRAPFS_OPT_NEGATIVE_TIMEOUT))
		WRITE_ONCE(sbi->negative_timeout, want->negative_timeout);
	if (ctx->set & BIT(TRAPFS_OPT_HELPER_TIMEOUT))
		WRITE_ONCE(sbi->helper_timeout, want->helper_timeout);
	return 0;
}

static void trapfs_free_fc(struct fs_context *fc)
{
	struct trapfs_fs_context *ctx = fc->fs_private;

	trapfs_sbi_free(ctx->sbi);
	kfree(ctx);
}

static const struct fs_context_operations trapfs_context_ops = {
	.free		= trapfs_free_fc,
	.parse_param	= trapfs_parse_param,
	.get_tree	= trapfs_get_tree,
	.reconfigure	= trapfs_reconfigure,
};

static int trapfs_init_fs_context(struct fs_context *fc)
{
	struct trapfs_fs_context *ctx;
	struct trapfs_sb_info *sbi;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!ctx || !sbi) {
		kfree(ctx);
		kfree(sbi);
		return -ENOMEM;
	}
	sbi->mode = TRAPFS_DEFAULT_MODE;
	sbi->negative_timeout = TRAPFS_NEGATIVE_TIMEOUT;
	sbi->helper_timeout = TRAPFS_HELPER_TIMEOUT;
	spin_lock_init(&sbi->lock);
	INIT_LIST_HEAD(&sbi->reqs);
	ctx->sbi = sbi;
	fc->fs_private = ctx;
	fc->ops = &trapfs_context_ops;
	return 0;
}

static void trapfs_kill_sb(struct super_block *sb)
{
	struct trapfs_sb_info *sbi = trapfs_sb(sb);

	kill_litter_super(sb);
	trapfs_sbi_free(sbi);
}

static struct file_system_type trapfs_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "trapfs",
	.init_fs_context	= trapfs_init_fs_context,
	.parameters		= trapfs_fs_parameters,
	.kill_sb		= trapfs_kill_sb,
};

static int __init trapfs_init(void)
{
	int err = trapfs_trap_init();

	if (err)
		return err;
	return register_filesystem(&trapfs_fs_type);
}
fs_initcall(trapfs_init);
