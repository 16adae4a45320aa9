/* pty_close (PTY-CLOSE): end one session and remove its files. */
#include <string.h>

#include "plugin/host.h"
#include "pty/session.h"
#include "state/stateroot.h"
#include "tools/on-mux.h"
#include "tools/tool.h"
#include "util/xmalloc.h"

/* On the multiplexer's thread: the pane, its end, the files. */
static void
close_work(json_t *args, struct mux_result *r)
{
	const char *id = json_string_value(json_object_get(args,
	    "session_id"));
	const struct aiterm_mux_ops *mux;
	struct aiterm_pane_info info;
	bool existed;

	if ((mux = session_mux(&r->err)) == NULL)
		return;
	memset(&info, 0, sizeof info);
	if (mux->pane_info(host_get(), id, &info, &r->err) != 0)
		return;
	existed = info.exists || session_exists_on_disk(id);
	if ((info.exists && mux->kill(host_get(), id, &r->err) != 0) ||
	    session_remove(id, &r->err) != 0)
		return;
	r->text = xasprintf(existed ? "closed %s" : "%s was not open", id);
	r->structured = json_pack("{s:s, s:b}", "session_id", id, "closed",
	    existed);
}

static void
pty_close_call(struct tool_call *call)
{
	struct aiterm_error err = ERROR_INIT;

	if (state_root_require(&err) != 0) {
		tool_call_fail(call, "pty_close: %s", error_msg(&err));
		error_clear(&err);
		return;
	}
	tool_call_on_mux(call, "pty_close", close_work);
}

const struct tool_entry tool_pty_close = {
	.name = "pty_close",
	.title = "Close a terminal",
	.description = "Close one session (ends its processes). Closing a "
	    "closed session is not an error.",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"}},"
	    "\"required\":[\"session_id\"],\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},\"closed\":{\"type\":"
	    "\"boolean\"}},\"required\":[\"session_id\",\"closed\"]}",
	.hints = TOOL_DESTRUCTIVE | TOOL_IDEMPOTENT | TOOL_OPEN_WORLD,
	.call = pty_close_call,
	.relayable = true,
	.session_target = true,
};
