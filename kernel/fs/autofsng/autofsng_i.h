/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * autofsng: internal definitions shared by the files of the filesystem.
 *
 * See Documentation/filesystems/autofsng.rst for the protocol and locking.
 */
#ifndef _AUTOFSNG_I_H
#define _AUTOFSNG_I_H

#include <linux/fs.h>
#include <linux/path.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/list.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/uidgid.h>
#include <linux/trap_helper.h>
#include <uapi/linux/autofsng.h>

#define AUTOFSNG_ROOT_INO	1

/* The fd numbers the helper finds its descriptors at (after 0, 1, 2). */
#define AUTOFSNG_HELPER_FD	TRAP_HELPER_FD
static_assert(TRAP_HELPER_FD == AUTOFSNG_AGENT_FD);

/* Buckets of the negative cache and of the requests, per superblock. */
#define AUTOFSNG_NEGATIVE_HASH_BITS	8
#define AUTOFSNG_REQUEST_HASH_BITS	6

/* Background refreshes (mapcache.c) running at once, system wide. */
#define AUTOFSNG_REFRESH_MAX_ACTIVE	4

/* A helper cancelled before its agent ran (its starter was killed). */
#define AUTOFSNG_CANCELLED	(-EINTR)

struct autofsng_sb_info;

/*
 * One run of the agent.  Lookups and list refreshes embed one.  The
 * reference count covers the starter, the usermode helper (until its
 * cleanup callback) and every waiter.
 */
struct autofsng_helper {
	refcount_t		count;
	struct autofsng_sb_info	*sbi;
	struct list_head	list;		/* sbi->helpers, under sbi->lock */
	/*
	 * While waiting for a slot, under sbi->lock: the first waiter of
	 * each uid is on sbi->slot_waiters by queue, and all waiters of one
	 * uid are on a ring, in order, by peers.
	 */
	struct list_head	queue;
	struct list_head	peers;
	/*
	 * The real uid whose turn it waits for and whose agents it counts
	 * among: the starter's, or that of a waiter who had nothing queued
	 * (autofsng_helper_join()).  Under sbi->lock.
	 */
	kuid_t			uid;
	bool			moved;		/* uid changed once, sbi->lock */
	bool			slot;		/* holds an agent slot, sbi->lock */
	struct list_head	held;		/* sbi->slot_holders with slot */
	struct completion	granted;	/* a slot was handed over */
	struct completion	done;		/* set once status is final */
	int			status;		/* 0, -errno or a wait status */
	struct trap_helper	th;		/* the process, under sbi->lock */
	struct delayed_work	timeout;
	char			*argv[3];
	char			**envp;		/* NULL-terminated, kmalloc'd */
	unsigned int		envc;		/* slots of envp, filled or not */
	void			(*finish)(struct autofsng_helper *h);
	void			(*release)(struct autofsng_helper *h);
};

/*
 * One map key snapshot entry.  The rb node is used only while the
 * snapshot is being built; readers index the sorted array.
 */
struct autofsng_key {
	struct rb_node		node;
	unsigned int		len;
	char			name[];
};

/* An immutable, sorted, reference counted set of map keys. */
struct autofsng_snapshot {
	refcount_t		count;
	unsigned int		nr;
	struct autofsng_key	**keys;
};

struct autofsng_refresh;

/* The browse cache of one superblock. */
struct autofsng_mapcache {
	spinlock_t		lock;		/* protects the fields below */
	struct autofsng_snapshot *snap;	/* NULL until a refresh succeeds */
	struct autofsng_refresh	*refresh;	/* the refresh in flight */
	unsigned long		next_refresh;	/* jiffies */
	bool			valid;		/* next_refresh means something */
};

struct autofsng_sb_info {
	/* Fixed at mount time. */
	bool			direct;
	char			*mapname;
	char			*mapkey;
	char			*mapoffset;
	char			*mapoptions;
	/* Changed by remount: written with WRITE_ONCE(), read with READ_ONCE(). */
	bool			browse;
	unsigned int		negative_timeout;	/* seconds */
	unsigned int		cache_ttl;		/* seconds */

