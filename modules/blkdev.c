// SPDX-License-Identifier: GPL-2.0
/*
 * Local devices for the generic module, as mount(8) reads them: a location
 * "LABEL=name", "UUID=id", "PARTUUID=id" or "PARTLABEL=name" is the device
 * that has it now (libblkid: udev's /dev/disk/by-* links, else a scan of
 * /proc/partitions), and fstype=auto is the filesystem libblkid finds on
 * the device.  Only map files name devices: the trust rule refuses a
 * location with '=' from any other source before a module runs.
 */
#include <blkid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_blkdev.h"

static const char *const blkdev_tags[] = { "LABEL", "UUID", "PARTUUID", "PARTLABEL", NULL };

size_t am_blkdev_tag(const char *spec)
{
	size_t i, n;

	for (i = 0; blkdev_tags[i]; i++) {
		n = strlen(blkdev_tags[i]);
		if (!strncmp(spec, blkdev_tags[i], n) && spec[n] == '=')
			return n;
	}
	return 0;
}

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
	size_t n = am_blkdev_tag(spec);

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

int am_blkdev_fstype(const char *dev, char *type, size_t len, char *err, size_t errlen)
{
	blkid_probe pr = blkid_new_probe_from_filename(dev);
	int ret;

	if (!pr) {
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "fstype=auto: cannot probe %s: %s", dev, strerror(-ret));
		return ret;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	ret = blkdev_probe_type(pr, dev, type, len, err, errlen);
	blkid_free_probe(pr);
	return ret;
}
