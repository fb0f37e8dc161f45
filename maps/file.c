// SPDX-License-Identifier: GPL-2.0
/*
 * The file map backend: a sun-format map file.  It only finds the record for
 * a key (or all of them); "+map" lines are handed back to the agent, which
 * looks in the included map through its own source order.  A lookup asks
 * the map's index (file_index.c) first and reads the map to the key only
 * when there is no usable index of this version of the map, then writes one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "am_maptext.h"
#include "am_module.h"
#include "am_rundir.h"
#include "am_util.h"
#include "file_index.h"

#define FILE_MAP_MAX		(256UL << 20)
#define FILE_INDEX_DIR		"/run/autofsng/index"

enum file_ix_state { FILE_IX_UNTRIED, FILE_IX_OPEN, FILE_IX_NONE };

struct am_map {
	char *fm_path;
	int fm_fd;
	char *fm_text;			/* the whole file, read on first need */
	size_t fm_len;
	bool fm_loaded;
	bool fm_stable;			/* fm_text is the file of identity fm_st */
	struct stat fm_st;
	const struct am_host *fm_host;
	enum file_ix_state fm_ixstate;
	bool fm_ixbuilt;		/* this process wrote the index already */
	struct am_fidx *fm_ix;
};

static void file_warn(void *arg, unsigned int line, const char *msg)
{
	struct am_map *map = arg;

	map->fm_host->ah_log(map->fm_host->ah_ctx, LOG_WARNING, "%s:%u: %s",
			     map->fm_path, line, msg);
}

static bool file_same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * The map is read, not mapped: a map file truncated or rewritten in place
 * while a lookup walked a mapping of it killed the agent with SIGBUS.
 * Returns: 0, -EFBIG, -ENOMEM, -errno.
 */
static int file_read(struct am_map *map)
{
	struct stat after;
	int err;

	if (fstat(map->fm_fd, &map->fm_st))
		return -errno;
	err = am_read_fd(map->fm_fd, FILE_MAP_MAX, &map->fm_text, &map->fm_len);
	if (err)
		return err;
	/* an index is only made of a map that did not change while read */
	map->fm_stable = S_ISREG(map->fm_st.st_mode) && !fstat(map->fm_fd, &after) &&
			 file_same_stat(&map->fm_st, &after) &&
			 (size_t)after.st_size == map->fm_len;
	return 0;
}

static const char *file_err(int err)
{
	return err == -EFBIG ? "larger than 256 MiB" : strerror(-err);
}

/* The whole map in memory, once.  Returns: 0, -EAGAIN (logged), -ENOMEM. */
static int file_load(struct am_map *map)
{
	int err;

	if (map->fm_loaded)
		return 0;
	err = file_read(map);
	if (err) {
		map->fm_host->ah_log(map->fm_host->ah_ctx, LOG_ERR, "%s: cannot read map: %s",
				     map->fm_path, file_err(err));
		return err == -ENOMEM ? err : -EAGAIN;
	}
	map->fm_loaded = true;
	return 0;
}

