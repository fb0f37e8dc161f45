// SPDX-License-Identifier: GPL-2.0
/*
 * The cache of directory maps (am_mapcache.h): one file per snapshot, a
 * header, the snapshot's identity, an open-addressing table of slots and
 * the records, "key\0entry\0" each.  Written once to a private file and
 * renamed into place (am_rundir_publish); read with pread, a window of
 * slots and one record at a time, never mapped.
 *
 * The header carries a hash of its bytes, each slot (used or empty) a hash
 * of its fields and each used one a hash of its record, keyed by a seed
 * drawn for the snapshot: a damaged or truncated file fails a check where
 * it is read and is a miss, never another answer, a key found or lost.
 * The identity (mapcache_id.c) is compared whole, not by its hash.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "am_agent.h"
#include "am_mapcache.h"
#include "am_rundir.h"
#include "am_util.h"

#define MC_MAGIC	"AMMAPC\r\n"
#define MC_VERSION	1
#define MC_WINDOW	8		/* slots read at once */
#define MC_TOO_BIG	1		/* the map outgrew the bounds: ask the source */
#define MC_SLOT_USED	1
#define MC_SLOT_LIVE	2		/* this key's lookup asks the source */

struct mc_head {
	char mh_magic[8];		/* MC_MAGIC */
	uint32_t mh_version;		/* MC_VERSION */
	uint32_t mh_head_size;		/* sizeof(struct mc_head) */
	char mh_boot[40];		/* the boot it was made in (boot_id) */
	uint64_t mh_made_ns;		/* CLOCK_BOOTTIME when it was made */
	uint64_t mh_seed;		/* keys every hash of this snapshot */
	uint64_t mh_data;		/* bytes of the records */
	uint32_t mh_id_len;		/* bytes of the identity, after the header */
	uint32_t mh_nslots, mh_nkeys, mh_maxprobe;
	uint32_t mh_flags;		/* MC_TOO_BIG */
	uint32_t mh_reserved;		/* 0 */
	uint64_t mh_check;		/* am_hash64(0) of the bytes above */
};

/* Every slot, used or empty, passes its check when read. */
struct mc_slot {
	uint64_t ms_off;		/* the record, from the first record */
	uint32_t ms_klen, ms_elen;	/* its key's and entry's bytes */
	uint32_t ms_flags;		/* MC_SLOT_* */
	uint32_t ms_tag;		/* high half of the key's hash */
	uint64_t ms_rec;		/* seeded hash of the record's bytes */
	uint64_t ms_check;		/* seeded hash of the fields above and NR */
};

struct mc_rec {				/* a record being built */
	char *mr_key, *mr_entry;	/* entry NULL: ask the source */
	uint64_t mr_hash;
};

struct am_mapcache {
	int mc_dirfd;
	char mc_name[24];		/* the snapshot's file name */
	struct am_buf mc_id;		/* its identity (mapcache_id.c) */
	unsigned int mc_ttl, mc_negative;	/* seconds */
	/* the current snapshot, when mc_fd >= 0 */
	int mc_fd;
	struct mc_head mc_head;
	uint64_t mc_age_ns;
	struct mc_slot mc_win[MC_WINDOW];
	uint32_t mc_winpos, mc_winlen;
	/* the one being built */
	int mc_lockfd;			/* held while this process lists the map */
	uint64_t mc_build_seed;		/* keys the table below */
	long long mc_build_start;	/* ms, for AM_MAPCACHE_LIST_MS */
	struct mc_rec *mc_recs;
	uint32_t *mc_table;		/* record number + 1, 0 empty */
	size_t mc_nrecs, mc_cap, mc_tabsize;
	uint64_t mc_bytes;
	bool mc_too_big, mc_oom;
};

static bool mc_sealed;

void am_mapcache_seal(void)
{
	mc_sealed = true;
}

/* ---- time and boot --------------------------------------------------- */

