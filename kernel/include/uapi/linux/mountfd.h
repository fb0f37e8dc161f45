/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * mountfd(2): a file descriptor for one mount, and the ioctls on it.
 *
 *   int mountfd(int dirfd, unsigned int flags);
 *
 * returns an fd for the mount that dirfd's path lies on (path.mnt).  Walking
 * with GETFIRSTCHILD/GETNEXTCHILD never leaves the tree below the mount the
 * first fd was opened on.  Operations that change the tree need
 * CAP_SYS_ADMIN over the user namespace owning the mount's namespace.
 * mountfd(), GETDIRFD and the walk give a caller without it only mounts its
 * own path walk reaches; the read ioctls only what its mountinfo shows.
 * Every check is made against the task calling, not the fd's opener.
 *
 * Strings are returned through struct mountfd_buf: the caller names a buffer
 * and its size; the kernel writes a NUL-terminated string and sets mb_len to
 * the bytes written including the NUL, or fails with ERANGE and sets mb_len to
 * the size that would have been needed.
 *
 * Documentation: Documentation/filesystems/mountfd.rst, man mountfd(2).
 */
#ifndef _UAPI_LINUX_MOUNTFD_H
#define _UAPI_LINUX_MOUNTFD_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* mountfd() flags */
#define MOUNTFD_CLOEXEC		02000000	/* same value as O_CLOEXEC */

/* Expiry policies (Documentation/filesystems/expire_semantics.rst). */
#define MOUNTFD_EXPIRE_NONE	0	/* never expires */
#define MOUNTFD_EXPIRE_MOUNT	1	/* expires alone after me_timeout idle */
#define MOUNTFD_EXPIRE_SUBTREE	2	/* expires with its whole subtree, atomically */
/*
 * Or'ed into MOUNTFD_EXPIRE_MOUNT: only references (open files, working and
 * root directories, mounts below) keep the tree, a path walk that ends in
 * it (stat, a scanner's readdir) does not restart the countdown.
 */
#define MOUNTFD_EXPIRE_STRICT	0x100
/*
 * GETEXPIRE only, or'ed into MOUNTFD_EXPIRE_NONE: the mount is a copy that
 * mount propagation made of an expiring mount, in a peer or slave of that
 * mount's parent.  It does not count down itself and goes when the tree
 * it copies expires (expire_semantics.rst, "Shared mounts"); me_timeout
 * and me_remaining are that tree's.  SETEXPIRE refuses it.
 */
#define MOUNTFD_EXPIRE_PROPAGATED	0x200

/* me_size of the first version; a kernel takes any size from it up */
#define MOUNTFD_EXPIRE_SIZE_VER0	32

struct mountfd_expire {
	__u32 me_size;		/* in: sizeof(struct mountfd_expire) */
	__u32 me_policy;	/* MOUNTFD_EXPIRE_* */
	__u32 me_timeout;	/* idle seconds before expiry; rounded up to ticks */
	__u32 me_remaining;	/* GETEXPIRE: seconds left of the countdown */
	__u64 me_reserved[2];	/* must be zero */
};

struct mountfd_buf {
	__u64 mb_buf;		/* user pointer to the buffer */
	__u32 mb_len;		/* in: buffer size; out: see above */
	__u32 mb_reserved;	/* must be zero */
};

struct mountfd_dev {
	__u32 md_major;
	__u32 md_minor;
};

struct mountfd_attach {
	__s32 ma_dirfd;		/* directory to attach the detached tree onto */
	__u32 ma_flags;		/* must be zero */
};

/*
 * Registered in Documentation/userspace-api/ioctl/ioctl-number.rst (0xD3,
 * 00-1F), so that an ioctl meant for another file, say nsfs's NS_GET_USERNS,
 * fails with ENOTTY on a mountfd instead of unmounting something.
 */
#define MOUNTFD_IOC_MAGIC		0xD3

/* Returns an O_PATH fd (close-on-exec) on the root directory of the mount. */
#define MOUNTFD_IOC_GETDIRFD		_IO(MOUNTFD_IOC_MAGIC, 0x00)
/* umount(2) of this mount: fails with EBUSY while in use. */
#define MOUNTFD_IOC_UNMOUNT		_IO(MOUNTFD_IOC_MAGIC, 0x01)
/*
 * Take the mount and all below it out of the namespace, like
 * umount2(MNT_DETACH), but whole: it becomes a detached tree owned by this
 * fd (as open_tree(OPEN_TREE_CLONE) makes) that ATTACH can put back, and
 * that is dissolved when this fd is closed unattached.
 */
#define MOUNTFD_IOC_DETACH		_IO(MOUNTFD_IOC_MAGIC, 0x02)
/* umount2(MNT_FORCE). */
#define MOUNTFD_IOC_FORCEDUNMOUNT	_IO(MOUNTFD_IOC_MAGIC, 0x03)
/* Attach this detached tree onto ma_dirfd (move_mount(2) rules; ELOOP into itself). */
#define MOUNTFD_IOC_ATTACH		_IOW(MOUNTFD_IOC_MAGIC, 0x04, struct mountfd_attach)
/*
 * Return a new mountfd (close-on-exec) for the first child / the next
 * sibling; ENOENT at the end.
 */
#define MOUNTFD_IOC_GETFIRSTCHILD	_IO(MOUNTFD_IOC_MAGIC, 0x05)
#define MOUNTFD_IOC_GETNEXTCHILD	_IO(MOUNTFD_IOC_MAGIC, 0x06)
#define MOUNTFD_IOC_GETDEV		_IOR(MOUNTFD_IOC_MAGIC, 0x07, struct mountfd_dev)
#define MOUNTFD_IOC_GETFSTYPE		_IOWR(MOUNTFD_IOC_MAGIC, 0x08, struct mountfd_buf)
/* Mount source as in /proc/self/mountinfo ("server:/export"). */
#define MOUNTFD_IOC_GETSOURCE		_IOWR(MOUNTFD_IOC_MAGIC, 0x09, struct mountfd_buf)
/* Per-mount options: "rw,nosuid,relatime". */
#define MOUNTFD_IOC_GETVFSOPTIONS	_IOWR(MOUNTFD_IOC_MAGIC, 0x0a, struct mountfd_buf)
/* Superblock options through ->show_options: "vers=4.2,addr=..." */
#define MOUNTFD_IOC_GETFSOPTIONS	_IOWR(MOUNTFD_IOC_MAGIC, 0x0b, struct mountfd_buf)
#define MOUNTFD_IOC_GETEXPIRE		_IOWR(MOUNTFD_IOC_MAGIC, 0x0c, struct mountfd_expire)
#define MOUNTFD_IOC_SETEXPIRE		_IOW(MOUNTFD_IOC_MAGIC, 0x0d, struct mountfd_expire)

#endif /* _UAPI_LINUX_MOUNTFD_H */