static int file_open(struct am_map **mapp, const struct am_map_args *args)
{
	const struct am_host *h = args->ma_host;
	struct am_map *map;
	struct stat st;
	int fd, err = 0;

	fd = open(args->ma_name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		err = -errno;
	else if (fstat(fd, &st))
		err = -errno;
	else if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > FILE_MAP_MAX)
		err = -EFBIG;
	if (err) {
		if (err != -ENOENT)
			h->ah_log(h->ah_ctx, LOG_ERR, "%s: cannot read map: %s",
				  args->ma_name, file_err(err));
		if (fd >= 0)
			close(fd);
		/* a map that exists but cannot be read: source unavailable */
		return err == -ENOENT ? err : -EAGAIN;
	}
	map = calloc(1, sizeof(*map));
	if (map)
		map->fm_path = strdup(args->ma_name);
	if (!map || !map->fm_path) {
		free(map);
		close(fd);
		return -ENOMEM;
	}
	map->fm_fd = fd;
	map->fm_host = h;
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

/* The scan: records in order, includes asked where they stand. */
static int file_scan_lookup(struct am_map *map, const char *key, char **entry)
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

/* ---- the index (maps/README.md) --------------------------------------------- */

/* Returns: the index directory, or NULL when indexes are off or not allowed here. */
static const char *file_index_dir(const struct am_map *map, mode_t mode)
{
	const struct am_host *h = map->fm_host;
	const char *dir = h->ah_conf_get(h->ah_ctx, "file", "index_dir");

	if (!dir || !*dir)
		dir = FILE_INDEX_DIR;
	if (!strcmp(dir, "none") || !S_ISREG(mode))
		return NULL;
	return dir;
}

/*
 * The index directory, made when CREATE and missing.  Root's agent uses the
 * default one; a user's `autofs test` only one of its own (index_dir).
 * Returns: a directory fd, or -errno after logging why not.
 */
static int file_index_dir_open(struct am_map *map, const char *dir, bool create)
{
	const struct am_host *h = map->fm_host;
	char why[256];
	int fd;

	fd = am_rundir_open(dir, create, why, sizeof(why));
	if (fd == -EPERM && !geteuid())
		h->ah_log(h->ah_ctx, LOG_WARNING, "map %s: index directory %s not used: %s",
			  map->fm_path, dir, why);
	else if (fd < 0 && fd != -ENOENT)
		h->ah_log(h->ah_ctx, LOG_DEBUG, "map %s: index directory %s: %s",
			  map->fm_path, dir, why);
	return fd;
}

/* Open the map's index once per process.  Returns: true when it can be used. */
static bool file_index_ready(struct am_map *map)
{
	const struct am_host *h = map->fm_host;
	const char *dir;
	struct stat st;
	char name[32];
	int dirfd, fd, err;

	if (map->fm_ixstate != FILE_IX_UNTRIED)
		return map->fm_ixstate == FILE_IX_OPEN;
	map->fm_ixstate = FILE_IX_NONE;
	if (fstat(map->fm_fd, &st))
		return false;
	dir = file_index_dir(map, st.st_mode);
	dirfd = dir ? file_index_dir_open(map, dir, false) : -ENOENT;
	if (dirfd < 0)
		return false;
	am_fidx_name(map->fm_path, name, sizeof(name));
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dirfd);
	err = fd < 0 ? -errno : am_fidx_open(&map->fm_ix, fd, map->fm_fd);
	if (err == 1)
		map->fm_ixbuilt = true;	/* good, and says "scan" */
	else if (err == -EBADMSG)
		h->ah_log(h->ah_ctx, LOG_WARNING, "map %s: index %s is damaged, rebuilt",
			  map->fm_path, name);
	else if (err < 0)
		h->ah_log(h->ah_ctx, LOG_DEBUG, "map %s: index %s: %s", map->fm_path, name,
			  err == -ESTALE ? "made for another version of the map" : strerror(-err));
	if (!err)
		map->fm_ixstate = FILE_IX_OPEN;
	return !err;
}

/* am_rundir_publish()'s writer: the index of the map just read. */
static int file_index_emit(int fd, void *arg)
{
	struct am_map *map = arg;

	/* the scan just said what concerns this lookup: no warnings again */
	return am_fidx_write(fd, &map->fm_st, map->fm_text, map->fm_len, NULL, NULL);
}

/*
 * An index names a map by device, inode, size and both timestamps.  Two
 * writes within one tick of the timestamp clock (a few ms; 2 s on FAT)
 * leave the same timestamps, and a rewrite of the same size in place keeps
 * the rest: an index made between them would be taken for the second text.
 * So an index is only made of a map whose last change (ctime, which no one
 * can set back) is [file] index_settle seconds old, as git treats a
 * "racily clean" file; a younger map is scanned meanwhile.
 */
#define FILE_SETTLE_S 3

static bool file_settled(const struct am_map *map)
{
	const struct am_host *h = map->fm_host;
	const char *v = h->ah_conf_get(h->ah_ctx, "file", "index_settle");
	long settle = FILE_SETTLE_S;
	struct timespec now;
	char *end;

	if (v && *v) {
		settle = strtol(v, &end, 10);
		if (*end || settle < 0 || settle > 86400)
			settle = FILE_SETTLE_S;
	}
	if (clock_gettime(CLOCK_REALTIME, &now))
		return false;
	if (now.tv_sec - map->fm_st.st_ctim.tv_sec >= settle)
		return true;
	h->ah_log(h->ah_ctx, LOG_DEBUG, "map %s: changed less than %ld s ago, not indexed yet",
		  map->fm_path, settle);
	return false;
}

/* Index the map just read, once per process, when it may be. */
static void file_index_build(struct am_map *map)
{
	const struct am_host *h = map->fm_host;
	const char *dir = file_index_dir(map, map->fm_st.st_mode);
	long long t0 = am_now_ms();
	char name[32];
	int dirfd, err;

	if (map->fm_ixbuilt || !map->fm_stable || !dir || !file_settled(map))
		return;
	map->fm_ixbuilt = true;
	dirfd = file_index_dir_open(map, dir, true);
	if (dirfd < 0)
		return;
	am_fidx_name(map->fm_path, name, sizeof(name));
	err = am_rundir_publish(dirfd, name, file_index_emit, map);
	close(dirfd);
	if (err < 0)
		h->ah_log(h->ah_ctx, LOG_WARNING, "map %s: writing its index %s: %s",
			  map->fm_path, name, strerror(-err));
	else
		h->ah_log(h->ah_ctx, LOG_INFO, "map %s: index %s built in %lld ms%s",
			  map->fm_path, name, am_now_ms() - t0,
			  err ? " (it says: read the map, see autofs-maps(5))" : "");
	/* the next lookup in this process may use it */
	if (!err && map->fm_ixstate == FILE_IX_NONE)
		map->fm_ixstate = FILE_IX_UNTRIED;
}

