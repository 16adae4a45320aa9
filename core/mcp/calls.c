/*
 * tools/list, tools/call and the life of a call: pending list, progress,
 * cancellation, and the reply.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "mcp/server-int.h"
#include "pty/session.h"
#include "remote/relay.h"
#include "tools/tool.h"
#include "util/jsonschema.h"
#include "util/xmalloc.h"

struct tool_call {
	const struct tool_entry	*entry;
	json_t			*id;
	json_t			*args;
	json_t			*meta;
	bool			 cancelled;
	void			*data;
	void			(*on_cancel)(struct tool_call *);
	tool_call_done_fn	 done;		/* aiterm: who gets the result */
	void			*done_arg;
	struct tool_call	*next;
};

/* Parsed schemas, one pair per table entry, built on first use. */
struct parsed_schema {
	json_t	*input;
	json_t	*output;
};
static struct parsed_schema *schemas;

static json_t *
parse_schema(const char *name, const char *text)
{
	json_error_t jerr;
	json_t *s = json_loads(text, 0, &jerr);

	if (s == NULL) {
		/* A broken built-in schema is a programming error. */
		fprintf(stderr, "aiterm-mcp: tool %s: bad schema: %s\n", name,
		    jerr.text);
		abort();
	}
	return s;
}

static const struct parsed_schema *
schema_of(const struct tool_entry *e)
{
	const struct tool_entry *b;
	size_t i, n = 0;

	if (schemas == NULL) {
		while (tool_table[n] != NULL)
			n++;
		schemas = xcalloc(n, sizeof *schemas);
		for (i = 0; i < n; i++) {
			b = tool_base(tool_table[i]);
			schemas[i].input = parse_schema(tool_table[i]->name,
			    b->input_schema);
			/* REM-RELAY: these tools also run on another host. */
			if (b->relayable) {
				json_t *props = json_object_get(
				    schemas[i].input, "properties");

				json_object_set_new(props, "remote",
				    remote_schema_property());
				json_object_set_new(props, "remote_secret",
				    remote_schema_secret());
			}
			schemas[i].output = parse_schema(tool_table[i]->name,
			    b->output_schema);
		}
	}
	for (i = 0; tool_table[i] != e; i++)
		;
	return &schemas[i];
}

json_t *
tool_input_schema(const struct tool_entry *e)
{
	return schema_of(e)->input;
}

/*
 * The hints, each only when it differs from the default MCP gives it
 * (readOnlyHint false, destructiveHint true, idempotentHint false,
 * openWorldHint true), except readOnlyHint, always present: the same
 * meaning in fewer tokens.  The title is the tool's top-level "title"
 * since 2025-06-18; clients of older versions find it here.
 */
static json_t *
annotations(const struct tool_entry *e)
{
	unsigned hints = tool_base(e)->hints;
	bool ro = (hints & TOOL_READ_ONLY) != 0;
	json_t *a = json_pack("{s:b}", "readOnlyHint", ro);

	if (!ro && (hints & TOOL_DESTRUCTIVE) == 0)
		json_object_set_new(a, "destructiveHint", json_false());
	if (!ro && (hints & TOOL_IDEMPOTENT) != 0)
		json_object_set_new(a, "idempotentHint", json_true());
	if ((hints & TOOL_OPEN_WORLD) == 0)
		json_object_set_new(a, "openWorldHint", json_false());
	if (strcmp(the_server->protocol, "2025-06-18") < 0)
		json_object_set_new(a, "title", json_string(e->title));
	return a;
}

void
calls_list_tools(json_t *id, json_t *params)
{
	const struct tool_entry *e;
	const struct parsed_schema *ps;
	json_t *list = json_array(), *t;
	size_t i;

	(void)params;
	for (i = 0; (e = tool_table[i]) != NULL; i++) {
		if (e->test_only && !the_server->opts.test_tools)
			continue;
		ps = schema_of(e);
		t = json_pack("{s:s, s:s, s:s, s:O, s:o}", "name", e->name,
		    "title", e->title, "description", e->description,
		    "inputSchema", ps->input, "annotations", annotations(e));
		/* A declared outputSchema obliges every result to carry it. */
		if (the_server->structured)
			json_object_set(t, "outputSchema", ps->output);
		if (e->always_load)
			json_object_set_new(t, "_meta", json_pack("{s:b}",
			    "anthropic/alwaysLoad", true));
		json_array_append_new(list, t);
	}
	server_send(jsonrpc_result(id, json_pack("{s:o}", "tools", list)));
}

static void
pending_remove(struct tool_call *call)
{
	struct tool_call **pp;

	for (pp = &the_server->pending; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == call) {
			*pp = call->next;
			return;
		}
	}
}

static void
call_free(struct tool_call *call)
{
	json_decref(call->id);
	json_decref(call->args);
	json_decref(call->meta);
	free(call);
}

