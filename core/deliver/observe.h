/*
 * The server's side of a delivery (DLV-CORE): watch the child's turn end
 * from the boundary saved before the send, then store the answer and make
 * the record ready.  The watching is the server's own pty_read
 * {agent_transcript, wait} (an internal call), so the answer is the one
 * the harness's transcript holds for that turn, never the screen.
 */
#ifndef AITERM_DELIVER_OBSERVE_H
#define AITERM_DELIVER_OBSERVE_H

#include "deliver/store.h"

/* Watch d's turn; lock_fd (held) is closed when done. */
void	delivery_observe(const struct delivery *d, int lock_fd);
/* At start: take over waiting records whose owner is gone. */
void	delivery_resume(void);

#endif
