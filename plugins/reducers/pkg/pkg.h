/*
 * The package-manager reducers (apt/apt-get, apt list, npm/yarn/pnpm,
 * pip, dpkg -l) and the few helpers they share.  Each reducer is a pure function of
 * its input; see struct aiterm_reducer in aiterm/plugin.h.
 */
#ifndef AITERM_RED_PKG_H
#define AITERM_RED_PKG_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"
#include "redlib.h"

/* A kind of line a reducer drops, and how many it dropped. */
struct pk_drop {
	const char	*what;	/* "unpack lines" */
	size_t		 n;
};

/* l starts with one of the NULL-terminated prefixes. */
bool	pk_starts_any(const struct rl_line *l, const char *const *prefixes);
/*
 * Append "(+3 progress lines, +21 unpack lines)" for the kinds that
 * dropped something; returns the number of lines dropped.
 */
size_t	pk_put_drops(const struct aiterm_host *h, struct aiterm_buf *out,
	    const struct pk_drop *d, size_t n);

int	red_apt(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_npm(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_pip(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_apt_list(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_dpkg_list(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);

#endif
