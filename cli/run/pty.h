/*
 * PTY mode of a run (SUP-RUN, ADR 0023): the command on a new
 * pseudo-terminal that is its controlling terminal, in a session and
 * process group of its own, so a CLI that wants a terminal (colours,
 * line editing, isatty) gets one.  Output is the terminal's, one stream.
 */
#ifndef AITERM_RUN_PTY_H
#define AITERM_RUN_PTY_H

#include "util/error.h"

/*
 * Start argv (PATH searched) in cwd (NULL: ours) on a new terminal of
 * cols x rows.  Fills the master side (close-on-exec) and the PID; -1
 * with err when the terminal cannot be made or the program not started
 * (*exec_errno then says why, else 0).
 */
int	run_pty_spawn(const char *const *argv, const char *cwd, unsigned cols,
	    unsigned rows, int *master, long *pid, int *exec_errno,
	    struct aiterm_error *err);

#endif
