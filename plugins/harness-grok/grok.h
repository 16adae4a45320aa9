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

#endif
