// SPDX-License-Identifier: GPL-2.0
/*
 * The index of a file map: a header naming the map version (device, inode,
 * size, mtime and ctime with nanoseconds), the include records in map
 * order, then an open-addressing hash table of the first record of every
 * key.  Written once to a private file and renamed into place; read with
 * pread, a few slots at a time, never mapped: a file that shrinks under a
 * mapping kills the reader.
 *
 * Every field read is checked: the header by magic, version, sizes and a
 * hash of its bytes, each slot by a hash of its fields, its number and the
 * index's seed, each offset against the map's size; the record a slot
 * points at is read from the map and must be one whole record whose key
 * hashes to the slot's tag.  A 64-bit seed drawn when the index is built
 * keys the hash, so a map's keys cannot be chosen to collide.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "am_util.h"
#include "file_index.h"

#define FIDX_MAGIC	"AMFIDX\r\n"
#define FIDX_VERSION	1
#define FIDX_WINDOW	8		/* slots read at once */
/*
 * The map has lines a scan skips with a warning (too long, NUL byte): a
 * lookup scans this version so that the lookups it concerns still say so.
 */
#define FIDX_SCAN_ONLY	1

struct fidx_head {
	char fh_magic[8];		/* FIDX_MAGIC */
	uint32_t fh_version;		/* FIDX_VERSION */
	uint32_t fh_head_size;		/* sizeof(struct fidx_head) */
	uint64_t fh_dev, fh_ino, fh_size; /* the map's identity ... */
	int64_t fh_mtime_sec, fh_ctime_sec;
	uint32_t fh_mtime_nsec, fh_ctime_nsec; /* ... with nanoseconds */
	uint64_t fh_seed;		/* keys every hash of this index */
	uint32_t fh_nslots;		/* hash table size */
	uint32_t fh_nkeys;		/* slots in use */
	uint32_t fh_nincl;		/* include records, before the table */
	uint32_t fh_maxprobe;		/* longest probe sequence of a key */
	uint32_t fh_flags;		/* FIDX_SCAN_ONLY */
	uint32_t fh_reserved;		/* 0 */
	uint64_t fh_check;		/* am_hash64(0) of the bytes above */
};

/* An include record or a hash table slot; fs_len 0 is an empty slot. */
struct fidx_slot {
	uint32_t fs_off;		/* the record's first byte in the map */
	uint32_t fs_len;		/* its bytes, through its newline */
	uint32_t fs_line;		/* its first line */
	uint32_t fs_tag;		/* high half of its key's hash */
	uint32_t fs_check;		/* fidx_slot_check() */
};

_Static_assert(sizeof(struct fidx_head) == 104, "index header layout");
_Static_assert(sizeof(struct fidx_slot) == 20, "index slot layout");

struct am_fidx {
	int fx_fd, fx_mapfd;
	struct fidx_head fx_head;
	struct fidx_slot *fx_incl;
	struct fidx_slot fx_win[FIDX_WINDOW];	/* slots fx_winpos... */
	uint32_t fx_winpos, fx_winlen;
};

static uint32_t fidx_slot_check(uint64_t seed, uint64_t nr, const struct fidx_slot *s)
{
	return (uint32_t)am_hash64(seed ^ am_hash_mix(nr + 1), s, offsetof(struct fidx_slot, fs_check));
}

/* The slot where a hash's probe starts: its low half scaled to the table. */
static uint32_t fidx_start(uint64_t h, uint32_t nslots)
{
	return (uint32_t)(((h & 0xffffffffULL) * nslots) >> 32);
}

void am_fidx_name(const char *path, char *name, size_t len)
{
	snprintf(name, len, "%016" PRIx64 ".idx", am_hash64(0, path, strlen(path)));
}

static void fidx_identity(struct fidx_head *h, const struct stat *st)
{
	h->fh_dev = st->st_dev;
	h->fh_ino = st->st_ino;
	h->fh_size = (uint64_t)st->st_size;
	h->fh_mtime_sec = st->st_mtim.tv_sec;
	h->fh_mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	h->fh_ctime_sec = st->st_ctim.tv_sec;
	h->fh_ctime_nsec = (uint32_t)st->st_ctim.tv_nsec;
}

static bool fidx_same_map(const struct fidx_head *h, const struct stat *st)
{
	struct fidx_head now = *h;

	fidx_identity(&now, st);
	return !memcmp(&now, h, sizeof(now));
}

/* ---- records -------------------------------------------------------------- */

