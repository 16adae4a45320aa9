/*
 * pty_read{agent_transcript:true} (AGT-TURN): the answer of an agent
 * session's turn, from the harness's own transcript and correlated to the
 * turn's boundary (its event_cursor), never from the screen.  With wait,
 * a change of the transcript or of the pane wakes a look (inotify, no
 * polling) until the turn ends, the pane exits or the timeout passes.  An
 * answer, once read, is saved beside the session, so turn N's answer is
 * never taken for turn N+1's and survives a restart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/dispatch.h"
#include "agent/record.h"
#include "agent/screen.h"
#include "agent/transcript.h"
#include "agent/watch.h"
#include "mcp/server.h"
#include "pty/session.h"
#include "state/errtally.h"
#include "tools/agent-read.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* A look waits this long after a change (the record being written). */
#define SETTLE_MS	15
/* ... and this long after the agent's process ended (see agent_ended). */
#define EXIT_SETTLE_MS	300

struct aread {
	struct tool_call	*call;
	struct harness		 h;
	char			 session[SESSION_ID_MAX + 1];
	unsigned		 turn;
	double			 timeout;
	long long		 t0;
	uv_fs_event_t		 log_watch;
	struct path_watch	*transcript;	/* its file, or where it will be */
	struct pid_watch	*agent;		/* the pane's process ending */
	uv_timer_t		 look, deadline;
	bool			 done;
	int			 open;
};

static void
ar_closed(uv_handle_t *h)
{
	struct aread *a = h->data;

	if (--a->open == 0)
		free(a);
}

static void
ar_stop(struct aread *a)
{
	a->done = true;
	uv_timer_stop(&a->look);
	uv_timer_stop(&a->deadline);
	uv_fs_event_stop(&a->log_watch);
	if (a->transcript != NULL)
		path_watch_stop(a->transcript);
	pid_watch_stop(a->agent);
	uv_close((uv_handle_t *)&a->look, ar_closed);
	uv_close((uv_handle_t *)&a->deadline, ar_closed);
	uv_close((uv_handle_t *)&a->log_watch, ar_closed);
}

enum look_end { LOOK_WAIT, LOOK_DONE };

static json_t *
turn_json(const char *session, unsigned turn, const char *state,
    const char *reason, const char *transcript)
{
	return json_pack("{s:s, s:i, s:s, s:s, s:s}", "session_id", session,
	    "turn", (int)turn, "state", state, "reason", reason,
	    "transcript", transcript);
}

/* A turn that ended: its answer, saved; the mark cleared. */
static void
ended(struct tool_call *call, const char *session, struct agent_record *rec,
    const struct aiterm_turn *t, struct aiterm_buf *answer, long long ms)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf text = BUF_INIT;
	bool ok = t->state == AITERM_TURN_DONE;

	if (!agent_answer_exists(session, rec->turn))
		agent_answer_save(session, rec->turn, buf_str(answer),
		    answer->len, &err);
	if (rec->running_mark) {
		rec->running_mark = false;
		agent_record_write(session, rec, &err);
	}
	error_clear(&err);
	buf_add(&text, buf_str(answer), answer->len);
	if (text.len > 0 && text.data[text.len - 1] != '\n')
		buf_addc(&text, '\n');
	if (ok)
		buf_printf(&text, "[turn %u done", rec->turn);
	else
		buf_printf(&text, "[turn %u ended with an error (%s)",
		    rec->turn, t->reason);
	if (ms >= 1000)
		buf_printf(&text, " · %.1fs", ms / 1000.0);
	buf_adds(&text, "]");
	tool_call_reply(call, buf_steal(&text, NULL), turn_json(session,
	    rec->turn, ok ? "done" : "error", t->reason, rec->transcript));
}

/*
 * One look: the turn from the transcript, the pane's life.  Replies and
 * returns LOOK_DONE when there is something to say now (final is true
 * when the caller will not wait any longer).
 */
