// SPDX-License-Identifier: GPL-2.0
/*
 * One request's variables.  The requester's user and group names cost a
 * name-service lookup (files, but as often LDAP or SSSD, over the network):
 * they are looked up only for an entry that uses $USER, $GROUP or $HOME and
 * for a program map, whose environment carries them.
 */
#include <errno.h>
#include <string.h>

#include "am_agent.h"
#include "am_lookup.h"
#include "am_stage.h"

int am_rqvars_init(struct am_rqvars *rv, uid_t uid, gid_t gid,
		   const struct am_vars *defines)
{
	memset(rv, 0, sizeof(*rv));
	rv->rv_uid = uid;
	rv->rv_gid = gid;
	rv->rv_defines = defines;
	return am_vars_system(&rv->rv_std, uid, gid);
}

int am_rqvars_names(struct am_rqvars *rv)
{
	enum am_stage prev;
	int err;

	if (rv->rv_named)
		return 0;
	prev = am_stage_enter(AM_STAGE_NAMES);
	err = am_vars_names(&rv->rv_std, rv->rv_uid, rv->rv_gid);
	am_stage_enter(prev);
	rv->rv_named = !err;
	return err;
}

char *const *am_rqvars_env(struct am_rqvars *rv)
{
	if (!rv || rv->rv_env)
		return rv ? rv->rv_env : NULL;
	if (!am_rqvars_names(rv))
		rv->rv_env = am_mapenv(&rv->rv_std, rv->rv_defines);
	return rv->rv_env;
}

void am_rqvars_free(struct am_rqvars *rv)
{
	am_mapenv_free(rv->rv_env);
	am_vars_free(&rv->rv_std);
	memset(rv, 0, sizeof(*rv));
}
