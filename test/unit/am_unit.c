// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for the agent core: each subcommand runs one layer on a file
 * and prints what it made of it, for comparison with a golden file.
 *
 *   am_unit parse MAP      every record: key, then the parsed entry or the error
 *   am_unit conf FILE      the configuration's values, or its errors
 *   am_unit master FILE    master map records and their options
 *   am_unit loader KIND NAME   load map_NAME.so / mount_NAME.so from $AUTOFS_AGENT_MODULE_DIR
 *   am_unit log FILE       each line of FILE as a refused key, then the whole
 *                          file, through the agent's log (escaping)
 *
 * Variables are fixed (HOST=testhost, USER=alice...) so the output does not
 * depend on the machine.  A line "#! options -rw,soft" in a map sets the
 * master map options for the records after it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "am_agent.h"
#include "am_maptext.h"
#include "am_master.h"
#include "am_sun.h"

static int fixed_vars(struct am_vars *v)
{
	static const char *const defs[] = {
		"ARCH=x86_64", "CPU=x86_64", "HOST=testhost.example.org",
		"SHOST=testhost", "DOMAIN=example.org", "OSNAME=Linux",
		"OSREL=6.1.0", "OSVERS=#1", "UID=1000", "GID=100", "USER=alice",
		"GROUP=users", "HOME=/home/alice", NULL,
	};
	int i, err = 0;

	for (i = 0; defs[i] && !err; i++)
		err = am_vars_define(v, defs[i]);
	return err;
}

