// SPDX-License-Identifier: GPL-2.0
/*
 * Per-stage timings of one agent run (am_stage.h).  "exec" is the CPU time
 * the process had used when main began: the kernel's fork and exec and the
 * dynamic loader, which no clock inside the program can see begin.  The
 * rest are wall-clock intervals between stage switches; main_at is when
 * main began (CLOCK_MONOTONIC), to set beside the requester's clock.
 */
#include <stdio.h>
#include <time.h>

#include "am_stage.h"
#include "am_util.h"

static const char *const stage_names[AM_STAGE_NR] = {
	"init", "map", "module", "names", "parse", "mount", "attach", "expire", "end",
};

static struct {
	long long st_us[AM_STAGE_NR];
	long long st_exec_us, st_begin, st_last;
	enum am_stage st_cur;
} stages;

static long long clock_us(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

void am_stage_begin(void)
{
	stages.st_exec_us = clock_us(CLOCK_PROCESS_CPUTIME_ID);
	stages.st_begin = stages.st_last = clock_us(CLOCK_MONOTONIC);
	stages.st_cur = AM_STAGE_INIT;
}

/* Returns: the stage that was current, to enter again afterwards. */
enum am_stage am_stage_enter(enum am_stage s)
{
	long long now = clock_us(CLOCK_MONOTONIC);
	enum am_stage prev = stages.st_cur;

	stages.st_us[prev] += now - stages.st_last;
	stages.st_last = now;
	stages.st_cur = s;
	return prev;
}

void am_stage_report(const char *what)
{
	char line[512];
	size_t len;
	int i;

	if (!am_log_wants(LOG_DEBUG))
		return;
	am_stage_enter(stages.st_cur);
	len = (size_t)snprintf(line, sizeof(line), "stages %s us: main_at=%lld exec=%lld",
			       what, stages.st_begin, stages.st_exec_us);
	for (i = 0; i < AM_STAGE_NR && len < sizeof(line); i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %s=%lld",
					stage_names[i], stages.st_us[i]);
	am_log(LOG_DEBUG, "%s total=%lld", line, stages.st_last - stages.st_begin);
}
