/*
 * pty_send (PTY-SEND): type text into a session; with wait or until, also
 * wait for completion and return the output in the same call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/dispatch.h"
#include "agent/record.h"
#include "deliver/parent.h"
#include "tools/agent-images.h"
#include "tools/agent-read.h"
#include "tools/agent-schema.h"
#include "tools/pty-common.h"
#include "util/xmalloc.h"

/*
 * What the model reads after a send without wait, by route: "sent" for a
 * command (the tool's description says to read it with pty_read
 * wait=true; ADR 0009: the acknowledgement costs one token), the next
 * step for text typed into another program.
 */
static const char *const next_steps[SEND_ROUTE_COUNT] = {
	[SEND_SHELL] = NULL,
	[SEND_NESTED] = NULL,
	[SEND_DIRECT] = "typed into the foreground program; pty_read "
	    "screen=true shows it, until=TEXT waits for TEXT",
};

static const char *
next_step(enum send_route route)
{
	return next_steps[route];
}

struct agent_send {
	struct tool_call	*call;
	struct harness		 h;
	char			 id[SESSION_ID_MAX + 1];
	struct pty_wait		 w;
	struct parent_delivery	 pd;
};

static void
agent_send_free(struct agent_send *as)
{
	error_clear(&as->pd.err);
	free(as);
}

static void
agent_sent(void *arg, const struct dispatch_result *d)
{
	struct agent_send *as = arg;
	struct aiterm_buf text = BUF_INIT;
	char cursor[48];
	json_t *empty, *sc;

	if (d->status != 0) {
		parent_delivery_sent(&as->pd, d, &text, NULL);
		buf_free(&text);
		tool_call_fail(as->call, "pty_send: %s", error_msg(&d->err));
	} else if (as->w.wait) {
		/* The answer in the same call. */
		empty = json_object();
		agent_read_reply(as->call, as->id, empty, as->w.timeout, true);
		json_decref(empty);
	} else {
		agent_event_cursor(d->turn, d->index, cursor, sizeof cursor);
		sc = json_pack("{s:s, s:s, s:s, s:i, s:s}", "session_id",
		    as->id, "route", dispatch_route_name(d->route), "dispatch",
		    agent_dispatch_name(d->dispatch), "turn", (int)d->turn,
		    "event_cursor", cursor);
		/* A card dismissed first (AGT-GROK) is said before the rest. */
		if (d->recovered[0] != '\0')
			json_object_set_new(sc, "pane_input_recovery",
			    json_string(d->recovered));
		if (d->images > 0)
			json_object_set_new(sc, "images",
			    json_integer(d->images));
		if (d->route == ROUTE_STEERED)
			buf_printf(&text, "added to the running turn %u (no new "
			    "turn); its answer: pty_read agent_transcript=true "
			    "wait=true\n", d->turn);
		else
			buf_printf(&text, "%s%s%sturn %u: %s%s%s%s, "
			    "event_cursor %s\nanswer: pty_read "
			    "agent_transcript=true wait=true\n",
			    d->recovered[0] != '\0' ? "pane_input_recovery: " :
			    "", d->recovered, d->recovered[0] != '\0' ? "\n" :
			    "", d->turn, agent_dispatch_name(d->dispatch),
			    d->confirmed_by[0] != '\0' ? " (" : "",
			    d->confirmed_by, d->confirmed_by[0] != '\0' ? ")" :
			    "", cursor);
		if (d->images > 0)
			buf_printf(&text, "images: %u attached to the text\n",
			    d->images);
		parent_delivery_sent(&as->pd, d, &text, sc);
		if (text.len > 0 && text.data[text.len - 1] == '\n')
			text.len--;
		buf_addc(&text, '\0');
		tool_call_reply(as->call, buf_steal(&text, NULL), sc);
	}
	agent_send_free(as);
}

/* AGT-SEND: an agent session's text is a turn, or joins the running one. */
static bool
agent_send(struct tool_call *call, json_t *args, const struct pty_wait *w)
{
	const char *id = tool_call_session(call);
	struct aiterm_error err = ERROR_INIT;
	struct call_origin origin;
	struct agent_record rec;
	struct agent_images im;
	struct agent_send *as;

	if (agent_record_read(id, &rec, NULL) != 0)
		return false;
	as = xcalloc(1, sizeof *as);
	as->call = call;
	as->w = *w;
	snprintf(as->id, sizeof as->id, "%s", id);
	if (harness_find(rec.harness, &as->h, &err) != 0 ||
	    tool_images(args, &as->h, "nothing was sent", &im, &err) != 0) {
		tool_call_fail(call, "pty_send: %s", error_msg(&err));
		error_clear(&err);
		agent_send_free(as);
	} else {
		/* The answer comes back by itself unless it is awaited here. */
		as->pd.lock_fd = -1;
		origin = tool_call_origin(call);
		if (w->wait ? parent_child_free(&origin, NULL, id, &err) != 0 :
		    parent_delivery_begin(&as->pd, &origin, id) != 0) {
			tool_call_fail(call, "pty_send: %s", error_msg(w->wait ?
			    &err : &as->pd.err));
			error_clear(&err);
			agent_send_free(as);
			agent_record_free(&rec);
			agent_images_free(&im);
			return true;
		}
		agent_dispatch_images(&as->h, id, json_string_value(
		    json_object_get(args, "text")), json_string_length(
		    json_object_get(args, "text")), &im, agent_sent, as);
		agent_images_free(&im);
	}
	agent_record_free(&rec);
	return true;
}

