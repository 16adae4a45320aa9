#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "util/buf.h"
#include "util/child.h"
#include "util/loop.h"
#include "util/xmalloc.h"

struct child {
	child_cb		 cb;
	void			*arg;
	size_t			 max;
	uv_process_t		 proc;
	uv_pipe_t		 out, err;
	uv_timer_t		 timer;
	int			 open;		/* handles not closed yet */
	int			 eofs;		/* pipes at their end */
	bool			 exited, finished;
	struct child_result	 r;
	struct aiterm_buf	 outbuf, errbuf;
};

static void
closed(uv_handle_t *handle)
{
	struct child *c = handle->data;

	if (--c->open > 0)
		return;
	c->r.out = buf_str(&c->outbuf);
	c->r.out_len = c->outbuf.len;
	c->r.errout = buf_str(&c->errbuf);
	c->r.errout_len = c->errbuf.len;
	c->cb(c->arg, &c->r);
	buf_free(&c->outbuf);
	buf_free(&c->errbuf);
	free(c);
}

static void
close_one(struct child *c, uv_handle_t *h)
{
	(void)c;
	if (!uv_is_closing(h))
		uv_close(h, closed);
}

/* The exit and the end of both outputs are in, or the deadline passed. */
static void
finish(struct child *c)
{
	if (c->finished)
		return;
	c->finished = true;
	uv_timer_stop(&c->timer);
	close_one(c, (uv_handle_t *)&c->timer);
	close_one(c, (uv_handle_t *)&c->out);
	close_one(c, (uv_handle_t *)&c->err);
	close_one(c, (uv_handle_t *)&c->proc);
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
	struct child *c = s->data;
	struct aiterm_buf *to = s == (uv_stream_t *)&c->out ? &c->outbuf :
	    &c->errbuf;

	if (n > 0 && to->len < c->max)
		buf_add(to, b->base, (size_t)n > c->max - to->len ?
		    c->max - to->len : (size_t)n);
	free(b->base);
	if (n < 0) {
		uv_read_stop(s);
		if (++c->eofs == 2 && c->exited)
			finish(c);
	}
}

static void
on_exit_cb(uv_process_t *proc, int64_t status, int sig)
{
	struct child *c = proc->data;

	c->exited = true;
	c->r.status = sig != 0 ? -1 : (int)status;
	c->r.term_signal = sig;
	if (c->eofs == 2 || c->r.timed_out)
		finish(c);
}

static void
on_deadline(uv_timer_t *t)
{
	struct child *c = t->data;

	c->r.timed_out = true;
	c->r.status = -1;
	uv_process_kill(&c->proc, SIGKILL);
	if (c->exited)
		finish(c);
}

void
child_run(const char *const argv[], const char *cwd, unsigned deadline_ms,
    size_t out_max, child_cb cb, void *arg)
{
	struct child *c = xcalloc(1, sizeof *c);
	uv_process_options_t o;
	uv_stdio_container_t io[3];
	int rc;

	c->cb = cb;
	c->arg = arg;
	c->max = out_max;
	c->r.status = -1;
	uv_pipe_init(core_loop(), &c->out, 0);
	uv_pipe_init(core_loop(), &c->err, 0);
	uv_timer_init(core_loop(), &c->timer);
	c->out.data = c->err.data = c->timer.data = c->proc.data = c;
	c->open = 4;
	memset(&o, 0, sizeof o);
	memset(io, 0, sizeof io);
	io[0].flags = UV_IGNORE;
	io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[1].data.stream = (uv_stream_t *)&c->out;
	io[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[2].data.stream = (uv_stream_t *)&c->err;
	o.file = argv[0];
	o.args = (char **)argv;
	o.cwd = cwd;
	o.stdio = io;
	o.stdio_count = 3;
	o.exit_cb = on_exit_cb;
	/* uv_spawn initialises the process handle even when it fails. */
	if ((rc = uv_spawn(core_loop(), &c->proc, &o)) != 0) {
		c->r.start_error = uv_strerror(rc);
		finish(c);
		return;
	}
	uv_timer_start(&c->timer, on_deadline, deadline_ms, 0);
	uv_read_start((uv_stream_t *)&c->out, on_alloc, on_read);
	uv_read_start((uv_stream_t *)&c->err, on_alloc, on_read);
}
