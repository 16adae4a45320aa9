/*
 * token_hint (PTY-OBSERVE): the most recent token figure shown on the
 * screen, e.g. "12.3k tokens" or "tokens: 1,234".  It is what the screen
 * last said, not a usage ledger: a TUI may show a per-turn, a session or
 * a context figure, and Aiterm does not know which.
 */
#ifndef AITERM_TOKEN_HINT_H
#define AITERM_TOKEN_HINT_H

#include <stdbool.h>
#include <stddef.h>

struct token_hint {
	unsigned long long	value;		/* tokens */
	bool			approximate;	/* shown with k/M or a fraction */
	unsigned		row;		/* screen row, 0 at the top */
};

/* The bottom-most, then rightmost, figure on screen; false when none. */
bool	token_hint_find(const char *screen, size_t len, struct token_hint *h);

#endif
