// SPDX-License-Identifier: GPL-2.0
/* String buffer and small helpers of the agent core (logging is log.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "am_util.h"

static bool am_buf_grow(struct am_buf *b, size_t more)
{
	size_t cap;
	char *s;

	if (b->ab_oom)
		return false;
	if (b->ab_len + more + 1 <= b->ab_cap)
		return true;
	cap = b->ab_cap ? b->ab_cap : 64;
	while (cap < b->ab_len + more + 1)
		cap *= 2;
	s = realloc(b->ab_s, cap);
	if (!s) {
		b->ab_oom = true;
		return false;
	}
	b->ab_s = s;
	b->ab_cap = cap;
	return true;
}

void am_buf_putn(struct am_buf *b, const char *s, size_t n)
{
	if (!am_buf_grow(b, n))
		return;
	memcpy(b->ab_s + b->ab_len, s, n);
	b->ab_len += n;
	b->ab_s[b->ab_len] = '\0';
}

void am_buf_putc(struct am_buf *b, char c)
{
	am_buf_putn(b, &c, 1);
}

void am_buf_puts(struct am_buf *b, const char *s)
{
	am_buf_putn(b, s, strlen(s));
}

void am_buf_printf(struct am_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !am_buf_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->ab_s + b->ab_len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->ab_len += (size_t)n;
}

char *am_buf_steal(struct am_buf *b)
{
	char *s;

	if (!b->ab_oom && !b->ab_s)
		am_buf_grow(b, 0);
	if (b->ab_oom) {
		am_buf_free(b);
		return NULL;
	}
	b->ab_s[b->ab_len] = '\0';
	s = b->ab_s;
	memset(b, 0, sizeof(*b));
	return s;
}

void am_buf_reset(struct am_buf *b)
{
	b->ab_len = 0;
	if (b->ab_s)
		b->ab_s[0] = '\0';
}

void am_buf_free(struct am_buf *b)
{
	free(b->ab_s);
	memset(b, 0, sizeof(*b));
}

char *am_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

bool am_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

long long am_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int am_read_fd(int fd, size_t max, char **data, size_t *len)
{
	struct am_buf b = { 0 };
	size_t want = 65536;
	struct stat st;
	ssize_t n;
	int err = 0;

	/* a regular file is read into one buffer of its size: no regrowth */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (size_t)st.st_size <= max)
		want = (size_t)st.st_size + 1;
	for (;;) {
		if (!am_buf_grow(&b, want)) {
			err = -ENOMEM;
			break;
		}
		n = read(fd, b.ab_s + b.ab_len, b.ab_cap - b.ab_len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		b.ab_len += (size_t)n;
		b.ab_s[b.ab_len] = '\0';
		if (b.ab_len > max) {
			err = -EFBIG;
			break;
		}
		want = 65536;
	}
	if (err) {
		am_buf_free(&b);
		return err;
	}
	*len = b.ab_len;
	*data = am_buf_steal(&b);
	return *data ? 0 : -ENOMEM;
}

int am_read_file(const char *path, size_t max, char **data, size_t *len)
{
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = am_read_fd(fd, max, data, len);
	close(fd);
	return err;
}

int am_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

uint64_t am_hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

uint64_t am_hash64(uint64_t seed, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ am_hash_mix(seed + n);

	while (n--)
		h = (h ^ *s++) * 0x100000001b3ULL;
	return am_hash_mix(h);
}

int am_pread_full(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n;

	do
		n = pread(fd, buf, len, off);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EBADMSG;
}
