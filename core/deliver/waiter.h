/*
 * The reading side of a delivery, for the programs that hand the answer
 * over (aiterm-wait, aiterm-hook): wait for the record to leave
 * `waiting` without polling (inotify on the folder; a 1 s re-read where
 * there is none), then claim the body (deliver/claim.h) so that it is
 * handed over once.  Pure readers of the child and its session.
 */
#ifndef AITERM_DELIVER_WAITER_H
#define AITERM_DELIVER_WAITER_H

#include <stdbool.h>
#include <stddef.h>

#include "deliver/claim.h"
#include "deliver/store.h"

enum waited { WAITED_READY, WAITED_FAILED, WAITED_GONE, WAITED_TIMEOUT,
	WAITED_STOPPED };

/*
 * Until d (read again on every change, as a reader sees it) is ready or
 * submitted (READY: a claim says which), failed or unknown, the deadline
 * passes (< 0: none) or stop(arg) says so.  err for GONE.
 */
enum waited delivery_wait(const char *id, long long deadline_ms,
	    bool (*stop)(void *), void *arg, struct delivery *d,
	    struct aiterm_error *err);

#endif
