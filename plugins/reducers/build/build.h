/*
 * The build reducers (make, C/C++ and rustc diagnostics, tsc) and the
 * few helpers they share.  Each reducer is a pure function of its input;
 * see struct aiterm_reducer in aiterm/plugin.h.
 */
#ifndef AITERM_RED_BUILD_H
#define AITERM_RED_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"
#include "redlib.h"

int	red_cc_diag(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_tsc(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_rustc(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);

#endif
