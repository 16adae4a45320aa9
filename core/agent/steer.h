/*
 * Whether a steer was taken (AGT-SEND, ADR 0012): after the harness's
 * steer keys, the screen is looked at on a timer (never a sleep) until a
 * look shows no pending input in the verdict's dialog, or until
 * AITERM_STEER_CHECK_MS.  Text still in the input box then is
 * <HARNESS>_STEER_NOT_TAKEN; text still queued, or no readable screen,
 * is <HARNESS>_STEER_UNCONFIRMED.
 */
#ifndef AITERM_AGENT_STEER_H
#define AITERM_AGENT_STEER_H

#include "agent/harness.h"
#include "util/error.h"

/*
 * Called once: status 0 (err NULL) when taken, else -1 with err (the code
 * first), borrowed for the call.
 */
typedef void (*steer_cb)(void *arg, int status,
    const struct aiterm_error *err);

void	agent_steer_check(const struct harness *h, const char *session,
	    unsigned turn, steer_cb cb, void *arg);

#endif
