// SPDX-License-Identifier: GPL-2.0
/*
 * Option translation of the NFS module: what an administrator writes in a
 * map becomes exactly these fsconfig() parameters and mount attributes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "nfs_opts.h"
#include "check.h"


/* The parameters as "key=val,flag,..." for comparison. */
static void params_str(const struct nfs_opts *o, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < o->no_nparams && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s%s%s", i ? "," : "",
				 o->no_params[i].np_key,
				 o->no_params[i].np_val ? "=" : "",
				 o->no_params[i].np_val ? o->no_params[i].np_val : "");
}

static void expect(const char *in, const char *params, const char *vers,
		   unsigned int attr, bool ro)
{
	struct nfs_opts o;
	char buf[512], err[128];
	int ret = nfs_opts_parse(&o, in, err, sizeof(err));

	CHECK(ret == 0, "'%s': parse failed %d: %s", in, ret, err);
	if (ret)
		return;
	params_str(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, params), "'%s': params '%s', want '%s'", in, buf, params);
	CHECK(vers ? (o.no_vers && !strcmp(o.no_vers, vers)) : !o.no_vers,
	      "'%s': vers '%s', want '%s'", in, o.no_vers ? o.no_vers : "(none)",
	      vers ? vers : "(none)");
	CHECK(o.no_attr == attr, "'%s': attr %#x, want %#x", in, o.no_attr, attr);
	CHECK(o.no_ro == ro, "'%s': ro %d, want %d", in, o.no_ro, ro);
	nfs_opts_free(&o);
}

static void test_passthrough(void)
{
	expect(NULL, "", NULL, 0, false);
	expect("", "", NULL, 0, false);
	expect("soft,timeo=10,retrans=2", "soft,timeo=10,retrans=2", NULL, 0, false);
	expect("proto=tcp6,sec=krb5p,rsize=65536", "proto=tcp6,sec=krb5p,rsize=65536",
	       NULL, 0, false);
	expect("nolock,noac,actimeo=3", "nolock,noac,actimeo=3", NULL, 0, false);
	/* unknown options go to the kernel, which names them if it refuses */
	expect("frobnicate=7,zap", "frobnicate=7,zap", NULL, 0, false);
	expect(",,hard,,", "hard", NULL, 0, false);
}

static void test_versions(void)
{
	expect("vers=3", "", "3", 0, false);
	expect("nfsvers=4.1,hard", "hard", "4.1", 0, false);
	expect("vers=4,minorversion=2", "", "4.2", 0, false);
	expect("minorversion=1", "", "4.1", 0, false);
	expect("v3,soft", "soft", "3", 0, false);
	expect("v4.2", "", "4.2", 0, false);
	expect("vers=4.0,vers=3", "", "3", 0, false);	/* last one wins, as mount(8) */
	CHECK(nfs_vers_is_v4("4") && nfs_vers_is_v4("4.2") &&
	      !nfs_vers_is_v4("3") && !nfs_vers_is_v4("42") && !nfs_vers_is_v4(NULL),
	      "nfs_vers_is_v4");
}

static void test_attributes(void)
{
	expect("ro", "", NULL, MOUNT_ATTR_RDONLY, true);
	expect("ro,rw", "", NULL, 0, false);
	expect("nosuid,nodev,noexec", "", NULL,
	       MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC, false);
	expect("noatime,nodiratime", "", NULL,
	       MOUNT_ATTR_NOATIME | MOUNT_ATTR_NODIRATIME, false);
	expect("noatime,relatime", "", NULL, MOUNT_ATTR_RELATIME, false);
	expect("strictatime", "", NULL, MOUNT_ATTR_STRICTATIME, false);
	expect("sync,dirsync", "sync,dirsync", NULL, 0, false);
}

static void test_dropped(void)
{
	expect("defaults,bg,_netdev,nofail,x-systemd.automount,retry=3,soft",
	       "soft", NULL, 0, false);
	expect("fstype=nfs,rw,suid,dev,exec,async", "", NULL, 0, false);
}

static void test_module_options(void)
{
	struct nfs_opts o;
	char err[128];

	CHECK(!nfs_opts_parse(&o, "addr=10.0.0.1,port=2050,nobind", err, sizeof(err)),
	      "parse: %s", err);
	CHECK(o.no_addr && !strcmp(o.no_addr, "10.0.0.1"), "addr");
	CHECK(o.no_port && !strcmp(o.no_port, "2050"), "port kept for the module");
	CHECK(o.no_nparams == 1 && !strcmp(o.no_params[0].np_key, "port") &&
	      !strcmp(o.no_params[0].np_val, "2050"), "port= also goes to the kernel");
	CHECK(o.no_nobind, "nobind");
	nfs_opts_free(&o);
}

static void test_errors(void)
{
	struct nfs_opts o;
	char err[128];

	CHECK(nfs_opts_parse(&o, "vers=3,minorversion=1", err, sizeof(err)) == -EINVAL,
	      "vers=3 with minorversion must fail");
	CHECK(strstr(err, "minorversion=1") && strstr(err, "vers=3"),
	      "message names both options: '%s'", err);
	CHECK(o.no_nparams == 0 && !o.no_vers, "nothing left allocated");
}

int main(void)
{
	test_passthrough();
	test_versions();
	test_attributes();
	test_dropped();
	test_module_options();
	test_errors();
	if (check_failures)
		printf("%d failure(s)\n", check_failures);
	else
		printf("nfs_opts: all passed\n");
	return check_failures ? 1 : 0;
}
