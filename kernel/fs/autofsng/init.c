// SPDX-License-Identifier: GPL-2.0-only
/*
 * autofsng: registration and the fs.autofsng sysctls.
 */
#define pr_fmt(fmt) "autofsng: " fmt

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

/* agent_path is written by the sysctl handler and read by requests. */
static DEFINE_MUTEX(agent_lock);
static char agent_path[PATH_MAX] = AUTOFSNG_DEFAULT_AGENT;
static int agent_timeout = AUTOFSNG_DEFAULT_AGENT_TIMEOUT;
static int agent_timeout_min = 1;
static int agent_timeout_max = 24 * 60 * 60;

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

static int agent_path_handler(struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
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
	{ }
};

static struct file_system_type autofsng_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "autofsng",
	.init_fs_context	= autofsng_init_fs_context,
	.kill_sb		= autofsng_kill_sb,
};

static int __init autofsng_init(void)
{
	int err;

	if (!register_sysctl("fs/autofsng", autofsng_sysctls))
		return -ENOMEM;
	err = register_filesystem(&autofsng_fs_type);
	if (err)
		pr_err("cannot register the filesystem: %d\n", err);
	return err;
}
fs_initcall(autofsng_init);
