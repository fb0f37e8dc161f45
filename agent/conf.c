// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's configuration file.  Sections [general] (checked here) and the
 * module sections [file] [ldap] [nis] [nfs] [sss] (any key; the module checks its own).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_conf.h"
#include "am_util.h"

static const char *const module_sections[] = { "file", "ldap", "nis", "nfs", "sss", NULL };

struct conf_line {
	const char *origin;
	int line;
};

static void conf_error(const struct conf_line *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void conf_error(const struct conf_line *at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	am_log(LOG_ERR, "%s:%d: %s", at->origin, at->line, msg);
}

void am_conf_defaults(struct am_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->cf_timeout = 600;
	conf->cf_negative_timeout = 60;
	conf->cf_cache_ttl = 600;
	conf->cf_log_level = LOG_NOTICE;
	conf->cf_mount_timeout = 30;
	conf->cf_program_timeout = 10;
	conf->cf_umount_wait = 12;
	conf->cf_program_max_output = 65536;
}

static void conf_sources_free(struct am_conf *conf)
{
	size_t i;

	for (i = 0; i < conf->cf_nsources; i++)
		free(conf->cf_sources[i]);
	conf->cf_nsources = 0;
}

void am_conf_free(struct am_conf *conf)
{
	size_t i;

	conf_sources_free(conf);
	free(conf->cf_master);
	free(conf->cf_map_dir);
	free(conf->cf_foreign_mount_points);
	free(conf->cf_module_dir);
	free(conf->cf_map_cache_dir);
	for (i = 0; i < conf->cf_nkv; i++) {
		free(conf->cf_kv[i].ck_section);
		free(conf->cf_kv[i].ck_key);
		free(conf->cf_kv[i].ck_value);
	}
	free(conf->cf_kv);
	memset(conf, 0, sizeof(*conf));
}

const char *am_conf_get(const struct am_conf *conf, const char *section,
			const char *key)
{
	size_t i;

	/* the last assignment wins, like the [general] keys */
	for (i = conf->cf_nkv; i-- > 0;)
		if (!strcmp(conf->cf_kv[i].ck_section, section) &&
		    !strcmp(conf->cf_kv[i].ck_key, key))
			return conf->cf_kv[i].ck_value;
	return NULL;
}

static int conf_uint(const struct conf_line *at, const char *key,
		     const char *val, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*val))
		goto bad;
	v = strtoul(val, &end, 10);
	if (errno || *end || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	conf_error(at, "%s: '%s' is not a number from 0 to %lu", key, val, max);
	return -EINVAL;
}

static int conf_bool(const struct conf_line *at, const char *key,
		     const char *val, bool *out)
{
	if (!strcmp(val, "yes") || !strcmp(val, "true") || !strcmp(val, "1") ||
	    !strcmp(val, "on")) {
		*out = true;
		return 0;
	}
	if (!strcmp(val, "no") || !strcmp(val, "false") || !strcmp(val, "0") ||
	    !strcmp(val, "off")) {
		*out = false;
		return 0;
	}
	conf_error(at, "%s: '%s' is not yes or no", key, val);
	return -EINVAL;
}

const char *am_conf_source_name(const char *name)
{
	if (!strcmp(name, "file"))
		return "files";
	if (!strcmp(name, "yp"))
		return "nis";
	if (!strcmp(name, "files") || !strcmp(name, "nis") ||
	    !strcmp(name, "ldap") || !strcmp(name, "sss"))
		return name;
	return NULL;
}

static int conf_sources(struct am_conf *conf, const struct conf_line *at,
			const char *val)
{
	char origin[PATH_MAX + 16], *copy = strdup(val);
	int err;

	if (!copy)
		return -ENOMEM;
	conf_sources_free(conf);
	snprintf(origin, sizeof(origin), "%s:%d", at->origin, at->line);
	err = am_conf_sources_parse(conf, origin, copy);
	free(copy);
	return err;
}

