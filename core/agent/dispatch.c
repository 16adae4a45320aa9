#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/dispatch.h"
#include "agent/input.h"
#include "agent/refused.h"
#include "agent/screen.h"
#include "agent/startup.h"
#include "agent/steer.h"
#include "agent/transcript.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "state/errtally.h"
#include "state/lock.h"
#include "util/loop.h"
#include "util/watch.h"
#include "util/xmalloc.h"

#define SETTLE_MS	60
/* How long a dismissed card gets to leave the screen. */
#define CARD_SETTLE_MS	800
/*
 * A dialog that opened over the composer as the text went in is taken as
 * having eaten it once it is still shown this long later with no sign of
 * the turn in the transcript (a transcript written late gets this time).
 */
#define DIALOG_SETTLE_MS	400
/* A failure's message is cut at this many bytes, as it always was. */
#define ERROR_MAX	1023

struct dispatch {
	const struct harness	*h;
	char			 session[SESSION_ID_MAX + 1];
	char			*lock;
	dispatch_cb		 cb;
	void			*arg;
	struct dispatch_result	 r;
	char			*text;	/* what is to be typed */
	size_t			 len;
	struct agent_images	 images;	/* attached before the text */
	struct aiterm_input_step *with_images;	/* the steps that do both */
	struct aiterm_input_step *lost;	/* tests: the steps, keys lost */
	/* Start confirmation; after a dismissed card, its settling. */
	uv_fs_event_t		 watch;
	uv_timer_t		 look, deadline, card;
	struct path_watch	*transcript;	/* its file, or where it will be */
	int			 open;
	bool			 watching, done;
	/*
	 * The screen reads, the route and the card's check run on the
	 * multiplexer's thread (pty/muxjob.h): how many are in flight, and
	 * what the last one found.
	 */
	int			 jobs;
	bool			 looking, still;
	bool			 look_again;	/* a look was due during one */
	int			 rc;
	struct aiterm_error	 err;
	struct agent_record	 rec;
	const struct aiterm_input_step *steps;
	const char		*by;
	char			*retarget;
	/*
	 * The screen before typing, the record before the turn was opened,
	 * and a refusal by the user's hook seen after typing (ADR 0017).
	 */
	uint64_t		 before;
	struct agent_turn_mark	 mark;
	bool			 refused;
	char			 words[512];
	/* A blocking dialog seen since (ms), and the one that ate the text. */
	long long		 dialog_since;
	struct aiterm_screen_verdict dialog;
	/*
	 * The box still held typed text at the last look; the deadline is
	 * looking whether it does; the submit key was pressed again (once).
	 */
	bool			 typed_left, at_deadline, resubmitted;
};

static const char *const route_names[ROUTE_COUNT] = {
	[ROUTE_NEW_TURN] = "new_turn",
	[ROUTE_STEERED] = "steered",
	[ROUTE_RECOVERY] = "recovery",
};

const char *
dispatch_route_name(enum dispatch_route r)
{
	return (unsigned)r < ROUTE_COUNT ? route_names[r] : "?";
}

void
agent_event_cursor(unsigned turn, unsigned index, char *out, size_t size)
{
	snprintf(out, size, "%u:%u", turn, index);
}

bool
agent_turn_running(const struct harness *h, const char *session,
    struct agent_record *r)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	struct aiterm_turn t;
	bool running;

	if (!r->running_mark)
		return false;
	if (transcript_locate(h, session, r, &err) != TRANSCRIPT_BOUND) {
		error_clear(&err);
		return true;	/* no transcript yet: the mark decides */
	}
	running = transcript_turn(h, r, &t, &answer, &err) != 0 ||
	    (t.state != AITERM_TURN_DONE && t.state != AITERM_TURN_ERROR) ||
	    !agent_turn_screen_idle(h, session);
	error_clear(&err);
	buf_free(&answer);
	return running;
}

bool
agent_turn_ends_idle(const struct harness *h)
{
	return h->abi_minor >= 4 && (h->ops->turn_rules &
	    AITERM_TURN_ENDS_IDLE) != 0;
}

bool
agent_turn_screen_idle(const struct harness *h, const char *session)
{
	struct aiterm_error err = ERROR_INIT;
	struct agent_screen scr;
	bool idle;

	if (!agent_turn_ends_idle(h))
		return true;
	if (agent_screen_read(h, session, &scr, &err) != 0) {
		error_clear(&err);
		return false;
	}
	idle = scr.verdict.state != AITERM_SCREEN_RUNNING &&
	    scr.verdict.state != AITERM_SCREEN_APPROVAL &&
	    scr.verdict.state != AITERM_SCREEN_STARTING;
	agent_screen_free(&scr);
	return idle;
}

