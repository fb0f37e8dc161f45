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
#include <syslog.h>

/* Exit codes of /sbin/autofs, documented in autofs-agent(8). */
enum am_exit {
	AM_EXIT_OK = 0,
	AM_EXIT_INTERNAL = 1,	/* bug, out of memory, unexpected errno */
	AM_EXIT_USAGE = 2,	/* bad command line or configuration */
	AM_EXIT_NOKEY = 3,	/* no map has the key */
	AM_EXIT_UNAVAIL = 4,	/* a source that might have it could not be read */
	AM_EXIT_MALFORMED = 5,	/* the entry exists but does not parse */
	AM_EXIT_MOUNT = 6,	/* the mount itself failed */
	AM_EXIT_PARTIAL = 7,	/* start/stop: some entries failed */
	AM_EXIT_NOMAP = 8,	/* no source has the map */
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
/*
 * Append S[0..N) to OUT so that it is one printable line: backslash as
 * "\\", newline, tab and CR as "\n" "\t" "\r", any other control
 * character, DEL, C1 control and byte outside valid UTF-8 as "\xNN".
 */
void am_log_escape(struct am_buf *out, const char *s, size_t n);

/* Returns: a copy of S[0..N), or NULL when out of memory. */
char *am_strndup(const char *s, size_t n);
/* Returns: true when S starts with PREFIX. */
bool am_startswith(const char *s, const char *prefix);
/* Monotonic milliseconds. */
long long am_now_ms(void);
/*
 * Read the whole file PATH (at most MAX bytes) into a malloc'd, NUL-terminated
 * buffer.  Returns: 0, -EFBIG when larger than MAX, -errno.
 */
int am_read_file(const char *path, size_t max, char **data, size_t *len);

#endif /* AM_UTIL_H */
