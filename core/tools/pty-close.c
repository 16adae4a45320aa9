/*
 * pty_close (PTY-CLOSE): end one session, every process of it, and
 * remove its files.  The pane's family is found before the terminal
 * closes and ended after (pty/treekill.h, issue 37); the files go last,
 * so the name is not free again while its processes are being ended.
 */
#include <stdlib.h>
#include <string.h>

#include "plugin/host.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "pty/treekill.h"
#include "state/stateroot.h"
#include "tools/on-mux.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/xmalloc.h"

struct close_ctx {
	struct tool_call	*call;
	char			 id[SESSION_ID_MAX + 1];
	bool			 existed;
	struct treekill		*tk;
	struct aiterm_error	 err;
};

/* The multiplexer's executable name, whose processes are never ended. */
static void
mux_exe(const struct aiterm_mux_ops *mux, char *out, size_t len)
{
	struct aiterm_mux_info mi;
	const char *base;

	memset(&mi, 0, sizeof mi);
	out[0] = '\0';
	if (mux->probe(host_get(), &mi, NULL) != 0 || mi.binary[0] == '\0')
		return;
	base = strrchr(mi.binary, '/');
	base = base == NULL ? mi.binary : base + 1;
	if (strlen(base) < len)
		memcpy(out, base, strlen(base) + 1);
}

/* On the multiplexer's thread: the family, the pane, the hangup. */
static void
close_work(json_t *args, struct mux_result *r)
{
	const char *id = json_string_value(json_object_get(args,
	    "session_id"));
	const struct aiterm_mux_ops *mux;
	struct aiterm_pane_info info;
	struct session_meta meta;
	struct close_ctx *c;
	char exe[PROC_NAME_MAX];
	bool have_meta;

	if ((mux = session_mux(&r->err)) == NULL)
		return;
	memset(&info, 0, sizeof info);
	if (mux->pane_info(host_get(), id, &info, &r->err) != 0)
		return;
	c = xcalloc(1, sizeof *c);
	snprintf(c->id, sizeof c->id, "%s", id);
	c->existed = info.exists || session_exists_on_disk(id);
	have_meta = session_meta_read(id, &meta, NULL) == 0;
	mux_exe(mux, exe, sizeof exe);
	c->tk = treekill_find(id, info.exists && !info.dead ? info.pid : 0,
	    have_meta ? &meta : NULL, exe[0] != '\0' ? exe : NULL);
	if (info.exists && mux->kill(host_get(), id, &r->err) != 0) {
		treekill_free(c->tk);
		free(c);
		return;
	}
	treekill_hangup(c->tk);
	r->more = c;
}

static void
remove_work(void *arg)
{
	struct close_ctx *c = arg;

	session_remove(c->id, &c->err);
}

static void
remove_done(void *arg)
{
	struct close_ctx *c = arg;
	struct aiterm_buf text = BUF_INIT;
	json_t *left, *o;

	treekill_describe(c->tk, &text);
	if (c->err.msg != NULL) {
		tool_call_fail(c->call, "pty_close: %s%s", error_msg(&c->err),
		    buf_str(&text));
	} else {
		left = treekill_left(c->tk);
		o = json_pack("{s:s, s:b, s:o}", "session_id", c->id,
		    "closed", c->existed, "killed", treekill_killed(c->tk));

		if (json_array_size(left) > 0)
			json_object_set(o, "left", left);
		json_decref(left);
		tool_call_reply(c->call, xasprintf(c->existed ? "closed %s%s" :
		    "%s was not open%s", c->id, buf_str(&text)), o);
	}
	buf_free(&text);
	error_clear(&c->err);
	treekill_free(c->tk);
	free(c);
}

/* On the loop, once the family has ended: the files, on the worker. */
static void
close_ended(void *arg)
{
	muxjob_run(remove_work, remove_done, arg);
}

static void
close_then(struct tool_call *call, struct mux_result *r)
{
	struct close_ctx *c = r->more;

	free(r->text);
	json_decref(r->structured);
	c->call = call;
	treekill_run(c->tk, close_ended, c);
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
	tool_call_on_mux_then(call, "pty_close", close_work, close_then);
}

const struct tool_entry tool_pty_close = {
	.name = "pty_close",
	.title = "Close a terminal",
	.description = "Close one session and end every process it started "
	    "(ssh, REPLs: no exit needed): "
	    "what outlives the terminal's hangup gets SIGTERM, then SIGKILL, "
	    "and the result names it (killed). Closing a closed session is "
	    "not an error.",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"}},"
	    "\"required\":[\"session_id\"],\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},\"closed\":{\"type\":"
	    "\"boolean\"},\"killed\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"object\",\"properties\":{\"pid\":{\"type\":\"integer\"},"
	    "\"command\":{\"type\":\"string\"},\"signal\":{\"type\":\"string\","
	    "\"enum\":[\"SIGTERM\",\"SIGKILL\"]}},\"required\":[\"pid\","
	    "\"command\",\"signal\"]}},\"left\":{\"type\":\"array\",\"items\":"
	    "{\"type\":\"object\",\"properties\":{\"pid\":{\"type\":"
	    "\"integer\"},\"command\":{\"type\":\"string\"}},\"required\":["
	    "\"pid\",\"command\"]}}},\"required\":[\"session_id\",\"closed\"]}",
	.hints = TOOL_DESTRUCTIVE | TOOL_IDEMPOTENT | TOOL_OPEN_WORLD,
	.call = pty_close_call,
	.relayable = true,
	.session_target = true,
	.always_load = true,
};