static uint64_t mc_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_BOOTTIME, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* This boot's id into BOOT (40 bytes, zero-padded).  Returns: 0, -errno. */
static int mc_boot_id(char boot[40])
{
	char *text;
	size_t len;
	int err;

	memset(boot, 0, 40);
	err = am_read_file("/proc/sys/kernel/random/boot_id", 64, &text, &len);
	if (err)
		return err;
	memcpy(boot, text, len < 39 ? len : 39);
	free(text);
	return len > 16 ? 0 : -EINVAL;
}

/* ---- reading ------------------------------------------------------------ */

static uint64_t mc_head_hash(const struct mc_head *h)
{
	return am_hash64(0, h, offsetof(struct mc_head, mh_check));
}

static uint64_t mc_slot_hash(uint64_t seed, uint32_t nr, const struct mc_slot *s)
{
	return am_hash64(seed ^ am_hash_mix(nr + 1ULL), s, offsetof(struct mc_slot, ms_check));
}

static off_t mc_slots_at(const struct mc_head *h)
{
	return (off_t)(sizeof(*h) + h->mh_id_len);
}

static off_t mc_data_at(const struct mc_head *h)
{
	return mc_slots_at(h) + (off_t)h->mh_nslots * (off_t)sizeof(struct mc_slot);
}

/* The header of FD (fstat ST) is whole, sized right and of this boot. */
static bool mc_head_ok(const struct mc_head *h, const struct stat *st)
{
	char boot[40];

	if (memcmp(h->mh_magic, MC_MAGIC, 8) || h->mh_version != MC_VERSION ||
	    h->mh_head_size != sizeof(*h) || h->mh_check != mc_head_hash(h) ||
	    h->mh_nkeys > AM_MAPCACHE_MAX_KEYS || h->mh_nslots > 2 * AM_MAPCACHE_MAX_KEYS ||
	    h->mh_data > AM_MAPCACHE_MAX_BYTES + 2ULL * AM_MAPCACHE_MAX_KEYS ||
	    h->mh_id_len > AM_MAPCACHE_MAX_BYTES || h->mh_maxprobe > h->mh_nslots ||
	    (h->mh_nkeys && h->mh_nkeys >= h->mh_nslots))
		return false;
	if ((uint64_t)st->st_size != (uint64_t)mc_data_at(h) + h->mh_data)
		return false;
	return !mc_boot_id(boot) && !memcmp(boot, h->mh_boot, sizeof(boot));
}

/* The identity stored after the header is MC's.  Returns: 0, -ESTALE, -errno. */
static int mc_id_same(const struct am_mapcache *mc, int fd)
{
	char *id;
	int err;

	if (mc->mc_head.mh_id_len != mc->mc_id.ab_len)
		return -ESTALE;
	id = malloc(mc->mc_id.ab_len + 1);
	if (!id)
		return -ENOMEM;
	err = am_pread_full(fd, id, mc->mc_id.ab_len, sizeof(mc->mc_head));
	if (!err && memcmp(id, mc->mc_id.ab_s, mc->mc_id.ab_len))
		err = -ESTALE;
	free(id);
	return err;
}

/* Take the snapshot in FD when it is ours, whole and young enough. */
static int mc_take(struct am_mapcache *mc, int fd)
{
	struct mc_head *h = &mc->mc_head;
	uint64_t now = mc_now_ns();
	struct stat st;
	int err;

	if (fstat(fd, &st))
		return -errno;
	/* written by this user alone, for this user alone: else ignored */
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	err = am_pread_full(fd, h, sizeof(*h), 0);
	if (!err && !mc_head_ok(h, &st))
		err = -EBADMSG;
	if (!err)
		err = mc_id_same(mc, fd);
	if (!err && (h->mh_made_ns > now ||
		     now - h->mh_made_ns >= (uint64_t)mc->mc_ttl * 1000000000ULL))
		err = -ESTALE;
	if (err)
		return err;
	mc->mc_age_ns = now - h->mh_made_ns;
	mc->mc_fd = fd;
	mc->mc_winlen = 0;
	return 0;
}

static void mc_drop(struct am_mapcache *mc)
{
	if (mc->mc_fd >= 0)
		close(mc->mc_fd);
	mc->mc_fd = -1;
}

