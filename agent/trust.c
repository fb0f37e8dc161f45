// SPDX-License-Identifier: GPL-2.0
/*
 * What an entry may do, by where it came from (design.md 3a).  Its trust
 * is decided once, in am_trust_decide(), as the least trusted of every
 * source its bytes passed through: the source that answered, the source
 * an include line found it in, and the entry that named its nested map.
 * An entry from outside the host (a server's answer, a directory service,
 * a program's output: every source but a map file) mounts nosuid,nodev
 * unless the master map, which is the administrator's, says suid or dev,
 * names no local path, device or local NFS path (nobind), and names a
 * nested map only by name, which then inherits its trust; a server's
 * answer (the hosts map) names no location without a host at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_lookup.h"
#include "am_master.h"
#include "am_util.h"

static enum am_trust trust_of(const char *desc)
{
	if (!desc || am_startswith(desc, "file:"))
		return AM_TRUST_LOCAL;
	return am_startswith(desc, "hosts:") ? AM_TRUST_REMOTE : AM_TRUST_FOREIGN;
}

/*
 * A program map its master map line trusts (--trusted-program): its output
 * is taken as a map file's.  Not when those options are a nested map's
 * that a foreign entry named, or a master line read from a directory.
 */
static bool trust_program_lifted(const struct am_resolved *rs)
{
	return rs->rs_mo.mo_trusted_program && !rs->rs_mo.mo_foreign &&
	       rs->rs_source && am_startswith(rs->rs_source, "program:");
}

void am_trust_decide(struct am_resolved *rs)
{
	enum am_trust src = trust_of(rs->rs_source), via = trust_of(rs->rs_via);
	char *w = rs->rs_trust_why;
	size_t n = sizeof(rs->rs_trust_why);

	if (trust_program_lifted(rs))
		src = AM_TRUST_LOCAL;
	rs->rs_trust = src > via ? src : via;
	if (rs->rs_mo.mo_foreign && rs->rs_trust == AM_TRUST_LOCAL)
		rs->rs_trust = AM_TRUST_FOREIGN;
	if (src == AM_TRUST_REMOTE || via == AM_TRUST_REMOTE)
		snprintf(w, n, "remote (a server's answer: %.100s)",
			 src == AM_TRUST_REMOTE ? rs->rs_source : rs->rs_via);
	else if (src == AM_TRUST_FOREIGN)
		snprintf(w, n, "foreign (answered by %.120s)", rs->rs_source);
	else if (via == AM_TRUST_FOREIGN)
		snprintf(w, n, "foreign (via +%.120s)", rs->rs_via);
	else if (rs->rs_mo.mo_foreign)
		snprintf(w, n, "foreign (a map named by a foreign entry or master line)");
	else if (trust_program_lifted(rs))
		snprintf(w, n, "local (%.100s, trusted: --trusted-program)",
			 rs->rs_source);
	else
		snprintf(w, n, "local (map files only)");
}

static bool trust_remote(const struct am_resolved *rs)
{
	return rs->rs_trust == AM_TRUST_REMOTE;
}

static bool trust_foreign(const struct am_resolved *rs)
{
	return rs->rs_trust != AM_TRUST_LOCAL;
}

/* What a foreign entry mounts with whatever it says, unless the master map lifts it. */
struct trust_forced {
	bool tf_nosuid, tf_nodev;
};

/*
 * The master map lifts nosuid or nodev with suid or dev, unless its options
 * are those of a nested map a foreign entry named: then they are not the
 * administrator's.
 */
static struct trust_forced trust_forced(const struct am_resolved *rs)
{
	bool foreign = trust_foreign(rs), admin = !rs->rs_mo.mo_foreign;

	return (struct trust_forced) {
		.tf_nosuid = foreign && !(admin && am_opts_has(rs->rs_mo.mo_mntopts, "suid")),
		.tf_nodev = foreign && !(admin && am_opts_has(rs->rs_mo.mo_mntopts, "dev")),
	};
}

/*
 * The master map options an entry is parsed with, for a foreign entry
 * under nosuid,nodev.  Returns: malloc'd, or NULL.
 */
char *am_trust_defopts(const struct am_resolved *rs)
{
	struct trust_forced tf = trust_forced(rs);

	return am_opts_merge(tf.tf_nosuid && tf.tf_nodev ? "nosuid,nodev" :
			     tf.tf_nosuid ? "nosuid" : tf.tf_nodev ? "nodev" : "",
			     rs->rs_mo.mo_mntopts);
}

