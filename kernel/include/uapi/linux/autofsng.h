/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * autofsng: the interface between the filesystem and user space.
 *
 * The filesystem is mounted with fsconfig(2) or mount(2) options named
 * below.  On a lookup it runs the agent (the sysctl fs.autofsng.agent,
 * /sbin/autofs by default) as "AGENT lookup" or "AGENT list"; the agent
 * answers with its exit status, the AUTOFSNG_EXIT_* values below.  The
 * kernel treats every status but AUTOFSNG_EXIT_OK with a mount on the trap
 * as a failure and names the status in its log line.
 *
 * Documentation: Documentation/filesystems/autofsng.rst, man autofsng(5)
 * and autofs-agent(8).
 */
#ifndef _UAPI_LINUX_AUTOFSNG_H
#define _UAPI_LINUX_AUTOFSNG_H

/* The filesystem type, for mount(2) and fsopen(2). */
#define AUTOFSNG_FSTYPE			"autofsng"
/* Its f_type in statfs(2): how the agent tells a trap from a directory. */
#define AUTOFSNG_SUPER_MAGIC		0x7d92b1a0

/* Mount options.  Each may be given once at mount time. */
/* Flags: a directory of keys (the default), or the mount point is one trap. */
#define AUTOFSNG_OPT_INDIRECT		"indirect"
#define AUTOFSNG_OPT_DIRECT		"direct"
/* Flags: readdir lists the map's keys, or only the keys mounted (default). */
#define AUTOFSNG_OPT_BROWSE		"browse"
#define AUTOFSNG_OPT_NOBROWSE		"nobrowse"
/* Strings: the key and the offset a direct trap stands for. */
#define AUTOFSNG_OPT_MAPKEY		"mapkey"
#define AUTOFSNG_OPT_MAPOFFSET		"mapoffset"
/* String: handed to the agent as MAPOPTIONS. */
#define AUTOFSNG_OPT_OPT		"opt"
/* u32: seconds a failed key fails without running the agent again. */
#define AUTOFSNG_OPT_NEGATIVE_TIMEOUT	"negative_timeout"
/* u32: seconds a browse listing of the map's keys stays fresh. */
#define AUTOFSNG_OPT_CACHE_TTL		"cache_ttl"

/* The defaults of the numeric options, in seconds. */
#define AUTOFSNG_DEFAULT_NEGATIVE_TIMEOUT	60
#define AUTOFSNG_DEFAULT_CACHE_TTL		600

/* The descriptor the agent finds its first file at (MOUNTFD, WRITEFD). */
#define AUTOFSNG_AGENT_FD		3

/*
 * Exit status of the agent.  Any other status, a signal or the time limit
 * (fs.autofsng.agent_timeout) is a failure too.
 */
#define AUTOFSNG_EXIT_OK		0	/* done: lookup mounted, list complete */
#define AUTOFSNG_EXIT_INTERNAL		1	/* a bug, out of memory, killed by its own limit */
#define AUTOFSNG_EXIT_USAGE		2	/* bad arguments, environment or configuration */
#define AUTOFSNG_EXIT_NOKEY		3	/* no map has the key, or the key is unsafe */
#define AUTOFSNG_EXIT_UNAVAIL		4	/* a source that may have the key is down */
#define AUTOFSNG_EXIT_MALFORMED		5	/* the key's entry does not parse */
#define AUTOFSNG_EXIT_MOUNT		6	/* the entry is good, the mount failed */
#define AUTOFSNG_EXIT_PARTIAL		7	/* "start"/"stop" only: some entries failed */
#define AUTOFSNG_EXIT_NOMAP		8	/* no source has the map at all */

#endif /* _UAPI_LINUX_AUTOFSNG_H */