/* A shell send: what waits for the text to go in. */
struct shell_send {
	struct tool_call	*call;
	struct send_job		*job;	/* until shell_sent */
	struct pty_wait		 w;
	bool			 raw;
};

/* Cancelled while it waits for its turn: nothing is typed. */
static void
shell_cancel(struct tool_call *call)
{
	struct shell_send *ss = tool_call_data(call);

	send_cancel(ss->job);
}

static void
shell_sent(void *arg, int status, const struct aiterm_error *err,
    struct send_outcome *out)
{
	struct shell_send *ss = arg;
	const char *session = tool_call_session(ss->call);
	json_t *sc, *sanitized;
	char *note;

	tool_call_set_data(ss->call, NULL, NULL);
	if (status != 0) {
		tool_call_fail(ss->call, "pty_send: %s", error_msg(err));
	} else if (ss->w.wait && tool_call_cancelled(ss->call)) {
		/* Typed before the cancel came: its turn goes back at once. */
		send_release(out->hold);
		tool_call_fail(ss->call, "cancelled");
	} else if (ss->w.wait) {
		pty_wait_and_reply(ss->call, session, &ss->w, out, ss->raw);
	} else {
		note = pty_sanitized(&out->removed, &sanitized);
		sc = json_pack("{s:s, s:n, s:n, s:I, s:s}", "session_id",
		    session, "complete", "via", "cursor",
		    (json_int_t)out->cmd.offset, "mode",
		    send_route_name(out->route));
		if (sanitized != NULL)
			json_object_set_new(sc, "sanitized", sanitized);
		tool_call_reply(ss->call, xasprintf("%ssent%s%s",
		    note != NULL ? note : "", next_step(out->route) != NULL ?
		    "; " : "", next_step(out->route) != NULL ?
		    next_step(out->route) : ""), sc);
		free(note);
	}
	free(ss);
}

static void
pty_send_call(struct tool_call *call)
{
	json_t *args = tool_call_args(call), *enter, *raw;
	struct aiterm_error err = ERROR_INIT;
	struct send_request req;
	struct shell_send *ss;
	struct send_job *job;
	struct pty_wait w;

	memset(&req, 0, sizeof req);
	req.session = tool_call_session(call);
	req.text = json_string_value(json_object_get(args, "text"));
	req.len = json_string_length(json_object_get(args, "text"));
	enter = json_object_get(args, "enter");
	raw = json_object_get(args, "raw");
	req.enter = enter == NULL || json_is_true(enter);
	req.raw = json_is_true(raw);
	if (pty_wait_args(args, &w, &err) == 0 && agent_send(call, args, &w))
		return;
	if (err.msg != NULL) {
		tool_call_fail(call, "pty_send: %s", error_msg(&err));
		error_clear(&err);
		return;
	}
	/* AGT-IMAGE: images go with a prompt to an agent, never to a shell. */
	if (json_object_get(args, "image") != NULL) {
		tool_call_fail(call, "pty_send: image: %s is not an agent "
		    "session (agent_launch starts one); images go only with a "
		    "prompt to an agent; nothing was sent", req.session);
		return;
	}
	/*
	 * A waited send keeps the session until its result is taken, and
	 * may wait as long as its timeout for its turn (issue 37).
	 */
	req.hold = w.wait;
	req.turn_ms = w.wait && w.timeout > 0 ? (unsigned)(w.timeout *
	    1000.0) : 0;
	ss = xcalloc(1, sizeof *ss);
	ss->call = call;
	ss->w = w;
	ss->raw = req.raw;
	/* NULL: shell_sent has run and ss is gone already. */
	if ((job = send_text_async(&req, shell_sent, ss)) != NULL) {
		ss->job = job;
		tool_call_set_data(call, ss, shell_cancel);
	}
}

const struct tool_entry tool_pty_send = {
	.name = "pty_send",
	.title = "Send text to a terminal",
	.description = "Type text and press Enter (enter=false: type only). "
	    "Multi-line text runs as one script in the current shell; to a "
	    "REPL it goes as given (end a Python block with a blank line, "
	    "Enter only if it does not end with a newline). With "
	    "wait=true or until, also returns the output and exit code in "
	    "this call (output with no [status] line: exit 0 or until "
	    "matched); without, replies \"sent\": read with pty_read "
	    "wait=true. Max 64 KiB. To an agent session: a new turn, or "
	    "added to the running one; wait=true returns its answer.",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},"
	    "\"text\":{\"type\":\"string\"},"
	    "\"enter\":{\"type\":\"boolean\",\"default\":true},"
	    "\"raw\":{\"type\":\"boolean\",\"default\":false,\"description\":"
	    "\"Send bytes as is: no sanitising, no script wrapping.\"},"
	    AGENT_IMAGE_PROP "," PTY_WAIT_PROPS "},"
	    "\"required\":[\"session_id\",\"text\"],"
	    "\"additionalProperties\":false}",
	/*
	 * A shell send (its output with wait, else its route), or to an
	 * agent its turn's answer (wait) or the dispatch's receipt.
	 */
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    PTY_SHELL_PROPS "," AGENT_ANSWER_PROPS "," AGENT_RECEIPT_PROPS "},"
	    "\"anyOf\":[{\"required\":" PTY_SHELL_REQUIRED "},"
	    "{\"required\":" AGENT_ANSWER_REQUIRED "},"
	    "{\"required\":" AGENT_RECEIPT_REQUIRED "}]}",
	.hints = TOOL_DESTRUCTIVE | TOOL_OPEN_WORLD,
	.call = pty_send_call,
	.relayable = true,
	.session_target = true,
	.always_load = true,
};