/* OPT over M's options, unless they say it already.  Returns: 0, -ENOMEM. */
static int trust_force(struct am_mnt *m, bool want, const char *opt)
{
	char *opts;

	if (!want || !strcmp(m->mn_fstype, "autofs") || am_opts_has(m->mn_options, opt))
		return 0;
	opts = am_opts_merge(m->mn_options, opt);
	if (!opts)
		return -ENOMEM;
	free(m->mn_options);
	m->mn_options = opts;
	return 0;
}

/*
 * Whether M mounts a device found by what is on it (LABEL=, UUID=,
 * PARTUUID=, PARTLABEL=, fstype=auto): whoever can attach a device (a
 * stick, a loop image through udisks) chooses those bytes, the label and
 * the filesystem with them.
 */
static bool trust_device_by_content(const struct am_mnt *m)
{
	size_t k;

	if (!strcmp(m->mn_fstype, "auto"))
		return true;
	for (k = 0; k < m->mn_nlocs; k++)
		if (!m->mn_locs[k].al_host && am_device_tag(m->mn_locs[k].al_path))
			return true;
	return false;
}

static bool trust_nfs(const struct am_mnt *m)
{
	return !strcmp(m->mn_fstype, "nfs") || !strcmp(m->mn_fstype, "nfs4");
}

/*
 * A foreign entry's own options cannot lift nosuid,nodev (its "suid" gives
 * way to them), and its NFS location on this host stays NFS (nobind): a
 * bind would mount whatever local path it names.  A map file's device
 * found by its content is nosuid,nodev unless the map or the master map
 * says suid or dev.  A nested trigger (fstype=autofs) mounts nothing with
 * them.  Returns: 0, -ENOMEM.
 */
int am_trust_clamp(struct am_resolved *rs)
{
	struct trust_forced tf = trust_forced(rs);
	struct am_mnt *m;
	bool bydev;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		bydev = trust_device_by_content(m);
		err = trust_force(m, tf.tf_nosuid || (bydev && !am_opts_has(m->mn_options, "suid")),
				  "nosuid");
		if (!err)
			err = trust_force(m, tf.tf_nodev || (bydev && !am_opts_has(m->mn_options, "dev")),
					  "nodev");
		if (!err)
			err = trust_force(m, trust_foreign(rs) && trust_nfs(m), "nobind");
	}
	return err;
}

/* A location without a host a foreign entry may give: a pseudo fs name. */
static bool trust_plain_word(const char *s)
{
	return *s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789._-")];
}

/* An option of OPTS whose value names a path ("lowerdir=/root"), or NULL. */
static const char *trust_path_option(const char *opts)
{
	const char *p, *e, *eq;

	for (p = opts; *p; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ",");
		eq = memchr(p, '=', (size_t)(e - p));
		if (eq && memchr(eq, '/', (size_t)(e - eq)))
			return p;
	}
	return NULL;
}

/* Why a foreign entry's mount M points at this host, or NULL. */
static const char *trust_local_mount(const struct am_resolved *rs, const struct am_mnt *m)
{
	size_t k;

	if (!strcmp(m->mn_fstype, "autofs"))
		return NULL;	/* a map name: am_trust_check_submaps */
	if (!strcmp(m->mn_fstype, "bind") || !strcmp(m->mn_fstype, "rbind"))
		return "a bind mount from a source outside this host's map files";
	if (!strcmp(m->mn_fstype, "auto"))
		return "fstype=auto (a local device) from a source outside this host's map files";
	for (k = 0; k < m->mn_nlocs; k++) {
		if (m->mn_locs[k].al_host)
			continue;
		if (trust_remote(rs))
			return "a location without a host";
		if (!trust_plain_word(m->mn_locs[k].al_path))
			return "a local path or device from a source outside this host's map files";
	}
	if (trust_path_option(m->mn_options))
		return "an option naming a path, from a source outside this host's map files";
	return NULL;
}

/*
 * Where an entry may point.  No entry names the agent's own filesystems
 * (the agent makes triggers itself, from fstype=autofs).  An entry from
 * outside the host points at nothing local: no bind mount, no location
 * without a host but a pseudo filesystem's name (":tmpfs"), no option
 * value naming a path ("lowerdir=/root", "journal_path=/dev/sda2"); a
 * server's answer has no location without a host at all.
 * Returns: 0, -EINVAL (WHY).
 */
