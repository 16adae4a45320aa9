/*
 * RED-HEADTAIL: long output keeps its head and its tail, with one marker
 * line saying how many lines were left out and how to read them:
 *
 *	[… 1234 lines omitted (lines 41-1274); read them with pty_read
 *	line_range=[41,1274] or full=true]
 *
 * (one line).  Every line number shown, there and before the failure
 * lines below, is a line of the session's raw log (1-based, LF-separated:
 * what pty_read line_range reads), given by line_of or base_line (see
 * struct red_headtail_opts).  The count is of the lines of the text that
 * the marker stands for; when the caller dropped lines from the text, the
 * range also spans those.
 *
 * RED-FAITHFUL: lines of the omitted range that a person navigates by
 * (diff and hunk headers, conflict markers), that are outliers of the
 * whole text or rare with a failure word (see reduce/shape.h), or that
 * carry a failure word (see red_line_alarming; the first line of each
 * shape before the others) are not hidden.  Up to max_lines / 4 of them follow the marker, each after its
 * line number ("409: ERROR ..."), and the marker says so ("..., except 3
 * distinct or failure lines shown below with their line numbers; ...").
 * When there are more, the rare ones go first, the first and the last of
 * each kind are shown, and the marker gives the count ("except 10 of the
 * 45 ...").
 *
 * A line longer than max_line_bytes keeps its start and its end, cut at
 * character boundaries, with "[… N bytes omitted]" between them.
 *
 * The limits are in lines and, for long lines, in bytes (the model reads
 * tokens, which go with bytes): the head keeps at most head_lines lines
 * and head_lines x 120 bytes (never fewer than 4 lines), the tail the
 * same (never fewer than 6), and a line shown after the marker costs one
 * of the max_lines / 4 for each 120 bytes it shows or part of them.
 * Lines of 120 bytes or less are kept by count as before.
 *
 * The whole result is bounded in bytes as well (max_bytes): a longer
 * text is cut even within max_lines; the flagged lines keep their share,
 * the head and the tail share what is left (two fifths and three), and
 * when the lines they must keep are too long for it, every line kept is
 * cut shorter.  A text of a few lines (10 or fewer) keeps them all, each
 * cut to its share.
 */
#ifndef AITERM_REDUCE_HEADTAIL_H
#define AITERM_REDUCE_HEADTAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "reduce/lines.h"
#include "util/buf.h"

struct red_headtail_opts {
	size_t		 max_lines;	/* more lines are cut; 0: no limit */
	size_t		 head_lines;	/* lines kept before the marker */
	size_t		 tail_lines;	/* lines kept after it */
	size_t		 max_line_bytes; /* longer lines are cut; 0: no limit */
	/*
	 * Lines of the log before this text: its line i (0-based) is log
	 * line base_line + i + 1.  Used when line_of is not.
	 */
	unsigned long long base_line;
	/*
	 * The log line number of each line of the text, for a text whose
	 * lines are not consecutive in the log (the caller dropped prompts
	 * and echoes): line i is log line line_of[i].  The text is the
	 * stripped one (red_generic: after RED-STRIP, before RED-REPEAT;
	 * red_headtail_map: the source lines of map, else in itself).  Used
	 * only when nline_of is exactly its number of lines; otherwise the
	 * numbers come from base_line.
	 */
	const unsigned long long *line_of;
	size_t		 nline_of;
	/* Terminal width for red_strip_wrap in red_generic; 0: unknown. */
	size_t		 wrap_cols;
	/*
	 * The result's bytes at most (see above); 0: no limit.  Met for a
	 * limit of 8 KiB or more with max_lines / 4 at most 30.
	 */
	size_t		 max_bytes;
	/*
	 * A text of this many bytes or more is read by two threads: the
	 * shapes of its second half here (ADR 0046), and in red_generic
	 * its strip and repeats too (ADR 0047); 0: where red_split_at
	 * says, SIZE_MAX: one thread.  The result is the same.
	 */
	size_t		 split;
};

/*
 * The bytes of a read's reduction at most: Codex keeps 11,964 bytes of a
 * tool result's text and cuts a longer one in its middle (ADR 0043), and
 * the result says more than the reduction (its exit line, the reducer's
 * line).
 */
#define RED_READ_BYTES	10240
/* Suggested limits for what an AI reads in one go. */
#define RED_HEADTAIL_DEFAULTS { 200, 60, 120, 2048, 0, NULL, 0, 0, \
	RED_READ_BYTES, 0 }
/* The limits of a pty_read of new output (core/pty/output.c). */
#define RED_HEADTAIL_READ { 120, 40, 60, 2000, 0, NULL, 0, 0, RED_READ_BYTES, \
	0 }

struct red_headtail_info {
	size_t		 lines_in;
	size_t		 lines_out;	/* the marker counts as a line */
	size_t		 lines_omitted;	/* source lines of the range */
	unsigned long long omitted_first; /* log line numbers, 0 when none */
	unsigned long long omitted_last;
	size_t		 lines_flagged;	/* of those, shown after the marker */
	size_t		 lines_cut;	/* long lines cut in the middle */
	size_t		 bytes_cut;	/* bytes those cuts left out */
	bool		 cut;		/* anything was left out */
};

/* Append to out the head and tail of in (len bytes); info may be NULL. */
void	red_headtail(const char *in, size_t len,
	    const struct red_headtail_opts *opts, struct aiterm_buf *out,
	    struct red_headtail_info *info);

/*
 * The same for text that an earlier stage wrote: map (may be NULL) gives
 * the source lines each line of in stands for, and the marker names those
 * source lines; opts->line_of then numbers the source lines (map->total of
 * them).  A map whose line count is not that of in is ignored.
 */
void	red_headtail_map(const char *in, size_t len,
	    const struct red_headtail_opts *opts, const struct red_linemap *map,
	    struct aiterm_buf *out, struct red_headtail_info *info);

/*
 * The same for the text whose map RED-REPEAT made as it wrote it
 * (red_generic): map->n is its line count, not counted again.
 */
void	red_headtail_own(const char *in, size_t len,
	    const struct red_headtail_opts *opts, const struct red_linemap *map,
	    struct aiterm_buf *out, struct red_headtail_info *info);

#endif
