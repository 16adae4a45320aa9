/*
 * pty_read{agent_transcript:true} (AGT-TURN): the call's side of the
 * turn-answer engine (agent/answer.h), which finds the answer.
 */
#include <stdlib.h>

#include "agent/answer.h"
#include "tools/agent-read.h"
#include "util/jsonschema.h"
#include "util/loop.h"

static void
answered(void *arg, struct agent_answer *a)
{
	struct tool_call *call = arg;

	if (a->status != 0) {
		tool_call_fail(call, "pty_read: %s", error_msg(&a->err));
		return;
	}
	tool_call_reply(call, a->text, a->fields);
	a->text = NULL;
	a->fields = NULL;
}

static void
progress(void *arg, double waited, double timeout)
{
	tool_call_progress(arg, waited, timeout,
	    "waiting for the agent's answer");
}

static void
on_cancel(struct tool_call *call)
{
	agent_answer_cancel(tool_call_data(call));
	tool_call_fail(call, "cancelled");
}

void
agent_read_reply(struct tool_call *call, const char *session, json_t *args,
    double timeout, bool wait)
{
	const struct agent_answer_to to = { answered, progress, call };
	json_t *turn = json_object_get(args, "turn");
	struct agent_answer_wait *w;

	w = agent_answer_wait(core_loop(), session,
	    (unsigned)schema_integer(turn, 0), timeout, wait, &to);
	if (w != NULL)
		tool_call_set_data(call, w, on_cancel);
}