int am_trust_check_locations(const struct am_resolved *rs, char *why, size_t len)
{
	const struct am_mnt *m;
	const char *bad;
	size_t i;

	for (i = 0; i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		if (!strcmp(m->mn_fstype, "autofsng") || !strcmp(m->mn_fstype, "trapfs"))
			bad = "fstype=autofsng and trapfs are the agent's own (write fstype=autofs)";
		else
			bad = trust_foreign(rs) ? trust_local_mount(rs, m) : NULL;
		if (bad) {
			snprintf(why, len, "offset %.60s: %s", m->mn_offset, bad);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The map a nested (fstype=autofs) entry names, when the entry came from
 * outside the host (LDAP, NIS, a program map, the hosts map), is data: it
 * may name a map to look up through the sources or an LDAP DN, never a file,
 * a program or another server.  Returns: why it is refused, or NULL.
 */
static const char *trust_submap_refused(const char *spec)
{
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";

	if (!strcmp(spec, "-hosts"))	/* its entries are a server's answers */
		return NULL;
	if (am_startswith(spec, "ldap:"))
		return strpbrk(spec + 5, "/:") ? "an LDAP map that names a server" : NULL;
	if (am_startswith(spec, "nis:") || am_startswith(spec, "yp:") ||
	    am_startswith(spec, "sss:"))
		spec = strchr(spec, ':') + 1;
	if (!*spec || spec[strspn(spec, name_chars)])
		return "not a plain map name";
	return NULL;
}

int am_trust_check_submaps(const struct am_request *rq, const struct am_resolved *rs)
{
	const struct am_mnt *m;
	const char *why;
	size_t i;

	if (!trust_foreign(rs))
		return AM_EXIT_OK;
	for (i = 0; i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		if (strcmp(m->mn_fstype, "autofs") || !m->mn_nlocs)
			continue;
		why = trust_submap_refused(m->mn_locs[0].al_path);
		if (!why)
			continue;
		am_log(LOG_ERR, "map %s (%s): key %s: refused nested map '%.100s': %s%s",
		       rq->rq_map, rs->rs_source, rq->rq_key, m->mn_locs[0].al_path, why,
		       am_startswith(rs->rs_source, "program:") ?
		       " (a program map the administrator wrote may be trusted as a map file: "
		       "--trusted-program on its master map line, see autofs-maps(5))" : "");
		return AM_EXIT_MALFORMED;
	}
	return AM_EXIT_OK;
}

enum am_trust am_trust_enumerated(const struct am_ctx *ctx, const char **via)
{
	enum am_trust t = AM_TRUST_LOCAL, s;
	size_t i;

	*via = NULL;
	for (i = 0; i < ctx->ac_nincl; i++) {
		s = trust_of(ctx->ac_incl[i]);
		if (s > t) {
			t = s;
			*via = ctx->ac_incl[i];
		}
	}
	return t;
}

/* Whether PATH is at or below one of the blank-separated directories LIST. */
static bool trust_path_below(const char *path, const char *list)
{
	const char *p, *e;
	size_t n;

	for (p = list; *p; p = e) {
		p += strspn(p, " \t");
		e = p + strcspn(p, " \t");
		n = (size_t)(e - p);
		while (n > 1 && p[n - 1] == '/')
			n--;
		if (n && !strncmp(path, p, n) &&
		    (path[n] == '/' || !path[n] || (n == 1 && p[0] == '/')))
			return true;
	}
	return false;
}

int am_trust_mount_point(const struct am_ctx *ctx, const char *path, char *why, size_t len)
{
	const char *list = ctx->ac_conf.cf_foreign_mount_points;

	if (!list)
		list = AM_FOREIGN_MOUNT_POINTS;
	if (trust_path_below(path, list))
		return 0;
	snprintf(why, len, "%.200s is not below [general] foreign_mount_points (%.200s)",
		 path, *list ? list : "none");
	return -EPERM;
}

int am_trust_master_line(const struct am_ctx *ctx, const struct am_master_entry *me,
			 char *why, size_t len)
{
	const char *bad;

	if (!me->me_foreign)
		return 0;
	bad = trust_submap_refused(me->me_map);
	if (bad) {
		snprintf(why, len, "map '%.100s' is %s", me->me_map, bad);
		return -EPERM;
	}
	return strcmp(me->me_path, "/-") ? am_trust_mount_point(ctx, me->me_path, why, len) : 0;
}
