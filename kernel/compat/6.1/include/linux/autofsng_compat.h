/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What autofsng, trapfs and the trap helper need from the VFS and sysctl
 * interfaces that changed between the two kernels the series targets, so
 * that one source builds on both: kernel/build.sh lays the header of the
 * kernel it builds (kernel/compat/KVER/) into the tree, and nothing in
 * those sources tests the kernel version.  This is 6.1's: each item is
 * what 6.1 has where 6.12 changed it (see the 6.12 header for why).
 */
#ifndef _LINUX_AUTOFSNG_COMPAT_H
#define _LINUX_AUTOFSNG_COMPAT_H

#include <linux/fs.h>

/* proc handlers get a writable table; tables end with an empty entry */
#define AUTOFSNG_CTL_CONST
#define AUTOFSNG_CTL_END	{ }

/* inode operations get the mount's user namespace */
#define autofsng_idmap		user_namespace
#define AUTOFSNG_NOP_IDMAP	(&init_user_ns)

/* timestamps are plain fields: all now */
static inline void autofsng_inode_times_now(struct inode *inode)
{
	inode->i_mtime = current_time(inode);
	inode->i_atime = inode->i_mtime;
	inode->i_ctime = inode->i_mtime;
}

/* A directory that changed: mtime = ctime = now. */
static inline void autofsng_dir_changed(struct inode *dir)
{
	dir->i_mtime = current_time(dir);
	dir->i_ctime = dir->i_mtime;
}

/* a dentry's children: the list d_subdirs, linked by d_child */
#define autofsng_for_each_child(child, parent) \
	list_for_each_entry(child, &(parent)->d_subdirs, d_child)

#endif /* _LINUX_AUTOFSNG_COMPAT_H */
