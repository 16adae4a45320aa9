/*
 * URL-mode elicitation (MCP 2025-11-25) for the secret page (issue 36,
 * ADR 0037): the client that declared capabilities.elicitation.url at
 * initialize is asked to send the person to the page, and its answer
 * (accept, decline, cancel) is awaited for ELICIT_ANSWER_MS; when the
 * page has typed the secret, notifications/elicitation/complete says so.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "mcp/server-int.h"
#include "pty/secretpage.h"
#include "tools/tool.h"
#include "util/xmalloc.h"

/* A client that says nothing in this time: the text tells the person. */
#define ELICIT_ANSWER_MS	30000

struct tool_elicit_wait {
	struct tool_elicit_wait	*next;
	char			 rid[64];	/* our request's id */
	void			(*done)(void *arg, const char *action);
	void			*arg;
	uv_timer_t		 timer;
};

static struct tool_elicit_wait *waits;

static void
elicit_complete(const char *id)
{
	if (the_server == NULL || the_server->local)
		return;
	server_send(jsonrpc_notification("notifications/elicitation/complete",
	    json_pack("{s:s}", "elicitationId", id)));
}

void
elicit_init(void)
{
	secret_page_on_typed(elicit_complete);
}

static void
wait_free(uv_handle_t *h)
{
	free(h->data);
}

/* Out of the list, its timer closed; done is not called. */
static void
wait_end(struct tool_elicit_wait *w)
{
	struct tool_elicit_wait **pp;

	for (pp = &waits; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	uv_close((uv_handle_t *)&w->timer, wait_free);
}

static void
wait_finish(struct tool_elicit_wait *w, const char *action)
{
	void (*done)(void *, const char *) = w->done;
	void *arg = w->arg;

	wait_end(w);
	done(arg, action);
}

static void
on_answer_timeout(uv_timer_t *t)
{
	wait_finish(t->data, "none");
}

void
tool_elicit_cancel(struct tool_elicit_wait *w)
{
	if (w != NULL)
		wait_end(w);
}

void
elicit_response(json_t *id, json_t *result, json_t *error)
{
	struct tool_elicit_wait *w;
	const char *action;

	if (!json_is_string(id))
		return;
	for (w = waits; w != NULL; w = w->next) {
		if (strcmp(w->rid, json_string_value(id)) != 0)
			continue;
		action = json_string_value(json_object_get(result, "action"));
		if (error != NULL || action == NULL || (strcmp(action,
		    "accept") != 0 && strcmp(action, "decline") != 0 &&
		    strcmp(action, "cancel") != 0))
			action = "error";
		wait_finish(w, action);
		return;
	}
}

enum tool_elicit
tool_call_elicit_url(struct tool_call *call, const char *message,
    const char *url, const char *id, void (*done)(void *arg,
    const char *action), void *arg, struct tool_elicit_wait **wait)
{
	struct tool_elicit_wait *w;
	json_t *el;

	(void)call;
	*wait = NULL;
	if (the_server == NULL || the_server->local)
		return TOOL_ELICIT_NONE;
	el = json_object_get(the_server->client_caps, "elicitation");
	if (!json_is_object(el))
		return TOOL_ELICIT_NONE;
	/* {} alone is the form mode of the 2025-06-18 revision. */
	if (!json_is_object(json_object_get(el, "url")))
		return TOOL_ELICIT_FORM;
	w = xcalloc(1, sizeof *w);
	snprintf(w->rid, sizeof w->rid, "aiterm-elicit-%s", id);
	w->done = done;
	w->arg = arg;
	uv_timer_init(the_server->loop, &w->timer);
	w->timer.data = w;
	uv_timer_start(&w->timer, on_answer_timeout, ELICIT_ANSWER_MS, 0);
	w->next = waits;
	waits = w;
	*wait = w;
	server_send(json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:s, s:s}}",
	    "jsonrpc", "2.0", "id", w->rid, "method", "elicitation/create",
	    "params", "mode", "url", "message", message, "url", url,
	    "elicitationId", id));
	return TOOL_ELICIT_URL;
}
