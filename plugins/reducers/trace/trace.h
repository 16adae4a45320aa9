/*
 * The trace reducers: valgrind's race and memory reports (helgrind, drd,
 * memcheck), call traces (strace without -c, ltrace) and packet dumps
 * (tcpdump).  Each keeps what an engineer acts on (each distinct report
 * with its frames in the program's own files, the calls that failed and
 * the program's own messages, resets and HTTP request and status lines)
 * and folds the ordinary rest into counts (issue 35).  Each reducer is a
 * pure function of its input; see struct aiterm_reducer in
 * aiterm/plugin.h.
 */
#ifndef AITERM_RED_TRACE_H
#define AITERM_RED_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"
#include "redlib.h"

int	red_valgrind(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_strace(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_ltrace(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_tcpdump(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);

/*
 * Counts of names in a run of folded lines ("read 300, access 12"): the
 * most frequent first, every name (up to TR_TALLY_MAX), the rest as "N
 * other".
 */
#define TR_TALLY_MAX	64

struct tr_tally {
	struct {
		const char	*p;
		size_t		 len, n;
		unsigned long long key;
	}		 v[TR_TALLY_MAX];
	size_t		 nv, other, total;
};

void	tr_tally_add(struct tr_tally *, const char *, size_t);
/* Counted as alike by key (not 0), the first one's text shown. */
void	tr_tally_add_key(struct tr_tally *, const char *, size_t,
	    unsigned long long);
/* " a 3, b 2, 4 other": the counts alone. */
void	tr_tally_list(const struct aiterm_host *, struct aiterm_buf *,
	    const struct tr_tally *);
/* "[… N what: a 3, b 2, 4 other]\n" with prefix, then the tally reset. */
void	tr_tally_put(const struct aiterm_host *, struct aiterm_buf *,
	    struct tr_tally *, const char *prefix, const char *what);

/*
 * The shape of a line as the core's faithfulness check sees it
 * (doc/reducers.md): blank runs as one blank, each run of hex digits
 * that holds a decimal digit as one '#', a path's file name as one '*'.
 */
unsigned long long tr_shape(const char *p, size_t len);

/* How often each shape occurs in a text (an open hash table). */
struct tr_shapes {
	unsigned long long	*key;
	size_t			*n;
	size_t			 cap, lines, shared;
};

bool	tr_shapes_count(struct tr_shapes *, const struct rl_lines *);
size_t	tr_shapes_get(const struct tr_shapes *, unsigned long long);
/* Three in four of the text's lines share their shape with another. */
bool	tr_shapes_patterned(const struct tr_shapes *);
void	tr_shapes_free(struct tr_shapes *);

#endif