/* Open the current snapshot, if there is one to take. */
static void mc_load(struct am_mapcache *mc)
{
	int fd, err;

	mc_drop(mc);
	fd = openat(mc->mc_dirfd, mc->mc_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	err = mc_take(mc, fd);
	if (err == -EBADMSG)
		am_log(LOG_WARNING, "map cache %s is damaged, made again", mc->mc_name);
	else if (err == -EPERM)
		am_log(LOG_WARNING, "map cache %s is not the agent's own file of mode 0600, ignored",
		       mc->mc_name);
	if (err)
		close(fd);
}

/* Slot NR, read a window at a time.  Returns: 0, -EBADMSG, -errno. */
static int mc_slot_get(struct am_mapcache *mc, uint32_t nr, struct mc_slot *s)
{
	const struct mc_head *h = &mc->mc_head;
	uint32_t n;
	int err;

	if (nr < mc->mc_winpos || nr >= mc->mc_winpos + mc->mc_winlen) {
		n = h->mh_nslots - nr < MC_WINDOW ? h->mh_nslots - nr : MC_WINDOW;
		err = am_pread_full(mc->mc_fd, mc->mc_win, n * sizeof(*s),
			       mc_slots_at(h) + (off_t)nr * (off_t)sizeof(*s));
		mc->mc_winlen = err ? 0 : n;
		mc->mc_winpos = nr;
		if (err)
			return err;
	}
	*s = mc->mc_win[nr - mc->mc_winpos];
	return mc_slot_hash(h->mh_seed, nr, s) == s->ms_check ? 0 : -EBADMSG;
}

/* The record of used slot S, checked.  Returns: 0, -EBADMSG, -errno. */
static int mc_rec_read(struct am_mapcache *mc, const struct mc_slot *s, char **rec)
{
	const struct mc_head *h = &mc->mc_head;
	uint64_t len = (uint64_t)s->ms_klen + s->ms_elen + 2;
	int err;

	if (s->ms_off > h->mh_data || len > h->mh_data - s->ms_off)
		return -EBADMSG;
	*rec = malloc(len);
	if (!*rec)
		return -ENOMEM;
	err = am_pread_full(mc->mc_fd, *rec, len, mc_data_at(h) + (off_t)s->ms_off);
	if (!err && (am_hash64(h->mh_seed, *rec, len) != s->ms_rec ||
		     (*rec)[s->ms_klen] || (*rec)[len - 1] ||
		     strlen(*rec) != s->ms_klen ||
		     strlen(*rec + s->ms_klen + 1) != s->ms_elen))
		err = -EBADMSG;
	if (err) {
		free(*rec);
		*rec = NULL;
	}
	return err;
}

/* KEY's slot: 0 and *REC ("key\0entry\0"), -ENOENT, -EBADMSG, -errno. */
static int mc_lookup(struct am_mapcache *mc, const char *key, struct mc_slot *s,
		     char **rec)
{
	const struct mc_head *h = &mc->mc_head;
	uint64_t hash = am_hash64(h->mh_seed, key, strlen(key));
	uint32_t i, nr;
	int err;

	if (!h->mh_nslots)
		return -ENOENT;
	nr = (uint32_t)(((uint64_t)(uint32_t)hash * h->mh_nslots) >> 32);
	for (i = 0; i <= h->mh_maxprobe; i++, nr = nr + 1 == h->mh_nslots ? 0 : nr + 1) {
		err = mc_slot_get(mc, nr, s);
		if (err)
			return err;
		if (!(s->ms_flags & MC_SLOT_USED))
			return -ENOENT;
		if (s->ms_tag != (uint32_t)(hash >> 32) || s->ms_klen != strlen(key))
			continue;
		err = mc_rec_read(mc, s, rec);
		if (err)
			return err;
		if (!strcmp(*rec, key))
			return 0;
		free(*rec);
	}
	return -ENOENT;
}

int am_mapcache_find(struct am_mapcache *mc, const char *key, char **entry)
{
	struct mc_slot s;
	char *rec;
	int err;

	if (mc->mc_fd < 0 || (mc->mc_head.mh_flags & MC_TOO_BIG))
		return 1;
	err = mc_lookup(mc, key, &s, &rec);
	if (err == -ENOENT)
		return mc->mc_age_ns < (uint64_t)mc->mc_negative * 1000000000ULL ? -ENOENT : 1;
	if (err == -ENOMEM)
		return err;
	if (err) {
		am_log(LOG_WARNING, "map cache %s is damaged, made again", mc->mc_name);
		mc_drop(mc);
		return 1;
	}
	if (s.ms_flags & MC_SLOT_LIVE) {
		free(rec);
		return 1;
	}
	*entry = strdup(rec + s.ms_klen + 1);
	free(rec);
	return *entry ? 0 : -ENOMEM;
}

bool am_mapcache_stale(const struct am_mapcache *mc)
{
	return mc->mc_fd < 0;
}

/* ---- building ------------------------------------------------------------ */

static int mc_grow(struct am_mapcache *mc)
{
	size_t cap = mc->mc_cap ? mc->mc_cap * 2 : 256, i, nr;
	struct mc_rec *recs;
	uint32_t *table;

	recs = realloc(mc->mc_recs, cap * sizeof(*recs));
	if (recs)
		mc->mc_recs = recs;
	table = calloc(cap * 2, sizeof(*table));
	if (!recs || !table) {
		free(table);
		return -ENOMEM;
	}
	free(mc->mc_table);
	mc->mc_table = table;
	mc->mc_cap = cap;
	mc->mc_tabsize = cap * 2;
	for (i = 0; i < mc->mc_nrecs; i++) {
		nr = mc->mc_recs[i].mr_hash % mc->mc_tabsize;
		while (table[nr])
			nr = (nr + 1) % mc->mc_tabsize;
		table[nr] = (uint32_t)i + 1;
	}
	return 0;
}

/* The record of KEY being built, or NULL; *NR is where it would go. */
static struct mc_rec *mc_build_find(struct am_mapcache *mc, const char *key,
				    uint64_t hash, size_t *nr)
{
	struct mc_rec *r;

	for (*nr = hash % mc->mc_tabsize; mc->mc_table[*nr];
	     *nr = (*nr + 1) % mc->mc_tabsize) {
		r = &mc->mc_recs[mc->mc_table[*nr] - 1];
		if (r->mr_hash == hash && !strcmp(r->mr_key, key))
			return r;
	}
	return NULL;
}

/* Stop the listing: the map is too large to keep, its lookups ask the source. */
static int mc_build_stop(struct am_mapcache *mc)
{
	mc->mc_too_big = true;
	return 1;
}

/* The listing has taken longer than AM_MAPCACHE_LIST_MS (asked every 256 keys). */
static bool mc_build_late(struct am_mapcache *mc)
{
	if (!mc->mc_build_start) {
		mc->mc_build_start = am_now_ms();
		if (getrandom(&mc->mc_build_seed, sizeof(mc->mc_build_seed), GRND_NONBLOCK) !=
		    sizeof(mc->mc_build_seed))
			mc->mc_build_seed = am_hash_mix((uint64_t)mc->mc_build_start ^
							(uint64_t)getpid());
	}
	return !(mc->mc_nrecs & 255) && am_now_ms() - mc->mc_build_start > AM_MAPCACHE_LIST_MS;
}

int am_mapcache_add(const char *key, const char *entry, void *arg)
{
	struct am_mapcache *mc = arg;
	struct mc_rec *r;
	uint64_t hash;
	size_t nr;

	if (mc->mc_too_big || mc->mc_oom || mc_build_late(mc))
		return mc_build_stop(mc);
	/* seeded: a server cannot choose keys that collide in this table */
	hash = am_hash64(mc->mc_build_seed, key, strlen(key));
	if (mc->mc_nrecs == mc->mc_cap && mc_grow(mc)) {
		mc->mc_oom = true;
		return 1;
	}
	r = mc_build_find(mc, key, hash, &nr);
	if (r) {
		/* a key given twice: its lookup asks the source, as it will */
		free(r->mr_entry);
		r->mr_entry = NULL;
		return 0;
	}
	mc->mc_bytes += strlen(key) + (entry ? strlen(entry) : 0) + 2;
	if (mc->mc_nrecs == AM_MAPCACHE_MAX_KEYS || mc->mc_bytes > AM_MAPCACHE_MAX_BYTES)
		return mc_build_stop(mc);
	r = &mc->mc_recs[mc->mc_nrecs];
	r->mr_hash = hash;
	r->mr_key = strdup(key);
	r->mr_entry = entry ? strdup(entry) : NULL;
	if (!r->mr_key || (entry && !r->mr_entry)) {
		free(r->mr_key);
		free(r->mr_entry);
		mc->mc_oom = true;
		return 1;
	}
	mc->mc_table[nr] = (uint32_t)++mc->mc_nrecs;
	return 0;
}

int am_mapcache_lock(struct am_mapcache *mc)
{
	char name[40];

	snprintf(name, sizeof(name), "%.20s.lock", mc->mc_name);
	mc->mc_lockfd = openat(mc->mc_dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			       0600);
	if (mc->mc_lockfd < 0)
		return -errno;
	if (flock(mc->mc_lockfd, LOCK_EX | LOCK_NB))
		return errno == EWOULDBLOCK ? -EBUSY : -errno;
	/* the one that held it may have written a snapshot meanwhile */
	mc_load(mc);
	return am_mapcache_stale(mc) ? 0 : 1;
}

void am_mapcache_unlistable(struct am_mapcache *mc)
{
	mc->mc_too_big = true;
}

static void mc_build_free(struct am_mapcache *mc)
{
	size_t i;

	for (i = 0; i < mc->mc_nrecs; i++) {
		free(mc->mc_recs[i].mr_key);
		free(mc->mc_recs[i].mr_entry);
	}
	free(mc->mc_recs);
	free(mc->mc_table);
	mc->mc_recs = NULL;
	mc->mc_table = NULL;
	mc->mc_nrecs = mc->mc_cap = mc->mc_tabsize = 0;
	mc->mc_bytes = 0;
}

/* The bytes record R takes in the file. */
static uint64_t mc_rec_len(const struct mc_rec *r)
{
	return strlen(r->mr_key) + (r->mr_entry ? strlen(r->mr_entry) : 0) + 2;
}

/* Record R as written ("key\0entry\0") into BUF.  Returns: its length. */
static size_t mc_rec_put(const struct mc_rec *r, char *buf)
{
	size_t k = strlen(r->mr_key) + 1, e = r->mr_entry ? strlen(r->mr_entry) : 0;

	memcpy(buf, r->mr_key, k);
	memcpy(buf + k, r->mr_entry ? r->mr_entry : "", e + 1);
	return k + e + 1;
}

/* Place every record in SLOTS (H's table): all of each slot but its check. */
static void mc_place(const struct am_mapcache *mc, struct mc_head *h, struct mc_slot *slots)
{
	uint64_t off = 0, hash;
	uint32_t i, nr, probe;
	const struct mc_rec *r;

	for (i = 0; i < h->mh_nkeys; i++) {
		r = &mc->mc_recs[i];
		hash = am_hash64(h->mh_seed, r->mr_key, strlen(r->mr_key));
		nr = (uint32_t)(((uint64_t)(uint32_t)hash * h->mh_nslots) >> 32);
		for (probe = 0; slots[nr].ms_flags; probe++)
			nr = nr + 1 == h->mh_nslots ? 0 : nr + 1;
		if (probe > h->mh_maxprobe)
			h->mh_maxprobe = probe;
		slots[nr] = (struct mc_slot){
			.ms_off = off, .ms_klen = (uint32_t)strlen(r->mr_key),
			.ms_elen = r->mr_entry ? (uint32_t)strlen(r->mr_entry) : 0,
			.ms_flags = MC_SLOT_USED | (r->mr_entry ? 0 : MC_SLOT_LIVE),
			.ms_tag = (uint32_t)(hash >> 32),
		};
		off += mc_rec_len(r);
	}
	h->mh_data = off;
}

/* Each slot's checks: its record's bytes in DATA (used ones), then its fields. */
static void mc_seal_slots(const struct mc_head *h, struct mc_slot *slots, const char *data)
{
	struct mc_slot *s;
	uint32_t nr;

	for (nr = 0; nr < h->mh_nslots; nr++) {
		s = &slots[nr];
		if (s->ms_flags)
			s->ms_rec = am_hash64(h->mh_seed, data + s->ms_off,
					      s->ms_klen + s->ms_elen + 2ULL);
		s->ms_check = mc_slot_hash(h->mh_seed, nr, s);
	}
}

/* Whether NAME in the cache directory is a snapshot, a private file or a lock. */
static bool mc_ours(const char *name)
{
	size_t n = strlen(name);

	return (n > 4 && !strcmp(name + n - 4, ".map")) ||
	       (n > 4 && !strcmp(name + n - 4, ".tmp")) ||
	       (n > 5 && !strcmp(name + n - 5, ".lock"));
}

/*
 * Snapshots of other identities are not kept forever: whatever of ours in
 * the directory is older than cache_ttl (a private file left by a killed
 * agent, a lock) is removed when a snapshot is written.  At most
 * MC_PRUNE entries are looked at.
 */
#define MC_PRUNE	4096

static void mc_prune(const struct am_mapcache *mc)
{
	time_t old = time(NULL) - (time_t)mc->mc_ttl;
	struct dirent *d;
	struct stat st;
	unsigned int n = 0;
	DIR *dp;
	int fd;

	fd = openat(mc->mc_dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dp = fd < 0 ? NULL : fdopendir(fd);
	if (!dp) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dp)) && n++ < MC_PRUNE)
		if (mc_ours(d->d_name) && strncmp(d->d_name, mc->mc_name, 16) &&
		    !fstatat(mc->mc_dirfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    st.st_mtime < old)
			unlinkat(mc->mc_dirfd, d->d_name, 0);
	closedir(dp);
}

