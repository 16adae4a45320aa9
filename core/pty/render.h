/*
 * From raw log bytes to what the AI should read, before reduction: Aiterm's
 * own OSC 133 marks (those carrying the session's token or a command's
 * nonce) delimit the prompt (A..B) and the echo of the typed command
 * (B..C); both are dropped, and so are the marks.  Everything else passes
 * through to the reducers (which strip the remaining escape sequences).
 *
 * A nested shell's command (a sentinel, shell/sentinel.h) is delimited by
 * its own C and D marks (the command's nonce).  What comes between a
 * nested command's D mark (or the line it was typed on) and the next
 * one's C mark is the nested shell's prompt and the echo of the line
 * (REGION_BETWEEN): it is held, dropped when that C mark comes, and given
 * back (render_flush) when the read ends before it, so that nothing is
 * lost when no command follows (issue 34).
 *
 * Streaming: a mark split across two pieces is still recognised.
 */
#ifndef AITERM_RENDER_H
#define AITERM_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shell/osc133.h"
#include "util/buf.h"

enum render_region {
	REGION_OUTPUT = 0,	/* command output: kept */
	REGION_PROMPT,		/* between A and B: dropped */
	REGION_INPUT,		/* between B and C: the echo, dropped */
	REGION_PROMPT_LINE,	/* after A in a shell without C marks:
				   dropped up to the end of the line (the
				   prompt and the echoed command) */
	REGION_BETWEEN,		/* after a nested command's D mark: held
				   until the next C mark (dropped) or the
				   end of the read (kept) */
	REGION_COUNT
};

struct render {
	struct osc133_parser	 parser;
	enum render_region	 region;
	const char		*token;		/* session token, may be NULL */
	const char		*nonce;		/* command nonce, may be NULL */
	/*
	 * The shell marks command start (C), so A..C is dropped; without C
	 * marks, A drops the rest of its line.
	 */
	bool			 drop_prompt;
	/* Keep prompts and echoes too (line reads); only marks go. */
	bool			 keep_all;
	/*
	 * Hold REGION_BETWEEN's text (reads); when false it is kept as
	 * output (the waiter's until window).
	 */
	bool			 hold_between;
	struct aiterm_buf	 between;	/* held text */
	unsigned long long	 between_line;	/* its first byte's log line */
	bool			 between_at_start;
	/* Called for each of our marks, with its absolute offset. */
	void			(*on_mark)(void *arg, const struct osc133_mark *m);
	void			*arg;
	uint64_t		 next;		/* log offset of the next byte fed */
	struct aiterm_buf	 hold;		/* an unfinished sequence, held back */

	/*
	 * Optional: the log line (1-based) where each kept line starts, so
	 * that elision markers can name log lines (see render_track_lines).
	 */
	unsigned long long	*line_of;
	size_t			 nline_of, cap_line_of;
	unsigned long long	 line;		/* log line of the next byte */
	bool			 tracking;
	bool			 at_line_start;	/* of the kept text */
};

void	render_init(struct render *r, uint64_t base, enum render_region region,
	    const char *token, const char *nonce);
/* Feed raw bytes; append the kept bytes to out (may be NULL). */
void	render_feed(struct render *r, const char *data, size_t len,
	    struct aiterm_buf *out);
bool	render_is_ours(const struct render *r, const struct osc133_mark *m);
/* Keep the held REGION_BETWEEN text: the read ends before a C mark. */
void	render_flush(struct render *r, struct aiterm_buf *out);
/*
 * At a nested command's offset (before feeding its bytes): what follows,
 * up to its C mark, is held as the nested prompt and the echo.
 */
void	render_hold_from_here(struct render *r);
void	render_free(struct render *r);
/* Start recording line_of; line is the log line of the first byte fed. */
void	render_track_lines(struct render *r, unsigned long long line);

#endif
