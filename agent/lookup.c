// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's requests: `lookup` (mount one key onto MOUNTFD) and `list`
 * (write the keys of a browse map to WRITEFD), and `test`, the dry run of a
 * lookup.  Everything is read before the agent joins the requester's mount
 * namespace; after setns it only attaches what it built.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "am_dynamic.h"
#include "am_lookup.h"
#include "am_mapcache.h"
#include "am_mount.h"
#include "am_plan.h"
#include "am_stage.h"
#include "am_util.h"

int am_env_fd(const char *name, bool required)
{
	const char *v = getenv(name);
	char *end;
	long fd;

	if (!v || !*v)
		return required ? -EINVAL : -ENOENT;
	fd = strtol(v, &end, 10);
	if (*end || fd < 0 || fd > INT_MAX || fcntl((int)fd, F_GETFD) < 0) {
		am_log(LOG_ERR, "%s=%s is not an open file descriptor", name, v);
		return -EINVAL;
	}
	return (int)fd;
}

static unsigned int env_id(const char *name, unsigned int def)
{
	const char *v = getenv(name);
	char *end;
	unsigned long id;

	if (!v || !*v)
		return def;
	id = strtoul(v, &end, 10);
	return *end || id > UINT_MAX ? def : (unsigned int)id;
}

static int env_request(struct am_request *rq)
{
	rq->rq_map = getenv("MAPNAME");
	rq->rq_key = getenv("MAPKEY");
	rq->rq_offset = getenv("MAPOFFSET");
	rq->rq_options = getenv("MAPOPTIONS");
	if (!rq->rq_offset || !*rq->rq_offset)
		rq->rq_offset = "/";
	if (!rq->rq_options)
		rq->rq_options = "";
	rq->rq_uid = env_id("UID", 0);
	rq->rq_gid = env_id("GID", 0);
	if (!rq->rq_map || !*rq->rq_map || !rq->rq_key) {
		am_log(LOG_ERR, "lookup: MAPNAME and MAPKEY must be set");
		return -EINVAL;
	}
	return 0;
}

static void lookup_report(const struct am_request *rq, const struct am_resolved *rs,
			  const struct am_plan *lp, int ret, long long t0)
{
	const struct am_mnt *m = lp ? lp->lp_mnt : NULL;

	const char *host = m && m->mn_nlocs ? m->mn_locs[0].al_host : NULL;

	/* a name nobody has is routine (ls, shells probing): not an error */
	am_log(ret && ret != AM_EXIT_NOKEY ? LOG_ERR : LOG_NOTICE,
	       "lookup map=%s key=%s offset=%s uid=%u source=%s mounted=%s%s%s%s%s result=%d ms=%lld",
	       rq->rq_map, rq->rq_key, rq->rq_offset, (unsigned int)rq->rq_uid,
	       rs && rs->rs_source ? rs->rs_source : "-",
	       m && m->mn_nlocs ? m->mn_fstype : (lp ? "tmpfs" : "-"),
	       m && m->mn_nlocs ? ":" : "", host ? host : "", host ? ":" : "",
	       m && m->mn_nlocs ? m->mn_locs[0].al_path : "",
	       ret, am_now_ms() - t0);
}

/*
 * The mount point of an indirect map's trap MOUNTFD (its parent), where
 * program maps run as autofs-tools runs them; -1 for a direct map, whose
 * trap is its own mount point and would be walked into.
 */
