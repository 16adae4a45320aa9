#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/configure.h"
#include "agent/dispatch.h"
#include "agent/harness.h"
#include "agent/input.h"
#include "agent/record.h"
#include "agent/screen.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "state/lock.h"
#include "util/loop.h"
#include "util/xmalloc.h"

/* After the command opens, after a key press, and after a look that knew nothing. */
#define OPEN_LOOK_MS	300
#define KEY_LOOK_MS	150
#define WAIT_LOOK_MS	100
/* How long a refused picker may take to leave the screen. */
#define CLOSE_MAX_MS	2000

struct cfg {
	char			 session[SESSION_ID_MAX + 1];
	char			*model, *effort, *lock;
	configure_cb		 cb;
	void			*arg;
	struct harness		 h;
	char			 code[32];	/* the harness's part of codes */
	struct configure_result	 r;
	struct aiterm_model_move move;
	uv_timer_t		 look;
	uint64_t		 until;
	/* What the last job saw. */
	int			 rc;
	struct aiterm_error	 err;
	enum aiterm_screen_state st;
	char			 why[160];	/* the screen's state/reason */
	bool			 pending;	/* text in the input box */
	bool			 running;	/* our turn mark, not yet ended */
	/* Refused: the picker is being closed, until this time at most. */
	uint64_t		 closing;
	bool			 closed_ok;
	char			 refusal[512];	/* what the CLI offers */
	const char		*refusal_code;
	unsigned		 turn;
};

static void
closed(uv_handle_t *h)
{
	struct cfg *c = h->data;

	error_clear(&c->err);
	free(c->model);
	free(c->effort);
	free(c->lock);
	free(c);
}

static void
finish(struct cfg *c, const struct aiterm_error *err)
{
	if (c->lock != NULL)
		lock_release(c->lock, NULL);
	c->cb(c->arg, err == NULL ? 0 : -1, err == NULL ? &c->r : NULL, err);
	uv_close((uv_handle_t *)&c->look, closed);
}

