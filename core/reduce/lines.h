/*
 * Lines of reduced text, the map from the lines a stage wrote back to the
 * lines it read, so that a later stage can name the source lines it leaves
 * out, and the numbers those lines have in the session's log.
 *
 * A text is split at LF.  A final LF ends the last line; it does not start
 * an empty one, so "a\nb\n" and "a\nb" both hold two lines.
 */
#ifndef AITERM_REDUCE_LINES_H
#define AITERM_REDUCE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct red_line {
	const char	*p;
	size_t		 len;	/* without the LF */
	bool		 nl;	/* an LF ends it */
};

/* The line at *pos of in, advancing *pos; false at the end. */
static inline bool
red_line_next(const char *in, size_t len, size_t *pos, struct red_line *l)
{
	const char *nl;

	if (*pos >= len)
		return false;
	l->p = in + *pos;
	nl = memchr(l->p, '\n', len - *pos);
	l->len = nl != NULL ? (size_t)(nl - l->p) : len - *pos;
	l->nl = nl != NULL;
	*pos += l->len + (l->nl ? 1 : 0);
	return true;
}

/*
 * A text of this many bytes or more is read by two threads in the passes
 * that can be cut at a line (ADR 0046, 0047): strip, repeats and the
 * shapes of head and tail.  Measured on 2 cores (doc/reducers.md): at 64
 * KiB two threads take as long as one, at 128 KiB a fifth less.
 */
#define RED_SPLIT	((size_t)256 << 10)

/*
 * The size a pass splits at: split, or for 0 RED_SPLIT where more than
 * one CPU is there to run the second thread, else SIZE_MAX (never).
 */
size_t	red_split_at(size_t split);

/*
 * Where a text of len bytes is cut for two threads: the start of the
 * first line that begins past its middle; 0 when none does.
 */
size_t	red_line_past_middle(const char *in, size_t len);

/* The number of lines in a text. */
size_t	red_line_count(const char *in, size_t len);

/*
 * For each output line k, start[k] is the index of the first source line
 * it stands for; it stands for the lines up to the next one's start (the
 * last up to total).  A marker that replaced lines stands for all of them.
 */
struct red_linemap {
	size_t	*start;
	size_t	 n;		/* output lines */
	size_t	 cap;
	size_t	 total;		/* source lines */
};

#define RED_LINEMAP_INIT { NULL, 0, 0, 0 }

void	red_linemap_push(struct red_linemap *m, size_t start);
/* The first and the last source line of output line k. */
size_t	red_linemap_first(const struct red_linemap *m, size_t k);
size_t	red_linemap_last(const struct red_linemap *m, size_t k);
void	red_linemap_free(struct red_linemap *m);

/*
 * The numbers the lines of a text have in the session's raw log: 1-based
 * and LF-separated, the numbers pty_read line_range reads.  Line i of the
 * text (0-based) is log line line_of[i] when line_of is not NULL, else
 * base + i + 1.  The text is the one the pipeline strips; the caller may
 * have dropped lines from it (prompts, echoes), which line_of accounts for.
 */
struct red_lineno {
	const unsigned long long *line_of;
	unsigned long long	 base;
};

/*
 * Number the nlines lines of a text: by line_of when it has exactly
 * nline_of == nlines entries, else from base.
 */
void	red_lineno_init(struct red_lineno *ln, unsigned long long base,
	    const unsigned long long *line_of, size_t nline_of, size_t nlines);

/* The log line number of line i of the text (0-based, i < nlines). */
static inline unsigned long long
red_lineno_at(const struct red_lineno *ln, size_t i)
{
	return ln->line_of != NULL ? ln->line_of[i] :
	    ln->base + (unsigned long long)i + 1;
}

#endif
