/*
 * A dispatch's parent delivery (DLV-CORE, DLV-WAIT): a record saved before
 * the text goes to the child, completed with the turn boundary once the
 * send is confirmed (or dropped when nothing was sent), and the receipt's
 * part: parent_delivery {id, state}, and for a parent without a receiver
 * of its own, wait_process (argv of aiterm-wait) and wait_command.
 */
#ifndef AITERM_DELIVER_PARENT_H
#define AITERM_DELIVER_PARENT_H

#include <jansson.h>

#include "agent/dispatch.h"
#include "deliver/receiver.h"
#include "deliver/store.h"
#include "util/buf.h"
#include "util/error.h"

/*
 * err is set by parent_delivery_begin only; whoever holds p clears it
 * (error_clear) once, when p goes.
 */
struct parent_delivery {
	struct delivery	 d;
	const struct aiterm_receiver_ops *r;	/* NULL: the waiter */
	int		 lock_fd;	/* -1: no record */
	struct aiterm_error err;	/* why there is none */
};

/*
 * Before anything is sent: the record (p is overwritten: its err must be
 * unset).  -1 (p->err says why) when the parent's receiver cannot take
 * the answer: nothing may be sent then.  With 0 and no record, p->err
 * says why there is none.
 */
int	parent_delivery_begin(struct parent_delivery *p,
	    const struct call_origin *o, const char *session);
/* The same refusal, before a launch: 0, or -1 with err. */
int	parent_delivery_check(const struct call_origin *o,
	    struct aiterm_error *err);
/*
 * A send that makes no record here (pty_send wait=true; any pty_send
 * relayed to host, before it goes; host NULL: here): -1 with err
 * (CHILD_CLAIMED) when the child owes its answer to another parent.
 */
int	parent_child_free(const struct call_origin *o, const char *host,
	    const char *session, struct aiterm_error *err);
/*
 * The call's parent into p->d and its receiver into p->r (NULL: the
 * waiter), no record yet: -1 with err when that receiver cannot take an
 * answer now (a dispatch relayed to another host, remote/handover.h).
 */
int	parent_delivery_prepare(struct parent_delivery *p,
	    const struct call_origin *o, struct aiterm_error *err);
/*
 * The send confirmed at turn (cursor): the record completed, the receiver
 * linked, the receipt's line into text and its fields into sc, the turn
 * watched.  -1 with err, the record dropped, when that cannot be.
 */
int	parent_delivery_confirm(struct parent_delivery *p, unsigned turn,
	    const char *cursor, struct aiterm_buf *text, json_t *sc,
	    struct aiterm_error *err);
/* After the dispatch: the receipt's line and fields. */
void	parent_delivery_sent(struct parent_delivery *p,
	    const struct dispatch_result *d, struct aiterm_buf *text,
	    json_t *sc);

#endif
