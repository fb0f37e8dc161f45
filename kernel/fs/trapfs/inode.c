// SPDX-License-Identifier: GPL-2.0
/*
 * trapfs inodes: exactly the semantics of ramfs.  The page cache holds the
 * data and the dentry cache holds the tree; every name that exists is
 * pinned by an extra dentry reference until it is unlinked.
 */
#include <linux/autofsng_compat.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/ramfs.h>
#include <linux/string.h>
#include <linux/time.h>

#include "internal.h"

static const struct inode_operations trapfs_dir_inode_operations;

static const struct inode_operations trapfs_file_inode_operations = {
	.setattr	= simple_setattr,
	.getattr	= simple_getattr,
};

struct inode *trapfs_get_inode(struct super_block *sb, const struct inode *dir,
			       umode_t mode, dev_t dev)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode_init_owner(AUTOFSNG_NOP_IDMAP, inode, dir, mode);
	inode->i_mapping->a_ops = &ram_aops;
	mapping_set_gfp_mask(inode->i_mapping, GFP_HIGHUSER);
	mapping_set_unevictable(inode->i_mapping);
	autofsng_inode_times_now(inode);
	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &trapfs_file_inode_operations;
		inode->i_fop = &ramfs_file_operations;
		break;
	case S_IFDIR:
		inode->i_op = &trapfs_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		/* a directory starts with two links: its name and "." */
		inc_nlink(inode);
		break;
	case S_IFLNK:
		inode->i_op = &page_symlink_inode_operations;
		inode_nohighmem(inode);
		break;
	default:
		init_special_inode(inode, mode, dev);
		break;
	}
	return inode;
}

/* The name exists from now on: it is no longer a trap (see trap.c). */
static void trapfs_instantiate(struct inode *dir, struct dentry *dentry,
			       struct inode *inode)
{
	trapfs_disarm(dentry);
	d_instantiate(dentry, inode);
	dget(dentry);
	autofsng_dir_changed(dir);
}

static int trapfs_mknod(struct autofsng_idmap *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode, dev_t dev)
{
	struct inode *inode = trapfs_get_inode(dir->i_sb, dir, mode, dev);

	if (!inode)
		return -ENOSPC;
	trapfs_instantiate(dir, dentry, inode);
	return 0;
}

static int trapfs_mkdir(struct autofsng_idmap *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode)
{
	int err = trapfs_mknod(idmap, dir, dentry, mode | S_IFDIR, 0);

	if (!err)
		inc_nlink(dir);
	return err;
}

static int trapfs_create(struct autofsng_idmap *idmap, struct inode *dir,
			 struct dentry *dentry, umode_t mode, bool excl)
{
	return trapfs_mknod(idmap, dir, dentry, mode | S_IFREG, 0);
}

static int trapfs_symlink(struct autofsng_idmap *idmap, struct inode *dir,
			  struct dentry *dentry, const char *symname)
{
	struct inode *inode;
	int err;

	inode = trapfs_get_inode(dir->i_sb, dir, S_IFLNK | 0777, 0);
	if (!inode)
		return -ENOSPC;
	err = page_symlink(inode, symname, strlen(symname) + 1);
	if (err) {
		iput(inode);
		return err;
	}
	trapfs_instantiate(dir, dentry, inode);
	return 0;
}

static int trapfs_link(struct dentry *old_dentry, struct inode *dir,
		       struct dentry *dentry)
{
	trapfs_disarm(dentry);
	return simple_link(old_dentry, dir, dentry);
}

static int trapfs_tmpfile(struct autofsng_idmap *idmap, struct inode *dir,
			  struct file *file, umode_t mode)
{
	struct inode *inode = trapfs_get_inode(dir->i_sb, dir, mode, 0);

	if (!inode)
		return -ENOSPC;
	d_tmpfile(file, inode);
	return finish_open_simple(file, 0);
}

static const struct inode_operations trapfs_dir_inode_operations = {
	.create		= trapfs_create,
	.lookup		= trapfs_lookup,
	.link		= trapfs_link,
	.unlink		= simple_unlink,
	.symlink	= trapfs_symlink,
	.mkdir		= trapfs_mkdir,
	.rmdir		= simple_rmdir,
	.mknod		= trapfs_mknod,
	.rename		= simple_rename,
	.tmpfile	= trapfs_tmpfile,
};
