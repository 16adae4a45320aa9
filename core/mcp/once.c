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
#include "tools/tool.h"

struct once {
	json_t		*result;
	unsigned	 signals;
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
	calls_cancel_all();
}

json_t *
server_call_once(const char *tool, json_t *args)
{
	static struct server s;
	struct server_options so = { SERVER_DEFAULT_MAX_MESSAGE, false, true };
	struct once o = { NULL, 0 };
	uv_signal_t sigs[SERVER_STOP_SIGNALS];
	size_t i;

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
	s.stopping = true;
	for (i = 0; i < SERVER_STOP_SIGNALS; i++)
		uv_close((uv_handle_t *)&sigs[i], NULL);
	uv_run(s.loop, UV_RUN_NOWAIT);
	server_fini(&s);
	return o.result;
}
