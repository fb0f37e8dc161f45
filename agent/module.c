// SPDX-License-Identifier: GPL-2.0
/*
 * The one module loader: map backends (map_<name>.so) and mount modules
 * (mount_<name>.so), built into the agent (am_module.h) or found in
 * AUTOFS_AGENT_MODULE_DIR, module_dir or MODULEDIR, checked for their
 * descriptor's abi and size before use.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "am_agent.h"
#include "am_dynamic.h"
#include "am_stage.h"
#include "am_util.h"

struct am_loaded {
	struct am_loaded *lo_next;
	enum am_module_kind lo_kind;
	char *lo_name;
	void *lo_handle;
	const void *lo_ops;
};

const char *am_module_for_fstype(const char *fstype)
{
	if (!strcmp(fstype, "nfs") || !strcmp(fstype, "nfs4"))
		return "nfs";
	if (!strcmp(fstype, "bind"))
		return "bind";
	return "generic";
}

static bool module_name_valid(const char *name)
{
	return *name && strlen(name) < 64 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(name);
}

int am_module_path(const char *modpath, const char *file, char **path)
{
	const char *dir = modpath, *end;
	char *p;

	while (*dir) {
		end = strchr(dir, ':');
		if (!end)
			end = dir + strlen(dir);
		if (end > dir) {
			if (asprintf(&p, "%.*s/%s", (int)(end - dir), dir, file) < 0)
				return -ENOMEM;
			if (!access(p, F_OK)) {
				*path = p;
				return 0;
			}
			free(p);
		}
		dir = *end ? end + 1 : end;
	}
	return -ENOENT;
}

static int module_check_map(const char *path, const struct am_map_ops *ops)
{
	if (ops->abi != AM_MAP_ABI) {
		am_log(LOG_ERR, "%s: map module ABI %u, this agent speaks %u: refused",
		       path, ops->abi, AM_MAP_ABI);
		return -ENOEXEC;
	}
	if (ops->size < offsetof(struct am_map_ops, snapshot)) {
		am_log(LOG_ERR, "%s: descriptor is %u bytes, expected at least %zu: refused",
		       path, ops->size, offsetof(struct am_map_ops, snapshot));
		return -ENOEXEC;
	}
	if (!ops->name || !ops->open || !ops->lookup || !ops->close) {
		am_log(LOG_ERR, "%s: descriptor lacks name, open, lookup or close: refused", path);
		return -ENOEXEC;
	}
	return 0;
}

static int module_check_mount(const char *path, const struct am_mount_ops *ops)
{
	if (ops->abi != AM_MOUNT_ABI) {
		am_log(LOG_ERR, "%s: mount module ABI %u, this agent speaks %u: refused",
		       path, ops->abi, AM_MOUNT_ABI);
		return -ENOEXEC;
	}
	if (ops->size < sizeof(*ops)) {
		am_log(LOG_ERR, "%s: descriptor is %u bytes, expected at least %zu: refused",
		       path, ops->size, sizeof(*ops));
		return -ENOEXEC;
	}
	if (!ops->name || !ops->fstypes || !ops->mount) {
		am_log(LOG_ERR, "%s: descriptor lacks name, fstypes or mount: refused", path);
		return -ENOEXEC;
	}
	return 0;
}

/*
 * RTLD_NODELETE: a module's libraries (libldap, libtirpc) keep state in
 * globals until exit.  Unmapped by dlclose, those globals no longer reach
 * that state, LeakSanitizer calls it leaked and a sanitizer build exits 1
 * after a good lookup.  The static agent loads nothing: am_dynamic_need()
 * handed the run over before, or refused.
 */
static void *module_dlopen(const char *path)
{
	void *handle = NULL;

#ifndef AM_STATIC
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!handle)
		am_log(LOG_ERR, "%s: cannot load: %s", path, dlerror());
#else
	am_log(LOG_ERR, "%s: not loaded by the static agent", path);
#endif
	return handle;
}

