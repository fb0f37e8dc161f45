// SPDX-License-Identifier: GPL-2.0
/*
 * map_sss.so, the child: the one process that loads SSSD's client library
 * libsss_autofs.so and calls it, for one call of the agent.
 *
 * The agent is root and holds what the kernel gave it (MOUNTFD, MNTNSFD,
 * WRITEFD), its syslog socket and the connections of other map modules;
 * code loaded into it runs with all of that.  So the library is loaded
 * only here, after the child has closed every descriptor but stdio and its
 * pipe and has made sure it dies with the agent: the library may block 300 s
 * on a hung SSSD, and a child left behind by a killed agent would hold
 * SSSD's lock and socket for that long.
 *
 * The child never logs: the agent's log socket is closed here, and its
 * number may be the library's socket by then.  What went wrong travels in
 * the records (sss_priv.h) and the agent logs it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "am_util.h"
#include "sss_priv.h"

#define SSS_PROTO	1		/* errors that tell ENOENT from a down SSSD */

typedef unsigned int (*sss_proto_fn)(unsigned int);
typedef int (*sss_set_fn)(const char *, void **);
typedef int (*sss_get_fn)(char **, char **, void *);
typedef int (*sss_byname_fn)(const char *, char **, void *);
typedef int (*sss_end_fn)(void **);

struct sss_lib {
	sss_set_fn sl_set;
	sss_get_fn sl_get;
	sss_byname_fn sl_byname;
	sss_end_fn sl_end;
};

/* ---- confinement ----------------------------------------------------- */

/* Closes every descriptor from LOW up. */
static void sss_close_from(unsigned int low)
{
	long max, fd;

	if (!close_range(low, ~0U, 0))
		return;
	/* kernels before 5.9: every number the limit allows */
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0)
		max = 1L << 20;
	for (fd = low; fd < max; fd++)
		close((int)fd);
}

/*
 * Dies with the agent, and keeps of its descriptors only stdio and the pipe
 * FD, moved to SSS_CHILD_FD.  Exits when the agent is already gone.
 */
