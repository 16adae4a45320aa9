/*
 * URL-mode elicitation (MCP 2025-11-25) for the secret page (issue 36,
 * ADR 0037): the client that declared capabilities.elicitation.url at
 * initialize is asked to send the person to the page; when the page has
 * typed the secret, notifications/elicitation/complete says so.  The
 * client's answer (accept, decline, cancel) changes nothing here: the
 * page is what the person uses either way, and a response is never
 * answered (server.c ignores responses).
 */
#include <jansson.h>
#include <stdio.h>

#include "mcp/jsonrpc.h"
#include "mcp/server-int.h"
#include "pty/secretpage.h"
#include "tools/tool.h"

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

enum tool_elicit
tool_call_elicit_url(struct tool_call *call, const char *message,
    const char *url, const char *id)
{
	json_t *el, *req;
	char rid[64];

	(void)call;
	if (the_server == NULL || the_server->local)
		return TOOL_ELICIT_NONE;
	el = json_object_get(the_server->client_caps, "elicitation");
	if (!json_is_object(el))
		return TOOL_ELICIT_NONE;
	/* {} alone is the form mode of the 2025-06-18 revision. */
	if (!json_is_object(json_object_get(el, "url")))
		return TOOL_ELICIT_FORM;
	snprintf(rid, sizeof rid, "aiterm-elicit-%s", id);
	req = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:s, s:s}}", "jsonrpc",
	    "2.0", "id", rid, "method", "elicitation/create", "params", "mode",
	    "url", "message", message, "url", url, "elicitationId", id);
	server_send(req);
	return TOOL_ELICIT_URL;
}
