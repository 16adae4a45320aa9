/*
 * --codex-steer enable|disable|status (SET-HOOKS, DLV-CODEX, ADR 0016):
 * Aiterm's synchronous PostToolUse and Stop hooks in $CODEX_HOME/
 * hooks.json, approved through the official `codex app-server`
 * (hooks/list for their keys and hashes, config/batchWrite under
 * hooks.state, read back), never with an approval-skipping flag.  What
 * was there before (the file's bytes, the approvals at our keys) is kept
 * in <state root>/setup/codex-steer.json, per Codex home, and disable
 * puts it back.  Codex processes of that home older than the change are
 * saved by pid and start identity: restart_required (exit 3) until they
 * end.
 */
#ifndef AITERM_SETUP_STEER_H
#define AITERM_SETUP_STEER_H

#include "report.h"

/* Exit status while an older Codex process still runs. */
#define STEER_EXIT_RESTART	3

/* Run mode ("enable", "disable", "status"); its exit status. */
int	steer_run(const char *mode, struct report *rep);

#endif