static void sss_child_confine(const struct sss_call *call, int fd)
{
	/*
	 * The signal follows the thread that forked, the agent's only one; the
	 * check after the prctl closes the race with an agent dying before it.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != call->sc_agent)
		_exit(1);
	closelog();
	if (fd != SSS_CHILD_FD && dup2(fd, SSS_CHILD_FD) < 0)
		_exit(1);
	sss_close_from(SSS_CHILD_FD + 1);
}

/* ---- records --------------------------------------------------------- */

static int sss_put(int32_t status, const char *key, const char *val)
{
	struct sss_rec r = {
		.r_status = status,
		.r_klen = key ? (uint32_t)strlen(key) : 0,
		.r_vlen = val ? (uint32_t)strlen(val) : 0,
	};

	if (am_write_full(SSS_CHILD_FD, &r, sizeof(r)) ||
	    am_write_full(SSS_CHILD_FD, key ? key : "", r.r_klen) ||
	    am_write_full(SSS_CHILD_FD, val ? val : "", r.r_vlen))
		return -EIO;
	return 0;
}

/* Returns: 0, 1 when it was over the limits and refused, -EIO. */
static int sss_put_entry(const char *key, const char *val)
{
	struct sss_rec r = {
		.r_status = SSS_REC_REFUSED,
		.r_klen = (uint32_t)strnlen(key, SSS_MAX_KEY + 1),
		.r_vlen = (uint32_t)strnlen(val, SSS_MAX_VALUE + 1),
	};

	if (r.r_klen <= SSS_MAX_KEY && r.r_vlen <= SSS_MAX_VALUE)
		return sss_put(SSS_REC_ENTRY, key, val);
	return am_write_full(SSS_CHILD_FD, &r, sizeof(r)) ? -EIO : 1;
}

/* Tells the agent why the library cannot be used. */
static void sss_put_nolib(const char *why)
{
	char buf[SSS_MAX_WHY + 1];

	strncpy(buf, why ? why : "unknown error", SSS_MAX_WHY);
	buf[SSS_MAX_WHY] = '\0';
	sss_put(SSS_REC_NOLIB, NULL, buf);
}

/* ---- the library ----------------------------------------------------- */

static void *sss_sym(void *dh, const char *name, bool *missing)
{
	void *f = dlsym(dh, name);

	*missing |= !f;
	return f;
}

/* Returns: 0, or -ELIBACC after telling the agent why not. */
static int sss_lib_load(const struct sss_call *call, struct sss_lib *l)
{
	char why[SSS_MAX_WHY];
	sss_proto_fn proto;
	bool missing = false;
	void *dh;

	dh = dlopen(call->sc_library, RTLD_NOW | RTLD_LOCAL);
	if (!dh) {
		sss_put_nolib(dlerror());
		return -ELIBACC;
	}
	l->sl_set = (sss_set_fn)sss_sym(dh, "_sss_setautomntent", &missing);
	l->sl_get = (sss_get_fn)sss_sym(dh, "_sss_getautomntent_r", &missing);
	l->sl_byname = (sss_byname_fn)sss_sym(dh, "_sss_getautomntbyname_r", &missing);
	l->sl_end = (sss_end_fn)sss_sym(dh, "_sss_endautomntent", &missing);
	if (missing) {
		snprintf(why, sizeof(why), "%s lacks the autofs calls of SSSD",
			 call->sc_library);
		sss_put_nolib(why);
		return -ELIBACC;
	}
	/* absent before version 1, whose errors are the ones the agent knows */
	proto = (sss_proto_fn)dlsym(dh, "_sss_auto_protocol_version");
	if (proto)
		proto(SSS_PROTO);
	return 0;
}

/* ---- the calls ------------------------------------------------------- */

/* A lookup; the wildcard may be stored as "*" or "/" (rfc2307 maps). */
static int sss_job_lookup(const struct sss_lib *l, void *ctx, const char *key)
{
	char *val = NULL;
	int err;

	err = l->sl_byname(key, &val, ctx);
	if (err == ENOENT && !strcmp(key, "*"))
		err = l->sl_byname("/", &val, ctx);
	if (err || !val)
		return sss_put(-(err ? err : ENOENT), NULL, NULL);
	err = sss_put_entry(key, val);
	free(val);
	if (err == 1)
		return sss_put(-EFBIG, NULL, NULL);
	return err ? err : sss_put(SSS_REC_END, NULL, NULL);
}

static int sss_job_list(const struct sss_lib *l, void *ctx)
{
	char *k, *v;
	int err;

	for (;;) {
		k = v = NULL;
		err = l->sl_get(&k, &v, ctx);
		if (err == ENOENT || (!err && !k))
			return sss_put(SSS_REC_END, NULL, NULL);
		if (err)
			return sss_put(-err, NULL, NULL);
		err = sss_put_entry(strcmp(k, "/") ? k : "*", v ? v : "");
		free(k);
		free(v);
		if (err < 0)
			return err;
	}
}

static int sss_job_run(const struct sss_call *call, const struct sss_lib *l, void *ctx)
{
	switch (call->sc_job) {
	case SSS_JOB_LOOKUP:
		return sss_job_lookup(l, ctx, call->sc_key);
	case SSS_JOB_LIST:
		return sss_job_list(l, ctx);
	default:
		return sss_put(SSS_REC_END, NULL, NULL);
	}
}

void sss_child_main(const struct sss_call *call, int fd)
{
	struct sss_lib lib;
	void *ctx = NULL;
	int err;

	sss_child_confine(call, fd);
	if (sss_lib_load(call, &lib))
		_exit(1);
	err = lib.sl_set(call->sc_map, &ctx);
	if (err)
		_exit(sss_put(-err, NULL, NULL) ? 1 : 0);
	err = sss_job_run(call, &lib, ctx);
	lib.sl_end(&ctx);
	_exit(err ? 1 : 0);
}
