/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module ABI of the agent: one for map backends (maps/), one for mount
 * modules (modules/).  Each module is a shared object that exports exactly one
 * const descriptor under a fixed symbol name; the agent's single loader checks
 * the descriptor's abi and size before it calls anything.
 *
 * A map backend only fetches text: the agent core parses every entry (sun
 * format), so a backend never sees options, offsets or variables.  A mount
 * module turns one parsed location list into a detached mount and returns its
 * fd; the agent attaches it, so no module ever touches the requester's tree.
 *
 * Return conventions everywhere: 0 on success, -ENOENT for "no such key",
 * -EAGAIN for "this source is unavailable now, try the next one", any other
 * -errno for a real failure.
 */
#ifndef AM_MODULE_H
#define AM_MODULE_H

#include <stddef.h>
#include <stdint.h>

#define AM_MAP_ABI	1
#define AM_MOUNT_ABI	1

/* Symbol each module exports: a const struct am_map_ops / am_mount_ops. */
#define AM_MAP_SYMBOL	"am_map_module"
#define AM_MOUNT_SYMBOL	"am_mount_module"

/* File names: maps/<name> builds map_<name>.so, modules/<name> mount_<name>.so. */
#define AM_MAP_PREFIX	"map_"
#define AM_MOUNT_PREFIX	"mount_"

/*
 * A module may also be linked into the agent itself (a built-in, as the
 * file map and the bind mount are, which nearly every lookup uses): the
 * same source compiled with AM_BUILTIN, the same descriptor and checks,
 * found by name without dlopen.  A module declares its descriptor with
 * AM_MAP_MODULE(name) or AM_MOUNT_MODULE(name); built in, that also puts a
 * record in the section "am_builtin" the agent looks through.
 */
struct am_builtin {
	const char *ab_name;		/* "file", "bind" */
	int ab_kind;			/* AM_BUILTIN_MAP or AM_BUILTIN_MOUNT */
	const void *ab_ops;
};

#define AM_BUILTIN_MAP		0
#define AM_BUILTIN_MOUNT	1

#ifdef AM_BUILTIN
#define AM_BUILTIN_DESC(type, kind, name)					\
	static const struct type am_builtin_ops_##name;				\
	static const struct am_builtin am_builtin_##name = {			\
		#name, kind, &am_builtin_ops_##name };				\
	static const struct am_builtin *const am_builtin_ptr_##name		\
		__attribute__((used, section("am_builtin"))) = &am_builtin_##name; \
	static const struct type am_builtin_ops_##name
#define AM_MAP_MODULE(name)	AM_BUILTIN_DESC(am_map_ops, AM_BUILTIN_MAP, name)
#define AM_MOUNT_MODULE(name)	AM_BUILTIN_DESC(am_mount_ops, AM_BUILTIN_MOUNT, name)
#else
#define AM_MAP_MODULE(name)	const struct am_map_ops am_map_module
#define AM_MOUNT_MODULE(name)	const struct am_mount_ops am_mount_module
#endif

/*
 * Services the agent lends a module.  A module must not reach into agent
 * globals; everything it may know comes through these.
 */
struct am_host {
	uint32_t ah_size;		/* sizeof(struct am_host) */
	void *ah_ctx;			/* first argument of every callback */
	/* Returns: the value of KEY in [SECTION] of the configuration, or NULL. */
	const char *(*ah_conf_get)(void *ctx, const char *section,
				   const char *key);
	/* syslog priority (LOG_ERR...), printf format; one line, no newline. */
	void (*ah_log)(void *ctx, int prio, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));
	/*
	 * Added after ABI 1 was published; check ah_size before use.  "+map"
	 * include lines: look KEY up in MAP through the agent's own source
	 * order (with include-loop protection), or call FN for each of MAP's
	 * entries.  Returns: as struct am_map_ops' lookup / enumerate.
	 */
	int (*ah_include_lookup)(void *ctx, const char *map, const char *key,
				 char **entry);
	int (*ah_include_enumerate)(void *ctx, const char *map,
				    int (*fn)(const char *key, const char *entry,
					      void *arg),
				    void *arg);
	/*
	 * Added after ABI 1 was published; check ah_size before use.  A file
	 * backend tells, before it returns or passes on an entry, the file and
	 * line it came from, so that a parse error can name them.
	 */
	void (*ah_where)(void *ctx, const char *file, unsigned int line);
};

/* Returns: true when HOST (a const struct am_host *) provides FIELD. */
#define AM_HOST_HAS(host, field) \
	((host)->ah_size >= offsetof(struct am_host, field) + sizeof((host)->field) && \
	 (host)->field)

