/*
 * The answer of an agent session's turn (AGT-TURN): from the harness's
 * own transcript, correlated to the turn's boundary, never the screen.
 * One engine for every reader: the pty_read tool (agent_transcript) and
 * the delivery observer (deliver/observe.h) both call it.
 */
#ifndef AITERM_AGENT_ANSWER_H
#define AITERM_AGENT_ANSWER_H

#include <jansson.h>
#include <stdbool.h>
#include <uv.h>

#include "util/error.h"

/*
 * What a read found: status 0 with the text the model reads and its
 * fields ({session_id, turn, state, reason, transcript}; state is done,
 * error, exited, approval, no_transcript, ambiguous, not_started,
 * running or saved), or status -1 and err.  The callback may take text and fields
 * (setting them NULL); what it leaves is freed after it returns.
 */
struct agent_answer {
	int			 status;
	struct aiterm_error	 err;
	char			*text;
	json_t			*fields;
};

struct agent_answer_to {
	void	(*cb)(void *arg, struct agent_answer *answer);
	/* Each look of a wait, or NULL: seconds waited of timeout. */
	void	(*progress)(void *arg, double waited, double timeout);
	void	*arg;
};

struct agent_answer_wait;

/*
 * Read session's turn (0: the current one; an earlier one is its saved
 * answer).  Without wait: one look.  With wait: a change of the
 * transcript or of the pane wakes a look (inotify, pidfd; no polling)
 * until the turn ends, the pane exits or timeout seconds pass; an
 * answer, once read, is saved beside the session, so turn N's answer is
 * never taken for turn N+1's and survives a restart.  to->cb is called
 * exactly once unless the wait is cancelled; NULL when it was called
 * already (nothing to wait for).
 */
struct agent_answer_wait *agent_answer_wait(uv_loop_t *loop,
	    const char *session, unsigned turn, double timeout, bool wait,
	    const struct agent_answer_to *to);
/* Stop a wait; its callback is not called.  NULL is ignored. */
void	agent_answer_cancel(struct agent_answer_wait *w);

#endif
