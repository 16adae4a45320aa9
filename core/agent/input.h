/*
 * Typing a harness's input steps into a pane (AGT-SEND): text, pastes
 * and keys through the multiplexer, pauses on a loop timer (never a
 * sleep).  A NULL TEXT or PASTE argument stands for the caller's text.
 */
#ifndef AITERM_AGENT_INPUT_H
#define AITERM_AGENT_INPUT_H

#include <stddef.h>

#include "aiterm/plugin.h"

/* rc 0, or -1 with error (the step that failed). */
typedef void (*input_cb)(void *arg, int rc, const char *error);

/* Calls cb once, from the loop when a pause is in the steps. */
void	agent_input_play(const char *session,
	    const struct aiterm_input_step *steps, const char *text,
	    size_t len, input_cb cb, void *arg);

#endif
