#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/screen.h"
#include "agent/steer.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "util/loop.h"
#include "util/xmalloc.h"

/* How often the screen is looked at while a steer is checked. */
#define STEER_LOOK_MS	100

/* What the last look saw. */
enum seen { SEEN_NONE, SEEN_TYPED, SEEN_QUEUED };

struct steer {
	const struct harness	*h;
	char			 session[SESSION_ID_MAX + 1];
	unsigned		 turn;
	steer_cb		 cb;
	void			*arg;
	uv_timer_t		 look;
	uint64_t		 until;
	enum seen		 seen;
	bool			 taken;		/* the last look saw it taken */
	char			 why[128];	/* an unreadable screen's */
};

static void
closed(uv_handle_t *h)
{
	free(h->data);
}

static void
finish(struct steer *s, int status, const struct aiterm_error *err)
{
	s->cb(s->arg, status, err);
	uv_close((uv_handle_t *)&s->look, closed);
}

/*
 * The failure at the end of the window, by what was seen last.  Each
 * message is well under the 512 bytes it was once cut at (a code of at
 * most 31 bytes, s->why of at most 127).
 */
static void
fail(struct steer *s)
{
	struct aiterm_error err = ERROR_INIT;
	char code[32];

	harness_code_prefix(s->h, code, sizeof code);
	if (s->seen == SEEN_TYPED)
		error_set(&err, "%s_STEER_NOT_TAKEN: the text is still in the "
		    "agent's input box %u ms after the steer; it was not "
		    "added to the running turn %u (pty_read screen=true "
		    "shows it)", code, AITERM_STEER_CHECK_MS, s->turn);
	else if (s->seen == SEEN_QUEUED)
		error_set(&err, "%s_STEER_UNCONFIRMED: the text still waits "
		    "in the agent's queue %u ms after the steer; it is not "
		    "part of the running turn %u yet (pty_read screen=true "
		    "shows it)", code, AITERM_STEER_CHECK_MS, s->turn);
	else
		error_set(&err, "%s_STEER_UNCONFIRMED: no readable screen "
		    "showed the text taken within %u ms (%s)", code,
		    AITERM_STEER_CHECK_MS, s->why);
	finish(s, -1, &err);
	error_clear(&err);
}

/*
 * A look, on the multiplexer's thread: what the screen shows of the text
 * (s->seen, s->why); s->taken when it shows the text taken.
 */
static void
look_work(void *arg)
{
	struct steer *s = arg;
	struct aiterm_error err = ERROR_INIT;
	struct agent_screen scr;
	enum aiterm_screen_state st;
	const char *pending;

	s->taken = false;
	if (agent_screen_read(s->h, s->session, &scr, &err) != 0) {
		snprintf(s->why, sizeof s->why, "%s", error_msg(&err));
		s->seen = SEEN_NONE;
	} else {
		st = scr.verdict.state;
		pending = st == AITERM_SCREEN_RUNNING ||
		    st == AITERM_SCREEN_INPUT_READY ? scr.verdict.dialog : NULL;
		s->seen = pending == NULL ? SEEN_NONE : strcmp(pending,
		    AITERM_INPUT_TYPED) == 0 ? SEEN_TYPED : strcmp(pending,
		    AITERM_INPUT_QUEUED) == 0 ? SEEN_QUEUED : SEEN_NONE;
		snprintf(s->why, sizeof s->why, "screen %s/%s",
		    agent_state_name(st), scr.verdict.reason);
		agent_screen_free(&scr);
		s->taken = s->seen == SEEN_NONE &&
		    (st == AITERM_SCREEN_RUNNING ||
		    st == AITERM_SCREEN_INPUT_READY ||
		    st == AITERM_SCREEN_APPROVAL);
	}
	error_clear(&err);
}

static void on_look(uv_timer_t *t);

static void
look_done(void *arg)
{
	struct steer *s = arg;

	if (s->taken)
		finish(s, 0, NULL);
	else if (uv_now(core_loop()) >= s->until)
		fail(s);
	else
		uv_timer_start(&s->look, on_look, STEER_LOOK_MS, 0);
}

static void
on_look(uv_timer_t *t)
{
	muxjob_run(look_work, look_done, t->data);
}

void
agent_steer_check(const struct harness *h, const char *session,
    unsigned turn, steer_cb cb, void *arg)
{
	struct steer *s = xcalloc(1, sizeof *s);

	s->h = h;
	snprintf(s->session, sizeof s->session, "%s", session);
	s->turn = turn;
	s->cb = cb;
	s->arg = arg;
	snprintf(s->why, sizeof s->why, "not looked at yet");
	uv_timer_init(core_loop(), &s->look);
	s->look.data = s;
	s->until = uv_now(core_loop()) + AITERM_STEER_CHECK_MS;
	uv_timer_start(&s->look, on_look, STEER_LOOK_MS, 0);
}