static enum look_end
look(struct tool_call *call, const struct harness *h, const char *session,
    bool final, double timeout, long long t0)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	struct agent_record rec;
	struct agent_screen scr;
	struct aiterm_turn t;
	enum look_end end = LOOK_DONE;
	int located;

	if (agent_record_read(session, &rec, &err) != 0) {
		tool_call_fail(call, "pty_read: %s", error_msg(&err));
		goto out;
	}
	located = transcript_locate(h, &rec, &err);
	if (located < 0) {
		tool_call_fail(call, "pty_read: %s", error_msg(&err));
		goto out_rec;
	}
	if (located == 0 && rec.transcript[0] != '\0')
		agent_record_write(session, &rec, &err);
	if (located == 0 && transcript_turn(h, rec.transcript, rec.index,
	    &t, &answer, &err) != 0) {
		tool_call_fail(call, "pty_read: %s", error_msg(&err));
		goto out_rec;
	}
	if (located == 0 && (t.state == AITERM_TURN_DONE ||
	    t.state == AITERM_TURN_ERROR)) {
		/* This turn's error and a usage-limit card now: rate_limited. */
		if (t.state == AITERM_TURN_ERROR && agent_screen_read(h,
		    session, &scr, &err) == 0) {
			if (scr.verdict.state == AITERM_SCREEN_RATE_LIMITED)
				t.reason = "rate_limited";
			agent_screen_free(&scr);
		}
		error_clear(&err);
		ended(call, session, &rec, &t, &answer, session_now_ms() -
		    rec.dispatched_ms);
		goto out_rec;
	}
	/* The agent's pane exited: this turn will not end. */
	if (agent_screen_read(h, session, &scr, &err) == 0 &&
	    scr.verdict.state == AITERM_SCREEN_EXITED) {
		tool_call_reply(call, xasprintf("[turn %u did not end: the "
		    "agent exited (status %d); pty_read screen=true shows its "
		    "last screen]", rec.turn, scr.pane.dead_status),
		    turn_json(session, rec.turn, "exited", scr.verdict.reason,
		    rec.transcript));
		agent_screen_free(&scr);
		goto out_rec;
	}
	/* An approval holds the turn until someone answers it. */
	if (scr.verdict.state == AITERM_SCREEN_APPROVAL) {
		tool_call_reply(call, xasprintf("[turn %u waits for an approval "
		    "(%s): agent_approval session_id=%s shows it]", rec.turn,
		    scr.verdict.reason, session), turn_json(session, rec.turn,
		    "approval", scr.verdict.reason, rec.transcript));
		agent_screen_free(&scr);
		goto out_rec;
	}
	agent_screen_free(&scr);
	if (!final) {
		end = LOOK_WAIT;
		goto out_rec;
	}
	if (located != 0)
		errtally_note(ERRTALLY_TRANSCRIPT_MISSING);
	if (located != 0)
		tool_call_reply(call, xasprintf("[turn %u: no transcript of "
		    "this launch yet%s]", rec.turn, timeout > 0 ? "; waited" :
		    ""), turn_json(session, rec.turn, "no_transcript",
		    "not_found", ""));
	else if (t.state == AITERM_TURN_NONE)
		tool_call_reply(call, xasprintf("[turn %u: its prompt is not in "
		    "the transcript yet%s]", rec.turn, timeout > 0 ?
		    "; pty_read agent_transcript=true wait=true keeps waiting" :
		    ""), turn_json(session, rec.turn, "not_started", t.reason,
		    rec.transcript));
	else
		tool_call_reply(call, timeout > 0 ? xasprintf("[turn %u still "
		    "running after %.0fs; pty_read agent_transcript=true "
		    "wait=true keeps waiting]", rec.turn, (session_now_ms() -
		    t0) / 1000.0) : xasprintf("[turn %u running; pty_read "
		    "agent_transcript=true wait=true waits for its answer]",
		    rec.turn), turn_json(session, rec.turn, "running",
		    t.reason, rec.transcript));
out_rec:
	agent_record_free(&rec);
out:
	error_clear(&err);
	buf_free(&answer);
	return end;
}

static void watch_file(struct aread *a);

static void
on_look(uv_timer_t *t)
{
	struct aread *a = t->data;

	if (a->done)
		return;
	tool_call_progress(a->call, (session_now_ms() - a->t0) / 1000.0,
	    a->timeout, "waiting for the agent's answer");
	if (look(a->call, &a->h, a->session, false, a->timeout, a->t0) ==
	    LOOK_DONE) {
		ar_stop(a);
		return;
	}
	watch_file(a);
}

static void
changed(void *arg)
{
	struct aread *a = arg;

	if (!a->done && !uv_is_active((uv_handle_t *)&a->look))
		uv_timer_start(&a->look, on_look, SETTLE_MS, 0);
}

static void
on_change(uv_fs_event_t *h, const char *name, int events, int status)
{
	(void)name;
	(void)events;
	(void)status;
	changed(h->data);
}

/*
 * The agent's process ended.  The look waits for the multiplexer to have
 * taken the pane's death in: tmux 3.3a can crash when asked about a pane
 * in the moment its process died (found here: a capture right after a
 * SIGKILL ended its server).
 */