static int conf_string(char **field, const char *val)
{
	char *s = strdup(val);

	if (!s)
		return -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

static int conf_path(const struct conf_line *at, const char *key,
		     char **field, const char *val)
{
	if (val[0] != '/') {
		conf_error(at, "%s: '%s' is not an absolute path", key, val);
		return -EINVAL;
	}
	return conf_string(field, val);
}

/* foreign_mount_points: absolute directories, blank-separated; empty is none. */
static int conf_dirs(struct am_conf *conf, const struct conf_line *at, const char *val)
{
	const char *p;
	size_t n;

	for (p = val + strspn(val, " \t"); *p; p += n + strspn(p + n, " \t")) {
		n = strcspn(p, " \t");
		if (p[0] != '/') {
			conf_error(at, "foreign_mount_points: '%.*s' is not an absolute path",
				   (int)n, p);
			return -EINVAL;
		}
	}
	return conf_string(&conf->cf_foreign_mount_points, val);
}

/* The [general] keys in seconds: where each goes, and whether 0 may be given. */
struct conf_secs {
	const char *cs_key;
	size_t cs_off;
	bool cs_zero;
	unsigned long cs_max;
};

#define CONF_SECS_MAX (86400UL * 366)

static const struct conf_secs conf_secs_keys[] = {
	{ "timeout", offsetof(struct am_conf, cf_timeout), true, CONF_SECS_MAX },
	{ "negative_timeout", offsetof(struct am_conf, cf_negative_timeout), true, CONF_SECS_MAX },
	{ "cache_ttl", offsetof(struct am_conf, cf_cache_ttl), true, CONF_SECS_MAX },
	{ "mount_timeout", offsetof(struct am_conf, cf_mount_timeout), false, CONF_SECS_MAX },
	{ "program_timeout", offsetof(struct am_conf, cf_program_timeout), false, CONF_SECS_MAX },
	/* milliseconds in an int poll() timeout */
	{ "umount_wait", offsetof(struct am_conf, cf_umount_wait), false, 3600 },
};

static const struct conf_secs *conf_secs_key(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(conf_secs_keys) / sizeof(conf_secs_keys[0]); i++)
		if (!strcmp(key, conf_secs_keys[i].cs_key))
			return &conf_secs_keys[i];
	return NULL;
}

/* Returns: 0, -EINVAL. */
static int conf_seconds(struct am_conf *conf, const struct conf_line *at,
			const struct conf_secs *cs, const char *val)
{
	unsigned long v;
	int err;

	err = conf_uint(at, cs->cs_key, val, cs->cs_max, &v);
	if (err)
		return err;
	if (!v && !cs->cs_zero) {
		conf_error(at, "%s: must be at least 1 second", cs->cs_key);
		return -EINVAL;
	}
	*(unsigned int *)((char *)conf + cs->cs_off) = (unsigned int)v;
	return 0;
}

/* One key of [general].  Returns: 0, -EINVAL, -ENOMEM. */
static int conf_general(struct am_conf *conf, const struct conf_line *at,
			const char *key, const char *val)
{
	const struct conf_secs *cs;
	unsigned long v;
	int err, level;

	if (!strcmp(key, "sources"))
		return conf_sources(conf, at, val);
	if (!strcmp(key, "foreign_mount_points"))
		return conf_dirs(conf, at, val);
	if (!strcmp(key, "master")) {
		if (!*val) {
			conf_error(at, "master: empty map name");
			return -EINVAL;
		}
		return conf_string(&conf->cf_master, val);
	}
	cs = conf_secs_key(key);
	if (cs)
		return conf_seconds(conf, at, cs, val);
	if (!strcmp(key, "program_max_output")) {
		err = conf_uint(at, key, val, 64UL << 20, &v);
		if (!err && v < 1024) {
			conf_error(at, "%s: must be at least 1024 bytes", key);
			err = -EINVAL;
		}
		if (!err)
			conf->cf_program_max_output = v;
		return err;
	}
	if (!strcmp(key, "browse"))
		return conf_bool(at, key, val, &conf->cf_browse);
	if (!strcmp(key, "strictexpire"))
		return conf_bool(at, key, val, &conf->cf_strictexpire);
	if (!strcmp(key, "log_stderr"))
		return conf_bool(at, key, val, &conf->cf_log_stderr);
	if (!strcmp(key, "log_level")) {
		level = am_log_level(val);
		if (level < 0) {
			conf_error(at, "log_level: '%s' is not one of err, warning, notice, info, debug", val);
			return -EINVAL;
		}
		conf->cf_log_level = level;
		return 0;
	}
	if (!strcmp(key, "map_dir"))
		return conf_path(at, key, &conf->cf_map_dir, val);
	if (!strcmp(key, "module_dir"))
		return conf_path(at, key, &conf->cf_module_dir, val);
	if (!strcmp(key, "map_cache_dir"))
		return strcmp(val, "none") ? conf_path(at, key, &conf->cf_map_cache_dir, val) :
			conf_string(&conf->cf_map_cache_dir, val);
	conf_error(at, "unknown key '%s' in [general]", key);
	return -EINVAL;
}

