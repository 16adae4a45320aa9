/*
 * Codex parents (DLV-CODEX, ADR 0016).  The destination is the thread of
 * the call, from the request's _meta (Codex 0.171 sends it as
 * x-codex-turn-metadata.thread_id; threadId is read too), never from an
 * argument the model typed or the environment.  Once the answer is
 * ready, the server starts `aiterm-hook codex-queue` for it, which hands
 * it to Codex's own queue (thread/queue/add through `codex app-server` of
 * the same CODEX_HOME).
 */
#ifndef AITERM_DELIVER_CODEX_H
#define AITERM_DELIVER_CODEX_H

#include <stdbool.h>
#include <stddef.h>

#include "deliver/store.h"
#include "tools/tool.h"

/* A call from a Codex parent: the thread into d (and its CODEX_HOME). */
bool	codex_parent_of(struct tool_call *call, struct delivery *d);
/* Start the receiver for a ready delivery (not waited for). */
void	codex_parent_deliver(const struct delivery *d);

#endif