/* Freed once its handles are closed and no job holds it. */
static void
d_free(struct dispatch *d)
{
	if (d->open > 0 || d->jobs > 0)
		return;
	error_clear(&d->r.err);
	error_clear(&d->err);
	free(d->retarget);
	free(d->lock);
	free(d->text);
	agent_images_free(&d->images);
	free(d->with_images);
	free(d->lost);
	free(d);
}

static void
d_closed(uv_handle_t *h)
{
	struct dispatch *d = h->data;

	d->open--;
	d_free(d);
}

static void
d_end(struct dispatch *d)
{
	struct aiterm_error err = ERROR_INIT;
	struct agent_record rec;

	if (d->done)
		return;
	d->done = true;
	if (d->r.status == 0 && d->r.route == ROUTE_NEW_TURN &&
	    agent_record_read(d->session, &rec, &err) == 0) {
		if (rec.turn == d->r.turn) {
			rec.dispatch = d->r.dispatch;
			snprintf(rec.confirmed_by, sizeof rec.confirmed_by,
			    "%s", d->r.confirmed_by);
			agent_record_write(d->session, &rec, &err);
		}
		agent_record_free(&rec);
	}
	error_clear(&err);
	d->cb(d->arg, &d->r);
	if (d->transcript != NULL)
		path_watch_stop(d->transcript);
	uv_timer_stop(&d->look);
	uv_timer_stop(&d->deadline);
	uv_timer_stop(&d->card);
	if (d->watching)
		uv_fs_event_stop(&d->watch);
	uv_close((uv_handle_t *)&d->look, d_closed);
	uv_close((uv_handle_t *)&d->deadline, d_closed);
	uv_close((uv_handle_t *)&d->card, d_closed);
	uv_close((uv_handle_t *)&d->watch, d_closed);
}

/* The result's err (at most ERROR_MAX bytes), then the end. */
static void __attribute__((format(printf, 2, 3)))
d_fail(struct dispatch *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(&d->r.err, fmt, ap);
	va_end(ap);
	if (strlen(d->r.err.msg) > ERROR_MAX)
		d->r.err.msg[ERROR_MAX] = '\0';
	d->r.status = -1;
	d_end(d);
}

/*
 * A blocking dialog opened over the composer as the text went in (Claude
 * Code 2.1.332's auto-mode offer comes a moment after its composer, and
 * eats what is pasted while it is shown): no turn can start behind it.
 * Still shown DIALOG_SETTLE_MS later with no start in the transcript, the
 * text is taken as eaten, and the turn is unopened.  On the worker.
 */
static void
ate_text(struct dispatch *d, const struct aiterm_screen_verdict *dialog)
{
	long long now = session_now_ms();

	if (d->by != NULL || dialog->state != AITERM_SCREEN_BLOCKING_DIALOG) {
		d->dialog_since = 0;
		return;
	}
	if (d->dialog_since == 0)
		d->dialog_since = now;
	else if (now - d->dialog_since >= DIALOG_SETTLE_MS) {
		d->dialog = *dialog;
		agent_turn_unopen(d->session, d->r.turn, &d->mark);
	}
}

/*
 * Start evidence: a running screen, an approval, or the transcript.  On
 * the multiplexer's thread; the transcript's watch is moved on the loop.
 */
