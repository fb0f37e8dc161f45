// SPDX-License-Identifier: GPL-2.0
/* `autofs start`, `stop` and `status`: the autofsng triggers of the master map. */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "am_lookup.h"
#include "am_mount.h"
#include "am_mountinfo.h"
#include "am_util.h"

/*
 * One component of a mount point, made if missing.  FOLLOW: a symbolic
 * link there is followed.  Returns: an O_PATH fd of it, -errno.
 */
static int start_dir_step(int dirfd, const char *comp, bool follow)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = follow ? 0 : RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (mkdirat(dirfd, comp, 0755) && errno != EEXIST)
		return -errno;
	fd = syscall(SYS_openat2, dirfd, comp, &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

/*
 * The mount point PATH, made where missing (mkdir -p), as an O_PATH fd.
 * Its last component is never a link.  FOREIGN: no link on the way is
 * followed either, so that a master line or direct key from a directory
 * service, checked as text below foreign_mount_points, lands there and not
 * where a user's link below that root points (trust.c).
 * Returns: the fd, -errno.
 */
static int start_dir(const char *path, bool foreign)
{
	char *p = strdup(path), *comp, *save = NULL;
	int dirfd, fd;

	if (!p)
		return -ENOMEM;
	dirfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		dirfd = -errno;
	for (comp = strtok_r(p, "/", &save); comp && dirfd >= 0; comp = strtok_r(NULL, "/", &save)) {
		fd = start_dir_step(dirfd, comp, !foreign && save && *save);
		close(dirfd);
		dirfd = fd;
	}
	free(p);
	return dirfd;
}

/* Mount one trigger at PATH unless one is there.  Returns: 0, 1 (already), -errno. */
static int start_trigger(const struct am_mounts *ms, const char *path,
			 const struct am_trigger *tg, bool foreign)
{
	const struct am_mi *mi = am_mounts_at(ms, path);
	int fd, dirfd, err;

	if (mi && !strcmp(mi->mi_fstype, "autofsng"))
		return 1;
	dirfd = start_dir(path, foreign);
	if (dirfd < 0) {
		am_log(LOG_ERR, "start %s: the mount point: %s%s", path, strerror(-dirfd),
		       dirfd == -ELOOP && foreign ?
		       " (a line from outside the map files follows no symbolic link)" : "");
		return dirfd;
	}
	fd = am_trigger_build(tg);
	if (fd < 0) {
		close(dirfd);
		return fd;
	}
	err = am_mount_attach(fd, dirfd);
	if (err)
		am_log(LOG_ERR, "start %s: attaching the trigger: %s", path, strerror(-err));
	close(dirfd);
	close(fd);
	return err;
}

struct start_direct {
	struct am_ctx *sd_ctx;
	const struct am_mounts *sd_ms;
	struct am_trigger sd_tg;
	const char *sd_foreign;		/* the master line's foreign source, or NULL */
	void *sd_seen;			/* tsearch(3) of the keys met so far */
	unsigned int sd_ok, sd_failed, sd_already;
};

static int key_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * Whether an earlier source already gave KEY: the first one's entry is the
 * key's, as a lookup finds it and as autofs-tools keeps it.
 * Returns: 1 (seen, now or before), 0 (new), -ENOMEM.
 */
static int start_direct_seen(struct start_direct *sd, const char *key)
{
	char *copy, **node;

	if (tfind(key, &sd->sd_seen, key_cmp))
		return 1;
	copy = strdup(key);
	node = copy ? tsearch(copy, &sd->sd_seen, key_cmp) : NULL;
	if (!node) {
		free(copy);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The source outside the map files a direct key came through, or NULL.
 * Returns: -EPERM when the key may not go where it says (logged), else 0.
 */
static int start_direct_foreign(struct start_direct *sd, const char *key, const char **via)
{
	char why[512];

	*via = sd->sd_foreign;
	if (!*via && am_trust_enumerated(sd->sd_ctx, via) == AM_TRUST_LOCAL)
		*via = NULL;
	if (!*via || !am_trust_mount_point(sd->sd_ctx, key, why, sizeof(why)))
		return 0;
	am_log(LOG_ERR, "direct map %s: key '%.100s' from %s, outside the map files: %s, "
	       "skipped", sd->sd_tg.tg_map, key, *via, why);
	return -EPERM;
}

static int start_direct_key(const char *key, const char *entry, void *arg)
{
	struct start_direct *sd = arg;
	const char *via;
	int err;

	(void)entry;
	err = start_direct_seen(sd, key);
	if (err)
		return err < 0 ? 1 : 0;
	if (am_key_invalid(key, true)) {
		am_log(LOG_ERR, "direct map %s: key '%.100s' is not a clean absolute path, skipped",
		       sd->sd_tg.tg_map, key);
		sd->sd_failed++;
		return 0;
	}
	if (start_direct_foreign(sd, key, &via)) {
		sd->sd_failed++;
		return 0;
	}
	sd->sd_tg.tg_key = key;
	err = start_trigger(sd->sd_ms, key, &sd->sd_tg, via != NULL);
	if (err == 1)
		sd->sd_already++;
	else if (err)
		sd->sd_failed++;
	else
		sd->sd_ok++;
	return 0;
}

/* A master line read through a source outside the map files, refused (trust.c). */
static bool start_foreign_refused(struct am_ctx *ctx, const struct am_master_entry *me)
{
	char why[512];

	if (!am_trust_master_line(ctx, me, why, sizeof(why)))
		return false;
	am_log(LOG_ERR, "start %s: a master line from %s, outside the map files: %s, skipped",
	       me->me_path, me->me_foreign, why);
	return true;
}

/*
 * The trigger of a master line, or those of its direct map, with the
 * options OPT.  Returns: 0, or 1 when some trigger failed.
 */
static int start_triggers(struct am_ctx *ctx, const struct am_master_entry *me,
			  const char *opt, struct start_direct *sd)
{
	struct am_mopts mo;
	struct am_chain ch;
	char why[256];
	int err;

	err = am_mopts_parse(opt, &mo, why, sizeof(why));
	if (err) {
		am_log(LOG_ERR, "start %s: options: %s", me->me_path, why);
		return 1;
	}
	if (mo.mo_unknown[0])
		am_log(LOG_WARNING, "%s: unknown option '%s' ignored", me->me_origin,
		       mo.mo_unknown);
	sd->sd_tg = (struct am_trigger) {
		.tg_map = me->me_map,
		.tg_browse = mo.mo_browse >= 0 ? mo.mo_browse : ctx->ac_conf.cf_browse,
		.tg_opt = opt,
		.tg_negative_timeout = mo.mo_negative_timeout >= 0 ?
			(unsigned int)mo.mo_negative_timeout : ctx->ac_conf.cf_negative_timeout,
		.tg_cache_ttl = ctx->ac_conf.cf_cache_ttl,
	};
	if (strcmp(me->me_path, "/-")) {
		err = start_trigger(sd->sd_ms, me->me_path, &sd->sd_tg, me->me_foreign != NULL);
		if (err >= 0)
			am_out("%s %s: %s (%s)\n", err ? "running" : "started", me->me_path,
			       me->me_map, sd->sd_tg.tg_browse ? "browse" : "nobrowse");
		am_mopts_free(&mo);
		return err < 0;
	}
	/* autofsng wants both for a direct trigger: the key, and "/" in it */
	sd->sd_tg.tg_direct = true;
	sd->sd_tg.tg_browse = false;
	sd->sd_tg.tg_offset = "/";
	err = am_chain_init(ctx, me->me_map, mo.mo_argc, (const char *const *)mo.mo_argv, &ch);
	if (!err) {
		err = am_chain_enumerate(&ch, start_direct_key, sd);
		am_chain_free(&ch);
		tdestroy(sd->sd_seen, free);
		sd->sd_seen = NULL;
	}
	am_out("direct map %s: %u started, %u running, %u failed\n", me->me_map,
	       sd->sd_ok, sd->sd_already, sd->sd_failed);
	am_mopts_free(&mo);
	return err || sd->sd_failed;
}

/* Returns: 0, or 1 when some trigger of ME failed. */
static int start_entry(struct am_ctx *ctx, const struct am_mounts *ms,
		       const struct am_master_entry *me)
{
	struct start_direct sd = { .sd_ctx = ctx, .sd_ms = ms, .sd_foreign = me->me_foreign };
	char *opt;
	int err;

	if (me->me_foreign && start_foreign_refused(ctx, me))
		return 1;
	opt = am_master_options(me);
	if (!opt)
		return 1;
	err = start_triggers(ctx, me, opt, &sd);
	free(opt);
	return err;
}

int am_cmd_start(struct am_ctx *ctx, const char *master)
{
	struct am_mounts ms;
	struct am_master m;
	size_t i, failed = 0;
	int err;

	if (!master)
		master = ctx->ac_conf.cf_master ? ctx->ac_conf.cf_master : "auto.master";
	err = am_master_read(ctx, master, &m);
	if (err) {
		am_log(LOG_ERR, "start: master map %s: %s", master,
		       err == -ENOENT ? "not found in any source" : strerror(-err));
		am_master_free(&m);
		return err == -ENOENT ? AM_EXIT_USAGE : AM_EXIT_UNAVAIL;
	}
	err = am_mounts_read(&ms);
	if (err) {
		am_log(LOG_ERR, "start: reading the mount table: %s", strerror(-err));
		am_master_free(&m);
		return AM_EXIT_INTERNAL;
	}
	for (i = 0; i < m.m_n; i++)
		failed += (size_t)start_entry(ctx, &ms, &m.m_entries[i]);
	am_mounts_free(&ms);
	am_master_free(&m);
	if (failed)
		am_log(LOG_ERR, "start: %zu of the master map's entries failed", failed);
	return failed ? AM_EXIT_PARTIAL : AM_EXIT_OK;
}

/* Top-level triggers only: those inside an automounted tree go with it. */
static bool is_trigger(const struct am_mounts *ms, const struct am_mi *mi)
{
	return !strcmp(mi->mi_fstype, "autofsng") && !am_mounts_nested(ms, mi);
}

/* Where a mount stands in the table read again (stop_now()). */
enum stop_now { STOP_GONE, STOP_THERE, STOP_COVERED };

/*
 * MI in the mount table read now: gone, there, or there under a mount
 * stacked on its path (a direct trigger's mount in use stays on it); there
 * when the table cannot be read.
 */
static enum stop_now stop_now(const struct am_mi *mi)
{
	enum stop_now now = STOP_THERE;
	const struct am_mi *top;
	struct am_mounts ms;

	if (am_mounts_read(&ms))
		return STOP_THERE;
	top = am_mounts_at(&ms, mi->mi_path);
	if (!am_mounts_id(&ms, mi->mi_id))
		now = STOP_GONE;
	else if (top && top->mi_id != mi->mi_id)
		now = STOP_COVERED;
	am_mounts_free(&ms);
	return now;
}

/*
 * An unmount that timed out: said in the log, and whether it took the
 * mount out of the table.  Once one server did not answer, the others of
 * this stop are likely gone with it (a network down): each gets 1 s more.
 * Returns: 0 when the mount is gone, -ETIMEDOUT.
 */
static int stop_timed_out(const struct am_mi *mi, unsigned int *secs)
{
	bool in = stop_now(mi) != STOP_GONE;

	am_log(LOG_WARNING, "stop: %s (%s): no answer within umount_wait (%u s): %s",
	       mi->mi_path, mi->mi_source, *secs,
	       in ? "still mounted" : "unmounted, its teardown left to finish without waiting");
	*secs = 1;
	return in ? -ETIMEDOUT : 0;
}

/* Why the unmount of a trigger failed, for the user (am_umount_bounded()). */
static const char *stop_reason(int err)
{
	switch (err) {
	case -ELOOP:
		return "a symbolic link on the way to it, left mounted";
	case -ESTALE:
		return "moved or replaced since the table was read";
	case -EINVAL:
		return "not a mount point below /";
	default:
		return strerror(-err);
	}
}

/*
 * Unmount MI if nothing uses it, waiting on the unmount at most *SECS
 * (am_umount_bounded()).  Returns true when it is gone; a busy or failed
 * one is reported on stdout when REPORT is set.
 */
static bool stop_one(const struct am_mi *mi, unsigned int *secs, bool report)
{
	int err = am_umount_bounded(mi->mi_path, mi->mi_id, *secs);

	if (err == -ETIMEDOUT)
		err = stop_timed_out(mi, secs);
	if (!report)
		return !err;
	/* the unmount found the mount stacked on MI and left MI, then in use */
	if (err == -ESTALE && stop_now(mi) == STOP_COVERED)
		err = -EBUSY;
	if (!err)
		am_out("stopped %s (%s)\n", mi->mi_path, mi->mi_source);
	else if (err == -EBUSY)
		am_out("busy %s (%s): in use\n", mi->mi_path, mi->mi_source);
	else
		am_out("failed %s (%s): %s\n", mi->mi_path, mi->mi_source, stop_reason(err));
	return !err;
}

/*
 * Deepest first: the idle mounts the agent made under a trigger go first
 * (a busy one stays and keeps its trigger), then the triggers themselves.
 * Plain umount2() only: it fails on anything in use, so nothing is lost;
 * and only of the mount the table named, reached through no symbolic link.
 */
int am_cmd_stop(struct am_ctx *ctx)
{
	unsigned int secs = ctx->ac_conf.cf_umount_wait;
	struct am_mounts ms;
	size_t i, busy = 0, stopped = 0;
	const struct am_mi *mi;
	int err;

	err = am_mounts_read(&ms);
	if (err) {
		am_log(LOG_ERR, "stop: reading the mount table: %s", strerror(-err));
		return AM_EXIT_INTERNAL;
	}
	for (i = ms.ms_n; i-- > 0;) {
		mi = &ms.ms_v[i];
		if (am_mounts_nested(&ms, mi)) {
			stop_one(mi, &secs, false);
			continue;
		}
		if (!is_trigger(&ms, mi))
			continue;
		if (stop_one(mi, &secs, true))
			stopped++;
		else
			busy++;
	}
	am_mounts_free(&ms);
	if (busy)
		am_log(LOG_WARNING, "stop: %zu triggers stopped, %zu left", stopped, busy);
	return busy ? AM_EXIT_PARTIAL : AM_EXIT_OK;
}

/* ---- status ---------------------------------------------------------- */

static bool mi_below(const struct am_mounts *ms, const struct am_mi *mi, int id)
{
	const struct am_mi *p = mi;
	size_t depth = 0;

	while ((p = am_mounts_id(ms, p->mi_parent)) && depth++ < ms->ms_n) {
		if (p->mi_id == id)
			return true;
		if (p->mi_id == p->mi_parent)
			break;
	}
	return false;
}

/* S as a JSON string; control characters, DEL and C1 controls escaped. */
static void json_str(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putchar('"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			printf("\\u%04x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)
			printf("\\u%04x", *++p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* What a mount's expiry is, in words: the policy GETEXPIRE gave. */
static void status_expiry_text(const struct am_mi_expiry *x)
{
	const struct mountfd_expire *me = &x->mx_me;
	unsigned int policy = me->me_policy & ~(MOUNTFD_EXPIRE_STRICT | MOUNTFD_EXPIRE_PROPAGATED);

	if (x->mx_err == -ENOENT)
		am_out("expiry unknown (not found walking the mount tree)\n");
	else if (x->mx_err)
		am_out("expiry unknown (%s)\n", strerror(-x->mx_err));
	else if (me->me_policy & MOUNTFD_EXPIRE_PROPAGATED)
		am_out("a propagated copy: goes with its original, in %u s of %u s\n",
		       me->me_remaining, me->me_timeout);
	else if (policy == MOUNTFD_EXPIRE_NONE)
		am_out("never expires\n");
	else if (policy == MOUNTFD_EXPIRE_SUBTREE)
		am_out("goes with the tree above it (subtree)\n");
	else
		am_out("expires in %u s of %u s%s\n", me->me_remaining, me->me_timeout,
		       me->me_policy & MOUNTFD_EXPIRE_STRICT ? " (strict)" : "");
}

static void status_expiry_json(const struct am_mi_expiry *x)
{
	const struct mountfd_expire *me = &x->mx_me;

	if (x->mx_err) {
		printf(", \"expire\": null}");
		return;
	}
	printf(", \"expire\": {\"policy\": %u, \"timeout\": %u, \"remaining\": %u, "
	       "\"strict\": %s, \"propagated\": %s}}",
	       me->me_policy & ~(MOUNTFD_EXPIRE_STRICT | MOUNTFD_EXPIRE_PROPAGATED),
	       me->me_timeout, me->me_remaining,
	       me->me_policy & MOUNTFD_EXPIRE_STRICT ? "true" : "false",
	       me->me_policy & MOUNTFD_EXPIRE_PROPAGATED ? "true" : "false");
}

static void status_mount(const struct am_mi *mi, const struct am_mi_expiry *x, bool json,
			 bool *first)
{
	if (!json) {
		am_out("  %-30s %-8s %-30s ", mi->mi_path, mi->mi_fstype, mi->mi_source);
		status_expiry_text(x);
		return;
	}
	printf("%s\n    {\"path\": ", *first ? "" : ",");
	*first = false;
	json_str(mi->mi_path);
	printf(", \"fstype\": ");
	json_str(mi->mi_fstype);
	printf(", \"source\": ");
	json_str(mi->mi_source);
	status_expiry_json(x);
}

static void status_trigger(const struct am_mounts *ms, const struct am_mi_expiry *xs,
			   const struct am_mi *t, bool json, bool first_trigger)
{
	bool first = true;
	size_t i;

	if (json) {
		printf("%s\n  {\"trigger\": ", first_trigger ? "" : ",");
		json_str(t->mi_path);
		printf(", \"map\": ");
		json_str(t->mi_source);
		printf(", \"options\": ");
		json_str(t->mi_opts);
		printf(", \"mounts\": [");
	} else {
		am_out("%s %s %s\n", t->mi_path, t->mi_source, t->mi_opts);
	}
	for (i = 0; i < ms->ms_n; i++)
		if (strcmp(ms->ms_v[i].mi_fstype, "autofsng") && mi_below(ms, &ms->ms_v[i], t->mi_id))
			status_mount(&ms->ms_v[i], &xs[i], json, &first);
	if (json)
		printf("]}");
}

/*
 * The expiry of every automounted mount (one below a trigger), read
 * without using any of them.  Returns: the array, or NULL (out of memory).
 */
static struct am_mi_expiry *status_expiry(const struct am_mounts *ms)
{
	struct am_mi_expiry *xs = calloc(ms->ms_n ? ms->ms_n : 1, sizeof(*xs));
	bool *want = calloc(ms->ms_n ? ms->ms_n : 1, sizeof(*want));
	size_t i;
	int err;

	if (!xs || !want) {
		free(want);
		free(xs);
		return NULL;
	}
	for (i = 0; i < ms->ms_n; i++)
		want[i] = strcmp(ms->ms_v[i].mi_fstype, "autofsng") &&
			  am_mounts_nested(ms, &ms->ms_v[i]);
	err = am_mounts_expiry(ms, want, xs);
	for (i = 0; err && i < ms->ms_n; i++)
		xs[i].mx_err = err;
	free(want);
	return xs;
}

int am_cmd_status(struct am_ctx *ctx, bool json)
{
	struct am_mi_expiry *xs;
	struct am_mounts ms;
	bool first = true;
	size_t i, n = 0;
	int err;

	(void)ctx;
	err = am_mounts_read(&ms);
	if (err) {
		am_log(LOG_ERR, "status: reading the mount table: %s", strerror(-err));
		return AM_EXIT_INTERNAL;
	}
	xs = status_expiry(&ms);
	if (!xs) {
		am_log(LOG_ERR, "status: %s", strerror(ENOMEM));
		am_mounts_free(&ms);
		return AM_EXIT_INTERNAL;
	}
	if (json)
		printf("{\"triggers\": [");
	for (i = 0; i < ms.ms_n; i++) {
		if (!is_trigger(&ms, &ms.ms_v[i]))
			continue;
		status_trigger(&ms, xs, &ms.ms_v[i], json, first);
		first = false;
		n++;
	}
	if (json)
		printf("\n]}\n");
	else if (!n)
		printf("no autofsng triggers\n");
	free(xs);
	am_mounts_free(&ms);
	return AM_EXIT_OK;
}
