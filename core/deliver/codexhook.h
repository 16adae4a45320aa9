/*
 * Codex Steer hand-overs (DLV-CODEX, ADR 0016): which hook took an
 * answer out of the Codex thread's queue and into the running turn.
 * One record per Codex home, thread, delivery id and body hash, in a
 * private folder (<state root>/codex-hooks/, 0700):
 *
 *   <id>.<sha256(home):16>.<thread>.<sha256(body):16>
 *
 * created by an exclusive hard link of a file the hook wrote first, so
 * of hooks racing for one answer exactly one has it.  It holds the
 * hook's pid and start identity and the state of its hand-over:
 *
 *   removing     the hook asks Codex to take it out of the queue
 *   emitted      Codex said deleted: true and the hook's output was
 *                written whole (to Codex, not read by the model yet)
 *   queued       Codex said deleted: false (the queue ran it itself)
 *   unknown      the removal's answer or the output was cut: whether
 *                the model got it cannot be told; the body stays, never
 *                resent
 *
 * A record left "removing" by a hook that is gone reads as unknown.
 */
#ifndef AITERM_DELIVER_CODEXHOOK_H
#define AITERM_DELIVER_CODEXHOOK_H

#include <jansson.h>
#include <stdbool.h>

#include "deliver/store.h"
#include "util/error.h"

/* parent_deliveries' word for a Steer hand-over nobody can confirm. */
#define CODEX_HOOK_UNCONFIRMED	"CODEX_HOOK_DELIVERY_UNCONFIRMED"

enum codexhook_state {
	CODEXHOOK_REMOVING,
	CODEXHOOK_EMITTED,
	CODEXHOOK_QUEUED,
	CODEXHOOK_UNKNOWN,
	CODEXHOOK_STATE_COUNT
};

/* Whether a hook already holds d (any record of its id). */
bool	 codexhook_held(const struct delivery *d);
/*
 * Take d (its body body/len) for this process, state removing: 0 and
 * *path the record (allocated), 1 another hook has it, -1 with err.
 */
int	 codexhook_take(const struct delivery *d, const char *body,
	    size_t len, char **path, struct aiterm_error *err);
/* The record at path says state now (why: a word, or NULL). */
int	 codexhook_set(const char *path, enum codexhook_state state,
	    const char *why, struct aiterm_error *err);
/*
 * d's record as a reader sees it ({state, pid, ...}; a removing one whose
 * hook is gone says unknown), or NULL when no hook took d.
 */
json_t	*codexhook_seen(const struct delivery *d);

#endif