static void
agent_ended(void *arg)
{
	struct aread *a = arg;

	if (!a->done) {
		uv_timer_stop(&a->look);
		uv_timer_start(&a->look, on_look, EXIT_SETTLE_MS, 0);
	}
}

/* The transcript's file once known, else the folder it will appear in. */
static void
watch_file(struct aread *a)
{
	struct agent_record rec;
	char *target;

	if (agent_record_read(a->session, &rec, NULL) != 0)
		return;
	if ((target = transcript_watch_target(&a->h, &rec)) != NULL) {
		if (a->transcript == NULL)
			a->transcript = path_watch_start(target, changed, a);
		else
			path_watch_retarget(a->transcript, target);
	}
	free(target);
	agent_record_free(&rec);
}

static void
on_deadline(uv_timer_t *t)
{
	struct aread *a = t->data;

	look(a->call, &a->h, a->session, true, a->timeout, a->t0);
	ar_stop(a);
}

static void
on_cancel(struct tool_call *call)
{
	struct aread *a = tool_call_data(call);

	tool_call_fail(call, "cancelled");
	ar_stop(a);
}

/* An earlier turn: the answer saved when it was read or replaced. */
static void
saved(struct tool_call *call, const char *session, unsigned turn,
    unsigned current)
{
	size_t len = 0;
	char *text = agent_answer_load(session, turn, &len);
	struct aiterm_buf b = BUF_INIT;

	if (text == NULL) {
		tool_call_fail(call, "pty_read: turn %u of %s has no saved "
		    "answer (the current turn is %u)", turn, session,
		    current);
		return;
	}
	buf_add(&b, text, len);
	if (b.len > 0 && b.data[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_printf(&b, "[turn %u, saved]", turn);
	free(text);
	tool_call_reply(call, buf_steal(&b, NULL), turn_json(session, turn,
	    "saved", "saved", ""));
}

void
agent_read_reply(struct tool_call *call, const char *session, json_t *args,
    double timeout, bool wait)
{
	struct aiterm_error err = ERROR_INIT;
	struct agent_record rec;
	struct harness h;
	struct agent_screen scr;
	struct aread *a;
	json_t *turn = json_object_get(args, "turn");
	char *log;

	if (agent_record_read(session, &rec, &err) != 0) {
		tool_call_fail(call, "pty_read: %s is not an agent session "
		    "(agent_launch starts one)", session);
		error_clear(&err);
		return;
	}
	if (harness_find(rec.harness, &h, &err) != 0) {
		tool_call_fail(call, "pty_read: %s", error_msg(&err));
		goto out;
	}
	if (rec.turn == 0) {
		tool_call_fail(call, "pty_read: %s has had no turn yet; "
		    "pty_send a prompt first", session);
		goto out;
	}
	if (turn != NULL && (unsigned)json_integer_value(turn) != rec.turn) {
		if ((unsigned)json_integer_value(turn) > rec.turn)
			tool_call_fail(call, "pty_read: turn %lld has not been "
			    "dispatched (the current turn is %u)",
			    (long long)json_integer_value(turn), rec.turn);
		else
			saved(call, session, (unsigned)json_integer_value(turn),
			    rec.turn);
		goto out;
	}
	if (!wait) {
		look(call, &h, session, true, 0, session_now_ms());
		goto out;
	}
	a = xcalloc(1, sizeof *a);
	a->call = call;
	a->h = h;
	snprintf(a->session, sizeof a->session, "%s", session);
	a->turn = rec.turn;
	a->timeout = timeout;
	a->t0 = session_now_ms();
	if (look(call, &h, session, false, timeout, a->t0) == LOOK_DONE) {
		free(a);
		goto out;
	}
	uv_timer_init(server_loop(), &a->look);
	uv_timer_init(server_loop(), &a->deadline);
	uv_fs_event_init(server_loop(), &a->log_watch);
	a->look.data = a->deadline.data = a->log_watch.data = a;
	a->open = 3;
	log = session_path(session, "output.log");
	uv_fs_event_start(&a->log_watch, on_change, log, 0);
	free(log);
	watch_file(a);
	/* A dead agent writes nothing more: its exit wakes the look. */
	if (agent_screen_read(&h, session, &scr, NULL) == 0) {
		a->agent = pid_watch_start(scr.pane.pid, agent_ended, a);
		agent_screen_free(&scr);
	}
	uv_timer_start(&a->deadline, on_deadline, (uint64_t)(timeout * 1000),
	    0);
	tool_call_set_data(call, a, on_cancel);
out:
	agent_record_free(&rec);
	error_clear(&err);
}