static void
look_work(void *arg)
{
	struct dispatch *d = arg;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	struct agent_record rec;
	struct agent_screen scr;
	struct aiterm_turn t;
	struct aiterm_screen_verdict dialog = { .state = AITERM_SCREEN_STARTING };

	d->by = NULL;
	d->typed_left = false;
	free(d->retarget);
	d->retarget = NULL;
	if (agent_screen_read(d->h, d->session, &scr, &err) == 0) {
		d->typed_left = agent_screen_input_typed(&scr.verdict);
		if (scr.verdict.state == AITERM_SCREEN_RUNNING)
			d->by = "screen_running";
		else if (scr.verdict.state == AITERM_SCREEN_APPROVAL)
			d->by = "approval_shown";
		/* Refused by the user's hook: the turn was never opened. */
		else if (d->r.route == ROUTE_NEW_TURN &&
		    agent_screen_digest(&scr) != d->before &&
		    agent_hook_refused(&scr, d->words, sizeof d->words)) {
			d->refused = true;
			agent_turn_unopen(d->session, d->r.turn, &d->mark);
		} else if (d->r.route == ROUTE_NEW_TURN &&
		    scr.verdict.state == AITERM_SCREEN_BLOCKING_DIALOG &&
		    agent_screen_digest(&scr) != d->before)
			dialog = scr.verdict;
		agent_screen_free(&scr);
		if (d->refused) {
			error_clear(&err);
			return;
		}
	}
	agent_screen_test_lag();
	if (d->by == NULL && agent_record_read(d->session, &rec, &err) == 0) {
		if (transcript_locate(d->h, d->session, &rec, &err) ==
		    TRANSCRIPT_BOUND &&
		    transcript_turn(d->h, &rec, &t, &answer, &err) == 0 &&
		    t.state != AITERM_TURN_NONE)
			d->by = t.state == AITERM_TURN_STARTED ?
			    "transcript_prompt" : "transcript_turn_ended";
		if (rec.transcript[0] != '\0')
			d->retarget = xstrdup(rec.transcript);
		agent_record_free(&rec);
	}
	error_clear(&err);
	buf_free(&answer);
	ate_text(d, &dialog);
}

static void	d_look(struct dispatch *);
static void	on_look(uv_timer_t *);
static void	resubmit(struct dispatch *);

static void
look_done(void *arg)
{
	struct dispatch *d = arg;

	d->jobs--;
	d->looking = false;
	if (d->done) {
		d_free(d);
		return;
	}
	if (d->retarget != NULL && d->transcript != NULL)
		path_watch_retarget(d->transcript, d->retarget);
	if (d->refused) {
		d->r.code = USER_HOOK_BLOCKED;
		d_fail(d, "%s: the user's hook refused the prompt: %s\n"
		    "Nothing reached the model, no turn was opened, nothing "
		    "is sent again", USER_HOOK_BLOCKED, d->words[0] != '\0' ?
		    d->words : "(no message)");
		return;
	}
	if (d->dialog.reason != NULL) {
		d->r.dialog = d->dialog;
		d_fail(d, "a dialog opened over the agent's composer as the "
		    "text went in (%s/%s), and the agent took nothing: no turn "
		    "was opened, nothing is sent again. The dialog waits for "
		    "the user (pty_read screen=true shows it); send the text "
		    "again once it is answered",
		    agent_state_name(d->dialog.state), d->dialog.reason);
		return;
	}
	if (d->by != NULL) {
		d->r.dispatch = DISPATCH_START_CONFIRMED;
		snprintf(d->r.confirmed_by, sizeof d->r.confirmed_by, "%s",
		    d->by);
		d_end(d);
		return;
	}
	/* A change seen while this look was in flight: look again. */
	if (d->look_again)
		d_look(d);
	else if (d->at_deadline) {
		d->at_deadline = false;
		if (d->typed_left)
			resubmit(d);
		else
			d_end(d);
	} else if (d->dialog_since != 0)
		uv_timer_start(&d->look, on_look, DIALOG_SETTLE_MS, 0);
}

static void
d_look(struct dispatch *d)
{
	if (d->done)
		return;
	if (d->looking) {
		d->look_again = true;
		return;
	}
	d->look_again = false;
	d->looking = true;
	d->jobs++;
	muxjob_run(look_work, look_done, d);
}

static void
on_look(uv_timer_t *t)
{
	d_look(t->data);
}

static void
changed(void *arg)
{
	struct dispatch *d = arg;

	if (!d->done && !uv_is_active((uv_handle_t *)&d->look))
		uv_timer_start(&d->look, on_look, SETTLE_MS, 0);
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
 * The keys of the harness's submit after the step that types the text (a
 * TEXT or PASTE step whose arg is NULL), pauses included; NULL when
 * nothing but pauses follows it.
 */
static const struct aiterm_input_step *
submit_keys(const struct aiterm_input_step *s)
{
	const struct aiterm_input_step *tail = NULL, *k;

	for (; s != NULL && s->kind != AITERM_INPUT_END; s++)
		if ((s->kind == AITERM_INPUT_TEXT ||
		    s->kind == AITERM_INPUT_PASTE) && s->arg == NULL)
			tail = s + 1;
	for (k = tail; k != NULL && k->kind != AITERM_INPUT_END; k++)
		if (k->kind != AITERM_INPUT_PAUSE)
			return tail;
	return NULL;
}

/*
 * Tests only (AITERM_TEST_TOOLS=1): AITERM_TEST_LOSE_SUBMITS=N loses the
 * submit keys of this server's first N new-turn submits, a key pressed
 * again included, as a loaded agent lost one (ADR 0048).  On the loop.
 */
