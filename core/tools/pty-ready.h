/*
 * pty_open's reply once the new shell can take a command: with shell
 * integration, when its first prompt mark (OSC 133 A with the session's
 * token) is in the output log.  Text typed before the shell has read its
 * startup files would be echoed by the terminal outside any prompt, and
 * its output could not be told from what came before.
 */
#ifndef AITERM_PTY_READY_H
#define AITERM_PTY_READY_H

#include <jansson.h>

#include "tools/tool.h"

/* The longest pty_open waits for the first prompt, in milliseconds. */
#define PTY_READY_MAX_MS	5000

/*
 * What comes once the shell is ready: given text and structured (both
 * stolen), or text NULL when the call was cancelled meanwhile (it has
 * failed already; only arg is left to free).
 */
typedef void (*pty_ready_cb)(struct tool_call *call, char *text,
    json_t *structured, void *arg);

/*
 * Once log holds the first prompt mark carrying token, or after
 * PTY_READY_MAX_MS (the text then says the shell has not shown its
 * prompt yet): then(call, text, structured, arg), or with then NULL a
 * reply to call with text and structured (both stolen).
 */
void	pty_ready_reply(struct tool_call *call, char *text, json_t *structured,
	    const char *log, const char *token, pty_ready_cb then, void *arg);

#endif
