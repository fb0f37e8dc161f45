// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's log: syslog (ident "autofs", facility daemon) through a socket
 * of its own, and stderr when asked.
 *
 * Not syslog(3): glibc connects to /dev/log whenever it is not connected,
 * that is at the first message when openlog(LOG_NDELAY) found no /dev/log,
 * and again after any send that failed; each time it resolves the path in
 * the mount namespace the process is in then.  A lookup joins the
 * requester's namespace (setns) before it logs its result, and glibc then
 * delivered the line, map names and paths, to whatever the requester had
 * bound at its own /dev/log.  Here log_connect() is the only code that
 * resolves a path, am_log_seal() (called before setns) turns it off for
 * good, and a line that cannot be sent after that is dropped.  The time
 * zone is loaded before too: localtime_r() would otherwise read
 * /etc/localtime on its first call, from the requester's root.
 *
 * Every line is escaped here, whatever the caller passed: keys, map text,
 * server answers and program output reach the log through many callers, and
 * none can forget it.  See am_log_escape().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "am_util.h"

#define LOG_PATH	"/dev/log"
#define LOG_LINE_MAX	4096	/* bytes of escaped text in one line */

static int log_level = LOG_NOTICE;
static bool log_stderr = true;
static bool log_syslog;
static bool log_sealed;
static int log_fd = -1;
static int log_socktype;

/* Returns: 0, -errno; -EPERM once sealed. */
static int log_connect(void)
{
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM };
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = LOG_PATH };
	size_t i;
	int err = -EPROTOTYPE;

	if (log_sealed)
		return -EPERM;
	for (i = 0; i < 2 && err == -EPROTOTYPE; i++) {
		log_fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0);
		if (log_fd < 0)
			return -errno;
		if (!connect(log_fd, (struct sockaddr *)&sun, sizeof(sun))) {
			log_socktype = types[i];
			return 0;
		}
		err = -errno;
		close(log_fd);
		log_fd = -1;
	}
	return err;
}

static void log_disconnect(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

/* A stream reader (rsyslog's old mode) takes a NUL after each record. */
static bool log_send_once(const char *line, size_t len)
{
	if (log_fd < 0 && log_connect())
		return false;
	if (log_socktype == SOCK_STREAM)
		len++;
	return send(log_fd, line, len, MSG_NOSIGNAL) == (ssize_t)len;
}

/* Before the seal a failed send reconnects once (the reader restarted). */
static void log_send(const char *line, size_t len)
{
	if (log_send_once(line, len))
		return;
	log_disconnect();
	if (!log_sealed)
		log_send_once(line, len);
}

void am_log_setup(int level, bool to_stderr, bool to_syslog)
{
	log_level = level;
	log_stderr = to_stderr;
	log_syslog = to_syslog;
	if (!to_syslog)
		return;
	tzset();
	if (log_fd < 0)
		log_connect();
}

void am_log_seal(void)
{
	log_sealed = true;
}

int am_log_level(const char *name)
{
	static const struct { const char *n; int l; } levels[] = {
		{ "emerg", LOG_EMERG }, { "alert", LOG_ALERT },
		{ "crit", LOG_CRIT }, { "err", LOG_ERR }, { "error", LOG_ERR },
		{ "warning", LOG_WARNING }, { "warn", LOG_WARNING },
		{ "notice", LOG_NOTICE }, { "info", LOG_INFO },
		{ "debug", LOG_DEBUG },
	};
	size_t i;

	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcmp(levels[i].n, name))
			return levels[i].l;
	return -1;
}

/*
 * Length of the UTF-8 sequence at S (of N bytes) if it is a valid one for a
 * printable code point: no overlong form, no surrogate, nothing above
 * U+10FFFF, no C1 control (U+0080..U+009F, which terminals obey).
 * Returns: 2..4, or 0.
 */
static size_t log_utf8_len(const unsigned char *s, size_t n)
{
	unsigned int cp, min;
	size_t len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f, min = 0xa0;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	/* C1 controls (U+0080..U+009F): a terminal acts on them, as on ESC */
	return cp < 0xa0 ? 0 : len;
}

void am_log_escape(struct am_buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, u;

	while (i < n) {
		if (p[i] == '\\') {
			am_buf_puts(out, "\\\\");
		} else if (p[i] == '\n' || p[i] == '\t' || p[i] == '\r') {
			am_buf_putc(out, '\\');
			am_buf_putc(out, p[i] == '\n' ? 'n' : p[i] == '\t' ? 't' : 'r');
		} else if (p[i] >= 0x20 && p[i] < 0x7f) {
			am_buf_putc(out, (char)p[i]);
		} else if (p[i] >= 0x80 && (u = log_utf8_len(p + i, n - i))) {
			am_buf_putn(out, s + i, u);
			i += u;
			continue;
		} else {
			am_buf_printf(out, "\\x%02x", p[i]);
		}
		i++;
	}
}

void am_out(const char *fmt, ...)
{
	struct am_buf b = { 0 };
	va_list ap;
	char *msg;
	bool nl;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	nl = n && msg[n - 1] == '\n';
	am_log_escape(&b, msg, (size_t)n - nl);
	if (nl)
		am_buf_putc(&b, '\n');
	if (b.ab_s && !b.ab_oom)
		fputs(b.ab_s, stdout);
	am_buf_free(&b);
	free(msg);
}

/* FMT formatted and escaped into OUT, cut at LOG_LINE_MAX bytes with "...". */
static void log_format(struct am_buf *out, const char *fmt, va_list ap)
{
	char *msg;
	int n;

	am_buf_puts(out, "");
	n = vasprintf(&msg, fmt, ap);
	if (n < 0) {
		am_buf_puts(out, "(out of memory formatting a log line)");
		return;
	}
	am_log_escape(out, msg, (size_t)n);
	free(msg);
	if (out->ab_len > LOG_LINE_MAX) {
		/* cut before the first byte of a character */
		out->ab_len = LOG_LINE_MAX;
		while (out->ab_len && (out->ab_s[out->ab_len] & 0xc0) == 0x80)
			out->ab_len--;
		out->ab_s[out->ab_len] = '\0';
		am_buf_puts(out, "...");
	}
}

/* "<PRI>Mmm dd hh:mm:ss autofs[PID]: TEXT", as syslog(3) writes it. */
static void log_to_syslog(int prio, const char *text)
{
	static const char months[][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct am_buf line = { 0 };
	struct tm tm;
	time_t now = time(NULL);

	if (!localtime_r(&now, &tm))
		memset(&tm, 0, sizeof(tm));
	am_buf_printf(&line, "<%d>%s %2d %02d:%02d:%02d autofs[%d]: %s",
		      LOG_DAEMON | prio, months[tm.tm_mon % 12], tm.tm_mday, tm.tm_hour,
		      tm.tm_min, tm.tm_sec, (int)getpid(), text);
	if (!line.ab_oom)
		log_send(line.ab_s, line.ab_len);
	am_buf_free(&line);
}

bool am_log_wants(int prio)
{
	return prio <= log_level && (log_syslog || log_stderr);
}

void am_vlog(int prio, const char *fmt, va_list ap)
{
	struct am_buf text = { 0 };

	if (!am_log_wants(prio))
		return;
	log_format(&text, fmt, ap);
	if (text.ab_oom) {
		am_buf_free(&text);
		return;
	}
	if (log_syslog)
		log_to_syslog(prio & LOG_PRIMASK, text.ab_s);
	if (log_stderr)
		fprintf(stderr, "autofs: %s\n", text.ab_s);
	am_buf_free(&text);
}

void am_log(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	am_vlog(prio, fmt, ap);
	va_end(ap);
}