static bool
lose_submit(void)
{
	static unsigned lost;

	if (lost >= agent_test_ms("AITERM_TEST_LOSE_SUBMITS", 0))
		return false;
	lost++;
	return true;
}

/* Tests only: steps without the submit keys after the text, or steps. */
static const struct aiterm_input_step *
keys_lost(struct dispatch *d, const struct aiterm_input_step *steps)
{
	const struct aiterm_input_step *keys = submit_keys(steps);
	size_t n;

	if (keys == NULL)
		return steps;
	n = (size_t)(keys - steps);
	free(d->lost);
	d->lost = xcalloc(n + 1, sizeof *d->lost);
	memcpy(d->lost, steps, n * sizeof *steps);
	d->lost[n].kind = AITERM_INPUT_END;
	return d->lost;
}

/*
 * No start seen in DISPATCH_CONFIRM_MS.  A new turn gets one more look
 * first: when the harness says its box still holds text that was not
 * submitted, the submit key is pressed once more (ADR 0048); otherwise,
 * or after that, sent, not confirmed.
 */
static void
on_deadline(uv_timer_t *t)
{
	struct dispatch *d = t->data;

	if (d->resubmitted || d->r.route != ROUTE_NEW_TURN ||
	    submit_keys(d->h->ops->submit) == NULL) {
		d_end(d);
		return;
	}
	d->at_deadline = true;
	d_look(d);
}

/* The submit key went in again: the start gets its time once more. */
static void
pressed(void *arg, int status, const struct aiterm_error *err)
{
	struct dispatch *d = arg;

	(void)err;
	d->jobs--;
	lock_release(d->lock, NULL);
	if (d->done) {
		d_free(d);
		return;
	}
	if (status != 0) {
		d_end(d);	/* sent, not confirmed, as before */
		return;
	}
	uv_timer_start(&d->deadline, on_deadline, DISPATCH_CONFIRM_MS, 0);
	uv_timer_start(&d->look, on_look, SETTLE_MS, 0);
}

/*
 * The text sat in the box for DISPATCH_CONFIRM_MS: the key that submits
 * it was lost (Gemini CLI 0.61 starting beside two others under
 * AddressSanitizer).  Pressed under the send lock, so never into text
 * another sender is typing; when another holds it, nothing is pressed.
 */
static void
resubmit(struct dispatch *d)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;

	if (lock_acquire(d->lock, &owner, &err) != LOCK_ACQUIRED) {
		error_clear(&err);
		d_end(d);
		return;
	}
	d->resubmitted = true;
	d->jobs++;
	if (lose_submit()) {
		pressed(d, 0, NULL);
		return;
	}
	agent_input_play(d->session, submit_keys(d->h->ops->submit), NULL, 0,
	    pressed, d);
}

/* The steer's check (ADR 0012): taken, or the code that says why not. */
static void
steered(void *arg, int status, const struct aiterm_error *err)
{
	struct dispatch *d = arg;

	if (status != 0)
		d_fail(d, "%s", error_msg(err));
	else
		d_end(d);
}

static void
typed(void *arg, int status, const struct aiterm_error *err)
{
	struct dispatch *d = arg;
	struct agent_record rec;
	char *log, *target;

	lock_release(d->lock, NULL);
	if (status != 0) {
		d_fail(d, "typing into the agent failed: %s", error_msg(err));
		return;
	}
	if (d->r.route == ROUTE_STEERED) {
		agent_steer_check(d->h, d->session, d->r.turn, steered, d);
		return;
	}
	d->r.dispatch = DISPATCH_SENT_UNCONFIRMED;
	/* The screen (the pane's log) and the transcript both wake a look. */
	log = session_path(d->session, "output.log");
	d->watching = log != NULL && uv_fs_event_start(&d->watch, on_change,
	    log, 0) == 0;
	free(log);
	if (agent_record_read(d->session, &rec, NULL) == 0) {
		if ((target = transcript_watch_target(d->h, &rec)) != NULL)
			d->transcript = path_watch_start(target, changed, d);
		free(target);
		agent_record_free(&rec);
	}
	uv_timer_start(&d->deadline, on_deadline, DISPATCH_CONFIRM_MS, 0);
	uv_timer_start(&d->look, on_look, SETTLE_MS, 0);
}

static int route(struct dispatch *, struct agent_record *,
    const struct aiterm_input_step **, struct aiterm_error *);

