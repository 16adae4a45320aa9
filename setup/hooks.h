/*
 * Parent hooks (SET-HOOKS): Aiterm's entries in a client's user hook
 * file, each running aiterm-hook with a verb.  Claude Code
 * (~/.claude/settings.json): PreToolUse, PostToolUse (asyncRewake) and
 * SessionEnd (DLV-CLAUDE), as argv arrays run without a shell.  Cursor (~/.cursor/hooks.json, version 1):
 * afterMCPExecution and postToolUse (DLV-CURSOR).  Codex
 * ($CODEX_HOME/hooks.json): PostToolUse and Stop, synchronous, for
 * Steer (DLV-CODEX, setup/steer.h).  Everyone else's
 * hooks, and their order, stay; ours are known by their command running
 * aiterm-hook with one of our verbs.
 */
#ifndef AITERM_SETUP_HOOKS_H
#define AITERM_SETUP_HOOKS_H

#include <stdbool.h>

#include "setup.h"

/*
 * The oldest Claude Code the parent hooks are installed for: the seed's
 * 2.1.259 (tests run 2.1.332).  Its hooks are written in the argv form
 * ("command" and "args", no shell), which 2.1.197 already had.
 */
#define CLAUDE_HOOKS_MIN	"2.1.259"

/* Codex's Steer hooks: seconds each may take (starting the app-server). */
#define CODEX_HOOK_TIMEOUT_S	60

enum hookset { HOOKS_CLAUDE, HOOKS_CURSOR, HOOKS_CODEX };

/* The set's hook file ($CODEX_HOME/hooks.json ...), allocated. */
char	*hooks_file(enum hookset set);

/*
 * Install (or find in place) the set's hooks; *note for o's message.
 * version: the client's, checked against the set's minimum (may be NULL
 * for a set without one).
 */
int	hooks_install(enum hookset set, const char *version, bool dry,
	    struct setup_outcome *o, char **note);
/* Take out only Aiterm's entries; *removed says whether there were any. */
int	hooks_remove(enum hookset set, bool dry, struct setup_outcome *o,
	    bool *removed);

#endif