static int module_open(const char *path, enum am_module_kind kind,
		       void **handlep, const void **opsp)
{
	const char *sym = kind == AM_MODULE_MAP ? AM_MAP_SYMBOL : AM_MOUNT_SYMBOL;
	const void *ops;
	void *handle;
	int err;

	handle = module_dlopen(path);
	if (!handle)
		return -ENOEXEC;
	ops = dlsym(handle, sym);
	if (!ops) {
		am_log(LOG_ERR, "%s: does not export %s: refused", path, sym);
		dlclose(handle);
		return -ENOEXEC;
	}
	err = kind == AM_MODULE_MAP ? module_check_map(path, ops) :
				       module_check_mount(path, ops);
	if (err) {
		dlclose(handle);
		return err;
	}
	*handlep = handle;
	*opsp = ops;
	return 0;
}

/* The records AM_MAP_MODULE / AM_MOUNT_MODULE leave in a built-in's object. */
extern const struct am_builtin *const __start_am_builtin[] __attribute__((weak));
extern const struct am_builtin *const __stop_am_builtin[] __attribute__((weak));

/* Returns: 0 and *OPSP for a module built into the agent, else -ENOENT. */
static int module_builtin(enum am_module_kind kind, const char *name, const void **opsp)
{
	int want = kind == AM_MODULE_MAP ? AM_BUILTIN_MAP : AM_BUILTIN_MOUNT;
	/* the linker sets the two symbols around the section, if it exists */
	size_t i, n = __start_am_builtin ?
		((uintptr_t)__stop_am_builtin - (uintptr_t)__start_am_builtin) /
		sizeof(*__start_am_builtin) : 0;
	const struct am_builtin *b;

	for (i = 0; i < n; i++) {
		b = __start_am_builtin[i];
		if (b->ab_kind != want || strcmp(b->ab_name, name))
			continue;
		*opsp = b->ab_ops;
		return kind == AM_MODULE_MAP ? module_check_map("built-in", *opsp) :
					       module_check_mount("built-in", *opsp);
	}
	return -ENOENT;
}

/* <prefix>NAME.so from the module path.  Returns: 0, -ENOENT, -ENOEXEC, -errno. */
static int module_file(struct am_ctx *ctx, enum am_module_kind kind, const char *name,
		       void **handlep, const void **opsp)
{
	const char *prefix = kind == AM_MODULE_MAP ? AM_MAP_PREFIX : AM_MOUNT_PREFIX;
	enum am_stage prev;
	char *file, *path;
	int err;

	if (asprintf(&file, "%s%s.so", prefix, name) < 0)
		return -ENOMEM;
	err = am_module_path(ctx->ac_modpath, file, &path);
	if (err == -ENOENT)
		am_log(LOG_ERR, "no module %s in %s", file, ctx->ac_modpath);
	if (!err)
		err = am_dynamic_need(file);
	free(file);
	if (err)
		return err;
	prev = am_stage_enter(AM_STAGE_MODULE);
	err = module_open(path, kind, handlep, opsp);
	am_stage_enter(prev);
	free(path);
	return err;
}

int am_module_load(struct am_ctx *ctx, enum am_module_kind kind,
		   const char *name, const void **ops)
{
	struct am_loaded *lo;
	int err;

	for (lo = ctx->ac_loaded; lo; lo = lo->lo_next)
		if (lo->lo_kind == kind && !strcmp(lo->lo_name, name)) {
			*ops = lo->lo_ops;
			return 0;
		}
	if (!module_name_valid(name)) {
		am_log(LOG_ERR, "module name '%.64s' is not valid", name);
		return -EINVAL;
	}
	lo = calloc(1, sizeof(*lo));
	if (!lo)
		return -ENOMEM;
	err = module_builtin(kind, name, &lo->lo_ops);
	if (err == -ENOENT)
		err = module_file(ctx, kind, name, &lo->lo_handle, &lo->lo_ops);
	lo->lo_name = err ? NULL : strdup(name);
	if (err || !lo->lo_name) {
		if (lo->lo_handle)
			dlclose(lo->lo_handle);
		free(lo);
		return err ? err : -ENOMEM;
	}
	lo->lo_kind = kind;
	lo->lo_next = ctx->ac_loaded;
	ctx->ac_loaded = lo;
	*ops = lo->lo_ops;
	return 0;
}

void am_module_unload_all(struct am_ctx *ctx)
{
	struct am_loaded *lo;

	while ((lo = ctx->ac_loaded)) {
		ctx->ac_loaded = lo->lo_next;
		if (lo->lo_handle)
			dlclose(lo->lo_handle);
		free(lo->lo_name);
		free(lo);
	}
}
