/*
 * A pane that waits for a secret (issue 36, ADR 0037): its terminal reads
 * lines with echo off and a process of its foreground group is blocked
 * reading it (proc_tty_secret).  Where that process cannot be inspected
 * (a set-user-ID sudo or su), the line the cursor stands on must also be
 * a known password prompt.  Words on the screen alone never count.
 */
#ifndef AITERM_PTY_SECRET_H
#define AITERM_PTY_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "plugin/host.h"

#define SECRET_PROMPT_MAX	256

/*
 * On the multiplexer's thread: whether the pane whose first process is
 * pid (its cursor on row cursor_y) waits for a secret.  When it does,
 * prompt holds the cursor's line (trailing blanks cut, control bytes
 * dropped, at most SECRET_PROMPT_MAX - 1 bytes).
 */
bool	secret_pane_waits(const char *session, long pid, unsigned cursor_y,
	    char prompt[SECRET_PROMPT_MAX]);

/* A line that asks for a password, passphrase or PIN, ending in ':'. */
bool	secret_prompt_known(const char *line);

#endif
