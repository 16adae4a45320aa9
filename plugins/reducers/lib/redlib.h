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
/* Byte order of two lines, a line before the longer ones it begins. */
int	rl_cmp(const struct rl_line *a, const struct rl_line *b);

/* Append the line and an LF. */
void	rl_put(const struct aiterm_host *h, struct aiterm_buf *out,
	    const struct rl_line *l);
/* Append the line with runs of two or more blanks squeezed to two. */
void	rl_put_squeezed(const struct aiterm_host *h, struct aiterm_buf *out,
	    const struct rl_line *l);

/*
 * Words packed several to a line, two blanks apart (or sep, for words
 * that hold no blank), a line going on to the next once it would pass
 * width columns: rl_pack_add each, then rl_pack_end.  lines counts the
 * lines written.
 */
struct rl_pack {
	const struct aiterm_host	*h;
	struct aiterm_buf		*out;
	size_t				 width;
	size_t				 col;	/* of the line being written */
	size_t				 lines;
	const char			*sep;	/* NULL: two blanks */
};

/* Append p[0..len) and then suffix ("/", or "") as one word. */
void	rl_pack_add(struct rl_pack *pk, const char *p, size_t len,
	    const char *suffix);
/* End the line being written, if any. */
void	rl_pack_end(struct rl_pack *pk);

/* The lines of a text, split once so that a reducer can look ahead. */
struct rl_lines {
	struct rl_line	*v;
	size_t		 n;
};

/* Split in->text into lines; false when out of memory. */
bool	rl_split(const struct aiterm_reduce_input *in, struct rl_lines *t);
void	rl_lines_free(struct rl_lines *t);

/* The line budget of a reducer: in->max_lines, or 120 when it is 0. */
size_t	rl_budget(const struct aiterm_reduce_input *in);
/* The byte budget of a reducer: in->max_bytes, or no limit when it is 0. */
size_t	rl_max_bytes(const struct aiterm_reduce_input *in);
/* The line without its first skip bytes (all of them when shorter). */
struct rl_line rl_from(struct rl_line l, size_t skip);

/*
 * A decimal number at *p (before end), moved past; false when there is
 * none or it does not fit a size_t.
 */
bool	rl_number(const char **p, const char *end, size_t *n);

/*
 * Whether an option word is present in argv (exactly, or as a prefix
 * ending in '=' when opt ends in '=').
 */
bool	rl_has_opt(const char *const *argv, const char *opt);

/* The extension of a path's name (".png"), empty when it has none. */
struct rl_line rl_ext(struct rl_line path);
/*
 * Which of the paths v[0..n) are alone of their kind: an extension no
 * other path has.  Allocated (free), NULL when out of memory.
 */
bool	*rl_alone(const struct rl_line *v, size_t n);
/*
 * One line naming whole, up to RL_ALONE_MAX, the v[i] of [lo, hi) that
 * alone (from rl_alone; may be NULL) marks; nothing when none is.
 */
#define RL_ALONE_MAX	8
void	rl_put_alone(const struct aiterm_host *h, struct aiterm_buf *out,
	    const struct rl_line *v, const bool *alone, size_t lo, size_t hi);

/* Part of a listing: its items [lo, hi) written to out. */
typedef void rl_render_fn(const struct aiterm_host *h,
	    struct aiterm_buf *out, size_t lo, size_t hi, void *arg);

/*
 * A listing's n items within max_bytes and max_lines: all of them when
 * they fit; else its first items (about three fifths of the room), what
 * mid writes of those left out, [a, b), and its last items.  When what
 * fits is less than one in RL_FIT_SHARE of the items, a few more of them
 * would not change what the reader can do: only the first few_head and
 * the last few_tail go, with mid between.  Returns 1 when every item
 * went, 0 when some were left out, -1 when not even that fits (out is
 * then untouched).
 */
#define RL_FIT_SHARE	4
int	rl_fit_ends(const struct aiterm_host *h, struct aiterm_buf *out,
	    size_t n, size_t max_bytes, size_t max_lines, size_t few_head,
	    size_t few_tail, rl_render_fn *items, rl_render_fn *mid,
	    void *arg);

/*
 * The one exported symbol of a reducer family: its name, version and
 * reducer table (ended by a NULL name), e.g.
 *
 *	RL_PLUGIN("reducers-git", "0.1.0", reducers)
 */
#define RL_PLUGIN(plugin_name, plugin_version, table)			\
	static const struct aiterm_reducer_ops rl_ops = {		\
		.reducers = (table),					\
	};								\
	static const struct aiterm_plugin rl_plugin = {			\
		.abi_major = AITERM_ABI_MAJOR,				\
		.abi_minor = AITERM_ABI_MINOR,				\
		.kind = AITERM_KIND_REDUCER,				\
		.name = (plugin_name),					\
		.version = (plugin_version),				\
		.ops = &rl_ops,						\
	};								\
	const struct aiterm_plugin *					\
	aiterm_plugin_describe(void)					\
	{								\
		return &rl_plugin;					\
	}

#endif