/* The text goes in with the route's steps, the images attached first. */
static void
d_type(struct dispatch *d)
{
	const struct aiterm_input_step *steps;

	free(d->with_images);
	d->with_images = agent_image_steps(d->h, &d->images, d->steps);
	d->r.images = d->with_images != NULL ? (unsigned)d->images.n : 0;
	steps = d->with_images != NULL ? d->with_images : d->steps;
	if (d->r.route == ROUTE_NEW_TURN && lose_submit())
		steps = keys_lost(d, steps);
	agent_input_play(d->session, steps, d->text, d->len, typed, d);
}

/*
 * The card had its time: gone, the text goes as a new turn; else no.  The
 * screen, the record and the route on the multiplexer's thread.
 */
static void
card_work(void *arg)
{
	struct dispatch *d = arg;
	struct agent_record rec;
	struct agent_screen scr;

	d->still = false;
	d->rc = -1;
	if (agent_screen_read(d->h, d->session, &scr, &d->err) != 0)
		return;
	d->still = scr.verdict.state == AITERM_SCREEN_RATE_LIMITED;
	agent_screen_free(&scr);
	if (d->still || agent_record_read(d->session, &rec, &d->err) != 0)
		return;
	d->rc = route(d, &rec, &d->steps, &d->err);
	agent_record_free(&rec);
}

static void
card_done(void *arg)
{
	struct dispatch *d = arg;
	char code[32];

	d->jobs--;
	if (d->done) {
		lock_release(d->lock, NULL);
		d_free(d);
		return;
	}
	if (d->rc == 0) {
		d_type(d);
		return;
	}
	lock_release(d->lock, NULL);
	if (d->still) {
		harness_code_prefix(d->h, code, sizeof code);
		d_fail(d, "%s_RATE_LIMIT_RECOVERY_FAILED: the usage-limit "
		    "card was dismissed once and is still shown; nothing was "
		    "sent (pty_read screen=true shows it)", code);
	} else
		d_fail(d, "%s", error_msg(&d->err));
	error_clear(&d->err);
}

static void
on_card(uv_timer_t *t)
{
	struct dispatch *d = t->data;

	d->jobs++;
	muxjob_run(card_work, card_done, d);
}

/* The card's keys went in: it gets a moment to leave. */
static void
dismissed(void *arg, int status, const struct aiterm_error *err)
{
	struct dispatch *d = arg;
	char code[32];

	if (status != 0) {
		harness_code_prefix(d->h, code, sizeof code);
		lock_release(d->lock, NULL);
		d_fail(d, "%s_RATE_LIMIT_RECOVERY_FAILED: pressing the card's "
		    "keys failed: %s; nothing was sent", code, error_msg(err));
		return;
	}
	uv_timer_start(&d->card, on_card, CARD_SETTLE_MS, 0);
}

/* Saves the ended turn's answer and opens the next turn in the record. */
static int
new_turn(struct dispatch *d, struct agent_record *rec,
    struct aiterm_error *err)
{
	struct aiterm_buf answer = BUF_INIT;
	struct aiterm_turn t;
	char code[32], why[256];
	int located;

	if ((located = transcript_locate(d->h, d->session, rec, err)) < 0)
		return -1;
	/*
	 * The next turn's index is counted in this launch's own transcript:
	 * without one bound (AGT-JOB) it would be counted wrong.
	 */
	if (rec->turn > 0 && located != TRANSCRIPT_BOUND) {
		harness_code_prefix(d->h, code, sizeof code);
		snprintf(why, sizeof why, "%s", error_msg(err));
		if (located == TRANSCRIPT_AMBIGUOUS)
			return error_set(err, "%s_TRANSCRIPT_AMBIGUOUS: which "
			    "transcript is this launch's is ambiguous (%s); "
			    "nothing was sent", code, why);
		return error_set(err, "%s_TRANSCRIPT_NOT_FOUND: no transcript "
		    "is bound to this launch yet (turn %u's prompt is in no "
		    "file its own process writes), so the next turn could "
		    "not be counted; nothing was sent", code, rec->turn);
	}
	error_clear(err);
	if (rec->turn > 0 && rec->transcript[0] != '\0' &&
	    transcript_turn(d->h, rec, &t, &answer, err) == 0 &&
	    (t.state == AITERM_TURN_DONE ||
	    t.state == AITERM_TURN_ERROR) &&
	    !agent_answer_exists(d->session, rec->turn) &&
	    agent_answer_save(d->session, rec->turn, buf_str(&answer),
	    answer.len, err) != 0) {
		buf_free(&answer);
		return -1;
	}
	buf_free(&answer);
	agent_turn_mark_save(&d->mark, rec);
	rec->turn++;
	rec->index = transcript_count(d->h, rec->transcript);
	rec->dispatch = DISPATCH_SENT_UNCONFIRMED;
	rec->confirmed_by[0] = '\0';
	rec->dispatched_ms = session_now_ms();
	rec->running_mark = true;
	agent_record_prompt(rec, d->text, d->len);
	/* The boundary is saved before anything is typed. */
	if (agent_record_write(d->session, rec, err) != 0)
		return -1;
	d->r.turn = rec->turn;
	d->r.index = rec->index;
	return 0;
}

