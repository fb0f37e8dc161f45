/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mounts one lookup makes (plan.c): built detached in the agent's own
 * namespace, attached in the requester's, all or nothing.
 */
#ifndef AM_PLAN_H
#define AM_PLAN_H

#include <stddef.h>

#include "am_lookup.h"

/* The target and the triggers on its children. */
struct am_plan {
	const struct am_mnt *lp_mnt;	/* NULL: multi-mount without a root */
	const char *lp_offset;
	const struct am_mnt **lp_kids;
	size_t lp_nkids;
	int lp_fd;			/* detached target */
	int *lp_kidfd;			/* detached triggers */
	int *lp_kiddir;			/* their directories in the target, or -1 */
};

/*
 * The mounts the entry E needs at OFFSET: its mount there and the offsets
 * just below it.  Returns: an am_exit code (AM_EXIT_NOKEY: E has no such
 * offset).
 */
int am_plan_make(const struct am_entry *e, const char *offset, struct am_plan *lp);
/*
 * Build every mount of LP detached, and open the directories of the
 * triggers in the target.  Returns: an am_exit code; nothing is attached.
 */
int am_plan_build(struct am_ctx *ctx, const struct am_request *rq,
		  const struct am_resolved *rs, struct am_plan *lp);
/*
 * Attach LP on MOUNTFD with its expiry, in the namespace the agent is in.
 * A failure after the target is attached unmounts it again; from the
 * first attach on, SIGTERM and SIGALRM wait until the agent exits.
 * Returns: an am_exit code.
 */
int am_plan_attach(struct am_ctx *ctx, const struct am_request *rq,
		   const struct am_resolved *rs, struct am_plan *lp, int mountfd);
void am_plan_free(struct am_plan *lp);

#endif /* AM_PLAN_H */
