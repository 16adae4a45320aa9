/*
 * Call traces (strace without -c, ltrace): the calls that failed or
 * returned an error value, the calls that carry the program's own
 * messages or shape its processes, and every line that is not a call
 * (the program's output between the calls, "+++ exited", "--- SIGCHLD")
 * stay as they are; each run of other calls becomes one line counting
 * them by name.  A tracer says what failing means and which calls always
 * stay.
 */
#ifndef AITERM_RED_TRACE_CALLS_H
#define AITERM_RED_TRACE_CALLS_H

#include "trace.h"

struct tr_calls {
	/* The call (pid prefix gone) failed, given its name and result. */
	bool		(*failed)(struct rl_line call, struct rl_line name,
			    struct rl_line ret);
	const char *const *keep;	/* call prefixes that always stay */
};

/*
 * A group of lines already folded by the tracer (strace's loader runs):
 * group[i] is 0, or k for the k-th group, whose first line is replaced by
 * what[k - 1] (a whole line, LF included).
 */
struct tr_groups {
	const size_t	*group;
	char *const	*what;
};

/* "[pid 123] " at the start of l (len 0 when none). */
struct rl_line	tr_pid_prefix(struct rl_line l);
/* The call's name ("openat", "SYS_open"), len 0 when l is no call. */
struct rl_line	tr_call_name(struct rl_line call);

/*
 * Whether the tracer's own options (those before the traced command)
 * ask for its summary table (-c, -C, --summary-only ...): vals are the
 * one-letter options that take a value ("aeEIoOpPsSuUX").
 */
bool	tr_summary_asked(const char *const *argv, const char *vals);

int	tr_calls_reduce(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *,
	    const struct rl_lines *, const struct tr_calls *,
	    const struct tr_groups *);

#endif