/*
 * A running screen that is the last frame of our turn: the transcript has
 * ended turn index and holds no later turn.  A CLI writes a turn's end
 * before it redraws (Grok Build 1.0.41 still showed "[stop]" when a send
 * came right after the answer was read), so this text is a new turn, not
 * one added to an ended turn.
 */
static bool
last_frame(const struct harness *h, const char *session,
    struct agent_record *r)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	struct aiterm_turn t;
	bool ended;

	if (r->turn == 0 || transcript_locate(h, session, r, &err) !=
	    TRANSCRIPT_BOUND) {
		error_clear(&err);
		return false;
	}
	ended = transcript_count(h, r->transcript) == r->index + 1 &&
	    transcript_turn(h, r, &t, &answer, &err) == 0 &&
	    (t.state == AITERM_TURN_DONE ||
	    t.state == AITERM_TURN_ERROR);
	error_clear(&err);
	buf_free(&answer);
	return ended;
}

/* Whether the record's last turn ended with an error in the transcript. */
static bool
ended_in_error(const struct harness *h, const char *session,
    struct agent_record *r)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	struct aiterm_turn t;
	bool yes;

	yes = r->turn > 0 && transcript_locate(h, session, r, &err) ==
	    TRANSCRIPT_BOUND &&
	    transcript_turn(h, r, &t, &answer, &err) == 0 &&
	    t.state == AITERM_TURN_ERROR;
	error_clear(&err);
	buf_free(&answer);
	return yes;
}

/*
 * A usage-limit card over the screen (AGT-GROK): dismissed with the
 * harness's keys, once, only at a plain dispatch (no turn running), with
 * the pane alive and the last turn ended in an error.  Nothing is bought,
 * retried or sent again; when it cannot be dismissed the text is not sent.
 */
static int
card(struct dispatch *d, struct agent_record *rec,
    const struct agent_screen *scr, bool running,
    const struct aiterm_input_step **steps, struct aiterm_error *err)
{
	const struct aiterm_input_step *keys = scr->verdict.dialog == NULL ?
	    NULL : d->h->ops->startup_keys(scr->verdict.dialog, 0);
	const char *why = NULL;
	char code[32];

	harness_code_prefix(d->h, code, sizeof code);
	if (d->r.recovered[0] != '\0')
		why = "it was dismissed once and is back";
	else if (keys == NULL)
		why = "the harness knows no key that dismisses it";
	else if (scr->pane.dead)
		why = "the agent's pane has exited";
	else if (running)
		why = "a turn is still running";
	else if (!ended_in_error(d->h, d->session, rec))
		why = "the last turn did not end with an error";
	if (why != NULL)
		return error_set(err, "%s_RATE_LIMIT_RECOVERY_BLOCKED: the agent "
		    "shows a usage-limit card (%s) and %s; nothing was sent "
		    "(pty_read screen=true shows it)", code,
		    scr->verdict.reason, why);
	d->r.route = ROUTE_RECOVERY;
	snprintf(d->r.recovered, sizeof d->r.recovered, "%s_dismissed",
	    scr->verdict.dialog);
	*steps = keys;
	return 0;
}

/*
 * The agent has exited: nothing is typed.  An end its harness named (the
 * sandbox Grok refused to start in) is said with its code and the CLI's
 * own words (AGT-GROK; ADR 0011); Aiterm lifts nothing and retries
 * nothing.
 */
/* 0 with err set when the harness named the end (reason) with a code. */
static int
named_end(const struct harness *h, const char *reason, int status,
    const char *words, struct aiterm_error *err)
{
	char code[64];

	harness_end_code(h, reason, code, sizeof code);
	if (code[0] == '\0')
		return -1;
	error_set(err, "%s: the agent exited (status %d, %s); nothing was "
	    "sent. It said: %s\nFix the cause where that setting is managed, "
	    "then pty_close this session and agent_launch again", code,
	    status, reason, words);
	return 0;
}