	/*
	 * lock protects the running helpers, the agent slots and their
	 * queue, the requests and the negative cache.  inflight counts
	 * running helpers so that RCU walk can skip the lock when idle.
	 * nr_agents helpers hold a slot (fs.autofsng.max_agents); the others
	 * wait, served round-robin by uid: slot_waiters holds the first
	 * waiter of each uid, in the order the uids take turns, and a uid
	 * runs at most fs.autofsng.max_agents_per_user of the slots, whose
	 * holders are on slot_holders.  The negative
	 * cache is a hash of keys plus a list, oldest first, that bounds it
	 * (fs.autofsng.negative_max).
	 */
	spinlock_t		lock;
	struct list_head	helpers;
	unsigned int		nr_agents;
	struct list_head	slot_waiters;
	struct list_head	slot_holders;
	DECLARE_HASHTABLE(requests, AUTOFSNG_REQUEST_HASH_BITS);
	DECLARE_HASHTABLE(negative_hash, AUTOFSNG_NEGATIVE_HASH_BITS);
	struct list_head	negative;
	unsigned int		nr_negative;
	atomic_t		inflight;

	/* serialises giving negative key dentries their inode */
	struct mutex		instantiate_lock;

	struct autofsng_mapcache cache;
};

static inline struct autofsng_sb_info *autofsng_sbi(struct super_block *sb)
{
	return sb->s_fs_info;
}

/*
 * negative_timeout and cache_ttl as a jiffies offset.  Any u32 of seconds
 * is accepted, but times HZ it overflows a 32-bit unsigned long into a
 * short time: compute in 64 bits and clamp to MAX_JIFFY_OFFSET, the
 * longest offset time_before() compares right (about 12 days at HZ=1000
 * on 32-bit; never reached on 64-bit).
 */
static inline unsigned long autofsng_secs_to_jiffies(unsigned int secs)
{
	return min_t(u64, (u64)secs * HZ, MAX_JIFFY_OFFSET);
}

/* init.c */
char *autofsng_agent_path(void);
unsigned long autofsng_agent_timeout(void);
unsigned int autofsng_max_agents(void);
unsigned int autofsng_max_agents_per_user(void);
unsigned int autofsng_negative_max(void);
unsigned int autofsng_list_max_keys(void);
size_t autofsng_list_max_bytes(void);
void autofsng_snapshot_count(int delta);
void autofsng_negative_count(int delta);

/* super.c */
int autofsng_init_fs_context(struct fs_context *fc);
void autofsng_kill_sb(struct super_block *sb);
struct inode *autofsng_new_dir_inode(struct super_block *sb);

/* root.c */
extern const struct inode_operations autofsng_indirect_root_iops;
extern const struct file_operations autofsng_indirect_root_fops;
extern const struct inode_operations autofsng_direct_root_iops;
extern const struct dentry_operations autofsng_dentry_ops;
void autofsng_set_trap(struct dentry *dentry);

/* request.c */
struct vfsmount *autofsng_request_mount(struct path *path);
int autofsng_request_wait(const struct path *path);
void autofsng_request_init(struct autofsng_sb_info *sbi);
bool autofsng_negative_cached(struct autofsng_sb_info *sbi,
			      const struct qstr *name, u64 ns);
void autofsng_negative_free(struct autofsng_sb_info *sbi);

/* helper.c */
int autofsng_helper_init_common(struct autofsng_helper *h,
				struct autofsng_sb_info *sbi,
				const char *cmd);
int autofsng_helper_run(struct autofsng_helper *h);
void autofsng_helper_join(struct autofsng_helper *h);
int autofsng_helper_wait(struct autofsng_helper *h);
void autofsng_helper_put(struct autofsng_helper *h);
void autofsng_helper_free_args(struct autofsng_helper *h);
bool autofsng_is_helper(struct autofsng_sb_info *sbi);
char **autofsng_helper_envp(struct autofsng_helper *h, unsigned int nr);

/* mapcache.c */
int autofsng_mapcache_setup(void);
void autofsng_mapcache_init(struct autofsng_mapcache *mc);
void autofsng_mapcache_refresh(struct super_block *sb);
void autofsng_mapcache_expire(struct autofsng_mapcache *mc);
void autofsng_mapcache_destroy(struct autofsng_mapcache *mc);
struct autofsng_snapshot *autofsng_snapshot_get(struct super_block *sb);
struct autofsng_snapshot *autofsng_snapshot_peek(struct super_block *sb);
void autofsng_snapshot_put(struct autofsng_snapshot *snap);
bool autofsng_snapshot_has(const struct autofsng_snapshot *snap,
			   const char *name, unsigned int len);

#endif /* _AUTOFSNG_I_H */
