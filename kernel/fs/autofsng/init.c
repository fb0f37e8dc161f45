// SPDX-License-Identifier: GPL-2.0-only
/*
 * autofsng: registration and the fs.autofsng sysctls.
 *
 * Locking: agent_lock (a mutex) guards agent_path; the other sysctls are
 * ints read with READ_ONCE() where they apply.  The workqueue of
 * background browse refreshes is made here, before the filesystem is
 * registered.
 */
#define pr_fmt(fmt) "autofsng: " fmt

#include <linux/autofsng_compat.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/jiffies.h>
#include "autofsng_i.h"

#define AUTOFSNG_DEFAULT_AGENT		"/sbin/autofs"
#define AUTOFSNG_DEFAULT_AGENT_TIMEOUT	60
#define AUTOFSNG_DEFAULT_MAX_AGENTS	16
#define AUTOFSNG_DEFAULT_NEGATIVE_MAX	8192
/* Enough for a map of a million short keys. */
#define AUTOFSNG_DEFAULT_LIST_MAX_KEYS	1048576
#define AUTOFSNG_DEFAULT_LIST_MAX_BYTES	(64 << 20)

/* agent_path is written by the sysctl handler and read by requests. */
static DEFINE_MUTEX(agent_lock);
static char agent_path[PATH_MAX] = AUTOFSNG_DEFAULT_AGENT;
static int agent_timeout = AUTOFSNG_DEFAULT_AGENT_TIMEOUT;
static int agent_timeout_min = 1;
static int agent_timeout_max = 24 * 60 * 60;
/* The other limits are read with READ_ONCE() where they apply. */
static int max_agents = AUTOFSNG_DEFAULT_MAX_AGENTS;
static int max_agents_max = 4096;
static int max_agents_per_user;		/* 0: half of max_agents */
static int negative_max = AUTOFSNG_DEFAULT_NEGATIVE_MAX;
static int negative_max_max = 1 << 20;
static int list_max_keys = AUTOFSNG_DEFAULT_LIST_MAX_KEYS;
static int list_max_keys_max = 1 << 26;
static int list_max_bytes = AUTOFSNG_DEFAULT_LIST_MAX_BYTES;
static int list_max_bytes_max = 1 << 30;
/* Entries in the negative caches of all mounts, for the administrator. */
static atomic_t negative_entries = ATOMIC_INIT(0);
/* Keys held by the browse snapshots of all mounts, listings included. */
static atomic_t snapshot_keys = ATOMIC_INIT(0);

/**
 * autofsng_agent_path - copy of the agent path sysctl
 *
 * Return: a kmalloc'd string for the caller to kfree, or NULL.
 */
char *autofsng_agent_path(void)
{
	char *path;

	mutex_lock(&agent_lock);
	path = kstrdup(agent_path, GFP_KERNEL);
	mutex_unlock(&agent_lock);
	return path;
}

/**
 * autofsng_agent_timeout - the hard limit of one agent run
 *
 * Return: the limit in jiffies.
 */
unsigned long autofsng_agent_timeout(void)
{
	return (unsigned long)READ_ONCE(agent_timeout) * HZ;
}

/**
 * autofsng_max_agents - how many agents one superblock may run at once
 *
 * Return: fs.autofsng.max_agents, at least 1.
 */
unsigned int autofsng_max_agents(void)
{
	return READ_ONCE(max_agents);
}

/**
 * autofsng_max_agents_per_user - how many agents one real uid may run at
 * once on one superblock
 *
 * Return: fs.autofsng.max_agents_per_user, or half of
 * fs.autofsng.max_agents (rounded up) when it is 0.
 */
unsigned int autofsng_max_agents_per_user(void)
{
	unsigned int n = READ_ONCE(max_agents_per_user);

	return n ? n : DIV_ROUND_UP(autofsng_max_agents(), 2);
}

/**
 * autofsng_negative_max - how many failed keys one superblock remembers
 *
 * Return: fs.autofsng.negative_max; 0 keeps none.
 */
unsigned int autofsng_negative_max(void)
{
	return READ_ONCE(negative_max);
}

