/*
 * Typing a harness's input steps into a pane (AGT-SEND): text, pastes
 * and keys through the multiplexer, pauses on a loop timer (never a
 * sleep).  A NULL TEXT or PASTE argument stands for the caller's text.
 */
#ifndef AITERM_AGENT_INPUT_H
#define AITERM_AGENT_INPUT_H

#include <stddef.h>

#include "aiterm/plugin.h"
#include "util/error.h"

/*
 * status 0 with err NULL, or -1 with err (the step that failed); err is
 * borrowed for the call.
 */
typedef void (*input_cb)(void *arg, int status,
    const struct aiterm_error *err);

/* Calls cb once, from the loop when a pause is in the steps. */
void	agent_input_play(const char *session,
	    const struct aiterm_input_step *steps, const char *text,
	    size_t len, input_cb cb, void *arg);

#endif
