/*
 * Claude Code parent hooks (SET-HOOKS, DLV-CLAUDE): Aiterm's
 * PreToolUse, PostToolUse (asyncRewake) and SessionEnd entries in the
 * user's Claude settings (~/.claude/settings.json), each running
 * aiterm-hook.  Everyone else's hooks, and their order, stay; ours are
 * known by their command (aiterm-hook with a claude- verb).
 */
#ifndef AITERM_SETUP_HOOKS_H
#define AITERM_SETUP_HOOKS_H

#include <stdbool.h>

#include "setup.h"

/* The oldest Claude Code whose asyncRewake hook was seen to work here. */
#define CLAUDE_HOOKS_MIN	"2.1.197"

/* Install (or find in place) the hooks; a note for o's message. */
int	claude_hooks_install(const char *version, bool dry,
	    struct setup_outcome *o, char **note);
/* Take out only Aiterm's entries; *removed says whether there were any. */
int	claude_hooks_remove(bool dry, struct setup_outcome *o, bool *removed);

#endif
