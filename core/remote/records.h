/*
 * What this server started on other hosts (REM-RELAY, ADR 0019, ADR
 * 0026): a relayed pty_open or agent_launch that succeeded leaves a
 * record here, a relayed pty_close removes it, so that after a restart
 * the sessions on other hosts can still be found (pty_list shows them);
 * a relayed dispatch whose receipt names a parent delivery leaves one
 * too, until DELIVERY_TTL_S after it (parent_deliveries shows them).
 *
 *   <state root>/remote/<first 16 hex of sha256(host)>/host.json
 *       {"format", "host"}: the destination as the calls gave it
 *   .../sessions/<session id>.json
 *       {"format", "session_id", "tool", "created_ms"}
 *   .../deliveries/<delivery id>.json
 *       {"format", "delivery_id", "session_id", "tool", "created_ms"}
 *
 * Nothing else of a call is kept: no secret (remote_secret is never
 * relayed or stored), no argument (env_vars may hold one), no output.
 */
#ifndef AITERM_REMOTE_RECORDS_H
#define AITERM_REMOTE_RECORDS_H

#include <jansson.h>
#include <stdbool.h>

/*
 * After a relayed call ended with result (NULL: a JSON-RPC error).
 * owed_there: a delivery the result names is still the far side's (no
 * local record took it over, remote/handover.h), so it is noted here.
 */
void	 remote_records_note(const char *host, const char *tool,
	    json_t *args, json_t *result, bool owed_there);
/*
 * Every record, oldest first: [{host, session_id, tool, created_ms}].
 * New reference; an empty array when there are none or no state root.
 */
json_t	*remote_records_json(void);
/*
 * The delivery records of session (NULL: all), oldest first: [{host,
 * delivery_id, session_id, tool, created_ms}]; expired ones are removed.
 */
json_t	*remote_deliveries_json(const char *session);

#endif
