/*
 * Line framing for stdio JSON-RPC: one message per line.  A line longer
 * than the limit is skipped up to its newline and reported once, so the
 * next line is served normally.  A buffer grown past FRAMER_KEEP for a
 * large line is freed once the line is handled (issue 37).
 */
#ifndef AITERM_FRAMING_H
#define AITERM_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Bytes of line buffer kept between lines. */
#define FRAMER_KEEP	(1024 * 1024)

struct framer {
	struct aiterm_buf	 line;
	size_t			 max;		/* bytes, newline excluded */
	bool			 discarding;	/* inside an oversized line */
	size_t			 discarded;
	/* A complete line (no newline, a trailing CR removed). */
	void			(*on_line)(void *arg, const char *line, size_t len);
	/* An oversized line of total bytes has been skipped. */
	void			(*on_too_large)(void *arg, size_t total);
	void			*arg;
};

void	framer_init(struct framer *f, size_t max,
	    void (*on_line)(void *, const char *, size_t),
	    void (*on_too_large)(void *, size_t), void *arg);
void	framer_feed(struct framer *f, const char *data, size_t len);
/* End of input: a last line without a newline is still delivered. */
void	framer_finish(struct framer *f);
void	framer_free(struct framer *f);

#endif
