/*
 * The delivery receivers: plugins of kind receiver (ABI 2.1), one per
 * parent kind, chosen by the call's clientInfo.name and _meta.  A parent
 * no receiver claims gets the waiter (aiterm-wait) instead.
 */
#ifndef AITERM_DELIVER_RECEIVER_H
#define AITERM_DELIVER_RECEIVER_H

#include "aiterm/plugin.h"
#include "deliver/origin.h"

/* The receiver whose parent kind made this call (p filled), or NULL. */
const struct aiterm_receiver_ops *receiver_of_origin(
	    const struct call_origin *o, struct aiterm_parent *p);
/* The loaded receiver of a record's parent kind, or NULL. */
const struct aiterm_receiver_ops *receiver_of_kind(const char *kind);

#endif
