/*
 * A dispatch relayed to another host, for a parent with a receiver of its
 * own (REM-RELAY, DLV-CORE, ADR 0027).  The far aiterm-mcp saved its
 * record before its send and named its waiter; here, when the call's
 * parent has a receiver (Claude Code's hooks, Codex's thread queue,
 * Cursor's hooks), a local record takes that answer over: it names the
 * host and the far record (no secret), the receiver is linked to it, the
 * receipt becomes the receiver's, and this server watches the turn end
 * with a relayed pty_read{agent_transcript, wait, turn} (deliver/
 * observe.h), read again at the same turn when the connection drops.
 * A parent without a receiver keeps the far waiter (remote/farcmd.h).
 */
#ifndef AITERM_REMOTE_HANDOVER_H
#define AITERM_REMOTE_HANDOVER_H

#include <jansson.h>
#include <stdbool.h>

#include "deliver/origin.h"

/*
 * The reader deliver/observe.h uses for a turn on another host, handed
 * to delivery once by the server as it starts (server_init), before any
 * record is taken over.
 */
void	remote_deliveries_init(void);
/*
 * After a relayed call's result came back from host (rewritten in place):
 * true when a local record took its far delivery over.
 */
bool	remote_handover(const struct call_origin *origin, const char *host,
	    json_t *result);

#endif
