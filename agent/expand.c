// SPDX-License-Identifier: GPL-2.0
/* Variables of sun map entries: the standard set, -D defines, expansion. */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "am_sun.h"

int am_vars_set(struct am_vars *vars, const char *name, const char *value)
{
	char **names, **values, *v;
	size_t i;

	for (i = 0; i < vars->av_n; i++) {
		if (strcmp(vars->av_name[i], name))
			continue;
		v = strdup(value);
		if (!v)
			return -ENOMEM;
		free(vars->av_value[i]);
		vars->av_value[i] = v;
		return 0;
	}
	names = realloc(vars->av_name, (vars->av_n + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	vars->av_name = names;
	values = realloc(vars->av_value, (vars->av_n + 1) * sizeof(*values));
	if (!values)
		return -ENOMEM;
	vars->av_value = values;
	names[vars->av_n] = strdup(name);
	values[vars->av_n] = strdup(value);
	if (!names[vars->av_n] || !values[vars->av_n]) {
		free(names[vars->av_n]);
		free(values[vars->av_n]);
		return -ENOMEM;
	}
	vars->av_n++;
	return 0;
}

const char *am_vars_get(const struct am_vars *vars, const char *name)
{
	size_t i;

	for (i = 0; i < vars->av_n; i++)
		if (!strcmp(vars->av_name[i], name))
			return vars->av_value[i];
	return NULL;
}

void am_vars_free(struct am_vars *vars)
{
	size_t i;

	for (i = 0; i < vars->av_n; i++) {
		free(vars->av_name[i]);
		free(vars->av_value[i]);
	}
	free(vars->av_name);
	free(vars->av_value);
	memset(vars, 0, sizeof(*vars));
}

static bool vars_name_valid(const char *s, size_t n)
{
	size_t i;

	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

int am_vars_define(struct am_vars *vars, const char *def)
{
	const char *eq = strchr(def, '=');
	char *name;
	int err;

	if (!eq || !vars_name_valid(def, (size_t)(eq - def)))
		return -EINVAL;
	name = am_strndup(def, (size_t)(eq - def));
	if (!name)
		return -ENOMEM;
	err = am_vars_set(vars, name, eq + 1);
	free(name);
	return err;
}

/* The CPU class autofs has always reported: i386 for any 32-bit x86. */
static const char *vars_cpu(const char *machine)
{
	if (machine[0] == 'i' && strlen(machine) == 4 && !strcmp(machine + 2, "86"))
		return "i386";
	return machine;
}

static int vars_user(struct am_vars *vars, uid_t uid, gid_t gid)
{
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;
	char buf[4096], num[32];
	int err;

	snprintf(num, sizeof(num), "%u", (unsigned int)uid);
	err = am_vars_set(vars, "UID", num);
	snprintf(num, sizeof(num), "%u", (unsigned int)gid);
	err = err ? err : am_vars_set(vars, "GID", num);
	if (err)
		return err;
	if (!getpwuid_r(uid, &pw, buf, sizeof(buf), &pwp) && pwp) {
		err = am_vars_set(vars, "USER", pw.pw_name);
		err = err ? err : am_vars_set(vars, "HOME", pw.pw_dir);
		if (err)
			return err;
	}
	if (!getgrgid_r(gid, &gr, buf, sizeof(buf), &grp) && grp)
		err = am_vars_set(vars, "GROUP", gr.gr_name);
	return err;
}

int am_vars_standard(struct am_vars *vars, uid_t uid, gid_t gid)
{
	struct utsname u;
	char shost[sizeof(u.nodename)];
	const char *dot;
	int err;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(shost, sizeof(shost), "%s", u.nodename);
	dot = strchr(u.nodename, '.');
	if (dot)
		shost[dot - u.nodename] = '\0';
	err = am_vars_set(vars, "ARCH", u.machine);
	err = err ? err : am_vars_set(vars, "CPU", vars_cpu(u.machine));
	err = err ? err : am_vars_set(vars, "HOST", u.nodename);
	err = err ? err : am_vars_set(vars, "SHOST", shost);
	err = err ? err : am_vars_set(vars, "DOMAIN", dot ? dot + 1 : "");
	err = err ? err : am_vars_set(vars, "OSNAME", u.sysname);
	err = err ? err : am_vars_set(vars, "OSREL", u.release);
	err = err ? err : am_vars_set(vars, "OSVERS", u.version);
	return err ? err : vars_user(vars, uid, gid);
}

/* Append S so that the tokenizer reads it back as literal text. */
static void expand_literal(struct am_buf *out, const char *s)
{
	for (; *s; s++) {
		if (isspace((unsigned char)*s) || *s == '"' || *s == '\\')
			am_buf_putc(out, '\\');
		am_buf_putc(out, *s);
	}
}

/* At P (just after '$'); returns the number of bytes consumed, -1 on error. */
static long expand_var(const char *p, const struct am_vars *vars,
		       struct am_buf *out, char *err, size_t errlen)
{
	const char *name = p, *end;
	const char *value;
	char *n;
	bool braced = *p == '{';

	if (braced) {
		name = p + 1;
		end = strchr(name, '}');
		if (!end) {
			snprintf(err, errlen, "unterminated ${ in variable reference");
			return -1;
		}
		if (!vars_name_valid(name, (size_t)(end - name))) {
			snprintf(err, errlen, "bad variable name '${%.*s}'",
				 (int)(end - name > 40 ? 40 : end - name), name);
			return -1;
		}
	} else {
		end = name;
		while (isalnum((unsigned char)*end) || *end == '_')
			end++;
		if (end == name || isdigit((unsigned char)*name)) {
			am_buf_putc(out, '$');
			return 0;
		}
	}
	n = am_strndup(name, (size_t)(end - name));
	if (!n) {
		out->ab_oom = true;
		return 0;
	}
	value = am_vars_get(vars, n);
	free(n);
	if (value)
		expand_literal(out, value);
	return (long)(end - p) + braced;
}

int am_sun_expand(const char *text, const char *key, const struct am_vars *vars,
		  char **out, char *err, size_t errlen)
{
	struct am_buf b = { 0 };
	const char *p;
	long used;

	for (p = text; *p; p++) {
		switch (*p) {
		case '\\':
			am_buf_putc(&b, *p);
			if (p[1])
				am_buf_putc(&b, *++p);
			break;
		case '&':
			expand_literal(&b, key);
			break;
		case '$':
			used = expand_var(p + 1, vars, &b, err, errlen);
			if (used < 0) {
				am_buf_free(&b);
				return -EINVAL;
			}
			p += used;
			break;
		default:
			am_buf_putc(&b, *p);
		}
	}
	*out = am_buf_steal(&b);
	return *out ? 0 : -ENOMEM;
}
