#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent/probe.h"
#include "util/child.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define OUT_MAX	65536

/* One cached version per binary and modification time. */
struct cached {
	char		 binary[PATH_MAX];
	long long	 mtime_ns;
	char		 version[64];
	struct cached	*next;
};
static struct cached *cache;

struct probe {
	const struct aiterm_harness_ops	*ops;
	char			 id[64];
	struct probe_result	 r;
	long long		 mtime_ns;
	probe_cb		 cb;
	void			*arg;
};

static long long
mtime_ns(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -1;
	return (long long)st.st_mtim.tv_sec * 1000000000LL +
	    st.st_mtim.tv_nsec;
}

/*
 * Status 0 when the version is known and not older than the plugin's
 * minimum; else it stays -1, with err.
 */
static void
judge(const struct aiterm_harness_ops *ops, const char *id,
    struct probe_result *r)
{
	if (r->err.msg != NULL)
		return;
	if (r->version[0] == '\0') {
		error_set(&r->err, "%s: cannot read its version", r->binary);
	} else if (ops->min_version != NULL &&
	    harness_version_cmp(r->version, ops->min_version) < 0) {
		error_set(&r->err, "%s is version %s; the %s harness needs %s "
		    "or newer", r->binary, r->version, id, ops->min_version);
	} else {
		r->status = 0;
	}
}

/* The callback, then the result's err goes. */
static void
report(probe_cb cb, void *arg, struct probe_result *r)
{
	cb(arg, r);
	error_clear(&r->err);
}

/* The version program ended (or the deadline passed). */
static void
ran(void *arg, const struct child_result *c)
{
	struct probe *p = arg;
	struct cached *k;

	if (c->start_error != NULL) {
		error_set(&p->r.err, "cannot start %s: %s", p->r.binary,
		    c->start_error);
	} else if (c->timed_out) {
		error_set(&p->r.err, "%s %s gave no answer in %d ms",
		    p->r.binary, p->ops->version_args[0], PROBE_DEADLINE_MS);
	} else if (c->term_signal != 0 || c->status != 0) {
		error_set(&p->r.err, "%s %s failed (%s %d): %.300s",
		    p->r.binary, p->ops->version_args[0],
		    c->term_signal != 0 ? "signal" : "status",
		    c->term_signal != 0 ? c->term_signal : c->status, c->out);
	} else if (p->ops->parse_version(c->out, c->out_len, p->r.version,
	    sizeof p->r.version) != 0) {
		p->r.version[0] = '\0';
	} else {
		k = xcalloc(1, sizeof *k);
		snprintf(k->binary, sizeof k->binary, "%s", p->r.binary);
		k->mtime_ns = p->mtime_ns;
		snprintf(k->version, sizeof k->version, "%s", p->r.version);
		k->next = cache;
		cache = k;
	}
	judge(p->ops, p->id, &p->r);
	report(p->cb, p->arg, &p->r);
	free(p);
}

/* From the cache, or NULL. */
static const struct cached *
cached(const char *binary, long long mt)
{
	const struct cached *c;

	for (c = cache; c != NULL; c = c->next) {
		if (c->mtime_ns == mt && strcmp(c->binary, binary) == 0)
			return c;
	}
	return NULL;
}

void
harness_probe(const struct harness *h, probe_cb cb, void *arg)
{
	struct probe_result now;
	const struct cached *c;
	struct probe *p;
	const char **args;
	char *found = NULL;
	size_t i, n = 0;

	memset(&now, 0, sizeof now);
	now.status = -1;
	for (i = 0; h->ops->binaries[i] != NULL && found == NULL; i++)
		found = path_search(h->ops->binaries[i]);
	if (found == NULL) {
		error_set(&now.err, "%s is not installed: no %s on PATH "
		    "(%.400s)", h->id, h->ops->binaries[0],
		    getenv("PATH") != NULL ? getenv("PATH") : "");
		report(cb, arg, &now);
		return;
	}
	snprintf(now.binary, sizeof now.binary, "%s", found);
	free(found);
	if ((c = cached(now.binary, mtime_ns(now.binary))) != NULL) {
		snprintf(now.version, sizeof now.version, "%s", c->version);
		judge(h->ops, h->id, &now);
		report(cb, arg, &now);
		return;
	}
	/* No err is set yet: p->r takes none with it. */
	p = xcalloc(1, sizeof *p);
	p->ops = h->ops;
	snprintf(p->id, sizeof p->id, "%s", h->id);
	p->r = now;
	p->mtime_ns = mtime_ns(now.binary);
	p->cb = cb;
	p->arg = arg;
	while (h->ops->version_args[n] != NULL)
		n++;
	args = xcalloc(n + 2, sizeof *args);
	args[0] = p->r.binary;
	for (i = 0; i < n; i++)
		args[i + 1] = h->ops->version_args[i];
	child_run(args, NULL, PROBE_DEADLINE_MS, OUT_MAX, ran, p);
	free(args);
}