static int conf_remember(struct am_conf *conf, const char *section,
			 const char *key, const char *val)
{
	struct am_conf_kv *kv;

	kv = realloc(conf->cf_kv, (conf->cf_nkv + 1) * sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	conf->cf_kv = kv;
	kv += conf->cf_nkv;
	kv->ck_section = strdup(section);
	kv->ck_key = strdup(key);
	kv->ck_value = strdup(val);
	conf->cf_nkv++;
	if (!kv->ck_section || !kv->ck_key || !kv->ck_value)
		return -ENOMEM;
	return 0;
}

static char *conf_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static bool conf_section_known(const char *name)
{
	size_t i;

	if (!strcmp(name, "general"))
		return true;
	for (i = 0; module_sections[i]; i++)
		if (!strcmp(name, module_sections[i]))
			return true;
	return false;
}

/* One logical line; SECTION is updated by "[name]".  Returns: 0, -errno. */
static int conf_line(struct am_conf *conf, const struct conf_line *at,
		     char *line, char *section, size_t section_len)
{
	char *eq, *key, *val;
	size_t n;

	line = conf_trim(line);
	if (!*line || *line == '#' || *line == ';')
		return 0;
	if (*line == '[') {
		n = strlen(line);
		if (line[n - 1] != ']') {
			conf_error(at, "section header without ']'");
			return -EINVAL;
		}
		line[n - 1] = '\0';
		line = conf_trim(line + 1);
		if (!conf_section_known(line)) {
			conf_error(at, "unknown section [%s] (general, file, ldap, nis, nfs, sss)", line);
			return -EINVAL;
		}
		snprintf(section, section_len, "%s", line);
		return 0;
	}
	eq = strchr(line, '=');
	if (!eq) {
		conf_error(at, "expected 'key = value', got '%.40s'", line);
		return -EINVAL;
	}
	*eq = '\0';
	key = conf_trim(line);
	val = conf_trim(eq + 1);
	if (!*key) {
		conf_error(at, "empty key before '='");
		return -EINVAL;
	}
	n = strlen(val);
	if (n >= 2 && val[0] == '"' && val[n - 1] == '"') {
		val[n - 1] = '\0';
		val++;
	}
	if (!section[0]) {
		conf_error(at, "'%s' outside of any section (start with [general])", key);
		return -EINVAL;
	}
	if (!strcmp(section, "general")) {
		int err = conf_general(conf, at, key, val);

		if (err)
			return err;
	}
	return conf_remember(conf, section, key, val);
}

int am_conf_parse(struct am_conf *conf, const char *origin, const char *text)
{
	struct conf_line at = { .origin = origin, .line = 0 };
	char section[64] = "";
	const char *p = text, *nl;
	char *line;
	int err, ret = 0;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		at.line++;
		line = am_strndup(p, (size_t)(nl - p));
		if (!line)
			return -ENOMEM;
		if (strlen(line) != (size_t)(nl - p)) {
			conf_error(&at, "NUL byte in line");
			err = -EINVAL;
		} else {
			err = conf_line(conf, &at, line, section, sizeof(section));
		}
		free(line);
		if (err == -ENOMEM)
			return err;
		if (err)
			ret = err;
		p = *nl ? nl + 1 : nl;
	}
	return ret;
}

const char *am_conf_read_why(int err)
{
	return err == -EFBIG ? "larger than 1 MiB" : strerror(-err);
}

int am_conf_load(struct am_conf *conf, const char *path)
{
	bool explicit = true;
	char *text;
	size_t len;
	int err;

	am_conf_defaults(conf);
	if (!path)
		path = getenv("AUTOFS_AGENT_CONF");
	if (!path || !*path) {
		path = AM_CONF_DEFAULT;
		explicit = false;
	}
	err = am_read_file(path, AM_CONF_MAX_BYTES, &text, &len);
	if (err == -ENOENT && !explicit)
		return 0;
	if (err) {
		am_log(LOG_ERR, "%s: cannot read configuration: %s", path,
		       am_conf_read_why(err));
		return err == -ENOMEM ? err : -EINVAL;
	}
	if (strlen(text) != len) {
		am_log(LOG_ERR, "%s: contains a NUL byte", path);
		free(text);
		return -EINVAL;
	}
	err = am_conf_parse(conf, path, text);
	free(text);
	return err;
}
