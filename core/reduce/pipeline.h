/*
 * The generic reducer pipeline: RED-STRIP, then RED-REPEAT, then
 * RED-HEADTAIL, with the RED-FAITHFUL guarantee that the result is never
 * longer than the stripped text (when it would be, the stripped text is
 * returned instead).  The stage headers come with it, so that a caller
 * that only strips (a line_range read) needs no other include.
 */
#ifndef AITERM_REDUCE_PIPELINE_H
#define AITERM_REDUCE_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "reduce/headtail.h"
#include "reduce/repeat.h"
#include "reduce/strip.h"
#include "util/buf.h"

struct red_info {
	size_t		 raw_bytes;
	size_t		 stripped_bytes;
	size_t		 stripped_lines;
	size_t		 out_bytes;
	size_t		 lines_out;
	/*
	 * The headtail marker: the stripped lines behind it, and the first
	 * and the last of them as log line numbers (see red_headtail_opts).
	 */
	size_t		 lines_omitted;
	unsigned long long omitted_first; /* 0 when nothing was omitted */
	unsigned long long omitted_last;
	size_t		 lines_flagged;	/* failure lines shown from the range */
	size_t		 lines_cut;	/* long lines cut in the middle */
	size_t		 bytes_cut;
	bool		 cut;		/* anything was left out */
	bool		 fell_back;	/* the stripped text was returned */
};

/*
 * Append to out what the AI should read of the raw terminal bytes in
 * (len bytes); info may be NULL.  Every line number in the result (the
 * RED-REPEAT and RED-HEADTAIL markers, the "N: " before failure lines) is
 * a line of the session's raw log, 1-based, as pty_read line_range reads
 * it: stripped line i (the text after RED-STRIP) is log line
 * opts->line_of[i] when opts->nline_of is the number of stripped lines,
 * else opts->base_line + i + 1.
 */
void	red_generic(const char *in, size_t len,
	    const struct red_headtail_opts *opts, struct aiterm_buf *out,
	    struct red_info *info);

/*
 * The RED-FAITHFUL guard for any reducer: if what was appended to out
 * since mark is not shorter than text, replace it with text.  Returns true
 * when it did.
 */
bool	red_keep_shorter(struct aiterm_buf *out, size_t mark, const char *text,
	    size_t len);

#endif
