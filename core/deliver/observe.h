/*
 * The server's side of a delivery (DLV-CORE): watch the child's turn end
 * from the boundary saved before the send, then store the answer and make
 * the record ready.  The watching is the turn-answer engine (agent/
 * answer.h), so the answer is the one the harness's transcript holds for
 * that turn, never the screen; a child on another host is read there by a
 * relayed pty_read, through the reader remote/ provides.
 */
#ifndef AITERM_DELIVER_OBSERVE_H
#define AITERM_DELIVER_OBSERVE_H

#include <jansson.h>

#include "deliver/store.h"
#include "util/error.h"

/* Watch d's turn; lock_fd (held) is closed when done. */
void	delivery_observe(const struct delivery *d, int lock_fd);
/* At start: take over waiting records whose owner is gone. */
void	delivery_resume(void);
/*
 * The server is ending: every watch stops, nothing is stored; the
 * records stay waiting for the next server to take over.
 */
void	delivery_observe_stop(void);

/*
 * How a turn on another host is read: pty_read{agent_transcript, wait,
 * turn} with args (stolen) relayed to host; done gets status 0 and the
 * far result, or -1 and err.  read returns a handle for cancel, or NULL
 * when done was called already; cancel means done is not called.  The
 * remote layer, above this one, provides it (remote_deliveries_init, which
 * the server calls as it starts).
 */
typedef void	(*delivery_far_done)(void *arg, int status,
		    const struct aiterm_error *err, json_t *result);
struct delivery_far_reader {
	void	*(*read)(const char *host, json_t *args,
		    delivery_far_done done, void *arg);
	void	 (*cancel)(void *handle);
};
void	delivery_far_reader_set(const struct delivery_far_reader *r);

#endif
