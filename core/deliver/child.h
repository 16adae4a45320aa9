/*
 * A child agent answers one parent at a time (DLV-CORE): while a delivery
 * of one parent waits for a child's turn, another parent's text is not
 * sent to that child, whatever the parents' kinds (Claude Code, Codex,
 * Cursor, a waiter's client) and whichever server holds the record.
 * The same parent (kind and conversation) may send again: that joins or
 * follows its own turn.  A child on another host (a relayed dispatch) is
 * known by its host's hash before its session (delivery_child_key): a
 * session here and one there of the same name never block each other.
 */
#ifndef AITERM_DELIVER_CHILD_H
#define AITERM_DELIVER_CHILD_H

#include "deliver/store.h"

/* A child's key: a host's hash, '-', a session id. */
#define CHILD_KEY_MAX	(16 + 1 + SESSION_ID_MAX + 1)

/*
 * Check that session (on host; NULL: here) owes no answer to another
 * parent than d's, holding child-<key>.lock (in parent-deliveries/, or
 * remote-parent-deliveries/ for another host's child) so that no other
 * server checks it at the same time: the returned fd, to be closed once
 * d's own record is written.  -2 with err: CHILD_CLAIMED (another
 * parent's delivery is waiting) or CHILD_CLAIM_BUSY (another server is
 * checking); -1 with err when the folder cannot be used (no record can be
 * kept).
 */
int	child_claim(const char *host, const char *session,
	    const struct delivery *d, struct aiterm_error *err);

#endif
