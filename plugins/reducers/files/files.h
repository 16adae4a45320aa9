/*
 * The file-listing reducers (grep and rg, find, ls -l, tree, du) and the few
 * helpers they share.  Each reducer is a pure function of its input; see
 * struct aiterm_reducer in aiterm/plugin.h.
 */
#ifndef AITERM_RED_FILES_H
#define AITERM_RED_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"
#include "redlib.h"

/* Append l with blanks at its start gone and blank runs made one space. */
void	fl_put_tight(const struct aiterm_host *h, struct aiterm_buf *out,
	    struct rl_line l);

/*
 * A size as ls and du print it ("4509715660", or -h's "4.0K", "1.7M"), in
 * the same unit times 1024 per letter; false when it is not one.
 */
bool	fl_size(const char *p, size_t n, double *v);

/*
 * Add item i of size v to the ntop largest kept in size and top (arrays
 * of max + 1, largest first; the one past max falls off); the new count.
 */
size_t	fl_top_add(double *size, size_t *top, size_t ntop, size_t max,
	    double v, size_t i);

/* Whether argv holds a short option letter c ("-rn" holds 'n'). */
bool	fl_has_short(const char *const *argv, char c);

int	red_grep(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_find(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_ls(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_tree(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_du(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_tar(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);
int	red_json(const struct aiterm_host *, const struct aiterm_reduce_input *,
	    struct aiterm_buf *);

#endif
