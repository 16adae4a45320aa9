/*
 * What a read returns to the AI: the log bytes from the session's read
 * cursor, with our marks, prompts and echoes dropped (render), reduced
 * unless raw, and the cursor moved past them.  Reduction is the command
 * reducer of the command that produced the output (RED-CMD) when one
 * claims it, else the generic stages (RED-STRIP, RED-REPEAT,
 * RED-HEADTAIL).
 */
#ifndef AITERM_OUTPUT_H
#define AITERM_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "pty/session.h"
#include "util/buf.h"
#include "util/error.h"

#define OUTPUT_MAX_BYTES	(4u * 1024 * 1024)
/*
 * One page of a line read (full, line_range, lines), in log bytes: what a
 * client shows the model whole (Codex cuts a longer tool result in its
 * middle; ADR 0006).  A longer range gives its first page (lines: its last)
 * and the line_range of the rest.
 */
#define OUTPUT_PAGE_BYTES	8192u
/* What a read's result may say beside its reduction: exit line, hints. */
#define RESULT_ROOM		512u
/* The "[… N bytes omitted; read them with pty_read line_range=...]" line. */
#define RAW_MARK_ROOM		128u

struct output_text {
	struct aiterm_buf	 text;
	uint64_t		 from, to;	/* log bytes consumed */
	uint64_t		 line;		/* cursor line after */
	uint64_t		 omitted_first, omitted_last;	/* 0 when none */
	bool			 reduced;
	bool			 done_seen;	/* a D mark of ours was read */
	int			 done_exit;
	/* RED-CMD: the command reducer that ran, "" when none. */
	char			 reducer[64];
	char			 reducer_version[32];
};

struct output_request {
	const char			*session;
	const struct session_meta	*meta;
	const char			*nonce;		/* may be NULL */
	/* Text typed into a program that is not a shell: its echo goes. */
	const char			*typed;		/* may be NULL */
	uint64_t			 to;		/* UINT64_MAX: the end */
	bool				 raw;
	bool				 advance;	/* move the cursor */
	/*
	 * RED-CMD: the last command sent, when its output starts in this
	 * read.  Its reducer runs only when the read holds all of that
	 * output (command_done, or the read passes its end mark) and
	 * nothing before it.
	 */
	const struct session_command	*command;	/* may be NULL */
	bool				 command_done;
	int				 exit_code;	/* -1 unknown */
	/*
	 * The client cuts a result's text longer than this (0: not known
	 * to): a command reducer's result and a listing that would go whole
	 * are then held to it, less RESULT_ROOM for what the result says
	 * besides (the generic stages are held to RED_READ_BYTES always;
	 * ADR 0043), and so is a raw read: its head and tail around the
	 * marker that names the lines left out.
	 */
	size_t				 client_cut;
};

/* Incremental read from the cursor. */
int	output_collect(const struct output_request *req, struct output_text *out,
	    struct aiterm_error *err);
/*
 * full / line_range / lines: the log by lines, one page (OUTPUT_PAGE_BYTES)
 * at most, with the line_range of the rest in the text and in omitted;
 * the cursor stays.
 */
int	output_lines(const struct output_request *req, uint64_t first,
	    uint64_t last, uint64_t tail, struct output_text *out,
	    struct aiterm_error *err);
void	output_text_free(struct output_text *out);

/* The session's last command text as typed (allocated), or NULL. */
char	*output_last_command(const char *session);

#endif
