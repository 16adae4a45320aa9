/*
 * parent_deliveries (DLV-CORE): the delivery records under the state
 * root, newest first, with the state a reader sees (a ready one handed
 * over is submitted, one whose hand-over was cut unknown, deliver/
 * claim.h; one nobody claimed within 24 hours turns failed here,
 * deliver/expire.h) and the command that prints a waiting or ready answer.
 * A Codex parent's answer a Steer hook took says how (codex_hook: emitted,
 * queued, unknown with CODEX_HOOK_DELIVERY_UNCONFIRMED; deliver/
 * codexhook.h).
 */
#include <stdlib.h>
#include <string.h>

#include "deliver/claim.h"
#include "deliver/codexhook.h"
#include "deliver/expire.h"
#include "remote/records.h"
#include "state/stateroot.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define LIST_MAX	50	/* records shown */

static int
newest_first(const void *a, const void *b)
{
	const struct delivery *x = a, *y = b;

	return x->created_ms < y->created_ms ? 1 : x->created_ms >
	    y->created_ms ? -1 : strcmp(x->id, y->id);
}

struct matching {
	const char	*session;	/* NULL: all */
	struct delivery	*v;
	size_t		 n;
};

static void
collect(const char *id, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct matching *m = arg;
	struct delivery d;

	if (delivery_read(id, &d, &err) != 0) {
		error_clear(&err);
		return;
	}
	if (m->session != NULL && strcmp(m->session, d.session) != 0)
		return;
	delivery_expire(&d);
	delivery_seen(&d);
	m->v = xrealloc(m->v, (m->n + 1) * sizeof *m->v);
	m->v[m->n++] = d;
}

/* Every record whose session matches (NULL: all), newest first. */
static struct delivery *
load_all(const char *session, size_t *n)
{
	struct matching m = { session, NULL, 0 };

	delivery_each(collect, &m);
	if (m.n > 1)
		qsort(m.v, m.n, sizeof *m.v, newest_first);
	*n = m.n;
	return m.v;
}

static void
parent_deliveries_call(struct tool_call *call)
{
	const char *session = json_string_value(json_object_get(
	    tool_call_args(call), "session_id"));
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf t = BUF_INIT;
	struct delivery *v;
	json_t *list = json_array(), *j, *remote, *sc, *hook;
	const char *hook_state, *hook_error;
	size_t n, i;

	if (state_root_require(&err) != 0) {
		tool_call_fail(call, "parent_deliveries: %s", error_msg(&err));
		error_clear(&err);
		json_decref(list);
		return;
	}
	v = load_all(session, &n);
	for (i = 0; i < n && i < LIST_MAX; i++) {
		hook = strcmp(v[i].parent, "codex") == 0 ?
		    codexhook_seen(&v[i]) : NULL;
		hook_state = json_string_value(json_object_get(hook, "state"));
		hook_error = json_string_value(json_object_get(hook, "error"));
		/* Taken off the queue, its output unconfirmed: unknown. */
		if (hook_error != NULL)
			v[i].state = DELIVERY_UNKNOWN;
		buf_printf(&t, "%s\t%s\t%s turn %u%s%s%s%s%s%s%s%s\n", v[i].id,
		    delivery_state_name(v[i].state), v[i].session, v[i].turn,
		    v[i].remote[0] != '\0' ? " on " : "", v[i].remote,
		    v[i].outcome[0] != '\0' ? "\t" : "", v[i].outcome,
		    hook_state != NULL ? "\tsteer " : "", hook_state != NULL ?
		    hook_state : "", hook_error != NULL ? " " : "",
		    hook_error != NULL ? hook_error : "");
		j = delivery_json(&v[i]);
		if (hook != NULL)
			json_object_set_new(j, "codex_hook", hook);
		json_array_append_new(list, j);
	}
	if (n > LIST_MAX)
		buf_printf(&t, "(%zu older not shown)\n", n - LIST_MAX);
	/* Those owed on other hosts: ask there (parent_deliveries remote). */
	remote = remote_deliveries_json(session);
	json_array_foreach(remote, i, j)
		buf_printf(&t, "%s\tremote %s\t%s\n", json_string_value(
		    json_object_get(j, "delivery_id")), json_string_value(
		    json_object_get(j, "host")), json_string_value(
		    json_object_get(j, "session_id")));
	if (t.len == 0)
		buf_adds(&t, "no parent deliveries\n");
	t.data[--t.len] = '\0';
	free(v);
	sc = json_pack("{s:o, s:i}", "deliveries", list, "total", (int)n);
	if (json_array_size(remote) > 0)
		json_object_set(sc, "remote_deliveries", remote);
	json_decref(remote);
	tool_call_reply(call, buf_steal(&t, NULL), sc);
}

const struct tool_entry tool_parent_deliveries = {
	.name = "parent_deliveries",
	.title = "Parent deliveries",
	.description = "Read-only: the answers of child agents owed to their "
	    "parent (newest first): id, state (waiting, ready, submitted, "
	    "unknown, failed), session and turn, outcome, a Codex Steer "
	    "hook's hand-over (codex_hook; CODEX_HOOK_DELIVERY_UNCONFIRMED "
	    "when it cannot be confirmed); then those owed on other hosts "
	    "(id, remote host, session).",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\",\"description\":\"Only this "
	    "agent session's.\"}},\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"deliveries\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"object\"}},\"total\":{\"type\":\"integer\"},"
	    "\"remote_deliveries\":{\"type\":\"array\",\"items\":{"
	    "\"type\":\"object\"}}},"
	    "\"required\":[\"deliveries\",\"total\"]}",
	.hints = TOOL_READ_ONLY | TOOL_IDEMPOTENT,
	.call = parent_deliveries_call,
	.relayable = true,
};
