// SPDX-License-Identifier: GPL-2.0
/*
 * Writing untrusted text into a sun-format entry as one literal word.  The
 * hosts map builds its entries from a server's answer with this, so that no
 * byte of the answer can become syntax; the fuzz target "quote" checks that
 * am_sun_expand and am_sun_parse read every word back unchanged.
 */
#include <string.h>

#include "am_sun.h"

/* Bytes that mean nothing to the expander, the tokenizer or a location. */
static bool quote_plain(unsigned char c, bool first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return true;
	/* a leading '-' would make the word an option */
	return (c == '-' && !first) || (c && strchr("/._+=@%~", c));
}

void am_sun_quote(struct am_buf *out, const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		if (!quote_plain((unsigned char)*p, p == s))
			am_buf_putc(out, '\\');
		am_buf_putc(out, *p);
	}
}