/*
 * What the index says a scan would meet for KEY: its first record (*FOUND)
 * and the include records before it, all read again from the map and
 * checked.  Returns: 0, -EBADMSG, -ESTALE, -ENOMEM, -errno.
 */
static int file_index_plan(struct am_map *map, const char *key, struct am_fidx_rec *hit,
			   bool *found, struct am_fidx_rec *incl, uint32_t *nincl)
{
	struct am_fidx *ix = map->fm_ix;
	uint32_t i, n = am_fidx_nincl(ix);
	int err;

	*nincl = 0;
	err = am_fidx_find(ix, key, hit);
	*found = !err;
	if (err && err != -ENOENT)
		return err;
	for (i = 0, err = 0; !err && i < n; i++) {
		if (*found && am_fidx_incl_off(ix, i) > hit->fr_off)
			break;
		err = am_fidx_incl(ix, i, &incl[i]);
		if (!err)
			(*nincl)++;
	}
	/* nothing read may come from a map rewritten meanwhile */
	if (!err && !am_fidx_current(ix))
		err = -ESTALE;
	return err;
}

/* Answer as the scan does, from a checked plan.  Returns: as ->lookup. */
static int file_index_answer(struct am_map *map, const char *key, struct am_fidx_rec *hit,
			     bool found, struct am_fidx_rec *incl, uint32_t nincl, char **entry)
{
	uint32_t i;
	int ret;

	for (i = 0; i < nincl; i++) {
		ret = file_include_lookup(map, incl[i].fr_mt.mt_key.ab_s + 1, key, entry);
		if (ret != -ENOENT && ret != -EAGAIN && ret != -ELOOP)
			return ret;
	}
	if (!found)
		return -ENOENT;
	file_where(map, &hit->fr_mt);
	*entry = strdup(hit->fr_mt.mt_entry.ab_s);
	return *entry ? 0 : -ENOMEM;
}

/* Give up the index after a failed plan ERR.  Returns: 1 (scan). */
static int file_index_drop(struct am_map *map, int err)
{
	const struct am_host *h = map->fm_host;

	h->ah_log(h->ah_ctx, err == -ESTALE ? LOG_DEBUG : LOG_WARNING,
		  "map %s: index %s, rebuilt", map->fm_path,
		  err == -ESTALE ? "made for another version of the map" :
		  err == -EBADMSG ? "does not match the map" : strerror(-err));
	am_fidx_close(map->fm_ix);
	map->fm_ix = NULL;
	map->fm_ixstate = FILE_IX_NONE;
	return 1;
}

/* Returns: as ->lookup, or 1 when the index cannot answer (then scan). */
static int file_index_lookup(struct am_map *map, const char *key, char **entry)
{
	struct am_fidx_rec hit = { 0 }, *incl;
	uint32_t i, nincl = 0;
	bool found;
	int err;

	if (!file_index_ready(map))
		return 1;
	incl = calloc(am_fidx_nincl(map->fm_ix) + 1, sizeof(*incl));
	if (!incl)
		return -ENOMEM;
	err = file_index_plan(map, key, &hit, &found, incl, &nincl);
	if (!err)
		err = file_index_answer(map, key, &hit, found, incl, nincl, entry);
	else if (err != -ENOMEM)
		err = file_index_drop(map, err);
	for (i = 0; i < nincl; i++)
		am_fidx_rec_free(&incl[i]);
	free(incl);
	am_fidx_rec_free(&hit);
	return err;
}

static int file_lookup(struct am_map *map, const char *key, char **entry)
{
	int err;

	err = file_index_lookup(map, key, entry);
	if (err <= 0)
		return err;
	err = file_load(map);
	if (err)
		return err;
	err = file_scan_lookup(map, key, entry);
	file_index_build(map);
	return err;
}

static int file_enumerate(struct am_map *map, am_key_fn fn, void *arg)
{
	const struct am_host *h = map->fm_host;
	struct am_maptext mt;
	int ret;

	ret = file_load(map);
	if (ret)
		return ret;
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
	am_fidx_close(map->fm_ix);
	close(map->fm_fd);
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
