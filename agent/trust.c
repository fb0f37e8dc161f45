// SPDX-License-Identifier: GPL-2.0
/*
 * What an entry may do, by where it came from (design.md 3a): an entry
 * from outside the host (a server's answer, a directory service, a program's
 * output: every source but a map file) mounts nosuid,nodev unless the
 * master map, which is the administrator's, says suid or dev, and names a
 * nested map only by name; a server's answer (the hosts map) never names a
 * local path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_lookup.h"
#include "am_util.h"

/* A source whose entries are a server's answer (map_hosts.so). */
static bool trust_remote(const struct am_resolved *rs)
{
	return am_startswith(rs->rs_source, "hosts:");
}

/* A source whose entries come from outside the host: all but map files. */
static bool trust_foreign(const struct am_resolved *rs)
{
	return !am_startswith(rs->rs_source, "file:");
}

/* What a foreign entry mounts with whatever it says, unless the master map lifts it. */
struct trust_forced {
	bool tf_nosuid, tf_nodev;
};

static struct trust_forced trust_forced(const struct am_resolved *rs)
{
	bool foreign = trust_foreign(rs);

	return (struct trust_forced) {
		.tf_nosuid = foreign && !am_opts_has(rs->rs_mo.mo_mntopts, "suid"),
		.tf_nodev = foreign && !am_opts_has(rs->rs_mo.mo_mntopts, "dev"),
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
 * A foreign entry's own options cannot lift nosuid,nodev (its "suid" gives
 * way to them).  A nested trigger (fstype=autofs) mounts nothing with them.
 * Returns: 0, -ENOMEM.
 */
int am_trust_clamp(struct am_resolved *rs)
{
	struct trust_forced tf = trust_forced(rs);
	size_t i;
	int err = 0;

	for (i = 0; !err && i < rs->rs_entry.en_nmnts; i++) {
		err = trust_force(&rs->rs_entry.en_mnts[i], tf.tf_nosuid, "nosuid");
		if (!err)
			err = trust_force(&rs->rs_entry.en_mnts[i], tf.tf_nodev, "nodev");
	}
	return err;
}

/*
 * A server's answer never names a local path: a location without a host
 * would be a bind mount of this machine.  Returns: 0, -EINVAL.
 */
int am_trust_check_remote(const struct am_resolved *rs, char *why, size_t len)
{
	const struct am_mnt *m;
	size_t i, k;

	for (i = 0; trust_remote(rs) && i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		for (k = 0; k < m->mn_nlocs; k++) {
			if (m->mn_locs[k].al_host)
				continue;
			snprintf(why, len, "offset %.60s has a location without a host",
				 m->mn_offset);
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

	if (am_startswith(rs->rs_source, "file:"))
		return AM_EXIT_OK;
	for (i = 0; i < rs->rs_entry.en_nmnts; i++) {
		m = &rs->rs_entry.en_mnts[i];
		if (strcmp(m->mn_fstype, "autofs") || !m->mn_nlocs)
			continue;
		why = trust_submap_refused(m->mn_locs[0].al_path);
		if (!why)
			continue;
		am_log(LOG_ERR, "map %s (%s): key %s: refused nested map '%.100s': %s",
		       rq->rq_map, rs->rs_source, rq->rq_key, m->mn_locs[0].al_path, why);
		return AM_EXIT_MALFORMED;
	}
	return AM_EXIT_OK;
}
