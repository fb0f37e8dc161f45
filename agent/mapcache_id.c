// SPDX-License-Identifier: GPL-2.0
/*
 * The identity of a directory map's snapshot (am_mapcache.h): everything a
 * lookup's answer depends on besides the server's data.  A snapshot is
 * used only by a lookup of the same identity, compared byte for byte, so a
 * change to any of it (a configuration key, ldap.conf, the credentials
 * file, the NIS domain) is a miss at once, not after cache_ttl.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "am_agent.h"
#include "am_mapcache.h"
#include "am_util.h"

/* the sources whose modules give a snapshot (am_map_ops) */
static const char *const mc_kinds[] = { "ldap", "nis", NULL };

bool am_mapcache_kind(const char *type)
{
	size_t i;

	for (i = 0; mc_kinds[i]; i++)
		if (!strcmp(type, mc_kinds[i]))
			return true;
	return false;
}

/* A field of the identity: its bytes and a NUL. */
static void id_put(struct am_buf *id, const char *s)
{
	am_buf_putn(id, s ? s : "", strlen(s ? s : ""));
	am_buf_putc(id, '\0');
}

/* The version of the file at PATH (or that there is none). */
static void id_file(struct am_buf *id, const char *path)
{
	struct stat st;
	char v[160];

	if (stat(path, &st))
		snprintf(v, sizeof(v), "%s: none", path);
	else
		snprintf(v, sizeof(v), "%s: %llu %llu %lld %lld.%09ld %lld.%09ld", path,
			 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
			 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			 st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	id_put(id, v);
}

/*
 * libldap reads ldap.conf (or $LDAPCONF), $HOME's ldaprc and .ldaprc (or
 * $LDAPRC), and ./ldaprc, and takes LDAP* variables; the module, its
 * credentials file.
 */
static void id_ldap(const struct am_ctx *ctx, struct am_buf *id)
{
	const char *home = getenv("HOME"), *auth;
	char path[4096];
	char **e;

	if (getenv("LDAPCONF"))
		id_file(id, getenv("LDAPCONF"));
	/* Debian's, and that of Red Hat and SUSE */
	id_file(id, "/etc/ldap/ldap.conf");
	id_file(id, "/etc/openldap/ldap.conf");
	if (getenv("LDAPRC"))
		id_file(id, getenv("LDAPRC"));
	if (home) {
		snprintf(path, sizeof(path), "%s/ldaprc", home);
		id_file(id, path);
		snprintf(path, sizeof(path), "%s/.ldaprc", home);
		id_file(id, path);
	}
	id_file(id, "ldaprc");
	auth = am_conf_get(&ctx->ac_conf, "ldap", "auth_conf");
	id_file(id, auth ? auth : SYSCONFDIR "/autofs_ldap_auth.conf");
	for (e = environ; *e; e++)
		if (!strncmp(*e, "LDAP", 4))
			id_put(id, *e);
}

static void id_nis(struct am_buf *id)
{
	char domain[256] = "";

	if (getdomainname(domain, sizeof(domain) - 1))
		domain[0] = '\0';
	id_put(id, domain);
}

int am_mapcache_id(const struct am_ctx *ctx, const char *type, const char *name,
		   int argc, const char *const *argv, struct am_buf *id)
{
	const struct am_conf *conf = &ctx->ac_conf;
	char uid[32];
	size_t i;
	int a;

	memset(id, 0, sizeof(*id));
	snprintf(uid, sizeof(uid), "v1 uid %u", (unsigned int)geteuid());
	id_put(id, uid);
	id_put(id, type);
	id_put(id, name);
	for (a = 0; a < argc && argv[a]; a++)
		id_put(id, argv[a]);
	id_put(id, "--");
	for (i = 0; i < conf->cf_nkv; i++) {
		id_put(id, conf->cf_kv[i].ck_section);
		id_put(id, conf->cf_kv[i].ck_key);
		id_put(id, conf->cf_kv[i].ck_value);
	}
	if (!strcmp(type, "ldap"))
		id_ldap(ctx, id);
	else if (!strcmp(type, "nis"))
		id_nis(id);
	if (id->ab_oom) {
		free(id->ab_s);
		memset(id, 0, sizeof(*id));
		return -ENOMEM;
	}
	return 0;
}
