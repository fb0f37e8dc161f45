/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one assertion of the C unit tests: a failed CHECK prints where and
 * why, counts, and lets the test go on; main() returns check_failures != 0.
 */
#ifndef TEST_UNIT_CHECK_H
#define TEST_UNIT_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		check_failures++;					\
		printf("FAIL %s:%d: ", __func__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

#endif /* TEST_UNIT_CHECK_H */
