// SPDX-License-Identifier: GPL-2.0
/*
 * Broken map modules for the loader test, one per BAD_KIND: a wrong ABI
 * number, a descriptor smaller than the agent's, no descriptor symbol.
 */
#include <errno.h>

#include "am_module.h"

static int bad_open(struct am_map **mapp, const struct am_map_args *args)
{
	(void)mapp, (void)args;
	return -ENOENT;
}

static int bad_lookup(struct am_map *map, const char *key, char **entry)
{
	(void)map, (void)key, (void)entry;
	return -ENOENT;
}

static void bad_close(struct am_map *map)
{
	(void)map;
}

#if BAD_KIND == 1
const struct am_map_ops am_map_module = {
	.abi = AM_MAP_ABI + 1, .size = sizeof(struct am_map_ops), .name = "badabi",
	.open = bad_open, .lookup = bad_lookup, .close = bad_close,
};
#elif BAD_KIND == 2
const struct am_map_ops am_map_module = {
	.abi = AM_MAP_ABI, .size = 8, .name = "badsize",
	.open = bad_open, .lookup = bad_lookup, .close = bad_close,
};
#else
const struct am_map_ops am_map_other_symbol = {
	.abi = AM_MAP_ABI, .size = sizeof(struct am_map_ops), .name = "nosym",
	.open = bad_open, .lookup = bad_lookup, .close = bad_close,
};
#endif
