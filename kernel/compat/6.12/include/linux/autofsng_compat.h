/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What autofsng, trapfs and the trap helper need from the VFS and sysctl
 * interfaces that changed between the two kernels the series targets, so
 * that one source builds on both: kernel/build.sh lays the header of the
 * kernel it builds (kernel/compat/KVER/) into the tree, and nothing in
 * those sources tests the kernel version.  This is 6.12's.
 */
#ifndef _LINUX_AUTOFSNG_COMPAT_H
#define _LINUX_AUTOFSNG_COMPAT_H

#include <linux/fs.h>
#include <linux/mnt_idmapping.h>

/*
 * 6.11 made the table a proc handler gets const, and sized tables with
 * ARRAY_SIZE() in register_sysctl(): an empty terminating entry is an
 * error there ("procname is null"), while 6.1 needs one.
 */
#define AUTOFSNG_CTL_CONST	const
#define AUTOFSNG_CTL_END

/*
 * 6.3 passes inode operations the mount's idmapping (struct mnt_idmap)
 * where 6.1 passes its user namespace; the filesystems here ignore it but
 * for inode_init_owner(), which takes the identity mapping.
 */
#define autofsng_idmap		mnt_idmap
#define AUTOFSNG_NOP_IDMAP	(&nop_mnt_idmap)

/* 6.6 and 6.7 hid an inode's timestamps behind accessors: all now. */
static inline void autofsng_inode_times_now(struct inode *inode)
{
	simple_inode_init_ts(inode);
}

/* A directory that changed: mtime = ctime = now. */
static inline void autofsng_dir_changed(struct inode *dir)
{
	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
}

/* 6.8 made a dentry's children an hlist, d_children linked by d_sib. */
#define autofsng_for_each_child(child, parent) \
	hlist_for_each_entry(child, &(parent)->d_children, d_sib)

#endif /* _LINUX_AUTOFSNG_COMPAT_H */
