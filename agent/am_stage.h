/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where one agent run's time goes, by stage, logged at debug level at its
 * end (bench/README.md collects the lines).  A stage is entered, not
 * started and stopped: the time since the last switch goes to the stage
 * that was current, so a stage entered twice (a module loaded for the map
 * and another for the mount) adds up.
 */
#ifndef AM_STAGE_H
#define AM_STAGE_H

enum am_stage {
	AM_STAGE_INIT,		/* main to the configuration read, logging set up */
	AM_STAGE_MAP,		/* the map sources: open, read, look up */
	AM_STAGE_MODULE,	/* dlopen of map and mount modules */
	AM_STAGE_NAMES,		/* the requester's user and group names */
	AM_STAGE_PARSE,		/* expansion, parse, trust checks */
	AM_STAGE_MOUNT,		/* building the detached mount */
	AM_STAGE_ATTACH,	/* joining the namespace, attaching */
	AM_STAGE_EXPIRE,	/* setting expiry */
	AM_STAGE_END,		/* the result line and cleanup */
	AM_STAGE_NR
};

void am_stage_begin(void);
enum am_stage am_stage_enter(enum am_stage s);
void am_stage_report(const char *what);

#endif
