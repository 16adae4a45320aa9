/*
 * diagnostics (OPS-DIAG): read-only.  The version, every plugin and its
 * state, the multiplexer binary and version, each harness's CLI and
 * version (tools/diag-agents.h), the state root, and the runtime error
 * aggregate (state/errtally.h: codes, counts, times).
 * Nothing here starts a multiplexer server or writes a file.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "plugin/host.h"
#include "plugin/registry.h"
#include "state/errtally.h"
#include "state/stateroot.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "pty/muxjob.h"
#include "tools/diag-agents.h"
#include "tools/on-mux.h"
#include "util/xmalloc.h"

static json_t *
multiplexer_json(void)
{
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_plugin *p;
	const struct aiterm_mux_ops *ops;
	struct aiterm_mux_info info;
	json_t *o;

	p = registry_find(AITERM_KIND_MUX, NULL);
	if (p == NULL)
		return json_pack("{s:b, s:n, s:s}", "found", 0, "plugin",
		    "error", "no multiplexer plugin is loaded");
	ops = muxjob_locked(p->ops, p->abi_minor);
	memset(&info, 0, sizeof info);
	if (ops->probe(host_get(), &info, &err) != 0) {
		o = json_pack("{s:b, s:s, s:s}", "found", 0, "plugin", p->name,
		    "error", error_msg(&err));
		error_clear(&err);
		return o;
	}
	return json_pack("{s:b, s:s, s:s, s:s, s:s}", "found", 1, "plugin",
	    p->name, "binary", info.binary, "version", info.version,
	    "socket", info.socket);
}

/* "errors: none counted" or a line a code: count, first and last time. */
static void
errtally_text(struct aiterm_buf *b, json_t *errors)
{
	json_t *e;
	size_t i;

	if (json_array_size(errors) == 0)
		buf_printf(b, "errors: none counted\n");
	else
		buf_printf(b, "errors (code count first last, UTC):\n");
	json_array_foreach(errors, i, e)
		buf_printf(b, "  %s %" JSON_INTEGER_FORMAT " %s %s\n",
		    json_string_value(json_object_get(e, "code")),
		    json_integer_value(json_object_get(e, "count")),
		    json_string_value(json_object_get(e, "first")),
		    json_string_value(json_object_get(e, "last")));
}

static char *
summary_text(json_t *out)
{
	struct aiterm_buf b = BUF_INIT;
	json_t *mux = json_object_get(out, "multiplexer");
	json_t *plugins = json_object_get(out, "plugins"), *p;
	size_t i, loaded = 0;

	json_array_foreach(plugins, i, p) {
		if (json_is_true(json_object_get(p, "loaded")))
			loaded++;
	}
	buf_printf(&b, "aiterm-mcp %s\nstate root: %s\n",
	    json_string_value(json_object_get(out, "version")),
	    json_object_get(out, "state_root_error") != NULL ? json_string_value(
	    json_object_get(out, "state_root_error")) : json_string_value(
	    json_object_get(out, "state_root")));
	if (json_is_true(json_object_get(mux, "found")))
		buf_printf(&b, "multiplexer: %s %s (%s)\n",
		    json_string_value(json_object_get(mux, "binary")),
		    json_string_value(json_object_get(mux, "version")),
		    json_string_value(json_object_get(mux, "plugin")));
	else
		buf_printf(&b, "multiplexer: not available: %s\n",
		    json_string_value(json_object_get(mux, "error")));
	diag_agents_text(&b, json_object_get(out, "agents"));
	errtally_text(&b, json_object_get(out, "errors"));
	buf_printf(&b, "plugins: %zu loaded of %zu found\n", loaded,
	    json_array_size(plugins));
	json_array_foreach(plugins, i, p) {
		if (json_is_true(json_object_get(p, "loaded")))
			continue;
		buf_printf(&b, "  not loaded: %s: %s\n",
		    json_string_value(json_object_get(p, "manifest")),
		    json_string_value(json_object_get(p, "error")));
	}
	return buf_steal(&b, NULL);
}