struct mc_out {
	struct mc_head mo_head;
	const struct am_buf *mo_id;
	struct mc_slot *mo_slots;
	char *mo_data;
};

/* am_rundir_publish()'s writer. */
static int mc_emit(int fd, void *arg)
{
	const struct mc_out *o = arg;
	const struct mc_head *h = &o->mo_head;
	int err;

	err = am_write_full(fd, h, sizeof(*h));
	if (!err)
		err = am_write_full(fd, o->mo_id->ab_s, o->mo_id->ab_len);
	if (!err)
		err = am_write_full(fd, o->mo_slots, h->mh_nslots * sizeof(struct mc_slot));
	if (!err)
		err = am_write_full(fd, o->mo_data, h->mh_data);
	return err;
}

static void mc_head_fill(const struct am_mapcache *mc, struct mc_head *h)
{
	memcpy(h->mh_magic, MC_MAGIC, 8);
	h->mh_version = MC_VERSION;
	h->mh_head_size = sizeof(*h);
	h->mh_made_ns = mc_now_ns();
	if (getrandom(&h->mh_seed, sizeof(h->mh_seed), GRND_NONBLOCK) != sizeof(h->mh_seed))
		h->mh_seed = am_hash_mix(h->mh_made_ns ^ (uint64_t)getpid());
	h->mh_id_len = (uint32_t)mc->mc_id.ab_len;
	h->mh_flags = mc->mc_too_big ? MC_TOO_BIG : 0;
	h->mh_nkeys = mc->mc_too_big ? 0 : (uint32_t)mc->mc_nrecs;
	h->mh_nslots = h->mh_nkeys ? h->mh_nkeys + h->mh_nkeys / 2 + 1 : 0;
}

