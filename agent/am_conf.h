/* SPDX-License-Identifier: GPL-2.0 */
/* /etc/autofs-agent.conf: ini-style configuration, see autofs-agent.conf(5). */
#ifndef AM_CONF_H
#define AM_CONF_H

#include <stdbool.h>
#include <stddef.h>

#define AM_CONF_DEFAULT		SYSCONFDIR "/autofs-agent.conf"
#define AM_NSSWITCH_DEFAULT	"/etc/nsswitch.conf"
#define AM_MAX_SOURCES		8
/* the configuration and nsswitch files are read whole, up to this */
#define AM_CONF_MAX_BYTES	(1 << 20)

struct am_conf_kv {
	char *ck_section;
	char *ck_key;
	char *ck_value;
};

/*
 * Where a master map or direct map read from outside the host's map files
 * may place triggers, by default: the homes and shares automounters serve,
 * none of the system's own directories.
 */
#define AM_FOREIGN_MOUNT_POINTS "/home /net /misc /mnt /media /srv /data /proj " \
	"/projects /nfs /scratch /shares /work /users /u /groups /import /export"

/*
 * What a source answered when it was asked for a map or a key, as
 * nsswitch.conf(5) names it.  A source that cannot be reached is UNAVAIL;
 * one that listed a map other than the master map counts as TRYAGAIN, as
 * in autofs-tools, so that the next source is read too.
 */
enum am_nss_status {
	AM_NSS_SUCCESS,		/* the key, or the map it listed */
	AM_NSS_NOTFOUND,	/* no such key, or no such map there */
	AM_NSS_UNAVAIL,		/* the source could not be asked */
	AM_NSS_TRYAGAIN,
	AM_NSS_NSTATUS,
	AM_NSS_SKIPPED = AM_NSS_NSTATUS, /* not asked: an include loop... */
};

/* The statuses after which the search ends: nsswitch's default */
#define AM_NSS_RETURN_DEFAULT	(1u << AM_NSS_SUCCESS)

struct am_conf {
	/* [general] */
	char *cf_sources[AM_MAX_SOURCES];	/* "files", "nis", "ldap" */
	/* for each source, the AM_NSS_* bits after which the search ends */
	unsigned int cf_source_return[AM_MAX_SOURCES];
	size_t cf_nsources;
	char *cf_master;		/* master map name, default "auto.master" */
	unsigned int cf_timeout;	/* s, default 600 */
	unsigned int cf_negative_timeout; /* s, default 60 */
	unsigned int cf_cache_ttl;	/* s, default 600 */
	bool cf_browse;			/* default for master entries */
	bool cf_strictexpire;		/* default for master entries */
	int cf_log_level;
	bool cf_log_stderr;
	char *cf_map_dir;		/* where relative map names live: /etc */
	char *cf_foreign_mount_points;	/* NULL: AM_FOREIGN_MOUNT_POINTS */
	char *cf_module_dir;		/* NULL: AUTOFS_AGENT_MODULE_DIR or MODULEDIR */
	char *cf_map_cache_dir;		/* NULL or "none": no cache of directory maps */
	unsigned int cf_mount_timeout;	/* s, bound on one mount attempt */
	unsigned int cf_program_timeout; /* s, bound on one program map run */
	unsigned int cf_umount_wait;	/* s, bound on one unmount of `autofs stop` */
	size_t cf_program_max_output;	/* bytes */
	/* every key of every section, for modules (ah_conf_get) */
	struct am_conf_kv *cf_kv;
	size_t cf_nkv;
};

/*
 * Load PATH (NULL: $AUTOFS_AGENT_CONF or the default) into CONF.  A missing
 * default file gives the defaults; each error is logged as "file:line: why".
 * Returns: 0, -EINVAL after a configuration error, -errno.
 */
int am_conf_load(struct am_conf *conf, const char *path);
/* Parse configuration text; ORIGIN names it in messages.  Returns: as above. */
int am_conf_parse(struct am_conf *conf, const char *origin, const char *text);
void am_conf_defaults(struct am_conf *conf);
void am_conf_free(struct am_conf *conf);
/* Returns: the value of KEY in [SECTION], or NULL. */
const char *am_conf_get(const struct am_conf *conf, const char *section,
			const char *key);
/* Why a configuration file could not be read: am_read_file()'s ERR in words. */
const char *am_conf_read_why(int err);
/* A source's own name ("file" is "files", "yp" is "nis"), NULL if unknown. */
const char *am_conf_source_name(const char *name);
/*
 * Fill the source order, with each source's actions ("[NOTFOUND=return]"),
 * from the "automount:" line of the nsswitch file PATH when the
 * configuration named none (nsswitch.c).  Returns: 0, -errno.
 */
int am_conf_nsswitch(struct am_conf *conf, const char *path);
/* The same from nsswitch TEXT (changed as it is read); ORIGIN names it. */
int am_conf_nsswitch_parse(struct am_conf *conf, const char *origin, char *text);
/*
 * The value of "sources =", in the same syntax ("sss [SUCCESS=continue]
 * files"), into CONF's empty list; each fault is logged as ORIGIN's error.
 * Returns: 0, -EINVAL, -ENOMEM.
 */
int am_conf_sources_parse(struct am_conf *conf, const char *origin, char *text);
/* The name of an AM_NSS_* status as nsswitch.conf(5) writes it. */
const char *am_nss_status_name(enum am_nss_status st);

#endif /* AM_CONF_H */
