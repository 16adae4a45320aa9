/*
 * What an agent CLI printed last before it exited (AGT-START, AGT-SEND):
 * a dead pane's screen may hold only the multiplexer's notice, so its
 * harness is shown the end of the pane's output log instead, and an end
 * it names there (Grok's sandbox_startup_failed) is the pane's reason.
 */
#ifndef AITERM_AGENT_LASTWORDS_H
#define AITERM_AGENT_LASTWORDS_H

#include <stddef.h>

#include "agent/harness.h"

/*
 * The last non-blank lines of the session's output log after RED-STRIP
 * (from the last line starting "Error"/"error" when there is one), at most
 * size bytes with the NUL; "" when there is no log.
 */
void	agent_last_words(const char *session, char *out, size_t size);

/*
 * The EXITED reason h gives to words (its own name for the end, e.g.
 * "sandbox_startup_failed"), or NULL when it names none.
 */
const char *agent_named_end(const struct harness *h, const char *words);

#endif