static void
finish(struct tool_call *call, json_t *result)
{
	pending_remove(call);
	if (call->done != NULL) {
		call->done(call->done_arg, result);
		json_decref(result);
	} else if (call->cancelled || the_server == NULL)
		json_decref(result);
	else
		server_send(jsonrpc_result(call->id, result));
	call_free(call);
}

/* A call relayed to another host (REM-RELAY) ended there. */
static void
relayed(void *arg, int status, const struct aiterm_error *err,
    json_t *result)
{
	struct tool_call *call = arg;

	if (status != 0)
		tool_call_fail(call, "%s", error_msg(err));
	else
		tool_call_finish(call, json_incref(result));
}

static void
relay_cancel(struct tool_call *call)
{
	remote_relay_cancel(tool_call_data(call));
	tool_call_fail(call, "cancelled");
}

/*
 * Check the arguments against the schema, relay a call with "remote"
 * (REM-RELAY), else start the tool: what a client's tools/call and the
 * aiterm command (CTL-CLI) share.  Steals args.
 */
static void
call_start(struct tool_call *call, const struct tool_entry *e, json_t *args)
{
	const struct remote_to to = { relayed, call };
	struct aiterm_error err = ERROR_INIT;
	struct call_origin origin;
	struct remote_call *rc;
	const char *session;
	json_t *rest;

	call->entry = e;
	call->args = args;
	call->next = the_server->pending;
	the_server->pending = call;
	if (schema_check(schema_of(e)->input, call->args, &err) != 0) {
		tool_call_fail(call, "%s: %s", e->name, error_msg(&err));
		error_clear(&err);
		return;
	}
	session = tool_call_session(call);
	if (session != NULL && !session_id_valid(session)) {
		tool_call_fail(call, "%s: invalid session_id '%.80s'", e->name,
		    session);
		return;
	}
	if (json_object_get(call->args, "remote") != NULL) {
		rest = json_deep_copy(call->args);
		json_object_del(rest, "remote");
		json_object_del(rest, "remote_secret");
		origin = tool_call_origin(call);
		rc = remote_relay(e->name, json_string_value(json_object_get(
		    call->args, "remote")), json_string_value(json_object_get(
		    call->args, "remote_secret")), rest, &origin, &to);
		if (rc != NULL)
			tool_call_set_data(call, rc, relay_cancel);
		return;
	}
	if (json_object_get(call->args, "remote_secret") != NULL) {
		tool_call_fail(call, "%s: remote_secret is for a remote host: "
		    "give remote too", e->name);
		return;
	}
	tool_base(e)->call(call);
}

const char *
tool_call_session(struct tool_call *call)
{
	if (!tool_base(call->entry)->session_target)
		return NULL;
	return json_string_value(json_object_get(call->args, "session_id"));
}

const char *
tool_call_name(struct tool_call *call)
{
	return call->entry->name;
}

const char *
tool_call_harness(struct tool_call *call)
{
	return call->entry->harness;
}

void
calls_call_tool(json_t *id, json_t *params)
{
	const struct tool_entry *e;
	struct tool_call *call;
	json_t *name, *args, *meta;

	name = json_object_get(params, "name");
	if (!json_is_string(name)) {
		server_send(jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
		    "Invalid params: tools/call needs \"name\", a string"));
		return;
	}
	e = tool_find(json_string_value(name), the_server->opts.test_tools);
	if (e == NULL) {
		server_send(jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
		    "Unknown tool: %s", json_string_value(name)));
		return;
	}
	args = json_object_get(params, "arguments");
	if (args != NULL && !json_is_object(args) && !json_is_null(args)) {
		server_send(jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
		    "Invalid params: \"arguments\" must be an object"));
		return;
	}
	meta = json_object_get(params, "_meta");
	call = xcalloc(1, sizeof *call);
	call->id = json_incref(id);
	call->meta = json_is_object(meta) ? json_incref(meta) : NULL;
	call_start(call, e, json_is_object(args) ? json_incref(args) :
	    json_object());
}

int
tool_call_checked(const char *tool, json_t *args, tool_call_done_fn done,
    void *arg)
{
	const struct tool_entry *e = tool_find(tool, false);
	struct tool_call *call;

	if (e == NULL) {
		json_decref(args);
		return -1;
	}
	call = xcalloc(1, sizeof *call);
	call->done = done;
	call->done_arg = arg;
	call_start(call, e, args);
	return 0;
}

void
calls_cancelled(json_t *params)
{
	json_t *rid = json_object_get(params, "requestId");
	struct tool_call *call;

	if (rid == NULL)
		return;
	for (call = the_server->pending; call != NULL; call = call->next) {
		if (!json_equal(call->id, rid) || call->cancelled)
			continue;
		call->cancelled = true;
		if (call->on_cancel != NULL)
			call->on_cancel(call);
		return;
	}
}

void
calls_cancel_all(void)
{
	struct tool_call *call, *next;

	for (call = the_server->pending; call != NULL; call = next) {
		next = call->next;
		if (call->cancelled)
			continue;
		call->cancelled = true;
		if (call->on_cancel != NULL)
			call->on_cancel(call);
	}
}

