/*
 * An answer nobody takes (DLV-CORE; seed 000: no claim within 24 hours
 * is failed, the body kept, nothing resent): a ready record still
 * unclaimed DELIVERY_TTL_S after it became ready ends failed, outcome
 * expired_unclaimed.  Only <id>.json is rewritten; <id>.body stays.  The
 * expiring server claims the record the way every receiver does (the
 * exclusive <id>.claim, holding "expired <pid>"), so of a receiver and an
 * expiry exactly one wins, and a claimed record never expires.
 *
 * Checked when a server starts (delivery_resume), whenever
 * parent_deliveries lists the records, and every EXPIRY_CHECK_MS on the
 * loop.
 */
#ifndef AITERM_DELIVER_EXPIRE_H
#define AITERM_DELIVER_EXPIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "deliver/store.h"

#define EXPIRY_OUTCOME	"expired_unclaimed"
#define EXPIRY_CHECK_MS	(10 * 60 * 1000)

/*
 * d (as read) expired now, d updated: true.  First a hand-over whose
 * claimer ended mid-way is written down as unknown (deliver/claim.h).
 */
bool	delivery_expire(struct delivery *d);
/* Every record of the folder; how many expired. */
size_t	delivery_expire_all(void);
/* The periodic check on loop (an unreferenced timer: it keeps no loop up). */
void	delivery_expiry_start(uv_loop_t *loop);

#endif
