/*
 * pty_read (PTY-READ): new output since the last read (reduced), or the
 * screen, the full log, a line range or the last lines; optionally
 * waiting for completion (PTY-DONE).
 */
#include <string.h>

#include "plugin/host.h"
#include "pty/output.h"
#include "pty/send.h"
#include "shell/utf8.h"
#include "tools/agent-read.h"
#include "tools/agent-schema.h"
#include "tools/on-mux.h"
#include "tools/pty-common.h"
#include "util/buf.h"
#include "util/jsonschema.h"
#include "util/xmalloc.h"

static void
read_lines(struct tool_call *call, const char *id,
    const struct session_meta *meta, json_t *args)
{
	json_t *range = json_object_get(args, "line_range");
	struct output_request req = {
		.session = id, .meta = meta, .to = UINT64_MAX,
		.raw = json_is_true(json_object_get(args, "raw")),
	};
	struct aiterm_error err = ERROR_INIT;
	struct output_text out;
	uint64_t first = 1, last = 0, tail = 0;
	const char *mode = "full";

	if (range != NULL) {
		first = (uint64_t)schema_integer(json_array_get(range, 0), 0);
		last = (uint64_t)schema_integer(json_array_get(range, 1), 0);
		mode = "line_range";
		if (first == 0 || last < first) {
			tool_call_fail(call, "pty_read: line_range must be "
			    "[first, last] with 1 <= first <= last");
			return;
		}
	} else if (json_object_get(args, "lines") != NULL) {
		tail = (uint64_t)schema_integer(json_object_get(args,
		    "lines"), 0);
		mode = "lines";
	}
	if (output_lines(&req, first, last, tail, &out, &err) != 0) {
		tool_call_fail(call, "pty_read: %s", error_msg(&err));
		error_clear(&err);
		return;
	}
	pty_reply_plain(call, id, mode, buf_steal(&out.text, NULL), &out);
	output_text_free(&out);
}

/* What the multiplexer's thread found before the read. */
struct read_pre {
	struct session_meta	 meta;
	char			*screen;	/* screen=true: the screen */
};

/* On the multiplexer's thread: the session checked, the screen taken. */
static void
read_work(json_t *args, struct mux_result *r)
{
	const char *id = json_string_value(json_object_get(args,
	    "session_id"));
	const struct aiterm_mux_ops *mux;
	struct read_pre *p = xcalloc(1, sizeof *p);
	struct aiterm_buf screen = BUF_INIT, clean = BUF_INIT;
	struct aiterm_pane_info info;

	r->more = p;
	if (send_check_session(id, &p->meta, &info, &r->err) != 0) {
		/* A dead pane still has its log to read. */
		if (strstr(error_msg(&r->err), "has exited") == NULL ||
		    session_meta_read(id, &p->meta, NULL) != 0)
			return;
		error_clear(&r->err);
	}
	if (!json_is_true(json_object_get(args, "screen")))
		return;
	if ((mux = session_mux(&r->err)) != NULL &&
	    mux->capture(host_get(), id, &screen, &r->err) == 0) {
		utf8_clean(buf_str(&screen), screen.len, &clean);
		p->screen = buf_steal(&clean, NULL);
	}
	buf_free(&screen);
	buf_free(&clean);
}

static void
read_then(struct tool_call *call, struct mux_result *r)
{
	json_t *args = tool_call_args(call);
	const char *id = tool_call_session(call);
	struct read_pre *p = r->more;
	struct aiterm_error err = ERROR_INIT;
	struct pty_wait w;

	/* Checked before the work: it cannot fail now. */
	pty_wait_args(args, &w, &err);
	error_clear(&err);
	if (json_is_true(json_object_get(args, "agent_transcript")))
		agent_read_reply(call, id, args, w.timeout, w.wait);
	else if (p->screen != NULL)
		pty_reply_plain(call, id, "screen", p->screen, NULL);
	else if (json_is_true(json_object_get(args, "full")) ||
	    json_object_get(args, "line_range") != NULL ||
	    json_object_get(args, "lines") != NULL)
		read_lines(call, id, &p->meta, args);
	else
		pty_wait_and_reply(call, id, &w, NULL,
		    json_is_true(json_object_get(args, "raw")));
	free(p);
}

static void
pty_read_call(struct tool_call *call)
{
	struct aiterm_error err = ERROR_INIT;
	struct pty_wait w;

	if (pty_wait_args(tool_call_args(call), &w, &err) != 0) {
		tool_call_fail(call, "pty_read: %s", error_msg(&err));
		error_clear(&err);
		return;
	}
	tool_call_on_mux_then(call, "pty_read", read_work, read_then);
}

const struct tool_entry tool_pty_read = {
	.name = "pty_read",
	.title = "Read a terminal",
	.description = "New output since the last read, reduced (colours, "
	    "repeats, long middles cut with a line_range to recover them). "
	    "wait/until: wait for completion first. screen: the visible "
	    "screen (TUIs). full, line_range [a,b] or lines N: the log, a "
	    "page at a time. agent_transcript: an agent session's answer to "
	    "its current turn (or turn N) from its transcript.",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"}," PTY_WAIT_PROPS ","
	    "\"screen\":{\"type\":\"boolean\",\"default\":false},"
	    "\"full\":{\"type\":\"boolean\",\"default\":false},"
	    "\"lines\":{\"type\":\"integer\",\"minimum\":1},"
	    "\"line_range\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"integer\",\"minimum\":1},\"minItems\":2,\"maxItems\":2},"
	    "\"raw\":{\"type\":\"boolean\",\"default\":false,\"description\":"
	    "\"Unreduced output.\"},"
	    "\"agent_transcript\":{\"type\":\"boolean\",\"default\":false},"
	    "\"turn\":{\"type\":\"integer\",\"minimum\":1}},"
	    "\"required\":[\"session_id\"],\"additionalProperties\":false}",
	/* A shell read, or an agent turn's answer (agent_transcript). */
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    PTY_SHELL_PROPS "," AGENT_ANSWER_PROPS "},"
	    "\"anyOf\":[{\"required\":" PTY_SHELL_REQUIRED "},"
	    "{\"required\":" AGENT_ANSWER_REQUIRED "}]}",
	.hints = TOOL_READ_ONLY | TOOL_OPEN_WORLD,
	.call = pty_read_call,
	.relayable = true,
	.session_target = true,
	.always_load = true,
};
