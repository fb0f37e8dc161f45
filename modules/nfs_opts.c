// SPDX-License-Identifier: GPL-2.0
/*
 * Translation of nfs(5) option strings for the new mount API.
 *
 * The kernel's NFS fs_context already understands nfs(5) names (soft,
 * timeo=, sec=, proto=...), so most options pass through untouched and the
 * kernel stays the judge of what is valid.  What mount(2) used to take as
 * MS_* flags becomes mount attributes, what mount.nfs did in userspace
 * (version fallback, name resolution) is done by the module.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "nfs_opts.h"

/* Options of mount(8) and of autofs maps that are no business of the kernel. */
static const char *const nfs_opts_dropped[] = {
	"defaults", "auto", "noauto", "user", "nouser", "users", "owner",
	"group", "bg", "fg", "_netdev", "nofail", "async", "suid", "dev",
	"exec", "symlink", "nosymlink", "browse", "nobrowse", NULL,
};

static const char *const nfs_opts_dropped_keys[] = {
	"fstype", "retry", "comment", "timeout", NULL,
};

struct nfs_attr_opt {
	const char *name;
	unsigned int set;
	unsigned int clear;
};

static const struct nfs_attr_opt nfs_attr_opts[] = {
	{ "nosuid", MOUNT_ATTR_NOSUID, 0 },
	{ "nodev", MOUNT_ATTR_NODEV, 0 },
	{ "noexec", MOUNT_ATTR_NOEXEC, 0 },
	{ "nosymfollow", MOUNT_ATTR_NOSYMFOLLOW, 0 },
	{ "nodiratime", MOUNT_ATTR_NODIRATIME, 0 },
	{ "diratime", 0, MOUNT_ATTR_NODIRATIME },
	{ "noatime", MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME },
	{ "relatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME },
	{ "atime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME },
	{ "strictatime", MOUNT_ATTR_STRICTATIME, MOUNT_ATTR__ATIME },
	{ NULL, 0, 0 },
};

static bool nfs_in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static int nfs_opts_add(struct nfs_opts *o, const char *key, const char *val)
{
	struct nfs_param *p;

	p = realloc(o->no_params, (o->no_nparams + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	o->no_params = p;
	p += o->no_nparams;
	p->np_key = strdup(key);
	p->np_val = val ? strdup(val) : NULL;
	if (!p->np_key || (val && !p->np_val)) {
		free(p->np_key);
		free(p->np_val);
		return -ENOMEM;
	}
	o->no_nparams++;
	return 0;
}

static int nfs_opts_set(char **field, const char *val)
{
	char *s = strdup(val);

	if (!s)
		return -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

static bool nfs_opts_attr(struct nfs_opts *o, const char *key)
{
	const struct nfs_attr_opt *a;

	if (!strcmp(key, "ro") || !strcmp(key, "rw")) {
		o->no_ro = key[1] == 'o';
		if (o->no_ro)
			o->no_attr |= MOUNT_ATTR_RDONLY;
		else
			o->no_attr &= ~MOUNT_ATTR_RDONLY;
		return true;
	}
	for (a = nfs_attr_opts; a->name; a++) {
		if (strcmp(a->name, key))
			continue;
		o->no_attr = (o->no_attr & ~a->clear) | a->set;
		return true;
	}
	return false;
}

/* "v3", "v4.1": the short version flags the kernel also knows. */
static bool nfs_opts_short_vers(const char *key)
{
	return key[0] == 'v' && key[1] >= '2' && key[1] <= '4' &&
	       (!key[2] || (key[2] == '.' && key[3] && !key[4]));
}

/* minorversion=N only refines vers=4; merge the two once all are seen. */
static int nfs_opts_merge_minor(struct nfs_opts *o, const char *minor,
				char *err, size_t errlen)
{
	char buf[16];

	if (!minor)
		return 0;
	if (o->no_vers && strcmp(o->no_vers, "4")) {
		snprintf(err, errlen, "option 'minorversion=%s' contradicts 'vers=%s'",
			 minor, o->no_vers);
		return -EINVAL;
	}
	if (strlen(minor) > 4) {
		snprintf(err, errlen, "option 'minorversion=%s' is not a version", minor);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "4.%s", minor);
	return nfs_opts_set(&o->no_vers, buf);
}

static int nfs_opts_one(struct nfs_opts *o, char *tok, char **minor)
{
	char *val = strchr(tok, '=');

	if (val)
		*val++ = '\0';
	if (!*tok)
		return 0;
	if (!val) {
		if (nfs_in_list(nfs_opts_dropped, tok) || !strncmp(tok, "x-", 2))
			return 0;
		if (nfs_opts_attr(o, tok))
			return 0;
		if (!strcmp(tok, "nobind")) {
			o->no_nobind = true;
			return 0;
		}
		if (nfs_opts_short_vers(tok))
			return nfs_opts_set(&o->no_vers, tok + 1);
		return nfs_opts_add(o, tok, NULL);
	}
	if (nfs_in_list(nfs_opts_dropped_keys, tok) || !strncmp(tok, "x-", 2))
		return 0;
	if (!strcmp(tok, "vers") || !strcmp(tok, "nfsvers"))
		return nfs_opts_set(&o->no_vers, val);
	if (!strcmp(tok, "minorversion")) {
		*minor = val;
		return 0;
	}
	if (!strcmp(tok, "addr"))
		return nfs_opts_set(&o->no_addr, val);
	if (!strcmp(tok, "port")) {
		int ret = nfs_opts_set(&o->no_port, val);

		if (ret)
			return ret;
	}
	return nfs_opts_add(o, tok, val);
}

int nfs_opts_parse(struct nfs_opts *o, const char *options, char *err,
		   size_t errlen)
{
	char *copy, *tok, *save = NULL, *minor = NULL;
	int ret = 0;

	memset(o, 0, sizeof(*o));
	if (err && errlen)
		err[0] = '\0';
	if (!options)
		return 0;
	copy = strdup(options);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = nfs_opts_one(o, tok, &minor);
	if (!ret)
		ret = nfs_opts_merge_minor(o, minor, err, errlen);
	free(copy);
	if (ret)
		nfs_opts_free(o);
	return ret;
}

void nfs_opts_free(struct nfs_opts *o)
{
	size_t i;

	for (i = 0; i < o->no_nparams; i++) {
		free(o->no_params[i].np_key);
		free(o->no_params[i].np_val);
	}
	free(o->no_params);
	free(o->no_vers);
	free(o->no_addr);
	free(o->no_port);
	memset(o, 0, sizeof(*o));
}

bool nfs_vers_is_v4(const char *vers)
{
	return vers && vers[0] == '4' && (!vers[1] || vers[1] == '.');
}
