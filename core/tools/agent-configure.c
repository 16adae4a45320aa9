/*
 * agent_configure (AGT-CONFIGURE, ADR 0035): a running agent's model, and
 * its reasoning effort where the CLI has one, changed in the same session
 * through the CLI's own model command and confirmed from its screen
 * (agent/configure.h).  The receipt says what it was and what the CLI
 * confirmed; a model or an effort the CLI does not offer is an error
 * that lists what it does, and the model stays.  A running turn is an
 * error: the change is made between turns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/configure.h"
#include "tools/tool.h"
#include "util/xmalloc.h"

static void
configured(void *arg, int status, const struct configure_result *r,
    const struct aiterm_error *err)
{
	struct tool_call *call = arg;
	const char *id = tool_call_session(call);
	char effort[96] = "";

	if (status != 0) {
		tool_call_fail(call, "agent_configure: %s", error_msg(err));
		return;
	}
	if (r->effort[0] != '\0')
		snprintf(effort, sizeof effort, ", effort %s -> %s",
		    r->from_effort[0] != '\0' ? r->from_effort : "(unset)",
		    r->effort);
	tool_call_reply(call, xasprintf("configured %s (%s): model %s -> %s%s\n"
	    "confirmed on the %s: %s", id, r->harness, r->from_model[0] !=
	    '\0' ? r->from_model : "(launch default)", r->model, effort,
	    r->confirmed_by, r->said), json_pack("{s:s, s:s, s:s, s:s, s:s, "
	    "s:s, s:s, s:s}", "session_id", id, "harness", r->harness,
	    "from_model", r->from_model, "model", r->model,
	    "from_effort", r->from_effort, "effort", r->effort,
	    "confirmed_by", r->confirmed_by, "said", r->said));
}

static void
agent_configure_call(struct tool_call *call)
{
	json_t *args = tool_call_args(call);

	agent_configure(tool_call_session(call),
	    json_string_value(json_object_get(args, "model")),
	    json_string_value(json_object_get(args, "effort")), configured,
	    call);
}

#define CONFIGURE_INPUT \
	"{\"type\":\"object\",\"properties\":{" \
	"\"session_id\":{\"type\":\"string\"}," \
	"\"model\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":100," \
	"\"description\":\"as the CLI's /model offers it\"}," \
	"\"effort\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":24," \
	"\"description\":\"reasoning effort, e.g. high\"}}," \
	"\"required\":[\"session_id\",\"model\"]," \
	"\"additionalProperties\":false}"

#define CONFIGURE_OUTPUT \
	"{\"type\":\"object\",\"properties\":{" \
	"\"session_id\":{\"type\":\"string\"}," \
	"\"harness\":{\"type\":\"string\"}," \
	"\"from_model\":{\"type\":\"string\"},\"model\":{\"type\":\"string\"}," \
	"\"from_effort\":{\"type\":\"string\"},\"effort\":{\"type\":\"string\"}," \
	"\"confirmed_by\":{\"type\":\"string\"},\"said\":{\"type\":\"string\"}}," \
	"\"required\":[\"session_id\",\"model\",\"confirmed_by\"]}"

const struct tool_entry tool_agent_configure = {
	.name = "agent_configure",
	.title = "Change a running agent's model",
	.description = "Switch an agent session's model (and effort) between "
	    "turns via the CLI's own /model; confirmed on screen. A model it "
	    "does not offer is an error.",
	.input_schema = CONFIGURE_INPUT,
	.output_schema = CONFIGURE_OUTPUT,
	.hints = TOOL_DESTRUCTIVE | TOOL_OPEN_WORLD,
	.call = agent_configure_call,
	.relayable = true,
	.session_target = true,
};