static void
fail(struct cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
fail(struct cfg *c, const char *fmt, ...)
{
	struct aiterm_error err = ERROR_INIT;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	error_set(&err, "%s", msg);
	finish(c, &err);
	error_clear(&err);
}

/* The screen now into c->st, c->why, c->pending; a plugin screen into s. */
static int
look_screen(struct cfg *c, struct agent_screen *scr)
{
	if (agent_screen_read(&c->h, c->session, scr, &c->err) != 0) {
		snprintf(c->why, sizeof c->why, "%s", error_msg(&c->err));
		return -1;
	}
	c->st = scr->verdict.state;
	c->pending = scr->verdict.dialog != NULL &&
	    (c->st == AITERM_SCREEN_INPUT_READY ||
	    c->st == AITERM_SCREEN_RUNNING) &&
	    (strcmp(scr->verdict.dialog, AITERM_INPUT_TYPED) == 0 ||
	    strcmp(scr->verdict.dialog, AITERM_INPUT_QUEUED) == 0);
	snprintf(c->why, sizeof c->why, "%s/%s", agent_state_name(c->st),
	    scr->verdict.reason);
	return 0;
}

/* On the multiplexer's thread: the record, the harness, the screen. */
static void
first_work(void *arg)
{
	struct cfg *c = arg;
	struct agent_record rec;
	struct agent_screen scr;

	c->rc = -1;
	if (agent_record_read(c->session, &rec, NULL) != 0) {
		error_set(&c->err, "%s is not an agent session (agent_launch "
		    "starts one); nothing was typed", c->session);
		return;
	}
	snprintf(c->r.harness, sizeof c->r.harness, "%s", rec.harness);
	snprintf(c->r.from_model, sizeof c->r.from_model, "%s", rec.model);
	snprintf(c->r.from_effort, sizeof c->r.from_effort, "%s", rec.effort);
	c->turn = rec.turn;
	if (harness_find(rec.harness, &c->h, &c->err) != 0)
		goto out;
	harness_code_prefix(&c->h, c->code, sizeof c->code);
	if (c->h.abi_minor < 3 || c->h.ops->model_open == NULL ||
	    c->h.ops->model_step == NULL) {
		error_set(&c->err, "%s_CONFIGURE_UNSUPPORTED: the %s harness "
		    "(plugin %s) cannot change its model in place; nothing was "
		    "typed", c->code, c->h.id, c->h.plugin);
		goto out;
	}
	c->running = agent_turn_running(&c->h, c->session, &rec);
	if (look_screen(c, &scr) == 0) {
		agent_screen_free(&scr);
		c->rc = 0;
	}
out:
	agent_record_free(&rec);
}

/* On the multiplexer's thread: the screen and the plugin's next step. */
static void
look_work(void *arg)
{
	struct cfg *c = arg;
	struct agent_screen scr;
	unsigned state = c->move.state;

	memset(&c->move, 0, sizeof c->move);
	c->move.state = state;
	error_clear(&c->err);
	if (look_screen(c, &scr) != 0)
		return;		/* WAIT: look again */
	if (c->st != AITERM_SCREEN_EXITED)
		c->h.ops->model_step(&(struct aiterm_screen){
		    buf_str(&scr.text), scr.text.len, scr.pane.cols,
		    scr.pane.rows, scr.pane.cursor_x, scr.pane.cursor_y },
		    &(struct aiterm_model_goal){ c->model, c->effort },
		    &c->move);
	agent_screen_free(&scr);
}

static void on_look(uv_timer_t *t);

static void
again(struct cfg *c, unsigned ms)
{
	uv_timer_start(&c->look, on_look, ms, 0);
}

static void
pressed(void *arg, int status, const struct aiterm_error *err)
{
	struct cfg *c = arg;

	if (status != 0) {
		fail(c, "%s_CONFIGURE_UNCONFIRMED: typing into the agent failed "
		    "after %u key presses: %s; pty_read screen=true shows where "
		    "it stands", c->code, c->r.moves, error_msg(err));
		return;
	}
	again(c, KEY_LOOK_MS);
}

/* The picker was closed after a refusal: say what it offers. */
static void
refused(struct cfg *c)
{
	int status = c->closed_ok ? 0 : -1;

	bool effort = strstr(c->refusal_code, "EFFORT") != NULL &&
	    c->effort != NULL;

	fail(c, "%s_%s: %s '%s' is not offered: %s; %s, the model stays %s "
	    "and no other is used", c->code, c->refusal_code, effort ?
	    "effort" : "model", effort ? c->effort : c->model, c->refusal, status == 0 ? "the picker was closed" :
	    "closing the picker failed (pty_read screen=true shows it)",
	    c->r.from_model[0] != '\0' ? c->r.from_model : "the launch's");
}

/*
 * The refusal's keys were pressed: the picker must leave the screen before
 * the lock goes (a CLI drops what is typed while it closes the picker).
 */
static void
closing(void *arg, int status, const struct aiterm_error *err)
{
	struct cfg *c = arg;

	(void)err;
	if (status != 0) {
		refused(c);
		return;
	}
	c->closing = uv_now(core_loop()) + CLOSE_MAX_MS;
	again(c, KEY_LOOK_MS);
}

static void
set(struct cfg *c)
{
	struct aiterm_error err = ERROR_INIT;
	struct agent_record rec;

	snprintf(c->r.model, sizeof c->r.model, "%s", c->move.model);
	snprintf(c->r.effort, sizeof c->r.effort, "%s", c->move.effort);
	snprintf(c->r.said, sizeof c->r.said, "%s", c->move.said);
	c->r.confirmed_by = "screen";
	if (agent_record_read(c->session, &rec, &err) == 0) {
		snprintf(rec.model, sizeof rec.model, "%s", c->model);
		snprintf(rec.effort, sizeof rec.effort, "%s",
		    c->move.effort[0] != '\0' ? c->move.effort :
		    c->effort != NULL ? c->effort : "");
		agent_record_write(c->session, &rec, &err);
		agent_record_free(&rec);
	}
	error_clear(&err);
	finish(c, NULL);
}

static void
look_done(void *arg)
{
	struct cfg *c = arg;

	if (c->closing != 0) {
		c->closed_ok = c->st == AITERM_SCREEN_INPUT_READY &&
		    !c->pending &&
		    c->move.next != AITERM_MODEL_KEYS &&
		    c->move.next != AITERM_MODEL_REFUSED;
		if (c->closed_ok || uv_now(core_loop()) >= c->closing)
			refused(c);
		else
			again(c, WAIT_LOOK_MS);
		return;
	}
	switch (c->move.next) {
	case AITERM_MODEL_SET:
		set(c);
		return;
	case AITERM_MODEL_REFUSED:
		snprintf(c->refusal, sizeof c->refusal, "%s", c->move.said);
		c->refusal_code = c->move.code;
		if (c->move.keys != NULL)
			agent_input_play(c->session, c->move.keys, NULL, 0,
			    closing, c);
		else {
			c->closed_ok = true;
			refused(c);
		}
		return;
	default:
		break;
	}
	if (c->st == AITERM_SCREEN_EXITED) {
		fail(c, "%s_CONFIGURE_UNCONFIRMED: the agent exited during the "
		    "change (screen %s)", c->code, c->why);
		return;
	}
	if (uv_now(core_loop()) >= c->until ||
	    (c->move.next == AITERM_MODEL_KEYS &&
	    c->r.moves >= CONFIGURE_MOVES_MAX)) {
		fail(c, "%s_CONFIGURE_UNCONFIRMED: no screen confirmed model "
		    "'%s' within %d ms and %u key presses (last screen %s); "
		    "pty_read screen=true shows where it stands", c->code,
		    c->model, CONFIGURE_DEADLINE_MS, c->r.moves, c->why);
		return;
	}
	if (c->move.next == AITERM_MODEL_KEYS && c->move.keys != NULL) {
		c->r.moves++;
		agent_input_play(c->session, c->move.keys, NULL, 0, pressed, c);
	} else
		again(c, WAIT_LOOK_MS);
}

static void
on_look(uv_timer_t *t)
{
	muxjob_run(look_work, look_done, t->data);
}

static void
opened(void *arg, int status, const struct aiterm_error *err)
{
	struct cfg *c = arg;

	if (status != 0) {
		fail(c, "%s_CONFIGURE_UNCONFIRMED: typing the model command "
		    "failed: %s", c->code, error_msg(err));
		return;
	}
	c->until = uv_now(core_loop()) + CONFIGURE_DEADLINE_MS;
	again(c, OPEN_LOOK_MS);
}

/* Between turns, at an empty composer: only then the command is typed. */
static void
first_done(void *arg)
{
	struct cfg *c = arg;

	if (c->rc != 0) {
		fail(c, "%s", error_msg(&c->err));
		return;
	}
	if (c->running || c->st == AITERM_SCREEN_RUNNING) {
		fail(c, "%s_TURN_RUNNING: turn %u of %s is running; the model "
		    "changes between turns only: read its answer (pty_read "
		    "session_id=%s agent_transcript=true wait=true), then call "
		    "again; nothing was typed", c->code, c->turn, c->session,
		    c->session);
		return;
	}
	if (c->st != AITERM_SCREEN_INPUT_READY) {
		fail(c, "%s_NOT_AT_COMPOSER: %s is not at its composer (screen "
		    "%s); nothing was typed (pty_read screen=true shows it)",
		    c->code, c->session, c->why);
		return;
	}
	if (c->pending) {
		fail(c, "%s_INPUT_PENDING: the input box of %s holds text that "
		    "was not sent; nothing was typed", c->code, c->session);
		return;
	}
	agent_input_play(c->session, c->h.ops->model_open, NULL, 0, opened, c);
}

void
agent_configure(const char *session, const char *model, const char *effort,
    configure_cb cb, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	struct agent_record rec;
	struct cfg *c = xcalloc(1, sizeof *c);
	int st;

	snprintf(c->session, sizeof c->session, "%s", session);
	c->model = xstrdup(model);
	c->effort = effort != NULL ? xstrdup(effort) : NULL;
	c->cb = cb;
	c->arg = arg;
	snprintf(c->code, sizeof c->code, "AGENT");
	uv_timer_init(core_loop(), &c->look);
	c->look.data = c;
	/* No agent.json: no agent session (and no folder to lock in). */
	if (agent_record_read(session, &rec, NULL) != 0) {
		fail(c, "%s is not an agent session (agent_launch starts one); "
		    "nothing was typed", session);
		return;
	}
	agent_record_free(&rec);
	c->lock = session_path(session, "send.lock");
	st = lock_acquire(c->lock, &owner, &err);
	if (st != LOCK_ACQUIRED) {
		free(c->lock);
		c->lock = NULL;
		fail(c, "AGENT_SEND_LOCKED: nothing was typed: %s", st ==
		    LOCK_HELD ? "another sender is typing into the session" :
		    st == LOCK_STALE ? "a stale send lock (pty_close the "
		    "session to recover)" : error_msg(&err));
		error_clear(&err);
		return;
	}
	muxjob_run(first_work, first_done, c);
}
