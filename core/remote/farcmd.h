/*
 * The commands a relayed result names that run on the far host (REM-RELAY,
 * DLV-WAIT, ADR 0026).  The far aiterm-mcp writes them for its own
 * machine; before the result goes back they are rewritten to run there
 * through ssh, from here:
 *
 * - the waiter of a dispatch (wait_process, wait_command and the receipt
 *   line "its answer is printed by: ..."): for a program, never a prompt,
 *
 *     ssh -T -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=15
 *         [-p PORT] [-F $AITERM_SSH_CONFIG] -- HOST '<far argv, one line>'
 *
 *   The parent runs it when it likes, also after this server ended;
 *   ssh's own failure is exit 255 (run it again).
 * - the command that watches a session (attach and the "watch: ..."
 *   line): for a person, at a terminal,
 *
 *     ssh -t [-p PORT] [-F $AITERM_SSH_CONFIG] -- HOST '<far command>'
 *
 * And the receipt's "answer: pty_read ..." gains "remote=HOST ": the read
 * that gets the answer is a relayed one.
 */
#ifndef AITERM_REMOTE_FARCMD_H
#define AITERM_REMOTE_FARCMD_H

#include <jansson.h>

/* Rewrite result (a tools/call result from host) in place. */
void	remote_far_commands(const char *host, json_t *result);

#endif
