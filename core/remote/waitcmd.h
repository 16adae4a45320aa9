/*
 * A relayed dispatch's waiter (REM-RELAY, DLV-WAIT, ADR 0026): the far
 * aiterm-mcp's receipt names its own aiterm-wait, a program and a state
 * root on the far host.  Before the result goes back, wait_process and
 * wait_command (and the receipt line that shows it) are rewritten to run
 * that aiterm-wait there through ssh:
 *
 *   ssh -T -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=15
 *       [-p PORT] [-F $AITERM_SSH_CONFIG] -- HOST 'FAR ARGV, QUOTED'
 *
 * The parent runs it when it likes, also after this server ended; ssh's
 * own failure is exit 255 (run it again), aiterm-wait's are its own.
 */
#ifndef AITERM_REMOTE_WAITCMD_H
#define AITERM_REMOTE_WAITCMD_H

#include <jansson.h>

/* Rewrite result (a tools/call result from host) in place, if it has one. */
void	remote_wait_rewrite(const char *host, json_t *result);

#endif
