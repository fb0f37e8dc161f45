/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_sss.so inside: the agent's side (sss.c) asks a forked child
 * (sss_child.c) for one call and reads its answer, a stream of records, from
 * a pipe.  The child is the only process that loads SSSD's library.
 */
#ifndef SSS_PRIV_H
#define SSS_PRIV_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define SSS_MAX_KEY	((unsigned int)PATH_MAX)	/* the library's own limit */
#define SSS_MAX_VALUE	(1U << 20)
#define SSS_MAX_WHY	512		/* bytes of a NOLIB record's reason */
#define SSS_CHILD_FD	3		/* the child's end of the pipe, in the child */

enum sss_job {
	SSS_JOB_OPEN,			/* does SSSD have the map? */
	SSS_JOB_LOOKUP,
	SSS_JOB_LIST,
};

/* One call, all the child needs: it reads nothing else of the agent's. */
struct sss_call {
	enum sss_job sc_job;
	const char *sc_library;		/* path of libsss_autofs.so */
	const char *sc_map;
	const char *sc_key;		/* SSS_JOB_LOOKUP only */
	pid_t sc_agent;			/* the parent, whose death ends the child */
};

/* r_status of a record; a negative one is -errno of the library, and last. */
enum {
	SSS_REC_ENTRY = 0,	/* r_klen bytes of key and r_vlen of value follow */
	SSS_REC_END = 1,	/* no more records */
	SSS_REC_REFUSED = 2,	/* an entry over the limits: its sizes, no bytes */
	SSS_REC_NOLIB = 3,	/* the library is unusable: r_vlen bytes of why; last */
};

struct sss_rec {
	int32_t r_status;
	uint32_t r_klen;
	uint32_t r_vlen;
};

/*
 * In the child just forked by the agent: confines it, runs CALL and writes
 * its records to FD.  Never returns.
 */
void sss_child_main(const struct sss_call *call, int fd) __attribute__((noreturn));

#endif
