/*
 * The answer of an agent session's turn (AGT-TURN), for pty_read
 * {agent_transcript:true} and the delivery observer alike: from the
 * harness's own transcript and correlated to the turn's boundary (its
 * event_cursor), never from the screen.  With wait,
 * a change of the transcript or of the pane wakes a look (inotify, no
 * polling) until the turn ends, the pane exits or the timeout passes.  An
 * answer, once read, is saved beside the session, so turn N's answer is
 * never taken for turn N+1's and survives a restart.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/answer.h"
#include "agent/dispatch.h"
#include "agent/record.h"
#include "agent/screen.h"
#include "agent/transcript.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "state/errtally.h"
#include "util/buf.h"
#include "util/watch.h"
#include "util/xmalloc.h"

/* Whether a bound transcript's file no longer exists. */
static bool
gone(const char *path)
{
	struct stat st;

	return path[0] != '\0' && stat(path, &st) != 0 && errno == ENOENT;
}

/* A look waits this long after a change (the record being written). */
#define SETTLE_MS	15
/* ... and this long after the agent's process ended (see agent_ended). */
#define EXIT_SETTLE_MS	300

/*
 * LOOK_APPROVAL: an approval on the screen, to be seen again before a
 * wait ends on it.  A TUI redrawing (Gemini's, under load) leaves the
 * grid half old for a moment: right after an answer, the dialog it took
 * can still be read there, and the wait would send the model back to
 * answer it twice.
 */
enum look_end { LOOK_WAIT, LOOK_DONE, LOOK_APPROVAL };
#define APPROVAL_SETTLE_MS	120

/*
 * What a look found, into the answer.  A look runs on the multiplexer's
 * thread (pty/muxjob.h), where the caller may not be called back, so it
 * fills the answer and the loop hands it over.
 */
static void
say(struct agent_answer *out, char *text, json_t *fields)
{
	out->text = text;
	out->fields = fields;
}

static void
say_fail(struct agent_answer *out, const char *what)
{
	out->status = error_set(&out->err, "%s", what);
}

struct agent_answer_wait {
	struct agent_answer_to	 to;
	struct harness		 h;
	char			 session[SESSION_ID_MAX + 1];
	double			 timeout;
	long long		 t0;
	uv_fs_event_t		 log_watch;
	struct path_watch	*transcript;	/* its file, or where it will be */
	struct pid_watch	*agent;		/* the pane's process ending */
	uv_timer_t		 look, deadline;
	bool			 done;
	int			 open;
	/* Looks run on the multiplexer's thread: in flight, and found. */
	int			 jobs;
	bool			 looking;
	/*
	 * A change came while a look was in flight: that look may have read
	 * the transcript before it, so another look follows it.
	 */
	bool			 look_again;
	bool			 final;		/* the deadline has passed */
	bool			 job_final;	/* the look in flight is the last */
	bool			 waits;		/* false: one look, no watches */
	bool			 seen_approval;	/* the last look saw one */
	enum look_end		 end;
	struct agent_answer	 said;
	long			 pane_pid;
};

/* Freed once its handles are closed and no look holds it. */
static void
ar_free(struct agent_answer_wait *a)
{
	if (a->open == 0 && a->jobs == 0)
		free(a);
}

static void
ar_closed(uv_handle_t *h)
{
	struct agent_answer_wait *a = h->data;

	a->open--;
	ar_free(a);
}

static void
ar_stop(struct agent_answer_wait *a)
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

/* A look's answer, emptied (what the caller took is NULL already). */
static void
said_free(struct agent_answer *out)
{
	free(out->text);
	json_decref(out->fields);
	error_clear(&out->err);
	memset(out, 0, sizeof *out);
}

/* The caller answered with what the look said; the sink emptied. */
static void
answer_with(struct agent_answer_wait *a, struct agent_answer *out)
{
	a->to.cb(a->to.arg, out);
	said_free(out);
}

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
ended(struct agent_answer *out, const char *session, struct agent_record *rec,
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
	say(out, buf_steal(&text, NULL), turn_json(session, rec->turn,
	    ok ? "done" : "error", t->reason, rec->transcript));
}

/*
 * One look: the turn from the transcript, the pane's life.  Replies and
 * returns LOOK_DONE when there is something to say now (final is true
 * when the caller will not wait any longer).
 */
