/*
 * pty_send (PTY-SEND): type text into a session; with wait or until, also
 * wait for completion and return the output in the same call.
 */
#include <string.h>

#include "tools/pty-common.h"
#include "util/xmalloc.h"

/* What the model reads after a send without wait: the next step, by route. */
static const struct {
	const char	*route;
	const char	*next;
} next_steps[] = {
	{ "shell", "read with pty_read wait=true" },
	{ "nested", "read with pty_read wait=true" },
	{ "direct", "typed into the foreground program; pty_read "
	    "screen=true shows it, until=TEXT waits for TEXT" },
};

static const char *
next_step(const char *route)
{
	size_t i;

	for (i = 0; i < sizeof next_steps / sizeof next_steps[0]; i++) {
		if (strcmp(next_steps[i].route, route) == 0)
			return next_steps[i].next;
	}
	return "pty_read shows the output";
}

static void
pty_send_call(struct tool_call *call)
{
	json_t *args = tool_call_args(call), *enter, *raw;
	struct aiterm_error err = ERROR_INIT;
	struct send_request req;
	struct send_outcome out;
	struct pty_wait w;

	memset(&req, 0, sizeof req);
	req.session = json_string_value(json_object_get(args, "session_id"));
	req.text = json_string_value(json_object_get(args, "text"));
	req.len = json_string_length(json_object_get(args, "text"));
	enter = json_object_get(args, "enter");
	raw = json_object_get(args, "raw");
	req.enter = enter == NULL || json_is_true(enter);
	req.raw = json_is_true(raw);
	if (pty_wait_args(args, &w, &err) != 0 ||
	    send_text(&req, &out, &err) != 0) {
		tool_call_fail(call, "pty_send: %s", error_msg(&err));
		error_clear(&err);
		return;
	}
	if (w.wait) {
		pty_wait_and_reply(call, req.session, &w, out.echo_suffix,
		    req.raw, NULL);
	} else {
		tool_call_reply(call, xasprintf("sent; %s",
		    next_step(out.route)), json_pack("{s:s, s:n, s:n, s:I, s:s}",
		    "session_id", req.session, "complete", "via",
		    "cursor", (json_int_t)out.cmd.offset, "mode", out.route));
	}
	send_outcome_free(&out);
}

const struct tool_entry tool_pty_send = {
	.name = "pty_send",
	.title = "Send text to a terminal",
	.description = "Type text and press Enter (enter=false: type only). "
	    "Multi-line text runs as one script in the current shell. With "
	    "wait=true or until, also returns the output and exit code in "
	    "this call. Max 64 KiB.",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},"
	    "\"text\":{\"type\":\"string\"},"
	    "\"enter\":{\"type\":\"boolean\",\"default\":true},"
	    "\"raw\":{\"type\":\"boolean\",\"default\":false,\"description\":"
	    "\"Send bytes as is: no sanitising, no script wrapping.\"},"
	    PTY_WAIT_PROPS "},"
	    "\"required\":[\"session_id\",\"text\"],"
	    "\"additionalProperties\":false}",
	.output_schema = PTY_READ_OUTPUT_SCHEMA,
	.hints = TOOL_DESTRUCTIVE | TOOL_OPEN_WORLD,
	.call = pty_send_call,
};
