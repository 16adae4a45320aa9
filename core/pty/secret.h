/*
 * A pane that waits for a secret (issue 36, ADR 0037): its terminal reads
 * lines with echo off and a process of its foreground group is blocked
 * reading it (proc_tty_secret).  Where that process cannot be inspected
 * (a set-user-ID sudo or su), the line the cursor stands on must also be
 * a known password prompt.  Words on the screen alone never count: on
 * the far side of ssh the carrier in the foreground is the process
 * evidence (below).
 */
#ifndef AITERM_PTY_SECRET_H
#define AITERM_PTY_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "plugin/host.h"

#define SECRET_PROMPT_MAX	256

/*
 * On the multiplexer's thread: whether the pane (its first process
 * pane->pid, its cursor at pane->cursor_x, cursor_y) waits for a secret.
 * When it does, prompt holds the cursor's line (trailing blanks cut,
 * control bytes dropped, at most SECRET_PROMPT_MAX - 1 bytes).
 *
 * On the far side of a carrier (ssh, docker exec -it, kubectl exec: its
 * program in the foreground, the local terminal raw) the far terminal
 * cannot be inspected: there the cursor's line must be a known prompt and
 * the cursor must stand at its end, after a quiet moment the caller waited
 * (a remote sudo's "[sudo] password for u: ").
 */
bool	secret_pane_waits(const char *session,
	    const struct aiterm_pane_info *pane,
	    char prompt[SECRET_PROMPT_MAX]);

/* A line that asks for a password, passphrase or PIN, ending in ':'. */
bool	secret_prompt_known(const char *line);

#endif
