#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/input.h"
#include "plugin/host.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "shell/utf8.h"
#include "util/loop.h"
#include "util/xmalloc.h"

#define PAUSE_MAX_MS	5000

struct play {
	char				 session[SESSION_ID_MAX + 1];
	const struct aiterm_input_step	*steps;
	char				*text;
	size_t				 len;
	input_cb			 cb;
	void				*arg;
	uv_timer_t			 timer;
	int				 rc;	/* of the steps on the worker */
	struct aiterm_error		 err;
};

static void
typed(const struct aiterm_mux_ops *mux, const char *session,
    const char *p, size_t len, struct aiterm_error *err, int *rc)
{
	size_t *lens = NULL, n, i, at = 0;

	n = utf8_chunks(p, len, UTF8_CHUNK_MAX, &lens);
	for (i = 0; i < n && *rc == 0; i++) {
		*rc = mux->send_text(host_get(), session, p + at, lens[i], 0,
		    err);
		at += lens[i];
	}
	free(lens);
}

/* One step other than a pause: 0, or -1 with err. */
static int
step(struct play *pl, const struct aiterm_input_step *s,
    struct aiterm_error *err)
{
	const struct aiterm_mux_ops *mux = session_mux(err);
	const char *p = s->arg != NULL ? s->arg : pl->text;
	size_t len = s->arg != NULL ? strlen(s->arg) : pl->len;
	struct aiterm_pane_info pane;
	int rc = 0;

	if (mux == NULL)
		return -1;
	/* Nothing goes to a dead pane: tmux 3.3a crashed on that. */
	memset(&pane, 0, sizeof pane);
	if (mux->pane_info(host_get(), pl->session, &pane, err) != 0)
		return -1;
	if (!pane.exists || pane.dead)
		return error_set(err, "the agent's pane %s", !pane.exists ?
		    "no longer exists" : "has exited");
	switch (s->kind) {
	case AITERM_INPUT_TEXT:
		typed(mux, pl->session, p, len, err, &rc);
		return rc;
	case AITERM_INPUT_PASTE:
		if (mux->paste == NULL)
			return error_set(err, "the multiplexer cannot paste");
		return mux->paste(host_get(), pl->session, p, len, err);
	case AITERM_INPUT_KEY:
		return mux->send_key(host_get(), pl->session, s->arg, err);
	case AITERM_INPUT_PAUSE:	/* run() waits them out */
	case AITERM_INPUT_END:
		break;
	}
	return 0;
}

static void run(struct play *pl);

static void
play_closed(uv_handle_t *h)
{
	struct play *pl = h->data;

	free(pl->text);
	free(pl);
}

static void
finish(struct play *pl, int status, const struct aiterm_error *err)
{
	pl->cb(pl->arg, status, err);
	uv_close((uv_handle_t *)&pl->timer, play_closed);
}

static void
on_pause(uv_timer_t *t)
{
	run(t->data);
}

/*
 * The steps up to the next pause, on the multiplexer's thread (a stalled
 * tmux holds this input, not the loop).
 */
static void
steps_work(void *arg)
{
	struct play *pl = arg;

	pl->rc = 0;
	while (pl->rc == 0 && pl->steps->kind != AITERM_INPUT_END &&
	    pl->steps->kind != AITERM_INPUT_PAUSE) {
		pl->rc = step(pl, pl->steps, &pl->err);
		pl->steps++;
	}
}

static void
steps_done(void *arg)
{
	struct play *pl = arg;

	if (pl->rc != 0) {
		finish(pl, -1, &pl->err);
		error_clear(&pl->err);
		return;
	}
	run(pl);
}

/* Pauses by a timer on the loop; other steps by the worker. */
static void
run(struct play *pl)
{
	while (pl->steps->kind == AITERM_INPUT_PAUSE) {
		long ms = pl->steps->arg != NULL ?
		    strtol(pl->steps->arg, NULL, 10) : 0;

		pl->steps++;
		if (ms > 0) {
			uv_timer_start(&pl->timer, on_pause, (uint64_t)(ms >
			    PAUSE_MAX_MS ? PAUSE_MAX_MS : ms), 0);
			return;
		}
	}
	if (pl->steps->kind == AITERM_INPUT_END) {
		finish(pl, 0, NULL);
		return;
	}
	muxjob_run(steps_work, steps_done, pl);
}

void
agent_input_play(const char *session, const struct aiterm_input_step *steps,
    const char *text, size_t len, input_cb cb, void *arg)
{
	struct play *pl = xcalloc(1, sizeof *pl);

	snprintf(pl->session, sizeof pl->session, "%s", session);
	pl->steps = steps;
	pl->text = xmalloc(len + 1);
	memcpy(pl->text, text != NULL ? text : "", len);
	pl->text[len] = '\0';
	pl->len = len;
	pl->cb = cb;
	pl->arg = arg;
	uv_timer_init(core_loop(), &pl->timer);
	pl->timer.data = pl;
	run(pl);
}
