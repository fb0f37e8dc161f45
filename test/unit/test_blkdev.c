// SPDX-License-Identifier: GPL-2.0
/*
 * Device specifiers and fstype=auto of the generic module: which locations
 * are specifiers, which values are refused before libblkid is asked, and
 * what the probe says of an ext4, an ext2, a swap area and an empty image
 * (made here with mkfs; the probe reads regular files as it reads devices).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "am_blkdev.h"
#include "check.h"

static void tags(void)
{
	CHECK(am_blkdev_tag("LABEL=x") == 5, "LABEL=");
	CHECK(am_blkdev_tag("UUID=x") == 4, "UUID=");
	CHECK(am_blkdev_tag("PARTUUID=x") == 8, "PARTUUID=");
	CHECK(am_blkdev_tag("PARTLABEL=x") == 9, "PARTLABEL=");
	CHECK(am_blkdev_tag("TYPE=ext4") == 0, "TYPE= would pick any ext4 device");
	CHECK(am_blkdev_tag("label=x") == 0, "mount(8) tags are upper case");
	CHECK(am_blkdev_tag("LABELX=x") == 0, "LABELX=");
	CHECK(am_blkdev_tag("/dev/sdb1") == 0, "a path");
	CHECK(am_blkdev_tag("tmpfs") == 0, "a pseudo source");
}

static void refused(const char *spec)
{
	char err[256] = "", *dev = (char *)"unset";
	int ret = am_blkdev_resolve(spec, &dev, err, sizeof(err));

	CHECK(ret == -EINVAL, "'%s': %d, want -EINVAL", spec, ret);
	CHECK(!dev, "'%s': a device was given", spec);
	CHECK(strstr(err, "no usable value"), "'%s': says '%s'", spec, err);
}

static void values(void)
{
	char err[256], *dev = NULL;

	refused("LABEL=");
	refused("UUID=\"\"");
	refused("LABEL=a\nb");
	refused("LABEL=a\x7f");
	refused("LABEL=\"IMAGES");
	refused("LABEL=IMA\"GES\"");
	CHECK(!am_blkdev_resolve("/dev/sdb1", &dev, err, sizeof(err)) && dev &&
	      !strcmp(dev, "/dev/sdb1"), "a path is its own device");
	free(dev);
}

/* The probe of an image made by "CMD path" (a command ending at the path). */
static int probe(const char *dir, const char *cmd, char *type, char *err)
{
	char path[64], sh[320];

	snprintf(path, sizeof(path), "%.40s/img", dir);
	snprintf(sh, sizeof(sh), "rm -f %s && truncate -s 8M %s && %.60s %s >/dev/null",
		 path, path, cmd, path);
	if (system(sh)) {
		CHECK(0, "'%s' failed", sh);
		return -1;
	}
	type[0] = err[0] = '\0';
	return am_blkdev_fstype(path, type, 64, err, 256);
}

static void fstypes(void)
{
	char dir[] = "/tmp/blkdev_test.XXXXXX", type[64], err[256];
	int ret;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %m");
		return;
	}
	ret = probe(dir, "mkfs.ext4 -q -F", type, err);
	CHECK(!ret && !strcmp(type, "ext4"), "ext4: %d '%s' '%s'", ret, type, err);
	ret = probe(dir, "mkfs.ext2 -q -F", type, err);
	CHECK(!ret && !strcmp(type, "ext2"), "ext2: %d '%s' '%s'", ret, type, err);
	ret = probe(dir, "mkswap -q", type, err);
	CHECK(ret == -EINVAL && strstr(err, "holds swap (other), not a filesystem"),
	      "swap: %d '%s'", ret, err);
	ret = probe(dir, "true", type, err);
	CHECK(ret == -EINVAL && strstr(err, "no filesystem found on"), "empty: %d '%s'", ret, err);
	ret = am_blkdev_fstype("/nonexistent/dev", type, sizeof(type), err, sizeof(err));
	CHECK(ret == -ENOENT && strstr(err, "cannot probe /nonexistent/dev"), "missing: %d '%s'",
	      ret, err);
	snprintf(err, sizeof(err), "rm -rf %s", dir);
	if (system(err))
		CHECK(0, "cleanup of %s", dir);
}

int main(void)
{
	tags();
	values();
	if (system("command -v mkfs.ext4 mkfs.ext2 mkswap >/dev/null 2>&1")) {
		printf("SKIP: no mkfs.ext4, mkfs.ext2 or mkswap (e2fsprogs, util-linux)\n");
		return check_failures ? 1 : 77;
	}
	fstypes();
	return check_failures != 0;
}