static void
exited(const struct harness *h, const struct agent_screen *scr,
    struct aiterm_error *err)
{
	if (named_end(h, scr->verdict.reason, scr->pane.dead_status,
	    scr->words, err) != 0)
		error_set(err, "the agent cannot take a prompt now: its "
		    "screen is exited (%s, status %d); pty_close it and "
		    "agent_launch again", scr->verdict.reason,
		    scr->pane.dead_status);
}

/* Which way the text goes, from the session now. */
static int
route(struct dispatch *d, struct agent_record *rec,
    const struct aiterm_input_step **steps, struct aiterm_error *err)
{
	struct agent_screen scr;
	bool running;
	char code[32];
	int rc = -1;

	if (agent_screen_read(d->h, d->session, &scr, err) != 0)
		return -1;
	d->before = agent_screen_digest(&scr);
	running = agent_turn_running(d->h, d->session, rec);
	if (!running && scr.verdict.state == AITERM_SCREEN_RUNNING &&
	    !agent_turn_ends_idle(d->h) && last_frame(d->h, d->session, rec))
		scr.verdict.state = AITERM_SCREEN_INPUT_READY;
	running = running || scr.verdict.state == AITERM_SCREEN_RUNNING;
	/*
	 * A usage-limit notice in the conversation (no card, no keys to
	 * dismiss it): the composer under it takes a new prompt; nothing
	 * earlier is sent again (AGT-LIMIT; ADR 0011).
	 */
	if (!running && scr.verdict.state == AITERM_SCREEN_RATE_LIMITED &&
	    scr.verdict.dialog == NULL)
		scr.verdict.state = AITERM_SCREEN_INPUT_READY;
	/*
	 * Never type into a dead pane, whatever the turn mark says (tmux
	 * 3.3a's server crashed on keys sent to a pane whose agent was
	 * killed, losing every session).
	 */
	if (scr.verdict.state == AITERM_SCREEN_EXITED)
		exited(d->h, &scr, err);
	else if (scr.verdict.state == AITERM_SCREEN_APPROVAL) {
		error_set(err, "the agent is waiting for an approval (%s): "
		    "answer it with agent_approval first", scr.verdict.reason);
	} else if (scr.verdict.state == AITERM_SCREEN_RATE_LIMITED) {
		rc = card(d, rec, &scr, running, steps, err);
	} else if (running) {
		d->r.route = ROUTE_STEERED;
		d->r.turn = rec->turn;
		d->r.index = rec->index;
		d->r.dispatch = rec->dispatch;
		*steps = d->h->ops->steer;
		rc = 0;
	} else if (agent_screen_input_typed(&scr.verdict)) {
		/*
		 * Text typed here would join it, and one prompt would answer
		 * two sends (ADR 0048).
		 */
		harness_code_prefix(d->h, code, sizeof code);
		error_set(err, "%s_INPUT_PENDING: the agent's input box holds "
		    "text that was not submitted (a draft, or a prompt whose "
		    "submit key was lost; pty_read screen=true shows it); "
		    "nothing was typed, no turn was opened. Submit or clear it "
		    "with pty_key, then send again", code);
	} else if (scr.verdict.state == AITERM_SCREEN_INPUT_READY) {
		d->r.route = ROUTE_NEW_TURN;
		*steps = d->h->ops->submit;
		rc = new_turn(d, rec, err);
	} else {
		error_set(err, "the agent cannot take a prompt now: its screen "
		    "is %s (%s)%s", agent_state_name(scr.verdict.state),
		    scr.verdict.reason, scr.verdict.state ==
		    AITERM_SCREEN_EXITED ? "; pty_close it and agent_launch "
		    "again" : "; pty_read screen=true shows it");
	}
	agent_screen_free(&scr);
	return rc;
}

/* Which way the text goes, on the multiplexer's thread. */
static void
route_work(void *arg)
{
	struct dispatch *d = arg;

	d->rc = route(d, &d->rec, &d->steps, &d->err);
}

static void
route_done(void *arg)
{
	struct dispatch *d = arg;

	d->jobs--;
	agent_record_free(&d->rec);
	if (d->rc != 0) {
		lock_release(d->lock, NULL);
		d_fail(d, "%s", error_msg(&d->err));
		error_clear(&d->err);
	} else if (d->r.route == ROUTE_RECOVERY)
		agent_input_play(d->session, d->steps, NULL, 0, dismissed, d);
	else
		d_type(d);
}

