/*
 * Running a program for setup: argv, no shell, stdout and stderr
 * captured, a deadline after which it is killed (the PID we started).
 */
#ifndef AITERM_SETUP_RUN_H
#define AITERM_SETUP_RUN_H

#include <stdbool.h>

#include "util/buf.h"

struct run_result {
	int			 status;	/* exit status, 128+signal, -1 */
	bool			 timed_out;
	struct aiterm_buf	 out, err;
};

/* Run argv[0] (searched in PATH); 0 when it ran (whatever its status). */
int	run_cmd(char *const argv[], int timeout_ms, struct run_result *r);
void	run_result_free(struct run_result *r);
/* The first line of s, at most max bytes, allocated ("" if none). */
char	*run_first_line(const char *s, size_t max);
/* Its stderr's last non-blank line, else stdout's: for messages. */
char	*run_excerpt(const struct run_result *r);

#endif
