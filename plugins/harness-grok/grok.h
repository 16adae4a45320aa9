/* harness-grok: the Grok Build CLI (AGT-GROK). */
#ifndef AITERM_HARNESS_GROK_H
#define AITERM_HARNESS_GROK_H

#include <aiterm/plugin.h>

/* screen.c */
void	grok_classify(const struct aiterm_screen *s,
	    struct aiterm_screen_verdict *v);
const struct aiterm_input_step *grok_startup_keys(const char *dialog,
	    int trust_project);
int	grok_approval(const struct aiterm_host *host,
	    const struct aiterm_screen *s, struct aiterm_approval *a);
const struct aiterm_input_step *grok_approval_keys(const char *choice);

/* model.c: agent_configure (ABI 2.3). */
extern const struct aiterm_input_step grok_model_open[];
void	grok_model_step(const struct aiterm_screen *s,
	    const struct aiterm_model_goal *g, struct aiterm_model_move *m);

#endif
