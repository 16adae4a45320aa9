/* harness-cursor: the Cursor CLI agent (a stand-in in the tests). */
#ifndef AITERM_HARNESS_CURSOR_H
#define AITERM_HARNESS_CURSOR_H

#include <aiterm/plugin.h>

/* CSI 13 u: Enter in the extended keyboard protocol (submits). */
#define CURSOR_SUBMIT_KEY	"\x1b[13u"

/* model.c: agent_configure (ABI 2.3). */
extern const struct aiterm_input_step cursor_model_open[];
void	cursor_model_step(const struct aiterm_screen *s,
	    const struct aiterm_model_goal *g, struct aiterm_model_move *m);

#endif
