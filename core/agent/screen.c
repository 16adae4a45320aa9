#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/lastwords.h"
#include "agent/screen.h"
#include "plugin/host.h"
#include "pty/session.h"

static const char *const state_names[] = {
	[AITERM_SCREEN_UNKNOWN] = "unknown",
	[AITERM_SCREEN_STARTING] = "starting",
	[AITERM_SCREEN_INPUT_READY] = "input_ready",
	[AITERM_SCREEN_RUNNING] = "running",
	[AITERM_SCREEN_APPROVAL] = "approval",
	[AITERM_SCREEN_BLOCKING_DIALOG] = "blocking_dialog",
	[AITERM_SCREEN_ONBOARDING] = "onboarding",
	[AITERM_SCREEN_RATE_LIMITED] = "rate_limited",
	[AITERM_SCREEN_EXITED] = "exited",
};

const char *
agent_state_name(enum aiterm_screen_state s)
{
	return (unsigned)s < sizeof state_names / sizeof state_names[0] &&
	    state_names[s] != NULL ? state_names[s] : "unknown";
}

void
agent_screen_classify(const struct harness *h, const char *text, size_t len,
    const struct aiterm_pane_info *pane, struct aiterm_screen_verdict *v)
{
	struct aiterm_screen scr = {
		text, len, pane->cols, pane->rows, pane->cursor_x,
		pane->cursor_y,
	};

	memset(v, 0, sizeof *v);
	if (!pane->exists) {
		v->state = AITERM_SCREEN_EXITED;
		v->reason = "session_lost";
		return;
	}
	h->ops->classify(&scr, v);
	/* A dead pane's last screen may say why (sandbox_startup_failed). */
	if (pane->dead) {
		if (v->state != AITERM_SCREEN_EXITED || v->reason == NULL)
			v->reason = "pane_exited";
		v->state = AITERM_SCREEN_EXITED;
		v->dialog = NULL;
		return;
	}
	if (v->reason == NULL)
		v->reason = "unspecified";
}

int
agent_screen_read(const struct harness *h, const char *session,
    struct agent_screen *s, struct aiterm_error *err)
{
	const struct aiterm_mux_ops *mux = session_mux(err);
	const char *reason;

	memset(s, 0, sizeof *s);
	/* The pane and its screen of one moment, in one question. */
	if (mux == NULL || session_pane_screen(mux, session, &s->pane,
	    (struct aiterm_buf *)&s->text, err) != 0)
		return -1;
	agent_screen_classify(h, buf_str(&s->text), s->text.len, &s->pane,
	    &s->verdict);
	if (!s->pane.exists || s->pane.dead) {
		agent_last_words(session, s->words, sizeof s->words);
		if (strcmp(s->verdict.reason, "pane_exited") == 0 &&
		    (reason = agent_named_end(h, s->words)) != NULL)
			s->verdict.reason = reason;
	}
	return 0;
}

void
agent_screen_free(struct agent_screen *s)
{
	buf_free(&s->text);
}

/*
 * A look that comes back late: only with AITERM_TEST_TOOLS=1 and
 * AITERM_TEST_LOOK_LAG_MS=N, so the tests can show that a change seen
 * while a look is in flight is looked at again (issue 37).
 */
unsigned
agent_test_ms(const char *name, unsigned dflt)
{
	const char *on = getenv("AITERM_TEST_TOOLS");
	const char *ms = getenv(name);

	if (on == NULL || strcmp(on, "1") != 0 || ms == NULL || *ms == '\0')
		return dflt;
	return (unsigned)strtoul(ms, NULL, 10);
}

void
agent_screen_test_lag(void)
{
	unsigned ms = agent_test_ms("AITERM_TEST_LOOK_LAG_MS", 0);

	if (ms > 0)
		uv_sleep(ms);
}

bool
agent_screen_input_typed(const struct aiterm_screen_verdict *v)
{
	return v->state == AITERM_SCREEN_INPUT_READY && v->dialog != NULL &&
	    strcmp(v->dialog, AITERM_INPUT_TYPED) == 0;
}
