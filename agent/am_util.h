/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the agent core: a growable string buffer, logging,
 * and the exit codes of /sbin/autofs.
 */
#ifndef AM_UTIL_H
#define AM_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <string.h>
#include <syslog.h>

#include <linux/autofsng.h>

/* Exit codes of /sbin/autofs, documented in autofs-agent(8). */
/* The kernel reads these (uapi/linux/autofsng.h, which says what each means). */
enum am_exit {
	AM_EXIT_OK = AUTOFSNG_EXIT_OK,
	AM_EXIT_INTERNAL = AUTOFSNG_EXIT_INTERNAL,
	AM_EXIT_USAGE = AUTOFSNG_EXIT_USAGE,
	AM_EXIT_NOKEY = AUTOFSNG_EXIT_NOKEY,
	AM_EXIT_UNAVAIL = AUTOFSNG_EXIT_UNAVAIL,
	AM_EXIT_MALFORMED = AUTOFSNG_EXIT_MALFORMED,
	AM_EXIT_MOUNT = AUTOFSNG_EXIT_MOUNT,
	AM_EXIT_PARTIAL = AUTOFSNG_EXIT_PARTIAL,
	AM_EXIT_NOMAP = AUTOFSNG_EXIT_NOMAP,
};

/* A growable NUL-terminated string; ab_oom sticks once an allocation failed. */
struct am_buf {
	char *ab_s;
	size_t ab_len;
	size_t ab_cap;
	bool ab_oom;
};

void am_buf_putc(struct am_buf *b, char c);
void am_buf_putn(struct am_buf *b, const char *s, size_t n);
void am_buf_puts(struct am_buf *b, const char *s);
void am_buf_printf(struct am_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Returns: the string (caller frees) and resets B, or NULL when out of memory. */
char *am_buf_steal(struct am_buf *b);
void am_buf_reset(struct am_buf *b);
void am_buf_free(struct am_buf *b);

/*
 * Logging (log.c): syslog with ident "autofs", and stderr when asked.  Every
 * line is escaped (am_log_escape), so callers pass untrusted strings as they
 * are.  am_log_setup connects the syslog socket; am_log_seal, called before
 * joining another mount namespace, forbids any later connect: a line that
 * cannot be sent on the socket connected before is dropped.
 */
void am_log_setup(int level, bool to_stderr, bool to_syslog);
void am_log_seal(void);
void am_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void am_vlog(int prio, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Returns: the syslog level named NAME ("err", "info"...), or -1. */
int am_log_level(const char *name);
/* Returns: true when a message of PRIO would be logged anywhere. */
bool am_log_wants(int prio);
/*
 * Append S[0..N) to OUT so that it is one printable line: backslash as
 * "\\", newline, tab and CR as "\n" "\t" "\r", any other control
 * character, DEL, C1 control and byte outside valid UTF-8 as "\xNN".
 */
void am_log_escape(struct am_buf *out, const char *s, size_t n);
/*
 * printf to stdout for the administrator's terminal (test, dump, start,
 * stop, status): escaped as am_log_escape does, but for a final newline,
 * since keys, map text and mount paths come from anybody.
 */
void am_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* SIGTERM, SIGALRM and SIGINT end the agent (signals.c); SIGPIPE is ignored. */
void am_signals_setup(void);
/* From here to the exit, those signals wait: for what must be done whole. */
void am_signals_hold(void);

/* Returns: a copy of S[0..N), or NULL when out of memory. */
char *am_strndup(const char *s, size_t n);
/* Returns: true when S starts with PREFIX. */
bool am_startswith(const char *s, const char *prefix);
/*
 * The length of SPEC's tag when it names a device as mount(8) and fstab(5)
 * do (LABEL=, UUID=, PARTUUID=, PARTLABEL=), else 0.  TYPE= and the
 * others libblkid knows are not read: they would pick any such device.
 */
static inline size_t am_device_tag(const char *spec)
{
	static const char *const tags[] = { "LABEL", "UUID", "PARTUUID", "PARTLABEL" };
	size_t i, n;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		n = strlen(tags[i]);
		if (!strncmp(spec, tags[i], n) && spec[n] == '=')
			return n;
	}
	return 0;
}
/* Monotonic milliseconds. */
long long am_now_ms(void);
/*
 * Read the whole file PATH (at most MAX bytes) into a malloc'd, NUL-terminated
 * buffer.  Returns: 0, -EFBIG when larger than MAX, -errno.
 */
int am_read_file(const char *path, size_t max, char **data, size_t *len);
/* The same from FD, from its current offset to its end. */
int am_read_fd(int fd, size_t max, char **data, size_t *len);
/* Write all of BUF[0..LEN) to FD, again after EINTR.  Returns: 0, -errno (-EIO: wrote nothing). */
int am_write_full(int fd, const void *buf, size_t len);

/*
 * Read exactly LEN bytes at OFF of FD, again after EINTR.
 * Returns: 0, -EBADMSG (fewer bytes: the file is shorter), -errno.
 */
int am_pread_full(int fd, void *buf, size_t len, off_t off);
/* A 64-bit mixer (murmur3's finalizer). */
uint64_t am_hash_mix(uint64_t h);
/* FNV-1a of P[0..N) keyed by SEED, finished by am_hash_mix(). */
uint64_t am_hash64(uint64_t seed, const void *p, size_t n);

#endif /* AM_UTIL_H */
