/* aiterm-hook's verbs that are not Claude Code hooks. */
#ifndef AITERM_HOOK_H
#define AITERM_HOOK_H

#include <jansson.h>

/*
 * Where the hooks and the receiver plugins (plugins/harness-claude and
 * harness-cursor, receiver.c) meet under the state root: the same names
 * on both sides (ADR 0015, ADR 0017).
 */
#define CLAUDE_HOOKS_DIR	"claude-parent-hooks"
#define CURSOR_HOOKS_DIR	"cursor-parent-hooks"

int	hook_codex_queue(const char *id);
int	hook_cursor_after(json_t *in);
int	hook_cursor_post(json_t *in);

#endif
