/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of /sbin/autofs and the steps they share. */
#ifndef AM_LOOKUP_H
#define AM_LOOKUP_H

#include <stdbool.h>
#include <sys/types.h>

#include "am_agent.h"
#include "am_master.h"
#include "am_sun.h"

/* What the kernel (or `autofs test`) asks for. */
struct am_request {
	const char *rq_map;		/* MAPNAME: map spec */
	const char *rq_key;		/* MAPKEY */
	const char *rq_offset;		/* MAPOFFSET, "/" when none */
	const char *rq_options;		/* MAPOPTIONS: master map options */
	uid_t rq_uid;
	gid_t rq_gid;
};

/* How far an entry is trusted (trust.c decides, from every source it passed). */
enum am_trust {
	AM_TRUST_LOCAL,			/* the administrator's map files only */
	AM_TRUST_FOREIGN,		/* a directory service, a program, an include of one */
	AM_TRUST_REMOTE,		/* a server's answer (the hosts map) */
};

/* The entry a request resolves to, parsed. */
struct am_resolved {
	struct am_mopts rs_mo;
	struct am_entry rs_entry;
	char *rs_text;			/* entry as the source returned it */
	char *rs_source;		/* "file:/etc/auto.home" */
	char *rs_where;			/* "file:line" of a file map's entry, or NULL */
	char *rs_via;			/* the non-file source an include found it in */
	enum am_trust rs_trust;		/* am_trust_decide() */
	char rs_trust_why[160];		/* "foreign (via +nis:auto.home)" */
	bool rs_wildcard;		/* matched by "*" */
	unsigned int rs_timeout;	/* idle seconds before expiry */
	bool rs_strictexpire;		/* only references keep the mount */
};

/*
 * Find, expand and parse the entry for RQ; every failure is logged.
 * Returns: an enum am_exit code (AM_EXIT_OK when RS is filled).
 */
int am_resolve(struct am_ctx *ctx, const struct am_request *rq, struct am_resolved *rs);
/*
 * The second half of am_resolve(), from what a source answered: RS holds
 * rs_text, rs_source, rs_via and the master options rs_mo; the entry's
 * trust is decided, the text expanded with RV's variables and parsed under
 * it.  Returns: an enum am_exit code.
 */
int am_resolve_text(const struct am_request *rq, struct am_rqvars *rv, struct am_resolved *rs);
void am_resolved_free(struct am_resolved *rs);
/*
 * The one decision of an entry's trust: the least trusted of its source,
 * the source an include found it in and the entry that named its map
 * (MAPOPTIONS' --autofsng-foreign); sets rs_trust and rs_trust_why.
 */
void am_trust_decide(struct am_resolved *rs);
/*
 * The master map options an entry is parsed with: for an entry from
 * outside the host (every source but a map file) nosuid,nodev under them.
 * Returns: malloc'd, or NULL.
 */
char *am_trust_defopts(const struct am_resolved *rs);
/* A foreign entry's own options cannot lift nosuid,nodev.  Returns: 0, -ENOMEM. */
int am_trust_clamp(struct am_resolved *rs);
/* A foreign entry names no local path.  Returns: 0, -EINVAL (WHY). */
int am_trust_check_locations(const struct am_resolved *rs, char *why, size_t len);
/* A nested map from outside the host is only named.  Returns: an am_exit code. */
int am_trust_check_submaps(const struct am_request *rq, const struct am_resolved *rs);
/*
 * The trust of a key an enumeration is giving now: the least trusted source
 * it is being read through (the include stack).  *VIA is that source.
 */
enum am_trust am_trust_enumerated(const struct am_ctx *ctx, const char **via);
/*
 * Where a source outside the host's map files may have a trigger mounted (a
 * master line's mount point, a direct map's key): at or below one of
 * [general] foreign_mount_points.  A spoofed NIS or LDAP master map would
 * otherwise cover /root/.ssh or /etc with mounts of its choosing.
 * Returns: 0, -EPERM with the reason in WHY.
 */
int am_trust_mount_point(const struct am_ctx *ctx, const char *path, char *why, size_t len);
struct am_master_entry;
/*
 * A master line read through a source outside the host's map files (a
 * spoofed NIS answer, an LDAP server without TLS) names a map the sources
 * look up, not a file, a program or a server, and has its trigger only
 * where am_trust_mount_point() allows; a direct map's keys are checked
 * one by one.  Returns: 0, -EPERM with the reason in WHY.
 */
int am_trust_master_line(const struct am_ctx *ctx, const struct am_master_entry *me,
			 char *why, size_t len);
/*
 * The environment of a program map, as autofs-tools gives it.
 * Returns: a NULL-terminated "NAME=value" array for am_mapenv_free(), or NULL.
 */
char **am_mapenv(const struct am_vars *std, const struct am_vars *defines);
void am_mapenv_free(char **env);
/* Returns: true when offset C lies below offset T with no other mount between. */
bool am_offset_child(const struct am_entry *e, const char *t, const char *c);

/* Each returns an enum am_exit code. */
int am_cmd_lookup(struct am_ctx *ctx);
int am_cmd_list(struct am_ctx *ctx);
int am_cmd_test(struct am_ctx *ctx, const char *map, const char *key, const char *options);
int am_cmd_dump(struct am_ctx *ctx, const char *master);
int am_cmd_start(struct am_ctx *ctx, const char *master);
int am_cmd_stop(struct am_ctx *ctx);
int am_cmd_status(struct am_ctx *ctx, bool json);

/*
 * Read the master map NAME through the source chain, "+include" lines
 * followed (with loop protection).  Returns: 0, -ENOENT, -EAGAIN, -errno.
 */
int am_master_read(struct am_ctx *ctx, const char *name, struct am_master *m);

/*
 * The descriptor the kernel named in variable NAME (MOUNTFD, WRITEFD...),
 * open.  Returns: it, -ENOENT (unset, when not REQUIRED), -EINVAL (logged).
 */
int am_env_fd(const char *name, bool required);

#endif /* AM_LOOKUP_H */