void am_fidx_rec_free(struct am_fidx_rec *rec)
{
	am_maptext_free(&rec->fr_mt);
	free(rec->fr_buf);
	memset(rec, 0, sizeof(*rec));
}

/*
 * REC's bytes (fr_buf, fr_len) must be exactly one record starting on
 * fr_line, as a full read of the map finds it.  Returns: 0, -EBADMSG, -ENOMEM.
 */
static int fidx_rec_parse(struct am_fidx_rec *rec)
{
	struct am_maptext *mt = &rec->fr_mt;
	int ret;

	am_maptext_init(mt, rec->fr_buf, rec->fr_len);
	mt->mt_line = rec->fr_line;
	ret = am_maptext_next(mt);
	if (ret < 0)
		return ret;
	if (!ret || mt->mt_rec != rec->fr_buf || mt->mt_p != mt->mt_end)
		return -EBADMSG;
	return 0;
}

/* Read slot S's record from the map.  Returns: 0, -EBADMSG, -ENOMEM, -errno. */
static int fidx_rec_read(const struct am_fidx *ix, const struct fidx_slot *s,
			 struct am_fidx_rec *rec)
{
	size_t done = 0;
	ssize_t n;

	memset(rec, 0, sizeof(*rec));
	rec->fr_off = s->fs_off;
	rec->fr_len = s->fs_len;
	rec->fr_line = s->fs_line;
	rec->fr_buf = malloc(s->fs_len);
	if (!rec->fr_buf)
		return -ENOMEM;
	while (done < s->fs_len) {
		n = pread(ix->fx_mapfd, rec->fr_buf + done, s->fs_len - done,
			  (off_t)s->fs_off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EBADMSG;
		done += (size_t)n;
	}
	return fidx_rec_parse(rec);
}

/* A slot in use must lie in the map and pass its check. */
static bool fidx_slot_ok(const struct am_fidx *ix, uint64_t nr, const struct fidx_slot *s)
{
	const struct fidx_head *h = &ix->fx_head;

	if (s->fs_check != fidx_slot_check(h->fh_seed, nr, s))
		return false;
	if (!s->fs_len)
		return !s->fs_off && !s->fs_line && !s->fs_tag;
	return s->fs_len <= AM_FIDX_MAX_RECORD && s->fs_line &&
	       (uint64_t)s->fs_off + s->fs_len <= h->fh_size;
}

/* ---- reading -------------------------------------------------------------- */

/* Header and file checks that need no map.  Returns: 0, -EBADMSG, -errno. */
static int fidx_head_check(const struct am_fidx *ix, const struct stat *st)
{
	const struct fidx_head *h = &ix->fx_head;
	uint64_t want;

	if (memcmp(h->fh_magic, FIDX_MAGIC, sizeof(h->fh_magic)) ||
	    h->fh_version != FIDX_VERSION || h->fh_head_size != sizeof(*h) ||
	    h->fh_check != am_hash64(0, h, offsetof(struct fidx_head, fh_check)))
		return -EBADMSG;
	if (!h->fh_nslots || h->fh_nslots > AM_FIDX_MAX_LINES + AM_FIDX_MAX_LINES / 2 + 1 ||
	    h->fh_nkeys > h->fh_nslots || h->fh_nincl > AM_FIDX_MAX_INCL ||
	    h->fh_maxprobe >= h->fh_nslots || (h->fh_flags & ~FIDX_SCAN_ONLY) || h->fh_reserved)
		return -EBADMSG;
	want = sizeof(*h) + ((uint64_t)h->fh_nincl + h->fh_nslots) * sizeof(struct fidx_slot);
	return (uint64_t)st->st_size == want ? 0 : -EBADMSG;
}

/* The include records, checked and in map order.  Returns: 0, -EBADMSG, -errno. */
static int fidx_incl_load(struct am_fidx *ix)
{
	uint32_t i, n = ix->fx_head.fh_nincl;
	const struct fidx_slot *s;
	int err;

	if (!n)
		return 0;
	ix->fx_incl = calloc(n, sizeof(*ix->fx_incl));
	if (!ix->fx_incl)
		return -ENOMEM;
	err = am_pread_full(ix->fx_fd, ix->fx_incl, n * sizeof(*ix->fx_incl),
			 sizeof(ix->fx_head));
	for (i = 0; !err && i < n; i++) {
		s = &ix->fx_incl[i];
		if (!s->fs_len || !fidx_slot_ok(ix, (uint64_t)ix->fx_head.fh_nslots + i, s) ||
		    (i && s->fs_off <= ix->fx_incl[i - 1].fs_off))
			err = -EBADMSG;
	}
	return err;
}

int am_fidx_open(struct am_fidx **ixp, int ixfd, int mapfd)
{
	struct am_fidx *ix;
	struct stat st, map;
	int err;

	ix = calloc(1, sizeof(*ix));
	if (!ix) {
		close(ixfd);
		return -ENOMEM;
	}
	ix->fx_fd = ixfd;
	ix->fx_mapfd = mapfd;
	ix->fx_winlen = 0;
	if (fstat(ixfd, &st) || fstat(mapfd, &map)) {
		err = -errno;
		goto fail;
	}
	/* written by this user alone, for this user alone */
	err = -EBADMSG;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		goto fail;
	err = am_pread_full(ixfd, &ix->fx_head, sizeof(ix->fx_head), 0);
	if (!err)
		err = fidx_head_check(ix, &st);
	if (!err && !fidx_same_map(&ix->fx_head, &map))
		err = -ESTALE;
	if (!err)
		err = fidx_incl_load(ix);
	if (!err && (ix->fx_head.fh_flags & FIDX_SCAN_ONLY))
		err = 1;
	if (err)
		goto fail;
	*ixp = ix;
	return 0;
fail:
	am_fidx_close(ix);
	return err;
}

void am_fidx_close(struct am_fidx *ix)
{
	if (!ix)
		return;
	close(ix->fx_fd);
	free(ix->fx_incl);
	free(ix);
}

bool am_fidx_current(const struct am_fidx *ix)
{
	struct stat map;

	return !fstat(ix->fx_mapfd, &map) && fidx_same_map(&ix->fx_head, &map);
}

uint32_t am_fidx_nincl(const struct am_fidx *ix)
{
	return ix->fx_head.fh_nincl;
}

uint32_t am_fidx_incl_off(const struct am_fidx *ix, uint32_t i)
{
	return i < ix->fx_head.fh_nincl ? ix->fx_incl[i].fs_off : UINT32_MAX;
}

int am_fidx_incl(struct am_fidx *ix, uint32_t i, struct am_fidx_rec *rec)
{
	const char *key;
	int err;

	if (i >= ix->fx_head.fh_nincl)
		return -EINVAL;
	err = fidx_rec_read(ix, &ix->fx_incl[i], rec);
	key = rec->fr_mt.mt_key.ab_s;
	if (!err && !(key && key[0] == '+' && key[1]))
		err = -EBADMSG;
	if (err)
		am_fidx_rec_free(rec);
	return err;
}

/* Slot NR of the table, read a window at a time.  Returns: 0, -EBADMSG, -errno. */
static int fidx_slot_get(struct am_fidx *ix, uint32_t nr, struct fidx_slot *s)
{
	const struct fidx_head *h = &ix->fx_head;
	uint32_t n;
	int err;

	if (nr < ix->fx_winpos || nr >= ix->fx_winpos + ix->fx_winlen) {
		n = h->fh_nslots - nr < FIDX_WINDOW ? h->fh_nslots - nr : FIDX_WINDOW;
		err = am_pread_full(ix->fx_fd, ix->fx_win, n * sizeof(*s),
				 (off_t)(sizeof(*h) + ((uint64_t)h->fh_nincl + nr) * sizeof(*s)));
		if (err) {
			ix->fx_winlen = 0;
			return err;
		}
		ix->fx_winpos = nr;
		ix->fx_winlen = n;
	}
	*s = ix->fx_win[nr - ix->fx_winpos];
	return fidx_slot_ok(ix, nr, s) ? 0 : -EBADMSG;
}

/* Slot S has KEY's tag: is its record KEY's?  Returns: 1 yes, 0 no, -errno. */
static int fidx_probe_rec(struct am_fidx *ix, const struct fidx_slot *s, const char *key,
			  struct am_fidx_rec *rec)
{
	const struct am_buf *k;
	int err;

