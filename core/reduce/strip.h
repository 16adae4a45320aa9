/*
 * RED-STRIP: the raw bytes a terminal received, turned into the text its
 * screen showed, line by line.
 *
 * Escape sequences (CSI, OSC, DCS, SOS, PM, APC and the short ESC forms)
 * and C0 controls other than LF and TAB are removed, and so is DEL.  The
 * cursor motions that tools use to redraw in place are played on a small
 * line-based screen: CR, BS, CHA, EL, ED, cursor up and down, ECH, ICH,
 * DCH, save and restore.  A progress bar therefore becomes its last state
 * and a status block redrawn with cursor-up appears once.  Only the last
 * RED_STRIP_WINDOW rows can be revisited; older rows are final.
 *
 * Absolute positioning inside a save/restore bracket (the status line apt
 * draws below a scroll region) is dropped until the restore; outside one,
 * only its column is used.  Clearing the screen keeps what it showed, as
 * scrollback does.  Invalid UTF-8 becomes U+FFFD, so the result is always
 * valid UTF-8.  A sequence cut short by the end of the input is dropped;
 * an OSC/DCS string whose terminator never comes ends at the next LF
 * rather than hiding the rest of the log.  Every LF that ends a row the
 * screen kept is kept, so line numbers survive unless a redraw moved up
 * over earlier rows.
 *
 * Rows longer than 2 KiB behave as if wrapped: what lies before their last
 * 2 KiB is final, and a CR goes back to the start of that last part.
 * Columns count characters (a wide character takes one).  Time and output
 * are linear in the input, whatever it holds.
 */
#ifndef AITERM_REDUCE_STRIP_H
#define AITERM_REDUCE_STRIP_H

#include <stddef.h>

#include "util/buf.h"

/* Rows that cursor motions can still reach. */
#define RED_STRIP_WINDOW	256

/* Append to out the text that in (len bytes) leaves on the screen. */
void	red_strip(const char *in, size_t len, struct aiterm_buf *out);
/*
 * The same on a terminal cols columns wide: text written past the last
 * column wraps, so a CR returns to the start of the wrapped part, not of
 * the whole line.  Line count is unchanged.  cols 0: red_strip.
 */
void	red_strip_wrap(const char *in, size_t len, size_t cols,
	    struct aiterm_buf *out);
/*
 * The same, with a text of split bytes or more played by two threads
 * (ADR 0047; 0: where red_split_at says, SIZE_MAX: one thread).  The
 * result is the same; red_strip_wrap splits where red_split_at(0) says.
 */
void	red_strip_split(const char *in, size_t len, size_t cols, size_t split,
	    struct aiterm_buf *out);

#endif
