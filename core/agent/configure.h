/*
 * Changing a running agent's model (and effort) in place (AGT-CONFIGURE,
 * ADR 0035): through the CLI's own model command, driven by its harness
 * plugin's model_step (ABI 2.3) one look at a time, under the session's
 * send lock, between turns only.  Confirmed from the screen; a model or
 * an effort the picker does not offer is refused, never another one.
 */
#ifndef AITERM_AGENT_CONFIGURE_H
#define AITERM_AGENT_CONFIGURE_H

#include "util/error.h"

/* How long the whole change may take, and how many key presses. */
#define CONFIGURE_DEADLINE_MS	15000
#define CONFIGURE_MOVES_MAX	64

struct configure_result {
	char		 harness[64];
	/* Before: as Aiterm last set it ("" the launch's default). */
	char		 from_model[128], from_effort[32];
	/* After: as the CLI confirmed it ("" no effort shown). */
	char		 model[128], effort[32];
	char		 said[512];	/* the CLI's own confirmation */
	const char	*confirmed_by;	/* "screen" */
	unsigned	 moves;		/* key presses after the command */
};

/*
 * status 0 with r, or -1 with err (the code first; nothing changed unless
 * it says so), both borrowed for the call.
 */
typedef void (*configure_cb)(void *arg, int status,
    const struct configure_result *r, const struct aiterm_error *err);

/* Calls cb once, from the loop.  effort may be NULL. */
void	agent_configure(const char *session, const char *model,
	    const char *effort, configure_cb cb, void *arg);

#endif