static int lookup_mount_point(const struct am_request *rq, int mountfd)
{
	struct stat trap, up;
	int fd;

	if (rq->rq_key[0] == '/')
		return -1;
	fd = openat(mountfd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/*
	 * The trigger's root, on the trap's filesystem: a trap bind-mounted
	 * alone elsewhere (a container can) has the directory of whoever
	 * did it above it, not a place to run a root program in.
	 */
	if (fd >= 0 && (fstat(mountfd, &trap) || fstat(fd, &up) || trap.st_dev != up.st_dev)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * Join the requester's mount namespace.  A sanitizer build (the tests') looks
 * for leaks at exit through /proc/self, which in a container that mounted a
 * procfs of its own (podman) names nobody, and then fails the run: such a
 * build keeps its namespace in *HOME to go back to (leave_requester()).
 */
static int join_requester(int nsfd, int *home)
{
	*home = -1;
	am_mapcache_seal();
	am_dynamic_seal();
#ifdef __SANITIZE_ADDRESS__
	*home = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
#endif
	return setns(nsfd, CLONE_NEWNS);
}

static void leave_requester(int home)
{
	if (home < 0)
		return;
	if (setns(home, CLONE_NEWNS))
		am_log(LOG_ERR, "returning to the agent's mount namespace: %s", strerror(errno));
	close(home);
}

/* am_resolve() with program maps run in MOUNT_POINT (an fd it closes, or -1). */
static int resolve_in(struct am_ctx *ctx, int mount_point, const struct am_request *rq,
		      struct am_resolved *rs)
{
	int ret;

	ctx->ac_mount_point = mount_point;
	ret = am_resolve(ctx, rq, rs);
	if (mount_point >= 0)
		close(mount_point);
	ctx->ac_mount_point = -1;
	return ret;
}

int am_cmd_lookup(struct am_ctx *ctx)
{
	struct am_plan lp = { .lp_fd = -1 };
	struct am_resolved rs = { 0 };
	struct am_request rq;
	long long t0 = am_now_ms();
	int mountfd, nsfd, home = -1, ret;
	bool planned = false;

	mountfd = am_env_fd("MOUNTFD", true);
	nsfd = am_env_fd("MNTNSFD", false);
	if (env_request(&rq) || mountfd < 0 || nsfd == -EINVAL) {
		ret = AM_EXIT_USAGE;
		goto close_fds;
	}
	ret = resolve_in(ctx, lookup_mount_point(&rq, mountfd), &rq, &rs);
	if (!ret) {
		ret = am_plan_make(&rs.rs_entry, rq.rq_offset, &lp);
		planned = true;
		if (ret == AM_EXIT_NOKEY)
			am_log(LOG_ERR, "map %s: key %s: the entry has no offset %s",
			       rq.rq_map, rq.rq_key, rq.rq_offset);
	}
	am_stage_enter(AM_STAGE_MOUNT);
	if (!ret)
		ret = am_plan_build(ctx, &rq, &rs, &lp);
	am_stage_enter(AM_STAGE_ATTACH);
	/*
	 * Everything that looks at files happens before setns: from here on a
	 * path would resolve in the requester's tree, and the log never
	 * connects again (it would reach the requester's /dev/log).
	 */
	if (!ret)
		am_expiry_present();
	if (!ret && nsfd >= 0)
		am_log_seal();
	if (!ret && nsfd >= 0 && join_requester(nsfd, &home)) {
		am_log(LOG_ERR, "map %s: key %s: joining the requester's mount namespace: %s",
		       rq.rq_map, rq.rq_key, strerror(errno));
		ret = AM_EXIT_MOUNT;
	}
	if (!ret)
		ret = am_plan_attach(ctx, &rq, &rs, &lp, mountfd);
	am_stage_enter(AM_STAGE_END);
	lookup_report(&rq, &rs, planned ? &lp : NULL, ret, t0);
	if (planned)
		am_plan_free(&lp);
	am_resolved_free(&rs);
	leave_requester(home);
close_fds:
	if (mountfd >= 0)
		close(mountfd);
	if (nsfd >= 0)
		close(nsfd);
	am_stage_report("lookup");
	return ret;
}

/* ---- list ------------------------------------------------------------ */

struct list_keys {
	char **lk_keys;
	size_t lk_n, lk_cap;
	bool lk_oom;
};

static int list_collect(const char *key, const char *entry, void *arg)
{
	struct list_keys *lk = arg;
	char **keys;

	(void)entry;
	if (!strcmp(key, "*") || am_key_invalid(key, false))
		return 0;
	if (lk->lk_n == lk->lk_cap) {
		lk->lk_cap = lk->lk_cap ? lk->lk_cap * 2 : 64;
		keys = realloc(lk->lk_keys, lk->lk_cap * sizeof(*keys));
		if (!keys)
			goto oom;
		lk->lk_keys = keys;
	}
	lk->lk_keys[lk->lk_n] = strdup(key);
	if (!lk->lk_keys[lk->lk_n])
		goto oom;
	lk->lk_n++;
	return 0;
oom:
	lk->lk_oom = true;
	return 1;
}

static int list_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Write the keys, sorted and unique, one per line.  Returns: 0, -errno. */
static int list_write(int fd, struct list_keys *lk)
{
	struct am_buf b = { 0 };
	size_t i, off = 0;
	ssize_t n;

	am_dynamic_seal();
	qsort(lk->lk_keys, lk->lk_n, sizeof(*lk->lk_keys), list_cmp);
	for (i = 0; i < lk->lk_n; i++)
		if (!i || strcmp(lk->lk_keys[i], lk->lk_keys[i - 1]))
			am_buf_printf(&b, "%s\n", lk->lk_keys[i]);
	if (b.ab_oom)
		return -ENOMEM;
	while (off < b.ab_len) {
		n = write(fd, b.ab_s + off, b.ab_len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			am_buf_free(&b);
			return -errno;
		}
		off += (size_t)n;
	}
	am_buf_free(&b);
	return 0;
}

int am_cmd_list(struct am_ctx *ctx)
{
	struct list_keys lk = { 0 };
	struct am_mopts mo;
	struct am_chain ch;
	const char *map = getenv("MAPNAME");
	char why[256];
	int fd, err, ret = AM_EXIT_OK;
	size_t i;

	fd = am_env_fd("WRITEFD", true);
	if (fd < 0 || !map || !*map) {
		am_log(LOG_ERR, "list: MAPNAME and WRITEFD must be set");
		if (fd >= 0)
			close(fd);
		return AM_EXIT_USAGE;
	}
	err = am_mopts_parse(getenv("MAPOPTIONS"), &mo, why, sizeof(why));
	if (err) {
		am_log(LOG_ERR, "list %s: options: %s", map, why);
		close(fd);
		return AM_EXIT_USAGE;
	}
	err = am_chain_init(ctx, map, mo.mo_argc, (const char *const *)mo.mo_argv, &ch);
	if (!err) {
		err = am_chain_enumerate(&ch, list_collect, &lk);
		am_chain_free(&ch);
	}
	if (lk.lk_oom)
		err = -ENOMEM;
	if (!err)
		err = list_write(fd, &lk);
	if (err) {
		am_log(LOG_ERR, "list %s: %s", map, strerror(err < 0 ? -err : EIO));
		ret = err == -EINVAL ? AM_EXIT_USAGE : AM_EXIT_UNAVAIL;
	} else {
		am_log(LOG_INFO, "list %s: %zu keys", map, lk.lk_n);
	}
	for (i = 0; i < lk.lk_n; i++)
		free(lk.lk_keys[i]);
	free(lk.lk_keys);
	am_mopts_free(&mo);
	close(fd);
	return ret;
}

/* ---- test ------------------------------------------------------------ */

/* An fstype=autofs entry: the master map options its nested map gets. */
static void test_print_submap(const struct am_mnt *m, bool foreign)
{
	bool browse = false;
	char *opt = am_submap_options(m->mn_options, foreign, &browse);

	am_out("  nested map options %s\n", opt && *opt ? opt : "-");
	free(opt);
}

static void test_print_mnt(const struct am_mnt *m, bool foreign)
{
	size_t i;

	am_out("mount %s: %s via module %s, options %s\n", m->mn_offset, m->mn_fstype,
	       am_mount_module_name(m), *m->mn_options ? m->mn_options : "-");
	for (i = 0; i < m->mn_nlocs; i++) {
		if (m->mn_locs[i].al_host)
			am_out("  from %s:%s", m->mn_locs[i].al_host, m->mn_locs[i].al_path);
		else
			am_out("  from %s", m->mn_locs[i].al_path);
		if (m->mn_locs[i].al_weight)
			am_out(" (weight %u)", m->mn_locs[i].al_weight);
		am_out("\n");
	}
	if (!m->mn_nlocs)
		am_out("  nothing mounted here\n");
	if (!strcmp(m->mn_fstype, "autofs"))
		test_print_submap(m, foreign);
}

/*
 * Administrators name a mount point ("autofs test /home alice"): when MAP is
 * one of the master map's, *ME is a copy of its entry.
 * Returns: 0 (found), 1 (not a mount point of the master map), -ENOMEM.
 */
static int test_mount_point(struct am_ctx *ctx, const char *map, struct am_master_entry *me)
{
	const char *master = ctx->ac_conf.cf_master ? ctx->ac_conf.cf_master : "auto.master";
	struct am_master m;
	size_t i;
	int ret = 1;

	if (map[0] != '/' || am_master_read(ctx, master, &m)) {
		if (map[0] == '/')
			am_master_free(&m);
		return 1;
	}
	for (i = 0; ret == 1 && i < m.m_n; i++) {
		if (strcmp(m.m_entries[i].me_path, map))
			continue;
		me->me_map = strdup(m.m_entries[i].me_map);
		me->me_options = am_master_options(&m.m_entries[i]);
		ret = me->me_map && me->me_options ? 0 : -ENOMEM;
	}
	am_master_free(&m);
	return ret;
}

static int test_resolve(struct am_ctx *ctx, const char *map, const char *key,
			const char *options, struct am_resolved *rs)
{
	struct am_master_entry me = { 0 };
	int mp = -1;
	struct am_request rq = {
		.rq_map = map, .rq_key = key, .rq_offset = "/",
		.rq_options = options ? options : "",
		.rq_uid = getuid(), .rq_gid = getgid(),
	};
	int ret;

	memset(rs, 0, sizeof(*rs));
	ret = test_mount_point(ctx, map, &me);
	if (ret < 0)
		return AM_EXIT_INTERNAL;
	if (!ret) {
		am_out("mount point %s: map %s %s\n", map, me.me_map, me.me_options);
		rq.rq_map = me.me_map;
		if (!options)
			rq.rq_options = me.me_options;
		/* a program map runs there, as for a lookup of an indirect key */
		if (key[0] != '/')
			mp = open(map, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	ret = resolve_in(ctx, mp, &rq, rs);
	if (ret == AM_EXIT_NOKEY)
		am_out("map %s: no entry for key %s\n", rq.rq_map, key);
	free(me.me_map);
	free(me.me_options);
	return ret;
}

int am_cmd_test(struct am_ctx *ctx, const char *map, const char *key, const char *options)
{
	struct am_resolved rs;
	size_t i;
	int ret;

	ret = test_resolve(ctx, map, key, options, &rs);
	if (ret) {
		am_resolved_free(&rs);
		return ret;
	}
	am_out("map %s key %s\n", map, key);
	am_out("source %s%s\n", rs.rs_source, rs.rs_wildcard ? " (wildcard entry *)" : "");
	am_out("trust %s\n", rs.rs_trust_why);
	if (rs.rs_mo.mo_unknown[0])
		am_out("unknown option '%s' ignored (of the master map line)\n",
		       rs.rs_mo.mo_unknown);
	am_out("entry %s\n", rs.rs_text);
	if (!rs.rs_timeout)
		am_out("never expires (--timeout=0)\n");
	else
		am_out("expire after %u s%s%s\n", rs.rs_timeout,
		       rs.rs_entry.en_multi ? ", the whole tree at once" : "",
		       rs.rs_strictexpire ?
		       ", strictexpire: only references keep it, a path walk does not" : "");
	for (i = 0; i < rs.rs_entry.en_nmnts; i++) {
		test_print_mnt(&rs.rs_entry.en_mnts[i], rs.rs_trust != AM_TRUST_LOCAL);
		if (strcmp(rs.rs_entry.en_mnts[i].mn_offset, "/"))
			am_out("  lazily, through a direct autofsng trigger at %s%s\n", key,
			       rs.rs_entry.en_mnts[i].mn_offset);
	}
	if (rs.rs_entry.en_multi && !am_entry_find(&rs.rs_entry, "/"))
		am_out("mount /: read-only tmpfs holding the offsets\n");
	am_resolved_free(&rs);
	return AM_EXIT_OK;
}