	err = fidx_rec_read(ix, s, rec);
	k = &rec->fr_mt.mt_key;
	/* an include is never in the table, and the key must hash to the tag */
	if (!err && ((k->ab_s[0] == '+' && k->ab_s[1]) ||
		     am_hash64(ix->fx_head.fh_seed, k->ab_s, k->ab_len) >> 32 != s->fs_tag))
		err = -EBADMSG;
	if (!err && !strcmp(k->ab_s, key))
		return 1;
	am_fidx_rec_free(rec);
	return err;
}

int am_fidx_find(struct am_fidx *ix, const char *key, struct am_fidx_rec *rec)
{
	const struct fidx_head *h = &ix->fx_head;
	uint64_t hash = am_hash64(h->fh_seed, key, strlen(key));
	uint32_t i, nr = fidx_start(hash, h->fh_nslots);
	struct fidx_slot s;
	int err;

	for (i = 0; i <= h->fh_maxprobe; i++, nr = nr + 1 == h->fh_nslots ? 0 : nr + 1) {
		err = fidx_slot_get(ix, nr, &s);
		if (err)
			return err;
		if (!s.fs_len)
			return -ENOENT;
		if (s.fs_tag != (uint32_t)(hash >> 32))
			continue;
		err = fidx_probe_rec(ix, &s, key, rec);
		if (err)
			return err < 0 ? err : 0;
	}
	return -ENOENT;
}

/* ---- building ------------------------------------------------------------- */

struct fidx_build {
	const char *fb_text;
	void (*fb_warn)(void *arg, unsigned int line, const char *msg);
	void *fb_arg;
	bool fb_skipped;		/* a line was skipped with a warning */
	struct fidx_head fb_head;
	struct fidx_slot *fb_slots;
	uint64_t *fb_hash;		/* full hash of each slot's key */
	struct fidx_slot fb_incl[AM_FIDX_MAX_INCL];
};

/* Is the record in slot S the key K (a duplicate)?  Returns: 1, 0, -ENOMEM. */
static int fidx_build_same(const struct fidx_build *fb, const struct fidx_slot *s,
			   const struct am_buf *k)
{
	struct am_fidx_rec rec = {
		.fr_off = s->fs_off, .fr_len = s->fs_len, .fr_line = s->fs_line,
	};
	int ret;

	rec.fr_buf = malloc(s->fs_len);
	if (!rec.fr_buf)
		return -ENOMEM;
	memcpy(rec.fr_buf, fb->fb_text + s->fs_off, s->fs_len);
	ret = fidx_rec_parse(&rec);
	if (!ret)
		ret = !strcmp(rec.fr_mt.mt_key.ab_s, k->ab_s);
	am_fidx_rec_free(&rec);
	return ret == -EBADMSG ? 0 : ret;
}

/* Put the record in S under key K, unless K has one already.  Returns: 0, -ENOMEM. */
static int fidx_build_insert(struct fidx_build *fb, struct fidx_slot *s, const struct am_buf *k)
{
	struct fidx_head *h = &fb->fb_head;
	uint64_t hash = am_hash64(h->fh_seed, k->ab_s, k->ab_len);
	uint32_t i, nr = fidx_start(hash, h->fh_nslots);
	int same;

	for (i = 0; fb->fb_slots[nr].fs_len; i++, nr = nr + 1 == h->fh_nslots ? 0 : nr + 1) {
		if (fb->fb_hash[nr] != hash)
			continue;
		same = fidx_build_same(fb, &fb->fb_slots[nr], k);
		if (same)
			return same < 0 ? same : 0;	/* the first record wins */
	}
	s->fs_tag = (uint32_t)(hash >> 32);
	fb->fb_slots[nr] = *s;
	fb->fb_hash[nr] = hash;
	h->fh_nkeys++;
	if (i > h->fh_maxprobe)
		h->fh_maxprobe = i;
	return 0;
}

static void fidx_build_warn(void *arg, unsigned int line, const char *msg)
{
	struct fidx_build *fb = arg;

	fb->fb_skipped = true;
	if (fb->fb_warn)
		fb->fb_warn(fb->fb_arg, line, msg);
}

/* Every record of the map into FB.  Returns: 0, -EFBIG, -ENOMEM. */
static int fidx_build_scan(struct fidx_build *fb, size_t len)
{
	struct am_maptext mt;
	struct fidx_slot s;
	const char *key;
	int ret;

	am_maptext_init(&mt, fb->fb_text, len);
	mt.mt_warn = fidx_build_warn;
	mt.mt_arg = fb;
	while ((ret = am_maptext_next(&mt)) > 0 && !fb->fb_skipped) {
		memset(&s, 0, sizeof(s));
		s.fs_off = (uint32_t)(mt.mt_rec - fb->fb_text);
		s.fs_len = (uint32_t)(mt.mt_p - mt.mt_rec);
		s.fs_line = mt.mt_recline;
		key = mt.mt_key.ab_s;
		if (s.fs_len > AM_FIDX_MAX_RECORD) {
			ret = -EFBIG;
			break;
		}
		if (key[0] == '+' && key[1]) {
			if (fb->fb_head.fh_nincl == AM_FIDX_MAX_INCL) {
				ret = -EFBIG;
				break;
			}
			fb->fb_incl[fb->fb_head.fh_nincl++] = s;
			continue;
		}
		ret = fidx_build_insert(fb, &s, &mt.mt_key);
		if (ret)
			break;
	}
	am_maptext_free(&mt);
	return ret < 0 ? ret : 0;
}

/* An index that only says "scan this version": one empty slot. */
static void fidx_build_scan_only(struct fidx_build *fb)
{
	struct fidx_head *h = &fb->fb_head;

	h->fh_flags = FIDX_SCAN_ONLY;
	h->fh_nslots = 1;
	h->fh_nkeys = h->fh_nincl = h->fh_maxprobe = 0;
	memset(&fb->fb_slots[0], 0, sizeof(fb->fb_slots[0]));
}

static uint64_t fidx_seed(void)
{
	uint64_t seed;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == sizeof(seed))
		return seed;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return am_hash_mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)getpid());
}

