/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The expiry ABI of the Linux 6.12 series (kernel/patches/6.12), for C
 * libraries whose <linux/mount.h> predates it.  On 6.12 there is no
 * mountfd(2): the policy is set with mount_setattr(2) and read with
 * statmount(2), both extended by the series (mountfd(2), "Linux 6.12").
 * Shared by the agent and the test programs.
 */
#ifndef AM_MOUNT_ABI_H
#define AM_MOUNT_ABI_H

#include <linux/types.h>
#include <sys/syscall.h>

#ifndef __NR_mount_setattr
#define __NR_mount_setattr	442
#endif
#ifndef __NR_statmount
#define __NR_statmount		457
#endif
#ifndef __NR_listmount
#define __NR_listmount		458
#endif

/*
 * In attr_set: apply expire_policy and expire_timeout.  Refused (EINVAL) in
 * attr_clr and with AT_RECURSIVE.  The policies are MOUNTFD_EXPIRE_*.
 */
#define AM_MOUNT_ATTR_EXPIRE	0x40000000ULL

/* struct mount_attr, MOUNT_ATTR_SIZE_VER0 plus the series' two fields. */
struct am_mount_attr {
	__u64 attr_set;
	__u64 attr_clr;
	__u64 propagation;
	__u64 userns_fd;
	__u32 expire_policy;	/* MOUNTFD_EXPIRE_* [| MOUNTFD_EXPIRE_STRICT] */
	__u32 expire_timeout;	/* idle seconds before expiry */
};
#define AM_MOUNT_ATTR_SIZE_EXPIRE	40

/* statmount(2) mask bits: upstream's mnt_* fields; the expire_* fields. */
#define AM_STATMOUNT_MNT_BASIC	0x00000002ULL
#define AM_STATMOUNT_EXPIRE	0x80000000ULL

/* struct mnt_id_req of statmount(2) and listmount(2), VER1. */
struct am_mnt_id_req {
	__u32 size;
	__u32 mnt_ns_fd;
	__u64 mnt_id;
	__u64 param;
	__u64 mnt_ns_id;
};
#define AM_MNT_ID_REQ_SIZE_VER0	24

/* struct statmount of 6.12, with the series' fields at the end of its spare. */
struct am_statmount {
	__u32 size;
	__u32 mnt_opts;
	__u64 mask;
	__u32 sb_dev_major;
	__u32 sb_dev_minor;
	__u64 sb_magic;
	__u32 sb_flags;
	__u32 fs_type;
	__u64 mnt_id;
	__u64 mnt_parent_id;
	__u32 mnt_id_old;
	__u32 mnt_parent_id_old;
	__u64 mnt_attr;
	__u64 mnt_propagation;
	__u64 mnt_peer_group;
	__u64 mnt_master;
	__u64 propagate_from;
	__u32 mnt_root;
	__u32 mnt_point;
	__u64 mnt_ns_id;
	__u64 __spare2[47];
	__u32 expire_policy;	/* STATMOUNT_EXPIRE: MOUNTFD_EXPIRE_* */
	__u32 expire_timeout;	/* seconds */
	__u32 expire_remaining;	/* seconds left of the countdown */
	__u32 __spare3;
	char str[];
};

#endif /* AM_MOUNT_ABI_H */
