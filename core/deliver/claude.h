/*
 * Claude Code parents (DLV-CLAUDE, ADR 0015).  Aiterm's user-settings
 * hooks (aiterm-hook, installed by aiterm-setup) meet the server in the
 * state root, under claude-parent-hooks/:
 *
 *   <tool_use_id>.pre.json   PreToolUse: the conversation (session_id),
 *                            agent_id when a sub-agent called
 *   <tool_use_id>.delivery   the server: the delivery that call made
 *   ended-<session_id>       SessionEnd: that conversation is over
 *
 * The server knows the tool_use_id from the request's
 * _meta["claudecode/toolUseId"]; the PostToolUse hook (asyncRewake)
 * waits for the delivery, prints the answer on stderr and exits 2, which
 * wakes the parent.
 */
#ifndef AITERM_DELIVER_CLAUDE_H
#define AITERM_DELIVER_CLAUDE_H

#include <stdbool.h>
#include <stddef.h>

#include "deliver/store.h"
#include "tools/tool.h"

#define CLAUDE_HOOKS_DIR	"claude-parent-hooks"

bool	claude_ref_valid(const char *ref);
/* A call from a Claude Code parent: its tool_use_id into ref. */
bool	claude_parent_of(struct tool_call *call, char *ref, size_t size);
/*
 * The PreToolUse hook saw this call: the conversation into d; else -1
 * and err says CLAUDE_PARENT_HOOK_UNAVAILABLE (or SUBAGENT_UNSUPPORTED).
 */
int	claude_parent_prepare(const char *ref, struct delivery *d,
	    struct aiterm_error *err);
/* The call's delivery, for the PostToolUse hook. */
int	claude_parent_link(const struct delivery *d, struct aiterm_error *err);

#endif
