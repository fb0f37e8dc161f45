/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trapfs: a ramfs whose missing names are a question to a helper program.
 */
#ifndef _FS_TRAPFS_INTERNAL_H
#define _FS_TRAPFS_INTERNAL_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#define TRAPFS_MAGIC		0x74726170	/* "trap" */
#define TRAPFS_DEFAULT_MODE	0755
#define TRAPFS_NEGATIVE_TIMEOUT	60		/* seconds */
#define TRAPFS_HELPER_TIMEOUT	30		/* seconds */
#define TRAPFS_MAX_TIMEOUT	86400		/* seconds */
#define TRAPFS_MAX_REQUESTS	256		/* helper runs in flight per mount */
#define TRAPFS_MAX_USER_REQUESTS 64		/* of them, started by one uid */

struct trapfs_sb_info {
	umode_t mode;
	/* absolute path of the helper; NULL for a plain ramfs; fixed at mount */
	char *helper;
	/* seconds; written by remount, read with READ_ONCE() */
	unsigned int negative_timeout;
	unsigned int helper_timeout;
	/*
	 * lock protects reqs, nr_reqs, the d_fsdata of every dentry of this
	 * super block, and the helper process (th) of each request.
	 */
	spinlock_t lock;
	struct list_head reqs;
	unsigned int nr_reqs;
};

static inline struct trapfs_sb_info *trapfs_sb(const struct super_block *sb)
{
	return sb->s_fs_info;
}

/* inode.c */
struct inode *trapfs_get_inode(struct super_block *sb, const struct inode *dir,
			       umode_t mode, dev_t dev);

/* trap.c */
extern const struct dentry_operations trapfs_dentry_operations;
struct dentry *trapfs_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned int flags);
void trapfs_disarm(struct dentry *dentry);
int trapfs_trap_init(void);

#endif /* _FS_TRAPFS_INTERNAL_H */
