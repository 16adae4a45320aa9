/*
 * RED-REPEAT: runs of repeated lines collapse.
 *
 * A run of identical lines becomes its first line and a marker naming the
 * log lines of the repeats (the lines after the first):
 *
 *	  [… same line repeated N more times (lines A-B)]
 *
 * A run of lines that differ only in numbers (timestamps, counters, ids,
 * hex addresses, PIDs, durations: every run of hex digits that holds a
 * decimal digit compares equal to any other) keeps its first and its last
 * line with a marker between them that names the log lines left out and
 * how to read them back:
 *
 *	  [… N similar lines (lines A-B); pty_read line_range=[A,B]]
 *	  [… 1 similar line (line A); pty_read line_range=[A,A]]
 *
 * A and B are line numbers of the session's raw log (1-based, what
 * pty_read line_range reads; see struct red_lineno): the first and the
 * last source line behind the marker.  When the caller dropped lines from
 * the text (prompts, echoes), B - A + 1 may exceed N; the range still
 * covers exactly the lines folded, and the dropped ones between them.
 *
 * A line that carries a failure word (error, fail, warn, fatal, panic,
 * denied, refused, exception, traceback, exit, killed, timeout and a few
 * more, in any case) only joins a run of lines identical to it: the one
 * backup of three that exited with 1 is not hidden between two that
 * exited with 0.  A run collapses only when it has three lines or more and
 * the result, marker included, is shorter than the run, so the output is
 * never longer than the input.  Whether the text ends with a LF is kept.
 */
#ifndef AITERM_REDUCE_REPEAT_H
#define AITERM_REDUCE_REPEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reduce/lines.h"
#include "util/buf.h"

/*
 * Append to out the text in (len bytes) with its runs collapsed; the
 * markers number its lines from 1.
 */
void	red_repeat(const char *in, size_t len, struct aiterm_buf *out);

/*
 * The same, with the markers numbering the lines of in by ln (NULL: from
 * 1; else valid for every line of in, see red_lineno_init), and filling
 * map (may be NULL; emptied first) with the source lines each output line
 * stands for.
 */
void	red_repeat_map(const char *in, size_t len, const struct red_lineno *ln,
	    struct aiterm_buf *out, struct red_linemap *map);

/*
 * The same, in place: text gets shorter or stays as it is.  For the large
 * logs of the pipeline, which then needs no second buffer.  A text of
 * split bytes or more is folded by two threads (ADR 0047; 0: where
 * red_split_at says, SIZE_MAX: one thread); the result is the same.
 */
void	red_repeat_inplace(struct aiterm_buf *text, const struct red_lineno *ln,
	    struct red_linemap *map, size_t split);

/* True when the line holds a failure word (see above). */
bool	red_line_alarming(const char *p, size_t len);

/*
 * The same for many lines: the failure words indexed once by their first
 * three letters, so that the scan compares words only where those match.
 */
struct red_alarm {
	uint8_t		 letter[256];	/* byte -> 1 + letter index, or 0 */
	uint32_t	 bit[256];	/* byte -> its letter's bit, or 0 */
	uint32_t	 third[27][27];	/* two letters -> the third ones */
	/* A letter -> the letters after it at offset 0, 1 or 2 of a word. */
	uint32_t	 pair[27];
};

void	red_alarm_init(struct red_alarm *a);
bool	red_alarm_match(const struct red_alarm *a, const char *p, size_t len);

/*
 * True when two lines are equal once every run of hex digits that holds a
 * decimal digit is taken as one placeholder.
 */
bool	red_line_similar(const char *a, size_t alen, const char *b,
	    size_t blen);

#endif