/* ---- map backends ---------------------------------------------------- */

struct am_map;				/* private to the backend */

struct am_map_args {
	uint32_t ma_size;		/* sizeof(struct am_map_args) */
	const char *ma_name;		/* map name after "type:", e.g. "auto.home" */
	int ma_argc;			/* map arguments from the master map */
	const char *const *ma_argv;	/* NULL-terminated */
	const struct am_host *ma_host;
	/*
	 * Added after ABI 1 was published; check ma_size before use.  The
	 * environment of a program map ("NAME=value", NULL-terminated), valid
	 * until ->close.
	 */
	const char *const *ma_env;
	/*
	 * Added later still: the directory a program map runs in, an O_PATH
	 * descriptor of the mount point the lookup came from (autofs-tools
	 * runs it there), or -1 to stay where the agent is.
	 */
	int ma_cwd;
};

/*
 * Called once per map entry by ->enumerate.  KEY and ENTRY are only valid
 * during the call.  ENTRY is "" when the backend makes it only at lookup
 * (the -hosts map lists host names and asks no host).  Returns: 0 to go on, non-zero to stop (returned by
 * ->enumerate as it is).
 */
typedef int (*am_key_fn)(const char *key, const char *entry, void *arg);

struct am_map_ops {
	uint32_t abi;			/* AM_MAP_ABI */
	uint32_t size;			/* sizeof(struct am_map_ops) */
	const char *name;		/* "file", "program", "nis", "ldap" */
	/* Returns: 0, -ENOENT (no such map), -EAGAIN, -errno. */
	int (*open)(struct am_map **mapp, const struct am_map_args *args);
	/* *entry is malloc'd text of the entry.  Returns: 0, -ENOENT, -EAGAIN, -errno. */
	int (*lookup)(struct am_map *map, const char *key, char **entry);
	/* NULL when the source cannot list its keys (program maps). */
	int (*enumerate)(struct am_map *map, am_key_fn fn, void *arg);
	void (*close)(struct am_map *map);
	/*
	 * Added after ABI 1 was published; check size before use (AM_OPS_HAS),
	 * may be NULL.  For the cache of directory maps: FN for every key a
	 * lookup would find, with the entry that lookup would give, or with
	 * ENTRY NULL where the lookup must be asked (it would refuse the
	 * entry, or the answer depends on the server's order).  A key may
	 * come more than once; the agent then asks the lookup.
	 * Returns: as ->enumerate.
	 */
	int (*snapshot)(struct am_map *map, am_key_fn fn, void *arg);
};

/* Returns: true when OPS (a struct am_map_ops *) has FIELD, set. */
#define AM_OPS_HAS(ops, field) \
	((ops)->size >= offsetof(struct am_map_ops, field) + sizeof((ops)->field) && \
	 (ops)->field)

/* ---- mount modules --------------------------------------------------- */

/* One place a filesystem can come from; replicated entries give several. */
struct am_location {
	const char *al_host;		/* NULL for a local path */
	const char *al_path;
	unsigned int al_weight;		/* host(weight), 0 when not given */
};

struct am_mount_req {
	uint32_t mr_size;		/* sizeof(struct am_mount_req) */
	const char *mr_fstype;		/* "nfs", "nfs4", "bind", "ext4"... */
	const struct am_location *mr_locs;
	size_t mr_nlocs;
	const char *mr_options;		/* comma-separated, master + map merged */
	unsigned int mr_timeout_ms;	/* bound on the whole mount attempt */
	const struct am_host *mr_host;
	/* of a bind mount: MS_SLAVE, MS_PRIVATE, MS_SHARED; 0 is MS_SLAVE */
	unsigned long mr_propagation;
};

/* A request's mr_propagation, 0 from an agent whose request has none. */
static inline unsigned long am_mount_req_propagation(const struct am_mount_req *req)
{
	if (req->mr_size < offsetof(struct am_mount_req, mr_propagation) +
			   sizeof(req->mr_propagation))
		return 0;
	return req->mr_propagation;
}

struct am_mount_ops {
	uint32_t abi;			/* AM_MOUNT_ABI */
	uint32_t size;			/* sizeof(struct am_mount_ops) */
	const char *name;		/* "nfs", "bind", "generic" */
	const char *const *fstypes;	/* NULL-terminated; "*" = any */
	/* Returns: a detached mount fd (fsmount/open_tree) >= 0, or -errno. */
	int (*mount)(const struct am_mount_req *req);
};

#endif /* AM_MODULE_H */