static enum look_end
look(struct agent_answer *out, const struct harness *h, const char *session,
    bool final, bool seen_approval, double timeout, long long t0)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	struct agent_record rec;
	struct agent_screen scr;
	struct aiterm_turn t;
	enum look_end end = LOOK_DONE;
	int located, rc = 0;
	bool seen, pending;

	if (agent_record_read(session, &rec, &err) != 0) {
		say_fail(out, error_msg(&err));
		goto out;
	}
	located = transcript_locate(h, session, &rec, &err);
	if (located < 0) {
		say_fail(out, error_msg(&err));
		goto out_rec;
	}
	/*
	 * More than one file has this launch's evidence (AGT-JOB): none is
	 * read, nothing is sent again, and waiting will not settle it.
	 */
	if (located == TRANSCRIPT_AMBIGUOUS) {
		say(out, xasprintf("[turn %u: ambiguous: %s; no file is taken "
		    "for this launch's transcript, so no answer is read (nothing "
		    "was sent again)]", rec.turn, error_msg(&err)),
		    turn_json(session, rec.turn, "ambiguous",
		    "transcript_ambiguous", ""));
		goto out_rec;
	}
	if (located == TRANSCRIPT_BOUND)
		rc = transcript_turn(h, &rec, &t, &answer, &err);
	if (rc == TRANSCRIPT_OTHER_PROMPT) {
		say(out, xasprintf("[turn %u: not taken: %s; the CLI ran "
		    "another text as this turn (queued while a turn ran), so "
		    "no answer is read for it]", rec.turn, error_msg(&err)),
		    turn_json(session, rec.turn, "mismatch", t.reason,
		    rec.transcript));
		goto out_rec;
	}
	if (rc != 0) {
		say_fail(out, error_msg(&err));
		goto out_rec;
	}
	if (located == TRANSCRIPT_BOUND && (t.state == AITERM_TURN_DONE ||
	    t.state == AITERM_TURN_ERROR) && agent_turn_screen_idle(h,
	    session)) {
		/* This turn's error and a usage-limit card now: rate_limited. */
		if (t.state == AITERM_TURN_ERROR && agent_screen_read(h,
		    session, &scr, &err) == 0) {
			if (scr.verdict.state == AITERM_SCREEN_RATE_LIMITED)
				t.reason = "rate_limited";
			agent_screen_free(&scr);
		}
		error_clear(&err);
		ended(out, session, &rec, &t, &answer, session_now_ms() -
		    rec.dispatched_ms);
		goto out_rec;
	}
	/* The agent's pane exited: this turn will not end. */
	seen = agent_screen_read(h, session, &scr, &err) == 0;
	pending = seen && agent_screen_input_typed(&scr.verdict);
	if (seen && scr.verdict.state == AITERM_SCREEN_EXITED) {
		say(out, xasprintf("[turn %u did not end: the "
		    "agent exited (status %d); pty_read screen=true shows its "
		    "last screen]", rec.turn, scr.pane.dead_status),
		    turn_json(session, rec.turn, "exited", scr.verdict.reason,
		    rec.transcript));
		agent_screen_free(&scr);
		goto out_rec;
	}
	/* An approval holds the turn until someone answers it. */
	if (scr.verdict.state == AITERM_SCREEN_APPROVAL && !final &&
	    !seen_approval) {
		agent_screen_free(&scr);
		end = LOOK_APPROVAL;
		goto out_rec;
	}
	if (scr.verdict.state == AITERM_SCREEN_APPROVAL) {
		say(out, xasprintf("[turn %u waits for an approval "
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
	if (located != 0 && !pending)
		errtally_note(ERRTALLY_TRANSCRIPT_MISSING);
	if (pending && (located != 0 || t.state == AITERM_TURN_NONE))
		/* Nothing starts until someone submits it (ADR 0048). */
		say(out, xasprintf("[turn %u: its prompt is not in the "
		    "transcript, and the agent's input box holds text that "
		    "was not submitted: nothing starts until it is submitted "
		    "or cleared (pty_key; pty_read screen=true shows it)]",
		    rec.turn), turn_json(session, rec.turn, "not_started",
		    "input_pending", located != 0 ? "" : rec.transcript));
	else if (located != 0)
		say(out, xasprintf("[turn %u: no transcript of "
		    "this launch yet%s]", rec.turn, timeout > 0 ? "; waited" :
		    ""), turn_json(session, rec.turn, "no_transcript",
		    "not_found", ""));
	else if (t.state == AITERM_TURN_NONE && gone(rec.transcript)) {
		/*
		 * The bound file was deleted outside Aiterm (Gemini CLI 0.61
		 * deletes, at its start, other new chats of the folder: ADR
		 * 0039): nothing more will come to read.
		 */
		errtally_note(ERRTALLY_TRANSCRIPT_MISSING);
		say(out, xasprintf("[turn %u: its transcript %s is gone, "
		    "deleted outside Aiterm; the turn's answer cannot be read "
		    "from it (pty_read screen=true shows the screen)]",
		    rec.turn, rec.transcript), turn_json(session, rec.turn,
		    "no_transcript", "transcript_deleted", rec.transcript));
	} else if (t.state == AITERM_TURN_NONE)
		say(out, xasprintf("[turn %u: its prompt is not in "
		    "the transcript yet%s]", rec.turn, timeout > 0 ?
		    "; pty_read agent_transcript=true wait=true keeps waiting" :
		    ""), turn_json(session, rec.turn, "not_started", t.reason,
		    rec.transcript));
	else
		say(out, timeout > 0 ? xasprintf("[turn %u still "
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

static void watch_file(struct agent_answer_wait *a);
static void start_look(struct agent_answer_wait *a);
static void on_look(uv_timer_t *t);

/* A look of the wait, on the multiplexer's thread. */
static void
look_work(void *arg)
{
	struct agent_answer_wait *a = arg;

	a->end = look(&a->said, &a->h, a->session, a->job_final,
	    a->seen_approval, a->timeout, a->t0);
}

static void
look_done(void *arg)
{
	struct agent_answer_wait *a = arg;

	a->jobs--;
	a->looking = false;
	if (a->done) {
		said_free(&a->said);
		ar_free(a);
		return;
	}
	if (a->end == LOOK_DONE) {
		/* Stopped first: what the answer starts may not see it. */
		if (a->waits)
			ar_stop(a);
		a->done = true;
		answer_with(a, &a->said);
		ar_free(a);
		return;
	}
	said_free(&a->said);
	watch_file(a);
	/* An approval seen once: seen again after a redraw's time, it ends the wait. */
	a->seen_approval = a->end == LOOK_APPROVAL;
	if (a->seen_approval)	/* (re)started: a change's look comes later */
		uv_timer_start(&a->look, on_look, APPROVAL_SETTLE_MS, 0);
	/*
	 * The deadline passed during this look: the final one now.  A change
	 * seen during it: look again, or the end it brought is never read.
	 */
	if ((a->final && !a->job_final) || (a->look_again &&
	    !a->seen_approval))
		start_look(a);
}

static void
start_look(struct agent_answer_wait *a)
{
	if (a->done)
		return;
	if (a->looking) {
		a->look_again = true;
		return;
	}
	a->look_again = false;
	a->looking = true;
	a->job_final = a->final;
	a->jobs++;
	muxjob_run(look_work, look_done, a);
}

static void
on_look(uv_timer_t *t)
{
	struct agent_answer_wait *a = t->data;

	if (a->done)
		return;
	if (a->to.progress != NULL)
		a->to.progress(a->to.arg, (session_now_ms() - a->t0) / 1000.0,
		    a->timeout);
	start_look(a);
}

static void
changed(void *arg)
{
	struct agent_answer_wait *a = arg;

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
	struct agent_answer_wait *a = arg;

	if (!a->done) {
		uv_timer_stop(&a->look);
		uv_timer_start(&a->look, on_look, EXIT_SETTLE_MS, 0);
	}
}

/* The transcript's file once known, else the folder it will appear in. */
static void
watch_file(struct agent_answer_wait *a)
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

/* The timeout: one last look answers whatever it finds. */
static void
on_deadline(uv_timer_t *t)
{
	struct agent_answer_wait *a = t->data;

	a->final = true;
	uv_timer_stop(&a->look);
	start_look(a);
}

/* The pane's process, for agent_ended (the multiplexer's thread). */
static void
pid_work(void *arg)
{
	struct agent_answer_wait *a = arg;

	/* The pane's facts only: no screen capture for a pid. */
	a->pane_pid = session_pane_pid(a->session, false);
}

static void
pid_done(void *arg)
{
	struct agent_answer_wait *a = arg;

	a->jobs--;
	if (!a->done && a->pane_pid > 0)
		a->agent = pid_watch_start(a->pane_pid, agent_ended, a);
	ar_free(a);
}

/* An earlier turn: the answer saved when it was read or replaced. */
static void
saved(struct agent_answer *out, const char *session, unsigned turn,
    unsigned current)
{
	size_t len = 0;
	char *text = agent_answer_load(session, turn, &len);
	struct aiterm_buf b = BUF_INIT;

	if (text == NULL) {
		out->status = error_set(&out->err, "turn %u of %s has no saved "
		    "answer (the current turn is %u)", turn, session,
		    current);
		return;
	}
	buf_add(&b, text, len);
	if (b.len > 0 && b.data[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_printf(&b, "[turn %u, saved]", turn);
	free(text);
	say(out, buf_steal(&b, NULL), turn_json(session, turn, "saved",
	    "saved", ""));
}

/*
 * What can be answered before any look: not an agent, no turn yet, a
 * later turn, an earlier (saved) one.  0 when the current turn is to be
 * looked at (*h filled).
 */
static int
answer_at_once(struct agent_answer *out, const char *session, unsigned turn,
    struct harness *h)
{
	struct agent_record rec;
	int rc = -1;

	if (agent_record_read(session, &rec, &out->err) != 0) {
		error_clear(&out->err);
		out->status = error_set(&out->err, "%s is not an agent session "
		    "(agent_launch starts one)", session);
		return -1;
	}
	if (harness_find(rec.harness, h, &out->err) != 0)
		out->status = -1;
	else if (rec.turn == 0)
		out->status = error_set(&out->err, "%s has had no turn yet; "
		    "pty_send a prompt first", session);
	else if (turn > rec.turn)
		out->status = error_set(&out->err, "turn %u has not been "
		    "dispatched (the current turn is %u)", turn, rec.turn);
	else if (turn != 0 && turn < rec.turn)
		saved(out, session, turn, rec.turn);
	else
		rc = 0;
	agent_record_free(&rec);
	return rc;
}

/* The watches of a wait: the pane's log, the transcript, the agent. */
static void
watch_start(uv_loop_t *loop, struct agent_answer_wait *a)
{
	char *log;

	uv_timer_init(loop, &a->look);
	uv_timer_init(loop, &a->deadline);
	uv_fs_event_init(loop, &a->log_watch);
	a->look.data = a->deadline.data = a->log_watch.data = a;
	a->open = 3;
	log = session_path(a->session, "output.log");
	uv_fs_event_start(&a->log_watch, on_change, log, 0);
	free(log);
	watch_file(a);
	/* A dead agent writes nothing more: its exit wakes the look. */
	a->jobs++;
	muxjob_run(pid_work, pid_done, a);
	uv_timer_start(&a->deadline, on_deadline, (uint64_t)(a->timeout *
	    1000), 0);
}

struct agent_answer_wait *
agent_answer_wait(uv_loop_t *loop, const char *session, unsigned turn,
    double timeout, bool wait, const struct agent_answer_to *to)
{
	struct agent_answer now = { 0, ERROR_INIT, NULL, NULL };
	struct agent_answer_wait *a;
	struct harness h;

	if (answer_at_once(&now, session, turn, &h) != 0) {
		to->cb(to->arg, &now);
		said_free(&now);
		return NULL;
	}
	a = xcalloc(1, sizeof *a);
	a->to = *to;
	a->h = h;
	snprintf(a->session, sizeof a->session, "%s", session);
	a->timeout = timeout;
	a->t0 = session_now_ms();
	a->waits = wait;
	/* Without wait: one look, the last, answered from the loop. */
	a->final = !wait;
	if (wait)
		watch_start(loop, a);
	/* The first look at once. */
	start_look(a);
	return a;
}

void
agent_answer_cancel(struct agent_answer_wait *a)
{
	if (a == NULL || a->done)
		return;
	if (a->waits)
		ar_stop(a);
	a->done = true;
	ar_free(a);
}
