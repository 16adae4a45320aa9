/*
 * One tool call in this process (CTL-CLI, ADR 0022): the aiterm command
 * runs the server's own tool table on its own libuv loop, as a client
 * that asked for structuredContent, and ends when the call has its result.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp/server-int.h"
#include "pty/secretpage.h"
#include "tools/tool.h"

/* How often the command looks whether its secret page is done. */
#define HOLD_MS	200

struct once {
	json_t		*result;
	unsigned	 signals;
	uv_timer_t	 hold;
};

static void
once_done(void *arg, json_t *result)
{
	struct once *o = arg;

	o->result = json_incref(result);
	uv_stop(the_server->loop);
}

/*
 * The first Ctrl-C (or TERM) cancels the call, which still answers (a
 * wait says it was cancelled); the second ends the process at once.
 */
static void
once_signal(uv_signal_t *h, int signum)
{
	struct once *o = h->data;

	if (o->signals++ > 0)
		_exit(128 + signum);
	/* Shown already: the page ends (issue 36). */
	if (o->result != NULL) {
		secret_page_close();
		return;
	}
	calls_cancel_all();
}

static void
hold_check(uv_timer_t *t)
{
	if (!secret_page_pending())
		uv_timer_stop(t);
}

json_t *
server_call_once(const char *tool, json_t *args,
    void (*show)(json_t *result, void *arg), void *arg)
{
	static struct server s;
	struct server_options so = { SERVER_DEFAULT_MAX_MESSAGE, false, true };
	struct once o;
	uv_signal_t sigs[SERVER_STOP_SIGNALS];
	size_t i;

	memset(&o, 0, sizeof o);
	server_init(&s, &so, uv_default_loop());
	s.initialized = true;
	s.local = true;
	s.structured = true;
	snprintf(s.protocol, sizeof s.protocol, "%s", "2025-06-18");
	signal(SIGPIPE, SIG_IGN);
	server_stop_signals(s.loop, sigs, once_signal, &o);
	if (tool_call_checked(tool, args, once_done, &o) != 0) {
		o.result = json_pack("{s:[{s:s, s:s}], s:b}", "content", "type",
		    "text", "text", "no such tool", "isError", 1);
	}
	/* A loop with nothing left to wait for and no result is a bug. */
	while (o.result == NULL && uv_run(s.loop, UV_RUN_DEFAULT) != 0)
		;
	if (o.result == NULL)
		o.result = json_pack("{s:[{s:s, s:s}], s:b}", "content", "type",
		    "text", "text", "internal error: the call ended without a "
		    "result", "isError", 1);
	show(o.result, arg);
	/*
	 * A pane that waits for a secret (issue 36): its page lives in this
	 * process, so the command serves it until it is used, expires or
	 * Ctrl-C ends it.
	 */
	if (secret_page_pending()) {
		fprintf(stderr, "aiterm: the secret page stays open until it "
		    "is used, for %d minutes at most (Ctrl-C closes it)\n",
		    SECRET_PAGE_TTL_MS / 60000);
		o.signals = 0;
		uv_timer_init(s.loop, &o.hold);
		uv_timer_start(&o.hold, hold_check, HOLD_MS, HOLD_MS);
		uv_run(s.loop, UV_RUN_DEFAULT);
		uv_close((uv_handle_t *)&o.hold, NULL);
	}
	s.stopping = true;
	for (i = 0; i < SERVER_STOP_SIGNALS; i++)
		uv_close((uv_handle_t *)&sigs[i], NULL);
	uv_run(s.loop, UV_RUN_NOWAIT);
	server_fini(&s);
	return o.result;
}