/* Under the send lock, the route is chosen on the worker; rec is taken. */
static void
d_begin(struct dispatch *d, struct agent_record *rec)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	int st;

	st = lock_acquire(d->lock, &owner, &err);
	if (st != LOCK_ACQUIRED) {
		if (st == LOCK_HELD)
			error_set(&err, "session busy: another sender (pid %ld) "
			    "is typing into it", owner.pid);
		else if (st == LOCK_STALE)
			errtally_note(ERRTALLY_LOCK_STALE);
		if (st == LOCK_STALE)
			error_set(&err, "stale send lock %s (pid %ld is gone); "
			    "pty_close the session to recover", d->lock,
			    owner.pid);
		d_fail(d, "%s", error_msg(&err));
		agent_record_free(rec);
		error_clear(&err);
		return;
	}
	/* The record goes with the job, which routes on the worker. */
	d->rec = *rec;
	memset(rec, 0, sizeof *rec);
	d->jobs++;
	muxjob_run(route_work, route_done, d);
}

/*
 * AGT-START: the launch answered before it looked (startup not_checked),
 * so this first send brings the agent to its composer first, as a launch
 * does, and types nothing unless it is ready.
 */
static void
d_started(void *arg, const struct startup_result *r)
{
	struct dispatch *d = arg;
	struct aiterm_error err = ERROR_INIT;
	struct agent_record rec;

	d->jobs--;
	/* An end its harness named: the same words as a send to it. */
	if (r->state == STARTUP_EXITED && named_end(d->h, r->verdict.reason,
	    r->exit_status, r->screen_tail, &err) == 0) {
		d_fail(d, "%s", error_msg(&err));
		error_clear(&err);
		return;
	}
	if (r->state != STARTUP_READY) {
		d_fail(d, "the agent is not ready for a prompt: its start-up "
		    "ended %s (screen %s/%s)%s%s; nothing was sent%s",
		    startup_state_name(r->state),
		    agent_state_name(r->verdict.state), r->verdict.reason,
		    r->screen_tail[0] != '\0' ? ": " : "", r->screen_tail,
		    r->state == STARTUP_EXITED ? "; pty_close it and "
		    "agent_launch again" : "; pty_read screen=true shows it");
		return;
	}
	if (agent_record_read(d->session, &rec, &err) != 0) {
		d_fail(d, "%s", error_msg(&err));
		error_clear(&err);
		return;
	}
	rec.startup_check_ms = 0;
	if (agent_record_write(d->session, &rec, &err) != 0) {
		d_fail(d, "%s", error_msg(&err));
		error_clear(&err);
		agent_record_free(&rec);
		return;
	}
	d_begin(d, &rec);
}

void
agent_dispatch(const struct harness *h, const char *session, const char *text,
    size_t len, dispatch_cb cb, void *arg)
{
	agent_dispatch_images(h, session, text, len, NULL, cb, arg);
}

void
agent_dispatch_images(const struct harness *h, const char *session,
    const char *text, size_t len, const struct agent_images *im,
    dispatch_cb cb, void *arg)
{
	struct dispatch *d = xcalloc(1, sizeof *d);
	struct aiterm_error err = ERROR_INIT;
	struct agent_record rec;

	d->h = h;
	snprintf(d->session, sizeof d->session, "%s", session);
	d->cb = cb;
	d->arg = arg;
	d->r.route = ROUTE_NEW_TURN;
	uv_timer_init(core_loop(), &d->look);
	uv_timer_init(core_loop(), &d->deadline);
	uv_timer_init(core_loop(), &d->card);
	uv_fs_event_init(core_loop(), &d->watch);
	d->look.data = d->deadline.data = d->watch.data = d->card.data = d;
	d->open = 4;
	d->text = xmalloc(len + 1);
	memcpy(d->text, text, len);
	d->text[len] = '\0';
	d->len = len;
	if (im != NULL)
		agent_images_copy(&d->images, im);
	d->lock = session_path(session, "send.lock");
	if (agent_record_read(session, &rec, &err) != 0) {
		d_fail(d, "%s", error_msg(&err));
		error_clear(&err);
		return;
	}
	if (rec.startup_check_ms > 0) {
		/* A job in all but name: d outlives the start-up. */
		d->jobs++;
		agent_startup_begin(h, session, 0,
		    rec.startup_check_ms, d_started, d);
		agent_record_free(&rec);
		return;
	}
	d_begin(d, &rec);
}