static void warn_line(void *arg, unsigned int line, const char *msg)
{
	printf("%s:%u: %s\n", (const char *)arg, line, msg);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int parse_record(const char *key, const char *entry, const char *opts)
{
	struct am_vars vars = { 0 };
	struct am_mopts mo;
	struct am_entry e;
	struct am_buf b = { 0 };
	char why[256] = "", *text = NULL;
	size_t i;
	int err;

	printf("key %s\n", key);
	if (key[0] == '+' && !*entry) {
		printf("  include %s\n", key + 1);
		return 0;
	}
	err = am_mopts_parse(opts, &mo, why, sizeof(why));
	if (!err)
		err = fixed_vars(&vars);
	for (i = 0; !err && i < mo.mo_defines.av_n; i++)
		err = am_vars_set(&vars, mo.mo_defines.av_name[i], mo.mo_defines.av_value[i]);
	if (!err)
		err = am_sun_expand(entry, key, &vars, &text, why, sizeof(why));
	if (!err)
		err = am_sun_parse(text, mo.mo_mntopts, &e, why, sizeof(why));
	if (err) {
		printf("  error: %s\n", why);
	} else {
		printf("  %s\n", e.en_multi ? "multi-mount" : "single");
		am_entry_print(&e, &b);
		fputs(b.ab_s, stdout);
		am_entry_free(&e);
	}
	am_buf_free(&b);
	free(text);
	am_vars_free(&vars);
	am_mopts_free(&mo);
	return 0;
}

static int cmd_parse(const char *path)
{
	struct am_maptext mt;
	char *text, *opts = strdup(""), *line, *nl;
	size_t len;
	int ret, err;

	err = am_read_file(path, 64 << 20, &text, &len);
	if (err) {
		fprintf(stderr, "%s: %s\n", path, strerror(-err));
		return 1;
	}
	/* options directives apply from their line on: split the file at them */
	for (line = text; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strstr(line, "\n#! options");
		if (am_startswith(line, "#! options")) {
			char *end = strchr(line, '\n');

			free(opts);
			opts = am_strndup(line + 10, end ? (size_t)(end - line - 10) : strlen(line + 10));
			nl = end ? strstr(end, "\n#! options") : NULL;
			line = end ? end + 1 : line + strlen(line);
		}
		am_maptext_init(&mt, line, nl ? (size_t)(nl - line + 1) : strlen(line));
		mt.mt_warn = warn_line;
		mt.mt_arg = (void *)base(path);
		while ((ret = am_maptext_next(&mt)) > 0)
			parse_record(mt.mt_key.ab_s, mt.mt_entry.ab_s, opts);
		am_maptext_free(&mt);
	}
	free(opts);
	free(text);
	return 0;
}

/* The sources in order; a source's actions when they are not the default. */
static void print_sources(const struct am_conf *c)
{
	size_t i;
	int st;

	printf("sources");
	for (i = 0; i < c->cf_nsources; i++)
		printf(" %s", c->cf_sources[i]);
	printf("\n");
	for (i = 0; i < c->cf_nsources; i++) {
		if (c->cf_source_return[i] == AM_NSS_RETURN_DEFAULT)
			continue;
		printf("  after %s the search ends on:", c->cf_sources[i]);
		for (st = 0; st < AM_NSS_NSTATUS; st++)
			if (c->cf_source_return[i] & (1u << st))
				printf(" %s", am_nss_status_name(st));
		printf("%s\n", c->cf_source_return[i] ? "" : " (none: it goes on)");
	}
}

static int cmd_conf(const char *path)
{
	struct am_conf c;
	int err;

	err = am_conf_load(&c, path);
	if (!err)
		err = am_conf_nsswitch(&c, "/nonexistent");
	if (err) {
		printf("result %s\n", strerror(-err));
		am_conf_free(&c);
		return 0;
	}
	print_sources(&c);
	printf("master %s\ntimeout %u\nnegative_timeout %u\ncache_ttl %u\nbrowse %d\n",
	       c.cf_master ? c.cf_master : "(default)", c.cf_timeout,
	       c.cf_negative_timeout, c.cf_cache_ttl, c.cf_browse);
	printf("log_level %d\nlog_stderr %d\nmap_dir %s\nmodule_dir %s\n", c.cf_log_level,
	       c.cf_log_stderr, c.cf_map_dir ? c.cf_map_dir : "(default)",
	       c.cf_module_dir ? c.cf_module_dir : "(default)");
	printf("mount_timeout %u\nprogram_timeout %u\nprogram_max_output %zu\numount_wait %u\n",
	       c.cf_mount_timeout, c.cf_program_timeout, c.cf_program_max_output,
	       c.cf_umount_wait);
	printf("ldap.uri %s\n", am_conf_get(&c, "ldap", "uri") ?: "(unset)");
	am_conf_free(&c);
	return 0;
}

/* The sources of the automount line of nsswitch file PATH, with their actions. */
static int cmd_nsswitch(const char *path)
{
	struct am_conf c;
	int err;

	am_conf_defaults(&c);
	err = am_conf_nsswitch(&c, path);
	if (err)
		printf("result %s\n", strerror(-err));
	else
		print_sources(&c);
	am_conf_free(&c);
	return 0;
}

static int cmd_master(const char *path)
{
	struct am_master m = { 0 };
	struct am_maptext mt;
	struct am_mopts mo;
	char *text, why[256];
	size_t len, i;
	int err, k;

	err = am_read_file(path, 1 << 20, &text, &len);
	if (err)
		return 1;
	am_maptext_init(&mt, text, len);
	mt.mt_warn = warn_line;
	mt.mt_arg = (void *)base(path);
	while (am_maptext_next(&mt) > 0) {
		if (mt.mt_key.ab_s[0] == '+') {
			printf("include %s\n", mt.mt_key.ab_s + 1);
			continue;
		}
		err = am_master_add(&m, mt.mt_key.ab_s, mt.mt_entry.ab_s, "test", NULL, why,
				    sizeof(why));
		if (err == 1)
			printf("duplicate %s ignored\n", mt.mt_key.ab_s);
		else if (err)
			printf("error line %u: %s\n", mt.mt_recline, why);
	}
	am_maptext_free(&mt);
	free(text);
	for (i = 0; i < m.m_n; i++) {
		struct am_mapspec ms;

		printf("mount %s map %s\n", m.m_entries[i].me_path, m.m_entries[i].me_map);
		if (!am_mapspec_parse(m.m_entries[i].me_map, &ms)) {
			printf("  type %s format %s name %s\n", ms.ms_type ? ms.ms_type : "(sources)",
			       ms.ms_format ? ms.ms_format : "sun", ms.ms_name);
			am_mapspec_free(&ms);
		}
		err = am_mopts_parse(m.m_entries[i].me_options, &mo, why, sizeof(why));
		if (err) {
			printf("  options error: %s\n", why);
			continue;
		}
		printf("  timeout %d negative %d browse %d strictexpire %d mount-options %s\n",
		       mo.mo_timeout, mo.mo_negative_timeout, mo.mo_browse, mo.mo_strictexpire,
		       *mo.mo_mntopts ? mo.mo_mntopts : "-");
		if (mo.mo_unknown[0])
			printf("  unknown option %s ignored\n", mo.mo_unknown);
		if (mo.mo_propagation)
			printf("  bind propagation %s\n", mo.mo_propagation == MS_SLAVE ? "slave" :
			       mo.mo_propagation == MS_PRIVATE ? "private" : "shared");
		for (k = 0; k < mo.mo_argc; k++)
			printf("  argument %s\n", mo.mo_argv[k]);
		for (len = 0; len < mo.mo_defines.av_n; len++)
			printf("  define %s=%s\n", mo.mo_defines.av_name[len], mo.mo_defines.av_value[len]);
		am_mopts_free(&mo);
	}
	am_master_free(&m);
	return 0;
}

static int cmd_loader(const char *kind, const char *name)
{
	struct am_ctx ctx;
	const void *ops;
	int err;

	memset(&ctx, 0, sizeof(ctx));
	ctx.ac_modpath = getenv("AUTOFS_AGENT_MODULE_DIR");
	if (!ctx.ac_modpath)
		return 2;
	err = am_module_load(&ctx, !strcmp(kind, "map") ? AM_MODULE_MAP : AM_MODULE_MOUNT,
			     name, &ops);
	printf("load %s %s: %s\n", kind, name, err ? strerror(-err) : "ok");
	am_module_unload_all(&ctx);
	return 0;
}

/* What a key, map line or server answer with these bytes looks like in the log. */
static int cmd_log(const char *path)
{
	char *text, *line, *nl;
	unsigned int n = 0;
	size_t len;

	if (am_read_file(path, 1 << 20, &text, &len))
		return 1;
	for (line = text; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		am_log(LOG_NOTICE, "line %u: refused key '%.*s'", ++n, (int)(nl - line), line);
		if (!*nl)
			break;
	}
	am_log(LOG_NOTICE, "whole file: %s", text);
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	am_log_setup(LOG_INFO, true, false);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "parse"))
		return cmd_parse(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "conf"))
		return cmd_conf(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "master"))
		return cmd_master(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "nsswitch"))
		return cmd_nsswitch(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "log"))
		return cmd_log(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "loader"))
		return cmd_loader(argv[2], argv[3]);
	fprintf(stderr, "usage: am_unit parse|conf|master|nsswitch|log FILE | loader KIND NAME\n");
	return 2;
}