/* Lay the snapshot out in O.  Returns: 0, -ENOMEM. */
static int mc_layout(const struct am_mapcache *mc, struct mc_out *o)
{
	struct mc_head *h = &o->mo_head;
	size_t i, off = 0;

	mc_head_fill(mc, h);
	if (mc_boot_id(h->mh_boot))
		return -EIO;
	o->mo_id = &mc->mc_id;
	o->mo_slots = calloc(h->mh_nslots + 1, sizeof(*o->mo_slots));
	if (!o->mo_slots)
		return -ENOMEM;
	mc_place(mc, h, o->mo_slots);
	o->mo_data = malloc(h->mh_data + 1);
	if (!o->mo_data)
		return -ENOMEM;
	for (i = 0; i < h->mh_nkeys; i++)
		off += mc_rec_put(&mc->mc_recs[i], o->mo_data + off);
	mc_seal_slots(h, o->mo_slots, o->mo_data);
	h->mh_check = mc_head_hash(h);
	return 0;
}

int am_mapcache_commit(struct am_mapcache *mc)
{
	struct mc_out o = { 0 };
	int err;

	err = mc->mc_oom ? -ENOMEM : mc_layout(mc, &o);
	if (!err)
		err = am_rundir_publish(mc->mc_dirfd, mc->mc_name, mc_emit, &o);
	free(o.mo_slots);
	free(o.mo_data);
	mc_build_free(mc);
	if (err) {
		am_log(LOG_WARNING, "map cache %s: cannot write it: %s", mc->mc_name,
		       strerror(-err));
		return err;
	}
	mc_prune(mc);
	mc_load(mc);
	return 0;
}

