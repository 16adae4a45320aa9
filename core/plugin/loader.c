#include <libgen.h>
#include <ltdl.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/host.h"
#include "plugin/loader.h"
#include "util/xmalloc.h"

#ifndef AITERM_PLATFORM
#define AITERM_PLATFORM "linux"
#endif

int
loader_check_abi(unsigned major, unsigned minor, const char *what,
    struct aiterm_error *err)
{
	if (major != AITERM_ABI_MAJOR)
		return error_set(err, "%s ABI %u.%u has major %u, this Aiterm "
		    "speaks major %u", what, major, minor, major,
		    AITERM_ABI_MAJOR);
	if (minor > AITERM_ABI_MINOR)
		return error_set(err, "%s ABI %u.%u is newer than this "
		    "Aiterm's %u.%u", what, major, minor, AITERM_ABI_MAJOR,
		    AITERM_ABI_MINOR);
	return 0;
}

static int
check_platform(const struct manifest *m, struct aiterm_error *err)
{
	char **p;

	if (m->platforms == NULL)
		return 0;
	for (p = m->platforms; *p != NULL; p++) {
		if (strcmp(*p, AITERM_PLATFORM) == 0)
			return 0;
	}
	return error_set(err, "not built for this platform (%s)",
	    AITERM_PLATFORM);
}

/*
 * A reducer module's table and its manifest's "reducers:" list name the
 * same reducers, in any order, with the same versions: the manifest is
 * what the core matches command lines with, so it must not promise a
 * reducer the module lacks (or hide one it has).
 */
static int
check_reducers(const struct manifest *m, const struct aiterm_reducer_ops *ops,
    struct aiterm_error *err)
{
	const struct aiterm_reducer *r;
	size_t i, n = 0;

	if (ops->reducers == NULL)
		return error_set(err, "module '%s' has no reducer table",
		    m->name);
	for (r = ops->reducers; r->name != NULL; r++, n++) {
		for (i = 0; i < m->nreducers; i++) {
			if (strcmp(m->reducers[i].name, r->name) == 0)
				break;
		}
		if (i == m->nreducers)
			return error_set(err, "module reducer '%s' is not in "
			    "the manifest's reducers", r->name);
		if (r->version == NULL ||
		    strcmp(r->version, m->reducers[i].version) != 0)
			return error_set(err, "reducer '%s': manifest version "
			    "%s, module version %s", r->name,
			    m->reducers[i].version,
			    r->version == NULL ? "(null)" : r->version);
		if (r->reduce == NULL)
			return error_set(err, "reducer '%s' has no reduce "
			    "function", r->name);
	}
	if (n != m->nreducers) {
		for (i = 0; i < m->nreducers; i++) {
			for (r = ops->reducers; r->name != NULL; r++) {
				if (strcmp(m->reducers[i].name, r->name) == 0)
					break;
			}
			if (r->name == NULL)
				break;
		}
		return error_set(err, "manifest reducer '%s' is not in the "
		    "module", i < m->nreducers ? m->reducers[i].name : "?");
	}
	return 0;
}

/* The receiver table exists from ABI 2.1 (the 2.0 one was never used). */
static int
check_receiver(const struct aiterm_plugin *p, struct aiterm_error *err)
{
	const struct aiterm_receiver_ops *r = p->ops;

	if (p->abi_minor < 1)
		return error_set(err, "a receiver needs ABI 2.1 or later; "
		    "'%s' reports %u.%u", p->name, p->abi_major,
		    p->abi_minor);
	if (r->kind == NULL || *r->kind == '\0' || r->detect == NULL ||
	    r->how == NULL)
		return error_set(err, "receiver '%s' lacks kind, detect or how",
		    p->name);
	return 0;
}

static int
check_descriptor(const struct manifest *m, const struct aiterm_plugin *p,
    struct aiterm_error *err)
{
	const char *kind;

	if (loader_check_abi(p->abi_major, p->abi_minor, "module", err) != 0)
		return -1;
	if (p->abi_major != m->abi_major || p->abi_minor != m->abi_minor)
		return error_set(err, "manifest declares ABI %u.%u but the "
		    "module reports %u.%u", m->abi_major, m->abi_minor,
		    p->abi_major, p->abi_minor);
	if (p->kind != m->kind) {
		kind = plugin_kind_name(p->kind);
		return error_set(err, "manifest kind '%s' does not match the "
		    "module's kind '%s'", plugin_kind_name(m->kind),
		    kind == NULL ? "unknown" : kind);
	}
	if (p->name == NULL || strcmp(p->name, m->name) != 0)
		return error_set(err, "manifest name '%s' does not match the "
		    "module's name '%s'", m->name,
		    p->name == NULL ? "(null)" : p->name);
	if (p->ops == NULL)
		return error_set(err, "module '%s' has no ops table", m->name);
	if (p->kind == AITERM_KIND_REDUCER)
		return check_reducers(m, p->ops, err);
	if (p->kind == AITERM_KIND_RECEIVER)
		return check_receiver(p, err);
	return 0;
}

const struct aiterm_plugin *
loader_load(const struct manifest *m, struct aiterm_error *err)
{
	const struct aiterm_plugin *(*describe)(void);
	const struct aiterm_plugin *p = NULL;
	lt_dlhandle h = NULL;
	char *dir, *path = NULL;

	if (check_platform(m, err) != 0)
		return NULL;
	if (loader_check_abi(m->abi_major, m->abi_minor, "manifest", err) != 0)
		return NULL;
	dir = xstrdup(m->path);
	path = xasprintf("%s/%s", dirname(dir), m->module);
	free(dir);
	h = lt_dlopenext(path);
	if (h == NULL) {
		error_set(err, "cannot load module %s(.la|.so): %s", path,
		    lt_dlerror());
		goto out;
	}
	describe = (const struct aiterm_plugin *(*)(void))lt_dlsym(h,
	    AITERM_PLUGIN_SYMBOL);
	if (describe == NULL) {
		error_set(err, "module %s does not export %s", path,
		    AITERM_PLUGIN_SYMBOL);
		goto out_close;
	}
	p = describe();
	if (p == NULL) {
		error_set(err, "module %s: %s returned NULL", path,
		    AITERM_PLUGIN_SYMBOL);
		goto out_close;
	}
	if (check_descriptor(m, p, err) != 0) {
		p = NULL;
		goto out_close;
	}
	/* From here on the module stays mapped for the life of the process. */
	if (p->init != NULL && p->init(host_get(), err) != 0) {
		error_prefix(err, "init failed");
		p = NULL;
	}
	goto out;
out_close:
	lt_dlclose(h);
out:
	free(path);
	return p;
}
