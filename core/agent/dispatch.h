/*
 * Sending to an agent session (AGT-SEND, AGT-TURN, AGT-CLAUDE-MARK): the
 * core, not the caller, decides from the session at send time.  A turn
 * that runs (Aiterm's turn mark, and not yet ended in the transcript, or
 * the screen says running) takes the text into itself: one boundary, no
 * new turn.  Otherwise the previous turn's answer is saved, a new turn
 * gets the transcript's turn count as its index (its event_cursor is
 * "turn:index", saved before anything is typed), the text is
 * typed with the harness's submit keys, and the start is confirmed by a
 * running screen or the prompt in the transcript within a short time.
 * A steer is reported only once the screen shows the text taken
 * (agent/steer.h, ADR 0012).
 * Nothing blocks the loop; the session's send lock is held while typing.
 */
#ifndef AITERM_AGENT_DISPATCH_H
#define AITERM_AGENT_DISPATCH_H

#include <stdint.h>

#include "agent/harness.h"
#include "agent/image.h"
#include "agent/record.h"
#include "util/error.h"

/* How long a dispatch looks for start evidence. */
#define DISPATCH_CONFIRM_MS	5000

/* Where a dispatch's text went; one name each (the receipt's "route"). */
enum dispatch_route {
	ROUTE_NEW_TURN,		/* a new turn */
	ROUTE_STEERED,		/* into the running turn */
	ROUTE_RECOVERY,		/* a card dismissed, nothing typed yet */
	ROUTE_COUNT
};

const char	*dispatch_route_name(enum dispatch_route r);

/*
 * The result, the dispatch's own: its err is cleared once the callback
 * returns, so a copy of it must not keep err.
 */
struct dispatch_result {
	int			 status;	/* 0, or -1 with err */
	struct aiterm_error	 err;
	enum dispatch_route	 route;
	/* A card dismissed before the text went in ("..._dismissed"), or "". */
	char			 recovered[64];
	enum agent_dispatch	 dispatch;
	char			 confirmed_by[64];
	unsigned		 turn;
	unsigned		 index;		/* its turn in the transcript */
	/* The code of a failure after typing (USER_HOOK_BLOCKED), or NULL. */
	const char		*code;
	unsigned		 images;	/* image files attached first */
	/*
	 * A blocking dialog that opened as the text went in and ate it
	 * (status -1, nothing sent); state 0 and reason NULL otherwise.
	 */
	struct aiterm_screen_verdict dialog;
};

/* r->status 0, or -1 with r->err; r is borrowed for the call. */
typedef void (*dispatch_cb)(void *arg, const struct dispatch_result *r);

/* Calls cb once, from the loop. */
void	agent_dispatch(const struct harness *h, const char *session,
	    const char *text, size_t len, dispatch_cb cb, void *arg);

/*
 * The same with image files attached before the text (AGT-IMAGE), each
 * already checked (agent/image.h); im is copied, and may be NULL.
 */
void	agent_dispatch_images(const struct harness *h, const char *session,
	    const char *text, size_t len, const struct agent_images *im,
	    dispatch_cb cb, void *arg);

/* "turn:index", the event_cursor of a turn. */
void	agent_event_cursor(unsigned turn, unsigned index, char *out,
	    size_t size);

/*
 * Whether the record's turn is still running by its transcript: the mark
 * is set and the turn has not ended there.  Reads the transcript.
 */
bool	agent_turn_running(const struct harness *h, const char *session,
	    struct agent_record *r);
/* The harness takes a turn as ended only on an idle screen (ABI 2.4). */
bool	agent_turn_ends_idle(const struct harness *h);
/*
 * Whether a turn the transcript says ended has ended by the harness's
 * rules: always, or for AITERM_TURN_ENDS_IDLE once the screen is neither
 * running, nor an approval, nor starting (ADR 0039).  Reads the screen
 * then: on the multiplexer's thread.
 */
bool	agent_turn_screen_idle(const struct harness *h, const char *session);

#endif