/**
 * autofsng_list_max_keys - the most keys one browse refresh may deliver
 *
 * Return: fs.autofsng.list_max_keys, at least 1.
 */
unsigned int autofsng_list_max_keys(void)
{
	return READ_ONCE(list_max_keys);
}

/**
 * autofsng_list_max_bytes - the most bytes one browse refresh may write
 *
 * Return: fs.autofsng.list_max_bytes, at least 1.
 */
size_t autofsng_list_max_bytes(void)
{
	return READ_ONCE(list_max_bytes);
}

/**
 * autofsng_negative_count - account entries added to or dropped from a
 * negative cache
 * @delta: how many were added (negative: dropped)
 */
void autofsng_negative_count(int delta)
{
	atomic_add(delta, &negative_entries);
}

/**
 * autofsng_snapshot_count - account keys of browse snapshots made or freed
 * @delta: how many were made (negative: freed)
 */
void autofsng_snapshot_count(int delta)
{
	atomic_add(delta, &snapshot_keys);
}

/* A read-only count kept in the atomic_t at table->data. */
static int atomic_count_handler(AUTOFSNG_CTL_CONST struct ctl_table *table,
				int write, void *buffer, size_t *lenp,
				loff_t *ppos)
{
	int value = atomic_read((atomic_t *)table->data);
	struct ctl_table t = *table;

	t.data = &value;
	return proc_dointvec(&t, write, buffer, lenp, ppos);
}

static int agent_path_handler(AUTOFSNG_CTL_CONST struct ctl_table *table,
			      int write, void *buffer, size_t *lenp,
			      loff_t *ppos)
{
	int ret;

	mutex_lock(&agent_lock);
	ret = proc_dostring(table, write, buffer, lenp, ppos);
	mutex_unlock(&agent_lock);
	return ret;
}

static struct ctl_table autofsng_sysctls[] = {
	{
		.procname	= "agent",
		.data		= agent_path,
		.maxlen		= sizeof(agent_path),
		.mode		= 0644,
		.proc_handler	= agent_path_handler,
	},
	{
		.procname	= "agent_timeout",
		.data		= &agent_timeout,
		.maxlen		= sizeof(agent_timeout),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &agent_timeout_min,
		.extra2		= &agent_timeout_max,
	},
	{
		.procname	= "max_agents",
		.data		= &max_agents,
		.maxlen		= sizeof(max_agents),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &max_agents_max,
	},
	{
		.procname	= "max_agents_per_user",
		.data		= &max_agents_per_user,
		.maxlen		= sizeof(max_agents_per_user),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_agents_max,
	},
	{
		.procname	= "negative_max",
		.data		= &negative_max,
		.maxlen		= sizeof(negative_max),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &negative_max_max,
	},
	{
		.procname	= "negative_entries",
		.data		= &negative_entries,
		.maxlen		= sizeof(int),
		.mode		= 0444,
		.proc_handler	= atomic_count_handler,
	},
	{
		.procname	= "snapshot_keys",
		.data		= &snapshot_keys,
		.maxlen		= sizeof(int),
		.mode		= 0444,
		.proc_handler	= atomic_count_handler,
	},
	{
		.procname	= "list_max_keys",
		.data		= &list_max_keys,
		.maxlen		= sizeof(list_max_keys),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &list_max_keys_max,
	},
	{
		.procname	= "list_max_bytes",
		.data		= &list_max_bytes,
		.maxlen		= sizeof(list_max_bytes),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &list_max_bytes_max,
	},
	AUTOFSNG_CTL_END
};

static struct file_system_type autofsng_fs_type = {
	.owner			= THIS_MODULE,
	.name			= AUTOFSNG_FSTYPE,
	.init_fs_context	= autofsng_init_fs_context,
	.kill_sb		= autofsng_kill_sb,
};

static int __init autofsng_init(void)
{
	int err;

	err = autofsng_mapcache_setup();
	if (err)
		return err;
	if (!register_sysctl("fs/autofsng", autofsng_sysctls))
		return -ENOMEM;
	err = register_filesystem(&autofsng_fs_type);
	if (err)
		pr_err("cannot register the filesystem: %d\n", err);
	return err;
}
fs_initcall(autofsng_init);
