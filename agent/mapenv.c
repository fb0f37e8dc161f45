// SPDX-License-Identifier: GPL-2.0
/* The environment a program map runs with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_lookup.h"
#include "am_sun.h"

void am_mapenv_free(char **env)
{
	size_t i;

	for (i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

/*
 * The environment of a program map, as autofs-tools gives it: PATH, the
 * system variables, the -D defines, then the requester's identity with
 * the prefix AUTOFS_, so that neither a define nor the map's own use of
 * USER or HOME can pass for it.  Returns: a NULL-terminated array of
 * "NAME=value", or NULL when out of memory.
 */
char **am_mapenv(const struct am_vars *std, const struct am_vars *defines)
{
	static const char *const sys[] = {
		"ARCH", "CPU", "HOST", "OSNAME", "OSREL", "OSVERS",
		"host", "xhost", "hostd", "domain", "dollar", "true", "false", "byte",
	};
	static const char *const who[] = { "UID", "GID", "USER", "GROUP", "HOME", "SHOST" };
	struct am_vars env = { 0 };
	char name[32], **out = NULL;
	const char *v;
	size_t i;
	int err;

	err = am_vars_set(&env, "PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
	for (i = 0; !err && i < sizeof(sys) / sizeof(sys[0]); i++)
		if ((v = am_vars_get(std, sys[i])))
			err = am_vars_set(&env, sys[i], v);
	for (i = 0; !err && i < defines->av_n; i++)
		err = am_vars_set(&env, defines->av_name[i], defines->av_value[i]);
	for (i = 0; !err && i < sizeof(who) / sizeof(who[0]); i++) {
		snprintf(name, sizeof(name), "AUTOFS_%s", who[i]);
		if ((v = am_vars_get(std, who[i])))
			err = am_vars_set(&env, name, v);
	}
	if (!err)
		out = calloc(env.av_n + 1, sizeof(*out));
	for (i = 0; out && i < env.av_n; i++)
		if (asprintf(&out[i], "%s=%s", env.av_name[i], env.av_value[i]) < 0) {
			out[i] = NULL;
			am_mapenv_free(out);
			out = NULL;
		}
	am_vars_free(&env);
	return out;
}
