/* pty_close (PTY-CLOSE): end one session and remove its files. */
#include <string.h>

#include "plugin/host.h"
#include "pty/session.h"
#include "state/stateroot.h"
#include "tools/tool.h"
#include "util/xmalloc.h"

static void
pty_close_call(struct tool_call *call)
{
	const char *id = json_string_value(json_object_get(
	    tool_call_args(call), "session_id"));
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_mux_ops *mux;
	struct aiterm_pane_info info;
	bool existed;

	if (!session_id_valid(id)) {
		error_set(&err, "invalid session_id '%.80s'", id);
		goto out_fail;
	}
	if (state_root_require(&err) != 0 || (mux = session_mux(&err)) == NULL)
		goto out_fail;
	memset(&info, 0, sizeof info);
	if (mux->pane_info(host_get(), id, &info, &err) != 0)
		goto out_fail;
	existed = info.exists || session_exists_on_disk(id);
	if (info.exists && mux->kill(host_get(), id, &err) != 0)
		goto out_fail;
	if (session_remove(id, &err) != 0)
		goto out_fail;
	tool_call_reply(call, xasprintf(existed ? "closed %s" :
	    "%s was not open", id), json_pack("{s:s, s:b}", "session_id", id,
	    "closed", existed));
	return;
out_fail:
	tool_call_fail(call, "pty_close: %s", error_msg(&err));
	error_clear(&err);
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
};
