// SPDX-License-Identifier: GPL-2.0
/*
 * The file map backend: a sun-format map file.  It only finds the record for
 * a key (or all of them); "+map" lines are handed back to the agent, which
 * looks in the included map through its own source order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "am_maptext.h"
#include "am_module.h"

#define FILE_MAP_MAX	(256UL << 20)

struct am_map {
	char *fm_path;
	char *fm_text;			/* the whole file, read at open */
	size_t fm_len;
	const struct am_host *fm_host;
};

/*
 * The map is read, not mapped: a map file truncated or rewritten in place
 * while a lookup walked a mapping of it killed the agent with SIGBUS.
 * Returns: 0, -EFBIG, -errno.
 */
static int file_load(struct am_map *map)
{
	return am_read_file(map->fm_path, FILE_MAP_MAX, &map->fm_text, &map->fm_len);
}

static void file_warn(void *arg, unsigned int line, const char *msg)
{
	struct am_map *map = arg;

	map->fm_host->ah_log(map->fm_host->ah_ctx, LOG_WARNING, "%s:%u: %s",
			     map->fm_path, line, msg);
}

static int file_open(struct am_map **mapp, const struct am_map_args *args)
{
	struct am_map *map;
	int err;

	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->fm_host = args->ma_host;
	map->fm_path = strdup(args->ma_name);
	if (!map->fm_path) {
		free(map);
		return -ENOMEM;
	}
	err = file_load(map);
	if (err) {
		if (err != -ENOENT)
			map->fm_host->ah_log(map->fm_host->ah_ctx, LOG_ERR,
					     "%s: cannot read map: %s", map->fm_path,
					     err == -EFBIG ? "larger than 256 MiB" : strerror(-err));
		free(map->fm_path);
		free(map);
		/* a map that exists but cannot be read: source unavailable */
		return err == -ENOENT || err == -ENOMEM ? err : -EAGAIN;
	}
	*mapp = map;
	return 0;
}

/* Tell the agent where the entry about to be returned stands. */
static void file_where(const struct am_map *map, const struct am_maptext *mt)
{
	const struct am_host *h = map->fm_host;

	if (AM_HOST_HAS(h, ah_where))
		h->ah_where(h->ah_ctx, map->fm_path, mt->mt_recline);
}

static bool file_is_include(const struct am_maptext *mt)
{
	return mt->mt_key.ab_s[0] == '+' && mt->mt_key.ab_s[1];
}

static int file_include_lookup(struct am_map *map, const char *name,
			       const char *key, char **entry)
{
	const struct am_host *h = map->fm_host;

	if (!AM_HOST_HAS(h, ah_include_lookup))
		return -ENOENT;
	return h->ah_include_lookup(h->ah_ctx, name, key, entry);
}

static int file_lookup(struct am_map *map, const char *key, char **entry)
{
	struct am_maptext mt;
	int ret, err = -ENOENT;

	am_maptext_init(&mt, map->fm_text, map->fm_len);
	mt.mt_warn = file_warn;
	mt.mt_arg = map;
	mt.mt_want = key;
	while ((ret = am_maptext_next(&mt)) > 0) {
		if (file_is_include(&mt)) {
			ret = file_include_lookup(map, mt.mt_key.ab_s + 1, key, entry);
			if (ret == -ENOENT || ret == -EAGAIN || ret == -ELOOP)
				continue;
			err = ret;
			break;
		}
		if (strcmp(mt.mt_key.ab_s, key))
			continue;
		file_where(map, &mt);
		*entry = strdup(mt.mt_entry.ab_s);
		err = *entry ? 0 : -ENOMEM;
		break;
	}
	if (ret < 0)
		err = ret;
	am_maptext_free(&mt);
	return err;
}

static int file_enumerate(struct am_map *map, am_key_fn fn, void *arg)
{
	const struct am_host *h = map->fm_host;
	struct am_maptext mt;
	int ret;

	am_maptext_init(&mt, map->fm_text, map->fm_len);
	mt.mt_warn = file_warn;
	mt.mt_arg = map;
	while ((ret = am_maptext_next(&mt)) > 0) {
		if (file_is_include(&mt)) {
			if (!AM_HOST_HAS(h, ah_include_enumerate))
				continue;
			ret = h->ah_include_enumerate(h->ah_ctx, mt.mt_key.ab_s + 1, fn, arg);
		} else {
			file_where(map, &mt);
			ret = fn(mt.mt_key.ab_s, mt.mt_entry.ab_s, arg);
		}
		if (ret)
			break;
	}
	am_maptext_free(&mt);
	return ret;
}

static void file_close(struct am_map *map)
{
	free(map->fm_text);
	free(map->fm_path);
	free(map);
}

AM_MAP_MODULE(file) = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "file",
	.open = file_open,
	.lookup = file_lookup,
	.enumerate = file_enumerate,
	.close = file_close,
};
