/*
 * The supervisor of one one-shot CLI run in child mode (SUP-RUN, ADR
 * 0023): spawn it in a process group of its own with stdout and stderr on
 * pipes (stdin from /dev/null, or a pipe with the prompt), keep every byte in the run's folder, end
 * it at the overall timeout or when it has been silent for the no-output
 * timeout, and end its whole tree: TERM to the group and to every
 * descendant, KILL to what is left after the grace period.  The run is
 * over when the child has exited and no process of its tree is left.
 */
#ifndef AITERM_RUN_SUPERVISOR_H
#define AITERM_RUN_SUPERVISOR_H

#include <stdbool.h>
#include <uv.h>

#include "cli/run/record.h"

#define RUN_DEFAULT_TIMEOUT_MS	300000LL
#define RUN_DEFAULT_GRACE_MS	2000LL

struct run_options {
	const char		*backend;	/* "generic" */
	const char		*scope;		/* NULL: none */
	const char *const	*argv;		/* NULL-terminated */
	const char		*cwd;		/* NULL: ours */
	const char		*input;		/* stdin text; NULL: /dev/null */
	const char		*session_id;	/* for the record; NULL none */
	long long		 timeout_ms;
	long long		 no_output_timeout_ms;
	long long		 grace_ms;	/* TERM, then KILL after this */
	bool			 passthrough;	/* copy output to ours */
	bool			 keep_stdout;	/* its stdout only kept (parsed) */
	bool			 pty;		/* PTY mode: run/pty.h */
	unsigned		 cols, rows;	/* PTY mode */
};

/*
 * Run to the end on loop (which must have nothing else to do) and fill
 * rec (the caller frees it with run_record_free).  0 when the run was
 * recorded (whatever its outcome), -1 with err when it could not be.
 * SIGINT, SIGTERM and SIGHUP end the run (manual-cancel, or replaced when
 * a newer run of the scope asked); *signum says which came.
 */
int	run_supervise(uv_loop_t *loop, const struct run_options *o,
	    struct run_record *rec, int *signum, struct aiterm_error *err);

#endif