/* On the multiplexer's thread: its probe waits behind a stalled op. */
static void
diagnostics_work(json_t *args, struct mux_result *r)
{
	const char *root = state_root();
	json_t *out;
	struct aiterm_error err = ERROR_INIT;

	(void)args;
	out = json_pack("{s:s, s:s, s:o, s:o, s:o}", "version",
	    PACKAGE_VERSION, "state_root", root == NULL ? "" : root,
	    "plugins", registry_to_json(), "multiplexer", multiplexer_json(),
	    "errors", errtally_json());
	/* Why there is none: a newer state format, a read-only parent... */
	if (root == NULL && state_root_problem(&err) != 0) {
		json_object_set_new(out, "state_root_error",
		    json_string(error_msg(&err)));
		error_clear(&err);
	}
	r->structured = out;
}

/* The agents are in: the reply. */
static void
agents_done(void *arg, json_t *agents)
{
	struct tool_call *call = arg;
	json_t *out = tool_call_data(call);

	tool_call_set_data(call, NULL, NULL);
	json_object_set_new(out, "agents", agents);
	tool_call_reply(call, summary_text(out), out);
}

/* Back on the loop: each harness's CLI is probed (child processes). */
static void
diagnostics_then(struct tool_call *call, struct mux_result *r)
{
	free(r->text);
	tool_call_set_data(call, r->structured, NULL);
	diag_agents(agents_done, call);
}

static void
diagnostics_call(struct tool_call *call)
{
	tool_call_on_mux_then(call, "diagnostics", diagnostics_work,
	    diagnostics_then);
}

const struct tool_entry tool_diagnostics = {
	.name = "diagnostics",
	.title = "Diagnostics",
	.description = "Read-only health check: Aiterm version, state root, "
	    "plugins and why any did not load, multiplexer binary and version, "
	    "each agent CLI found, its version and whether it is new enough, "
	    "runtime errors counted by code.",
	.input_schema = "{\"type\":\"object\",\"properties\":{},"
	    "\"additionalProperties\":false}",
	.output_schema =
	    "{\"type\":\"object\",\"properties\":{"
	    "\"version\":{\"type\":\"string\"},"
	    "\"state_root\":{\"type\":\"string\"},"
	    "\"state_root_error\":{\"type\":\"string\"},"
	    "\"plugins\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	    "\"properties\":{\"manifest\":{\"type\":\"string\"},"
	    "\"name\":{\"type\":\"string\"},\"kind\":{\"type\":\"string\"},"
	    "\"version\":{\"type\":\"string\"},"
	    "\"provides\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
	    "\"reducers\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	    "\"properties\":{\"name\":{\"type\":\"string\"},"
	    "\"version\":{\"type\":\"string\"},\"commands\":{\"type\":"
	    "\"array\",\"items\":{\"type\":\"string\"}}}}},"
	    "\"loaded\":{\"type\":\"boolean\"},\"error\":{\"type\":\"string\"}},"
	    "\"required\":[\"manifest\",\"loaded\"]}},"
	    "\"multiplexer\":{\"type\":\"object\",\"properties\":{"
	    "\"found\":{\"type\":\"boolean\"},"
	    "\"plugin\":{\"type\":[\"string\",\"null\"]},"
	    "\"binary\":{\"type\":\"string\"},\"version\":{\"type\":\"string\"},"
	    "\"socket\":{\"type\":\"string\"},\"error\":{\"type\":\"string\"}},"
	    "\"required\":[\"found\"]},"
	    "\"errors\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"object\",\"properties\":{\"code\":{\"type\":\"string\"},"
	    "\"count\":{\"type\":\"integer\"},"
	    "\"first\":{\"type\":\"string\"},"
	    "\"last\":{\"type\":\"string\"}},"
	    "\"required\":[\"code\",\"count\",\"first\",\"last\"]}},"
	    DIAG_AGENTS_SCHEMA "},"
	    "\"required\":[\"version\",\"state_root\",\"plugins\","
	    "\"multiplexer\",\"agents\",\"errors\"]}",
	.hints = TOOL_READ_ONLY | TOOL_IDEMPOTENT,
	.call = diagnostics_call,
};
