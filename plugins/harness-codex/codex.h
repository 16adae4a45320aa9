/* harness-codex: the Codex CLI (AGT-LAUNCH, AGT-START, AGT-TURN). */
#ifndef AITERM_HARNESS_CODEX_H
#define AITERM_HARNESS_CODEX_H

#include <aiterm/plugin.h>

/* model.c: agent_configure (ABI 2.3). */
extern const struct aiterm_input_step codex_model_open[];
void	codex_model_step(const struct aiterm_screen *s,
	    const struct aiterm_model_goal *g, struct aiterm_model_move *m);

#endif
