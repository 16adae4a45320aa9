/*
 * The output schema fragments the agent paths share (ADR 0006): an agent
 * turn's answer (pty_read agent_transcript, pty_send wait to an agent),
 * a dispatch's receipt (pty_send to an agent) and the parent delivery a
 * receipt names (pty_send, agent_launch).  A result of each path carries
 * every field its "required" list names.
 */
#ifndef AITERM_TOOLS_AGENT_SCHEMA_H
#define AITERM_TOOLS_AGENT_SCHEMA_H

/* A turn's answer (agent/answer.c turn_json). */
#define AGENT_ANSWER_PROPS \
	"\"turn\":{\"type\":\"integer\",\"minimum\":1}," \
	"\"state\":{\"type\":\"string\",\"enum\":[\"done\",\"error\"," \
	"\"exited\",\"approval\",\"no_transcript\",\"not_started\"," \
	"\"running\",\"saved\",\"ambiguous\"]}," \
	"\"reason\":{\"type\":\"string\"}," \
	"\"transcript\":{\"type\":\"string\"}"
#define AGENT_ANSWER_REQUIRED \
	"[\"session_id\",\"turn\",\"state\",\"reason\",\"transcript\"]"

/*
 * How a prompt went out (agent/record.c); failed: typed and refused
 * before it reached the model (USER_HOOK_BLOCKED, ADR 0017).
 */
#define AGENT_DISPATCH_PROP \
	"\"dispatch\":{\"type\":\"string\",\"enum\":[\"not_requested\"," \
	"\"not_sent\",\"sent_unconfirmed\",\"start_confirmed\",\"failed\"]}"

/*
 * The delivery of the answer to the parent (deliver/parent.c): the
 * waiter's argv and command line, null when the parent's receiver takes
 * the answer by itself (wait_process) or offers the waiter in words
 * only (wait_command).
 */
#define AGENT_DELIVERY_PROPS \
	"\"parent_delivery\":{\"type\":\"object\",\"properties\":{" \
	"\"delivery_id\":{\"type\":\"string\"}," \
	"\"state\":{\"type\":\"string\"}}," \
	"\"required\":[\"delivery_id\",\"state\"]}," \
	"\"wait_process\":{\"type\":[\"object\",\"null\"],\"properties\":{" \
	"\"argv\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}," \
	"\"required\":[\"argv\"]}," \
	"\"wait_command\":{\"type\":[\"string\",\"null\"]}"

/* A text sent to an agent session (tools/pty-send.c agent_sent). */
#define AGENT_RECEIPT_PROPS \
	"\"route\":{\"type\":\"string\",\"enum\":[\"new_turn\"," \
	"\"steered\",\"recovery\"]}," \
	AGENT_DISPATCH_PROP "," \
	"\"event_cursor\":{\"type\":\"string\"}," \
	"\"pane_input_recovery\":{\"type\":\"string\"}," \
	"\"images\":{\"type\":\"integer\",\"minimum\":1}," \
	AGENT_DELIVERY_PROPS
#define AGENT_RECEIPT_REQUIRED \
	"[\"session_id\",\"route\",\"dispatch\",\"turn\",\"event_cursor\"]"

#endif
