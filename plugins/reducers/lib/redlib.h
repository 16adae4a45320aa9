/*
 * Text helpers for command reducers.  Pure functions over the stripped
 * output (LF lines, UTF-8); output goes through the host's buffer
 * functions.  Only the plugin ABI header is used: no core internals.
 */
#ifndef AITERM_REDLIB_H
#define AITERM_REDLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"

/* One line of a text, without its LF. */
struct rl_line {
	const char	*p;
	size_t		 len;
};

/* The line at *pos, advancing *pos; false at the end of the text. */
bool	rl_next(const char *text, size_t len, size_t *pos, struct rl_line *l);
/* The number of lines ("a\nb\n" and "a\nb" both have two). */
size_t	rl_count(const char *text, size_t len);

bool	rl_starts(const struct rl_line *l, const char *prefix);
bool	rl_ends(const struct rl_line *l, const char *suffix);
bool	rl_has(const struct rl_line *l, const char *needle);
/* The line without leading and trailing blanks (spaces, tabs). */
struct rl_line rl_trim(struct rl_line l);
bool	rl_blank(const struct rl_line *l);
/* The line equals s exactly. */
bool	rl_eq(const struct rl_line *l, const char *s);

/* Append the line and an LF. */
void	rl_put(const struct aiterm_host *h, struct aiterm_buf *out,
	    const struct rl_line *l);
/* Append the line with runs of two or more blanks squeezed to two. */
void	rl_put_squeezed(const struct aiterm_host *h, struct aiterm_buf *out,
	    const struct rl_line *l);

/*
 * The argv helpers: the first word after argv[0] that is not an option
 * ("status" in "git -c x=y status -s" is not found: -c takes a value, and
 * reducers that care look for themselves), and whether an option word is
 * present (exactly, or as a prefix ending in '=' when opt ends in '=').
 */
const char *rl_subcommand(const char *const *argv);
bool	rl_has_opt(const char *const *argv, const char *opt);

#endif
