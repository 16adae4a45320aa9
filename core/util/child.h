/*
 * Running a program to its end without blocking the loop: its output
 * collected, a deadline that kills it.  The harness probe (its version)
 * and the model catalog of a launch run this way.
 */
#ifndef AITERM_UTIL_CHILD_H
#define AITERM_UTIL_CHILD_H

#include <stdbool.h>
#include <stddef.h>

struct child_result {
	/* Its exit status; -1 when it did not start or was killed. */
	int		 status;
	int		 term_signal;
	bool		 timed_out;
	/* Why it did not start (libuv's words), or NULL. */
	const char	*start_error;
	/* Its standard output and error, each NUL-ended, at most out_max. */
	const char	*out, *errout;
	size_t		 out_len, errout_len;
};

/* r is borrowed for the call. */
typedef void (*child_cb)(void *arg, const struct child_result *r);

/*
 * Runs argv[0] (a path, no shell) with argv in cwd (NULL: ours), stdin
 * closed; after deadline_ms it is killed.  cb is called once, later,
 * from the loop.
 */
void	child_run(const char *const argv[], const char *cwd,
	    unsigned deadline_ms, size_t out_max, child_cb cb, void *arg);

#endif
