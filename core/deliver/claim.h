/*
 * Handing a ready answer over once (DLV-CORE, DLV-CLAUDE, ADR 0032).
 * Whoever hands a body to its parent (aiterm-wait, a hook program) claims
 * it first: <id>.claim, created exclusively (a hard link of a file it
 * holds an flock on), holding "<who> <pid>".  It then writes the body
 * where its parent reads it and says how that went: the record becomes
 * submitted (written whole), unknown (the write failed or was cut: the
 * body is kept, never resent) or failed (the parent refused it), and the
 * claim's lock is let go.  A hand-over claim whose lock is free on a
 * record still ready is one whose claimer died mid-way: unknown, outcome
 * HANDOVER_CUT.  A claim of the releases before (a pid alone) reads as
 * submitted, as it did; the expiry's ("expired <pid>") is deliver/expire.h.
 */
#ifndef AITERM_DELIVER_CLAIM_H
#define AITERM_DELIVER_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

#include "deliver/store.h"

/* The outcome of a hand-over whose claimer ended before it said how. */
#define HANDOVER_CUT	"handover_interrupted"
/* The outcome of a hand-over whose write failed (a closed or cut pipe). */
#define HANDOVER_WRITE_FAILED	"write_failed"

/*
 * Claim d's body for who (a word: "claude-post") and read it: 0 with
 * *claim the claim (an fd) until delivery_handed, 1 someone else has it,
 * -1 err.
 */
int	delivery_claim(const struct delivery *d, const char *who, char **body,
	    size_t *len, int *claim, struct aiterm_error *err);
/*
 * The hand-over's end: d becomes state (submitted, unknown or failed;
 * its outcome why when not NULL) and the claim is let go.  -1 with err
 * when the record could not be written (it then reads as unknown).
 */
int	delivery_handed(struct delivery *d, int claim, enum delivery_state state,
	    const char *why, struct aiterm_error *err);
/*
 * d (as read) as a reader sees it: a ready record whose claimer handed it
 * over is submitted, one whose claimer ended mid-way unknown (outcome
 * HANDOVER_CUT), one being handed over still ready.
 */
void	delivery_seen(struct delivery *d);
/* The state delivery_seen gives. */
enum delivery_state delivery_state(const struct delivery *d);
/*
 * A hand-over whose claimer ended mid-way written down as unknown (the
 * server's checks, with the expiry): true when d was.
 */
bool	delivery_settle(struct delivery *d);

#endif
