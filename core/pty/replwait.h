/*
 * Before text is typed into a REPL (issue 34): wait, briefly, for the
 * REPL to be back at its prompt.
 */
#ifndef AITERM_PTY_REPLWAIT_H
#define AITERM_PTY_REPLWAIT_H

#include <stdbool.h>

/*
 * When the foreground program of the terminal of pane_pid is a REPL whose
 * prompts are known (python3, node, sqlite3, psql, mysql/mariadb,
 * ipython), wait until the last line of log (the session's output) is
 * its prompt, at most REPLWAIT_MS.  True when it is (or was at once).
 * Blocks: call it on the multiplexer's thread.
 */
#define REPLWAIT_MS	500

bool	repl_wait_prompt(long pane_pid, const char *log);

#endif
