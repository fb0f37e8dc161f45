/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's context for one run, the module loader and the chain of map
 * sources a map name resolves to.
 */
#ifndef AM_AGENT_H
#define AM_AGENT_H

#include <stdbool.h>
#include <stddef.h>

#include "am_conf.h"
#include "am_master.h"
#include "am_module.h"
#include "am_sun.h"

#define AM_INCLUDE_DEPTH	16

struct am_loaded;

/*
 * One request's variables (agent/rqvars.c): the system ones at once, the
 * requester's names (USER GROUP HOME, a name-service lookup) and a program
 * map's environment only when something uses them.
 */
struct am_rqvars {
	struct am_vars rv_std;
	const struct am_vars *rv_defines;	/* -D of the master map */
	uid_t rv_uid;
	gid_t rv_gid;
	bool rv_named;			/* rv_std has USER GROUP HOME */
	char **rv_env;			/* built on first use, or NULL */
};

/* Returns: 0, -ENOMEM. */
int am_rqvars_init(struct am_rqvars *rv, uid_t uid, gid_t gid,
		   const struct am_vars *defines);
/* Look the requester's names up, once.  Returns: 0, -ENOMEM. */
int am_rqvars_names(struct am_rqvars *rv);
/* The program maps' environment (built once); NULL for no RV or out of memory. */
char *const *am_rqvars_env(struct am_rqvars *rv);
void am_rqvars_free(struct am_rqvars *rv);

struct am_ctx {
	struct am_conf ac_conf;
	struct am_host ac_host;
	const char *ac_modpath;		/* colon-separated module directories */
	struct am_loaded *ac_loaded;	/* modules dlopen'd so far */
	const char *ac_incl[AM_INCLUDE_DEPTH];	/* sources being read, outermost first */
	size_t ac_nincl;
	bool ac_expiry_warned;
	/* the variables of the request being resolved (am_resolve), or NULL */
	struct am_rqvars *ac_rqvars;
	/* "file:line" of the entry a file backend returned last, or "" */
	char ac_where[512];
	/* the source other than a map file that an include found it in, or "" */
	char ac_via[512];
	/* the mount point of the lookup (O_PATH), where program maps run; -1 */
	int ac_mount_point;
	/* a master map is being read: it ends at the first source that has it */
	bool ac_reading_master;
	/* "+include" lookups and listings asked so far (am_host) */
	size_t ac_includes_asked;
};

/* Returns: 0, -EINVAL (configuration error, logged), -errno. */
int am_ctx_init(struct am_ctx *ctx);
void am_ctx_free(struct am_ctx *ctx);

enum am_module_kind { AM_MODULE_MAP, AM_MODULE_MOUNT };

/*
 * Find <prefix><name>.so in the module path, dlopen it and check its
 * descriptor (symbol, abi, size, required operations).  Every refusal is
 * logged with the file and the reason.
 * Returns: 0 and *OPS, -ENOENT (no such module), -ENOEXEC (refused), -errno.
 */
int am_module_load(struct am_ctx *ctx, enum am_module_kind kind,
		   const char *name, const void **ops);
/*
 * The first FILE in MODPATH (directories separated by ':').
 * Returns: 0 and *PATH (caller frees), -ENOENT, -ENOMEM.
 */
int am_module_path(const char *modpath, const char *file, char **path);
/* dlclose every module loaded into CTX. */
void am_module_unload_all(struct am_ctx *ctx);
/* Returns: the mount module name for FSTYPE ("nfs", "bind", "generic"). */
const char *am_module_for_fstype(const char *fstype);

/* One place a map can be read from. */
struct am_source {
	char *so_type;			/* backend: "file", "program", "nis"... */
	char *so_name;			/* what the backend opens */
	char *so_desc;			/* "file:/etc/auto.home", for messages */
	const struct am_map_ops *so_ops;
	struct am_map *so_map;
	int so_state;			/* 0 not opened, 1 open, -errno failed */
	unsigned int so_return;		/* AM_NSS_* bits that end the search here */
	bool so_unavailable;		/* a lookup found it unavailable */
};

struct am_chain {
	struct am_ctx *ch_ctx;
	struct am_source ch_src[AM_MAX_SOURCES];
	size_t ch_n;
	int ch_argc;
	const char *const *ch_argv;
};

/*
 * The sources SPEC ("[type[,format]:]name") resolves to: its own type, an
 * absolute path, or one per configured source.  ARGV are map arguments.
 * Returns: 0, -EINVAL (bad spec, logged), -ENOMEM.
 */
int am_chain_init(struct am_ctx *ctx, const char *spec, int argc,
		  const char *const *argv, struct am_chain *ch);
void am_chain_free(struct am_chain *ch);
/*
 * Look KEY up in each source in order, up to the first that has it or
 * whose answer ends the search by an nsswitch action ("[NOTFOUND=return]").
 * *DESC names the source that had it.
 * Returns: 0, -ENOENT (nowhere), -ENODEV (no source has the map at all),
 * -EAGAIN (not found, but a source was unavailable), -errno.
 */
int am_chain_lookup(struct am_chain *ch, const char *key, char **entry,
		    const char **desc);
/*
 * Every entry of each source in order, as autofs-tools reads a map: a
 * master map (ac_reading_master) only from the first source that lists it
 * unless "[SUCCESS=continue]" follows it, any other map from every source
 * unless an action ends the search ("[UNAVAIL=return]"; a source that
 * listed the map counts as TRYAGAIN).
 * Returns: 0, FN's stop value, -errno.
 */
int am_chain_enumerate(struct am_chain *ch, am_key_fn fn, void *arg);

#endif /* AM_AGENT_H */