/* ---- the cache of one map ------------------------------------------------- */

/* The directory, or -errno (logged when it is refused). */
static int mc_dir(const struct am_ctx *ctx)
{
	const char *dir = ctx->ac_conf.cf_map_cache_dir;
	char why[256];
	int fd;

	fd = am_rundir_open(dir, true, why, sizeof(why));
	if (fd == -EPERM && !geteuid())
		am_log(LOG_WARNING, "map cache directory %s not used: %s", dir, why);
	else if (fd < 0)
		am_log(LOG_DEBUG, "map cache directory %s: %s", dir, why);
	return fd;
}

int am_mapcache_open(struct am_ctx *ctx, const char *type, const char *name,
		     int argc, const char *const *argv, struct am_mapcache **mcp)
{
	struct am_mapcache *mc;
	int err;

	const char *dir = ctx->ac_conf.cf_map_cache_dir;

	/* off unless configured (autofs-agent.conf(5), map_cache_dir): no work */
	if (mc_sealed || !dir || !strcmp(dir, "none") || !ctx->ac_conf.cf_cache_ttl ||
	    !am_mapcache_kind(type))
		return -EPERM;
	mc = calloc(1, sizeof(*mc));
	if (!mc)
		return -ENOMEM;
	mc->mc_fd = -1;
	mc->mc_lockfd = -1;
	mc->mc_ttl = ctx->ac_conf.cf_cache_ttl;
	mc->mc_negative = ctx->ac_conf.cf_negative_timeout;
	err = am_mapcache_id(ctx, type, name, argc, argv, &mc->mc_id);
	mc->mc_dirfd = err ? err : mc_dir(ctx);
	if (mc->mc_dirfd < 0) {
		err = mc->mc_dirfd == -ENOMEM ? -ENOMEM : -EPERM;
		free(mc->mc_id.ab_s);
		free(mc);
		return err;
	}
	snprintf(mc->mc_name, sizeof(mc->mc_name), "%016" PRIx64 ".map",
		 am_hash64(0, mc->mc_id.ab_s, mc->mc_id.ab_len));
	mc_load(mc);
	*mcp = mc;
	return 0;
}

void am_mapcache_close(struct am_mapcache *mc)
{
	if (!mc)
		return;
	mc_drop(mc);
	mc_build_free(mc);
	if (mc->mc_lockfd >= 0)
		close(mc->mc_lockfd);
	close(mc->mc_dirfd);
	free(mc->mc_id.ab_s);
	free(mc);
}