/* Seal the header and every slot, then write them.  Returns: 0, -errno. */
static int fidx_build_emit(struct fidx_build *fb, int fd)
{
	struct fidx_head *h = &fb->fb_head;
	uint32_t i;
	int err;

	for (i = 0; i < h->fh_nslots; i++)
		fb->fb_slots[i].fs_check = fidx_slot_check(h->fh_seed, i, &fb->fb_slots[i]);
	for (i = 0; i < h->fh_nincl; i++)
		fb->fb_incl[i].fs_check = fidx_slot_check(h->fh_seed, (uint64_t)h->fh_nslots + i,
							  &fb->fb_incl[i]);
	h->fh_check = am_hash64(0, h, offsetof(struct fidx_head, fh_check));
	err = am_write_full(fd, h, sizeof(*h));
	if (!err)
		err = am_write_full(fd, fb->fb_incl, h->fh_nincl * sizeof(*fb->fb_incl));
	if (!err)
		err = am_write_full(fd, fb->fb_slots, h->fh_nslots * sizeof(*fb->fb_slots));
	return err;
}

/* Lines of TEXT: an upper bound of its records.  Returns: 0, -EFBIG. */
static int fidx_count_lines(const char *text, size_t len, uint32_t *lines)
{
	const char *p = text, *end = text + len;

	*lines = 1;
	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		if (++*lines > AM_FIDX_MAX_LINES)
			return -EFBIG;
		p++;
	}
	return 0;
}

