// SPDX-License-Identifier: GPL-2.0
/*
 * Local devices for the generic module, as mount(8) reads them: a location
 * "LABEL=name", "UUID=id", "PARTUUID=id" or "PARTLABEL=name" is the device
 * that has it now (libblkid: udev's /dev/disk/by-* links, else a scan of
 * /proc/partitions), and fstype=auto is the filesystem libblkid finds on
 * the device.  The probe opens only a block device (never a watchdog, a
 * tty or a tape that a path in a map might name), and a type it finds must
 * be one the kernel has loaded: a device's bytes do not choose which
 * filesystem module the kernel loads.  Only map files name devices: the
 * trust rule refuses a location with '=' and fstype=auto from any other
 * source before a module runs.
 */
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "am_blkdev.h"
#include "am_util.h"

/* A tag's value: not empty, no control character, quotes only around it. */
static bool blkdev_value_ok(const char *v)
{
	size_t n = strlen(v), i;

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	for (i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f || v[i] == '"' || v[i] == '\'')
			return false;
	return n > 0;
}

int am_blkdev_resolve(const char *spec, char **dev, char *err, size_t errlen)
{
	size_t n = am_device_tag(spec);

	*dev = NULL;
	if (!n) {
		*dev = strdup(spec);
		return *dev ? 0 : -ENOMEM;
	}
	if (!blkdev_value_ok(spec + n + 1)) {
		snprintf(err, errlen, "device specifier '%.80s' has no usable value", spec);
		return -EINVAL;
	}
	*dev = blkid_evaluate_tag(spec, NULL, NULL);
	if (!*dev) {
		snprintf(err, errlen, "no device has %.80s", spec);
		return -ENODEV;
	}
	return 0;
}

/* What the superblock probe of PR found: 0 and TYPE, or why not. */
static int blkdev_probe_type(blkid_probe pr, const char *dev, char *type, size_t len,
			     char *err, size_t errlen)
{
	const char *t = NULL, *usage = NULL;
	int rc = blkid_do_safeprobe(pr);

	if (rc == -2) {
		snprintf(err, errlen, "%s holds more than one filesystem signature", dev);
		return -EINVAL;
	}
	if (rc || blkid_probe_lookup_value(pr, "TYPE", &t, NULL) || !t) {
		snprintf(err, errlen, "no filesystem found on %s", dev);
		return -EINVAL;
	}
	if (!blkid_probe_lookup_value(pr, "USAGE", &usage, NULL) && strcmp(usage, "filesystem")) {
		snprintf(err, errlen, "%s holds %s (%s), not a filesystem", dev, t, usage);
		return -EINVAL;
	}
	if (strlen(t) >= len) {
		snprintf(err, errlen, "%s: filesystem type name too long", dev);
		return -EINVAL;
	}
	strcpy(type, t);
	return 0;
}

/*
 * DEV opened for probing, if it is a block device: looked up with O_PATH
 * first, so that a character device (a watchdog, a tty, a tape) or a FIFO
 * is never opened.  Returns: the fd, -ENOTBLK, -errno.
 */
static int blkdev_open(const char *dev)
{
	char proc[64];
	struct stat st, st2;
	int pfd, fd;

	pfd = open(dev, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st) || !S_ISBLK(st.st_mode)) {
		close(pfd);
		return -ENOTBLK;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	fd = fd < 0 ? -errno : fd;
	close(pfd);
	if (fd >= 0 && (fstat(fd, &st2) || st2.st_rdev != st.st_rdev)) {
		close(fd);
		fd = -ENOTBLK;
	}
	return fd;
}

/* Whether this kernel has filesystem TYPE now (/proc/filesystems). */
static bool blkdev_fs_loaded(const char *type)
{
	char line[128], *name;
	bool found = false;
	FILE *f = fopen("/proc/filesystems", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		name = strchr(line, '\t');
		found = name && !strcmp(name + 1, type);
	}
	fclose(f);
	return found;
}

int am_blkdev_fstype(const char *dev, char *type, size_t len, char *err, size_t errlen)
{
	blkid_probe pr;
	int fd = blkdev_open(dev), ret;

	if (fd < 0) {
		snprintf(err, errlen, "fstype=auto: cannot probe %s: %s", dev, strerror(-fd));
		return fd;
	}
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		snprintf(err, errlen, "fstype=auto: cannot probe %s", dev);
		ret = -ENOMEM;
	} else {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
		ret = blkdev_probe_type(pr, dev, type, len, err, errlen);
	}
	if (!ret && !blkdev_fs_loaded(type)) {
		snprintf(err, errlen, "fstype=auto: %s holds %s, which this kernel has not "
			 "loaded (the entry may say fstype=%s)", dev, type, type);
		ret = -ENODEV;
	}
	blkid_free_probe(pr);
	close(fd);
	return ret;
}
