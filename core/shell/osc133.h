/*
 * OSC 133 ("semantic prompt") marks in raw terminal output:
 *
 *   ESC ] 133 ; <kind> [; <exit>] [; aiterm=<token>] [; ...] (BEL | ESC \)
 *
 * kind is A (prompt start), B (input start), C (output start) or D
 * (command done); exit, for D, is the command's status as a decimal int
 * (PowerShell's can be negative).  Aiterm's own marks carry aiterm=<token>
 * so they can be told from marks a user's terminal integration emits.
 * Other key=value fields are allowed and ignored; a kind outside A..D is
 * not reported.
 *
 * The parser is streaming: completion detection feeds it the session log
 * in whatever pieces reads return, and a mark split across pieces is found
 * all the same.  Offsets are counted from the first byte ever fed, in 64
 * bits, so a multi-gigabyte log is fine.  It holds no pointer into the
 * data and allocates nothing.
 */
#ifndef AITERM_SHELL_OSC133_H
#define AITERM_SHELL_OSC133_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest token kept; a longer one makes the mark tokenless. */
#define OSC133_TOKEN_MAX	64
/* OSC bodies longer than this are not OSC 133 marks of ours. */
#define OSC133_BODY_MAX		256

struct osc133_mark {
	char		kind;		/* 'A', 'B', 'C' or 'D' */
	bool		has_exit;
	int		exit_code;	/* valid when has_exit */
	char		token[OSC133_TOKEN_MAX + 1];	/* "" when none */
	uint64_t	start;		/* offset of the ESC that opens it */
	uint64_t	end;		/* offset just past its terminator */
};

/* Caller-owned parser state; set up with osc133_init. */
struct osc133_parser {
	int		state;
	uint64_t	offset;		/* bytes fed so far */
	uint64_t	start;		/* where the sequence being read began */
	size_t		len;
	bool		overflow;	/* body too long, or not "133;" */
	char		body[OSC133_BODY_MAX];
};

void	osc133_init(struct osc133_parser *p);

/*
 * Read data[0..len) up to and including the first complete mark.  Returns
 * true with the mark in *mark, or false when all of data was read without
 * completing one.  *used is the number of bytes read; feed the rest again
 * to find the next mark.
 */
bool	osc133_feed(struct osc133_parser *p, const void *data, size_t len,
	    size_t *used, struct osc133_mark *mark);

#endif
