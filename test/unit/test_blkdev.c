// SPDX-License-Identifier: GPL-2.0
/*
 * Device specifiers and fstype=auto of the generic module: which locations
 * are specifiers, which values are refused before libblkid is asked, and
 * what the probe refuses without opening it.  What it finds on real
 * devices is the guest's devices suite (loop devices).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "am_blkdev.h"
#include "am_util.h"
#include "check.h"

static void tags(void)
{
	CHECK(am_device_tag("LABEL=x") == 5, "LABEL=");
	CHECK(am_device_tag("UUID=x") == 4, "UUID=");
	CHECK(am_device_tag("PARTUUID=x") == 8, "PARTUUID=");
	CHECK(am_device_tag("PARTLABEL=x") == 9, "PARTLABEL=");
	CHECK(am_device_tag("TYPE=ext4") == 0, "TYPE= would pick any ext4 device");
	CHECK(am_device_tag("label=x") == 0, "mount(8) tags are upper case");
	CHECK(am_device_tag("LABELX=x") == 0, "LABELX=");
	CHECK(am_device_tag("/dev/sdb1") == 0, "a path");
	CHECK(am_device_tag("tmpfs") == 0, "a pseudo source");
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

/*
 * What the probe refuses before it opens anything: a FIFO (as a watchdog,
 * a tty or a tape would be, it is not a block device) is never opened,
 * which inotify would see; a regular file and a missing path fail too.
 */
static void not_block_devices(void)
{
	char dir[] = "/tmp/blkdev_test.XXXXXX", path[64], type[64], err[256];
	char buf[4096] __attribute__((aligned(8)));
	int in, ret;
	ssize_t n;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %m");
		return;
	}
	snprintf(path, sizeof(path), "%.40s/fifo", dir);
	CHECK(!mkfifo(path, 0600), "mkfifo: %m");
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	CHECK(in >= 0 && inotify_add_watch(in, path, IN_OPEN) >= 0, "inotify: %m");
	ret = am_blkdev_fstype(path, type, sizeof(type), err, sizeof(err));
	CHECK(ret == -ENOTBLK && strstr(err, "cannot probe"), "fifo: %d '%s'", ret, err);
	n = read(in, buf, sizeof(buf));
	CHECK(n < 0 && errno == EAGAIN, "the FIFO was opened (%zd bytes of events)", n);
	close(in);
	unlink(path);
	snprintf(path, sizeof(path), "%.40s/img", dir);
	CHECK(!close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)), "creat: %m");
	ret = am_blkdev_fstype(path, type, sizeof(type), err, sizeof(err));
	CHECK(ret == -ENOTBLK, "regular file: %d '%s'", ret, err);
	unlink(path);
	rmdir(dir);
	ret = am_blkdev_fstype("/nonexistent/dev", type, sizeof(type), err, sizeof(err));
	CHECK(ret == -ENOENT && strstr(err, "cannot probe /nonexistent/dev"), "missing: %d '%s'",
	      ret, err);
}

int main(void)
{
	tags();
	values();
	not_block_devices();
	return check_failures != 0;
}
