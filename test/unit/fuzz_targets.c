// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer targets for the parsers that read untrusted text: FUZZ_TARGET
 * selects the sun entry parser (with expansion), the map file reader plus
 * master map records, the map file reader's lookup against a full read, or
 * the configuration parser.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "am_conf.h"
#include "am_maptext.h"
#include "am_master.h"
#include "am_sun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#if FUZZ_TARGET == 1
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct am_vars vars = { 0 };
	struct am_entry e;
	char err[256], *text = fuzz_text(data, size), *exp = NULL;
	const char *nl;

	if (!text)
		return 0;
	am_vars_define(&vars, "USER=alice");
	/* the first line is the key, the rest the entry */
	nl = strchr(text, '\n');
	if (nl && !am_sun_expand(nl + 1, "key", &vars, &exp, err, sizeof(err))) {
		if (!am_sun_parse(exp, "rw,soft", &e, err, sizeof(err)))
			am_entry_free(&e);
	}
	am_key_invalid(text, text[0] == '/');
	free(exp);
	am_vars_free(&vars);
	free(text);
	return 0;
}
#elif FUZZ_TARGET == 2
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct am_master m = { 0 };
	struct am_maptext mt;
	struct am_mopts mo;
	char err[256];
	size_t i;

	am_maptext_init(&mt, (const char *)data, size);
	while (am_maptext_next(&mt) > 0)
		am_master_add(&m, mt.mt_key.ab_s, mt.mt_entry.ab_s, "fuzz", err, sizeof(err));
	am_maptext_free(&mt);
	for (i = 0; i < m.m_n; i++)
		if (!am_mopts_parse(m.m_entries[i].me_options, &mo, err, sizeof(err)))
			am_mopts_free(&mo);
	am_master_free(&m);
	return 0;
}
#elif FUZZ_TARGET == 4
/* The first record of KEY, read with or without the lookup's skipping. */
static void first_of(const char *text, size_t len, const char *key, bool want,
		     char **entry, unsigned int *line)
{
	struct am_maptext mt;

	am_maptext_init(&mt, text, len);
	mt.mt_want = want ? key : NULL;
	*entry = NULL;
	*line = 0;
	while (am_maptext_next(&mt) > 0) {
		if (strcmp(mt.mt_key.ab_s, key))
			continue;
		*entry = strdup(mt.mt_entry.ab_s);
		*line = mt.mt_recline;
		break;
	}
	am_maptext_free(&mt);
}

/* A lookup that skips other keys' lines finds what a full read finds. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *nl, *full, *fast;
	unsigned int full_line, fast_line;

	if (!text)
		return 0;
	/* the first line is the key, the rest the map */
	nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		first_of(nl + 1, size - (size_t)(nl + 1 - text), text, false, &full, &full_line);
		first_of(nl + 1, size - (size_t)(nl + 1 - text), text, true, &fast, &fast_line);
		if (full_line != fast_line || !full != !fast || (full && strcmp(full, fast)))
			abort();
		free(full);
		free(fast);
	}
	free(text);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct am_conf c;
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	am_conf_defaults(&c);
	am_conf_parse(&c, "fuzz", text);
	am_conf_free(&c);
	free(text);
	return 0;
}
#endif
