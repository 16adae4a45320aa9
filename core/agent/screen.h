/*
 * What an agent's screen shows, by its harness's classifier (AGT-START,
 * AGT-SEND, PTY-OBSERVE): the capture and pane facts are the core's, the
 * verdict is the plugin's.  A dead pane is EXITED whatever was drawn.
 */
#ifndef AITERM_AGENT_SCREEN_H
#define AITERM_AGENT_SCREEN_H

#include <stdbool.h>

#include "agent/harness.h"
#include "util/buf.h"

struct agent_screen {
	struct aiterm_screen_verdict	 verdict;
	struct aiterm_pane_info		 pane;
	struct aiterm_buf		 text;	/* the capture */
	/* A dead pane: what the CLI printed last (agent/lastwords.h). */
	char				 words[1024];
};

const char	*agent_state_name(enum aiterm_screen_state s);
/*
 * Capture, pane info and classify: 0, or -1 with err.  A dead pane's
 * verdict is EXITED with the end its harness names in what the CLI
 * printed last (words), else pane_exited.
 */
int	agent_screen_read(const struct harness *h, const char *session,
	    struct agent_screen *s, struct aiterm_error *err);
/* Classify a given capture (no I/O). */
void	agent_screen_classify(const struct harness *h, const char *text,
	    size_t len, const struct aiterm_pane_info *pane,
	    struct aiterm_screen_verdict *v);
void	agent_screen_free(struct agent_screen *s);
/*
 * The harness says its box holds text that was not submitted, at an idle
 * composer (INPUT_READY with AITERM_INPUT_TYPED; ADR 0048).
 */
bool	agent_screen_input_typed(const struct aiterm_screen_verdict *v);
/* Tests only: a look on the multiplexer's thread that returns late. */
void	agent_screen_test_lag(void);
/*
 * Tests only: the milliseconds the variable name says with
 * AITERM_TEST_TOOLS=1, else dflt.
 */
unsigned agent_test_ms(const char *name, unsigned dflt);

#endif
