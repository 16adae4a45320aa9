#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uv.h>

#include "agent/probe.h"
#include "util/buf.h"
#include "util/loop.h"
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
	uv_process_t		 proc;
	uv_pipe_t		 out;
	uv_timer_t		 timer;
	int			 open;		/* handles not closed yet */
	bool			 exited, eof, finished, timed_out;
	int64_t			 status;
	int			 term_signal;
	struct aiterm_buf	 output;
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

static void
closed(uv_handle_t *handle)
{
	struct probe *p = handle->data;

	if (--p->open > 0)
		return;
	report(p->cb, p->arg, &p->r);
	buf_free(&p->output);
	free(p);
}

/* Both the exit and the end of output are in (or the deadline passed). */
static void
finish(struct probe *p)
{
	struct cached *c;

	if (p->finished)
		return;
	p->finished = true;
	if (p->timed_out) {
		error_set(&p->r.err, "%s %s gave no answer in %d ms",
		    p->r.binary, p->ops->version_args[0], PROBE_DEADLINE_MS);
	} else if (p->term_signal != 0 || p->status != 0) {
		error_set(&p->r.err, "%s %s failed (%s %d): %.300s",
		    p->r.binary, p->ops->version_args[0],
		    p->term_signal != 0 ? "signal" : "status",
		    p->term_signal != 0 ? p->term_signal : (int)p->status,
		    buf_str(&p->output));
	} else if (p->ops->parse_version(buf_str(&p->output), p->output.len,
	    p->r.version, sizeof p->r.version) != 0) {
		p->r.version[0] = '\0';
	} else {
		c = xcalloc(1, sizeof *c);
		snprintf(c->binary, sizeof c->binary, "%s", p->r.binary);
		c->mtime_ns = p->mtime_ns;
		snprintf(c->version, sizeof c->version, "%s", p->r.version);
		c->next = cache;
		cache = c;
	}
	judge(p->ops, p->id, &p->r);
	uv_timer_stop(&p->timer);
	uv_close((uv_handle_t *)&p->timer, closed);
	if (!uv_is_closing((uv_handle_t *)&p->out))
		uv_close((uv_handle_t *)&p->out, closed);
	uv_close((uv_handle_t *)&p->proc, closed);
}

static void
on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	(void)h;
	b->base = xmalloc(hint);
	b->len = hint;
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct probe *p = s->data;

	if (n > 0 && p->output.len < OUT_MAX)
		buf_add(&p->output, b->base, (size_t)n);
	free(b->base);
	if (n < 0) {
		p->eof = true;
		uv_read_stop(s);
		if (p->exited)
			finish(p);
	}
}

static void
on_child_exit(uv_process_t *proc, int64_t status, int sig)
{
	struct probe *p = proc->data;

	p->exited = true;
	p->status = status;
	p->term_signal = sig;
	if (p->eof || p->timed_out)
		finish(p);
}

static void
on_deadline(uv_timer_t *t)
{
	struct probe *p = t->data;

	p->timed_out = true;
	uv_process_kill(&p->proc, SIGKILL);
	if (p->exited)
		finish(p);
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
	uv_process_options_t o;
	uv_stdio_container_t io[3];
	struct probe *p;
	char *found = NULL, **args;
	size_t i, n = 0;
	int rc;

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
		args[i + 1] = (char *)h->ops->version_args[i];
	uv_pipe_init(core_loop(), &p->out, 0);
	uv_timer_init(core_loop(), &p->timer);
	p->out.data = p->timer.data = p->proc.data = p;
	p->open = 3;
	memset(&o, 0, sizeof o);
	memset(io, 0, sizeof io);
	io[0].flags = UV_IGNORE;
	io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[1].data.stream = (uv_stream_t *)&p->out;
	io[2].flags = UV_IGNORE;
	o.file = p->r.binary;
	o.args = args;
	o.stdio = io;
	o.stdio_count = 3;
	o.exit_cb = on_child_exit;
	rc = uv_spawn(core_loop(), &p->proc, &o);
	free(args);
	if (rc != 0) {
		error_set(&p->r.err, "cannot start %s: %s", p->r.binary,
		    uv_strerror(rc));
		p->finished = true;
		uv_close((uv_handle_t *)&p->timer, closed);
		uv_close((uv_handle_t *)&p->out, closed);
		/* A process that failed to spawn is still closed. */
		uv_close((uv_handle_t *)&p->proc, closed);
		return;
	}
	uv_timer_start(&p->timer, on_deadline, PROBE_DEADLINE_MS, 0);
	uv_read_start((uv_stream_t *)&p->out, on_alloc, on_read);
}