json_t *
tool_call_args(struct tool_call *call)
{
	return call->args;
}

json_t *
tool_call_meta(struct tool_call *call)
{
	return call->meta;
}

struct call_origin
tool_call_origin(struct tool_call *call)
{
	struct call_origin o = {
		json_string_value(json_object_get(tool_call_client_info(call),
		    "name")),
		tool_call_meta(call),
	};

	return o;
}

json_t *
tool_call_client_info(struct tool_call *call)
{
	(void)call;
	return the_server == NULL ? NULL : the_server->client_info;
}

/*
 * The clients known to cut a longer tool result, by clientInfo name, and
 * the bytes of its text they show whole (ADR 0043).  Codex 0.171.0: 3,000
 * tokens of 4 bytes, its 33-byte "Wall time" header first; the first and
 * the last 5,982 bytes of a longer text.  Claude Code 2.1.332: a result
 * over 50,000 characters is saved to a file, the model shown its path and
 * the first 2 KB of its JSON.
 */
static const struct {
	const char	*name;
	size_t		 bytes;
} client_cuts[] = {
	{ "codex-mcp-client", 11964 },
	{ "claude-code", 50000 },
};

size_t
tool_call_shown_bytes(struct tool_call *call)
{
	const char *name = json_string_value(json_object_get(
	    tool_call_client_info(call), "name"));
	size_t i;

	for (i = 0; name != NULL && i < sizeof client_cuts /
	    sizeof client_cuts[0]; i++) {
		if (strcmp(name, client_cuts[i].name) == 0)
			return client_cuts[i].bytes;
	}
	return 0;
}

bool
tool_call_cancelled(const struct tool_call *call)
{
	return call->cancelled;
}

void
tool_call_set_data(struct tool_call *call, void *data,
    void (*on_cancel)(struct tool_call *))
{
	call->data = data;
	call->on_cancel = on_cancel;
}

void *
tool_call_data(struct tool_call *call)
{
	return call->data;
}

void
tool_call_progress(struct tool_call *call, double progress, double total,
    const char *message)
{
	json_t *token, *p;

	token = call->meta == NULL ? NULL :
	    json_object_get(call->meta, "progressToken");
	if (token == NULL || call->cancelled)
		return;
	p = json_pack("{s:O, s:f}", "progressToken", token, "progress",
	    progress);
	if (total > 0)
		json_object_set_new(p, "total", json_real(total));
	if (message != NULL)
		json_object_set_new(p, "message", json_string(message));
	server_send(jsonrpc_notification("notifications/progress", p));
}

/*
 * Every structuredContent matches the outputSchema its tool declares
 * (ADR 0006; the SDK client rejects one that does not).  A result that
 * does not is a bug of ours: said on stderr, where the test suites look
 * for it, and sent as it is.
 */
static void
check_result(struct tool_call *call, const json_t *structured,
    const char *how)
{
	struct aiterm_error err = ERROR_INIT;

	if (schema_check_result(schema_of(call->entry)->output, structured,
	    &err) != 0)
		fprintf(stderr, "aiterm-mcp: internal error: %s result of %s "
		    "does not match its outputSchema: %s\n", how,
		    call->entry->name, error_msg(&err));
	error_clear(&err);
}

void
tool_call_reply(struct tool_call *call, char *text, json_t *structured)
{
	json_t *result;

	result = json_pack("{s:[{s:s, s:s}]}", "content", "type", "text",
	    "text", text);
	free(text);
	if (result == NULL) {
		json_decref(structured);
		tool_call_fail(call, "%s: internal error: the result is not "
		    "valid UTF-8", call->entry->name);
		return;
	}
	/*
	 * Real clients show the model only structuredContent when it is
	 * there, so the text is the result and structure is opt-in (ADR 0006).
	 */
	if (structured != NULL && (the_server->structured ||
	    call->done != NULL)) {
		check_result(call, structured, "the");
		json_object_set_new(result, "structuredContent", structured);
	} else
		json_decref(structured);
	finish(call, result);
}

void
tool_call_finish(struct tool_call *call, json_t *result)
{
	if (!json_is_object(result)) {
		json_decref(result);
		tool_call_fail(call, "%s: the result is not an object",
		    call->entry->name);
		return;
	}
	/* What the client did not ask for it does not get (ADR 0006). */
	if (!the_server->structured && call->done == NULL)
		json_object_del(result, "structuredContent");
	else if (json_object_get(result, "structuredContent") != NULL)
		check_result(call, json_object_get(result,
		    "structuredContent"), "the relayed");
	finish(call, result);
}

void
tool_call_fail(struct tool_call *call, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	finish(call, json_pack("{s:[{s:s, s:s}], s:b}", "content", "type",
	    "text", "text", text, "isError", 1));
	free(text);
}