/* Header, slots and records of the map TEXT in FB.  Returns: 0, -ENOMEM. */
static int fidx_build(struct fidx_build *fb, const struct stat *map, const char *text,
		      size_t len)
{
	struct fidx_head *h = &fb->fb_head;
	uint32_t lines;
	int err;

	fb->fb_text = text;
	memcpy(h->fh_magic, FIDX_MAGIC, sizeof(h->fh_magic));
	h->fh_version = FIDX_VERSION;
	h->fh_head_size = sizeof(*h);
	fidx_identity(h, map);
	h->fh_seed = fidx_seed();
	err = len != (size_t)map->st_size || len > UINT32_MAX ? -EFBIG :
	      fidx_count_lines(text, len, &lines);
	/* at most two thirds full: a miss reads a few slots, in one window */
	h->fh_nslots = err ? 1 : lines + lines / 2 + 1;
	fb->fb_slots = calloc(h->fh_nslots, sizeof(*fb->fb_slots));
	fb->fb_hash = calloc(h->fh_nslots, sizeof(*fb->fb_hash));
	if (!fb->fb_slots || !fb->fb_hash)
		return -ENOMEM;
	if (!err)
		err = fidx_build_scan(fb, len);
	if (err == -EFBIG || fb->fb_skipped) {
		fidx_build_scan_only(fb);
		err = 0;
	}
	return err;
}

int am_fidx_write(int fd, const struct stat *map, const char *text, size_t len,
		  void (*warn)(void *arg, unsigned int line, const char *msg), void *arg)
{
	struct fidx_build *fb;
	int err;

	fb = calloc(1, sizeof(*fb));
	if (!fb)
		return -ENOMEM;
	fb->fb_warn = warn;
	fb->fb_arg = arg;
	err = fidx_build(fb, map, text, len);
	if (!err)
		err = fidx_build_emit(fb, fd);
	if (!err && (fb->fb_head.fh_flags & FIDX_SCAN_ONLY))
		err = 1;
	free(fb->fb_slots);
	free(fb->fb_hash);
	free(fb);
	return err;
}
