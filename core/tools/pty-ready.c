/*
 * pty_open's reply once the shell's first prompt is in the log.  Like the
 * completion waiter, a change of the output log (inotify through
 * uv_fs_event) wakes it; the timer only bounds the wait.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "tools/pty-ready.h"
#include "util/buf.h"
#include "util/loop.h"
#include "util/xmalloc.h"

/* The first prompt comes early; a log longer than this is not read. */
#define READ_MAX	65536

struct ready {
	uv_fs_event_t		 watch;
	uv_timer_t		 timer;
	int			 open_handles;
	bool			 done;
	struct tool_call	*call;
	char			*text;
	json_t			*structured;
	char			*log;
	char			*needle;
	pty_ready_cb		 then;
	void			*arg;
};

static void
ready_closed(uv_handle_t *h)
{
	struct ready *r = h->data;

	if (--r->open_handles > 0)
		return;
	free(r->text);
	json_decref(r->structured);
	free(r->log);
	free(r->needle);
	free(r);
}

static bool
prompt_seen(const struct ready *r)
{
	char buf[READ_MAX];
	ssize_t n;
	int fd;

	if ((fd = open(r->log, O_RDONLY | O_CLOEXEC)) == -1)
		return false;
	n = read(fd, buf, sizeof buf);
	close(fd);
	return n > 0 && memmem(buf, (size_t)n, r->needle,
	    strlen(r->needle)) != NULL;
}

static void
ready_end(struct ready *r, bool cancelled)
{
	struct aiterm_buf b = BUF_INIT;

	if (r->done)
		return;
	r->done = true;
	if (cancelled) {
		tool_call_fail(r->call, "pty_open: cancelled while the shell "
		    "started (the session exists; pty_close it or use it)");
		if (r->then != NULL)
			r->then(r->call, NULL, NULL, r->arg);
	} else {
		buf_adds(&b, r->text);
		if (!prompt_seen(r))
			buf_printf(&b, "[the shell has not shown its prompt "
			    "after %d ms; pty_read screen=true shows it]\n",
			    PTY_READY_MAX_MS);
		tool_call_set_data(r->call, NULL, NULL);
		if (r->then != NULL)
			r->then(r->call, buf_steal(&b, NULL), r->structured,
			    r->arg);
		else
			tool_call_reply(r->call, buf_steal(&b, NULL),
			    r->structured);
		r->structured = NULL;
	}
	uv_timer_stop(&r->timer);
	uv_close((uv_handle_t *)&r->timer, ready_closed);
	uv_fs_event_stop(&r->watch);
	uv_close((uv_handle_t *)&r->watch, ready_closed);
}

static void
on_change(uv_fs_event_t *h, const char *name, int events, int status)
{
	struct ready *r = h->data;

	(void)name;
	(void)events;
	if (status != 0 || prompt_seen(r))
		ready_end(r, false);
}

static void
on_timeout(uv_timer_t *t)
{
	ready_end(t->data, false);
}

static void
on_cancel(struct tool_call *call)
{
	ready_end(tool_call_data(call), true);
}

void
pty_ready_reply(struct tool_call *call, char *text, json_t *structured,
    const char *log, const char *token, pty_ready_cb then, void *arg)
{
	struct ready *r = xcalloc(1, sizeof *r);

	r->call = call;
	r->then = then;
	r->arg = arg;
	r->text = text;
	r->structured = structured;
	r->log = xstrdup(log);
	r->needle = xasprintf("133;A;aiterm=%s", token);
	uv_timer_init(core_loop(), &r->timer);
	uv_fs_event_init(core_loop(), &r->watch);
	r->timer.data = r->watch.data = r;
	r->open_handles = 2;
	tool_call_set_data(call, r, on_cancel);
	uv_timer_start(&r->timer, on_timeout, PTY_READY_MAX_MS, 0);
	/* Watch first, then look: a prompt written in between is not missed. */
	if (uv_fs_event_start(&r->watch, on_change, r->log, 0) != 0 ||
	    prompt_seen(r))
		ready_end(r, false);
}
