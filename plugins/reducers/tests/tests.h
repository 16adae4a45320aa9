/*
 * The test-runner reducers (pytest, cargo test, jest, vitest, node --test,
 * and the stack traces of scripts: trace)
 * and the few helpers they share.  Each reducer is a pure function of its
 * input; see struct aiterm_reducer in aiterm/plugin.h.
 */
#ifndef AITERM_RED_TESTS_H
#define AITERM_RED_TESTS_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"
#include "redlib.h"

/*
 * A line of a code frame as jest, vitest and rustc print them, trimmed:
 * "32 |  code", "> 34 |  code", "5| code" or "|   ^".
 */
bool	tx_code_frame(struct rl_line t);

int	red_pytest(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_cargo_test(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_jest(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_vitest(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_node_test(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_trace(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);

#endif
