/*
 * Where Claude Code's hooks (aiterm-hook-claude, hook.c) and
 * receiver-claude (receiver.c) meet under the state root (ADR 0015): the
 * same name on both sides.
 */
#ifndef AITERM_HARNESS_CLAUDE_PARENT_HOOKS_H
#define AITERM_HARNESS_CLAUDE_PARENT_HOOKS_H

#define CLAUDE_HOOKS_DIR	"claude-parent-hooks"

#endif
