/*
 * The harness's own transcript of one launch (AGT-TURN): binding it with
 * the plugin's transcript_dir and transcript_claim and the evidence of
 * the launch's own id or process (AGT-JOB), counting its turns
 * and reading one by its index with count_turns and read_turn.  The core
 * does the I/O; the plugin only looks at names and bytes.
 */
#ifndef AITERM_AGENT_TRANSCRIPT_H
#define AITERM_AGENT_TRANSCRIPT_H

#include <stdint.h>

#include "agent/harness.h"
#include "agent/record.h"
#include "util/buf.h"

/* The first bytes of a candidate file a claim looks at. */
#define TRANSCRIPT_HEAD_MAX	(64 * 1024)
/* The most of a transcript that is read. */
#define TRANSCRIPT_MAX		(64u * 1024 * 1024)

/* What transcript_locate found. */
#define TRANSCRIPT_BOUND	0
#define TRANSCRIPT_NOT_YET	1
#define TRANSCRIPT_AMBIGUOUS	2

/*
 * Bind r to its transcript when r->transcript is still empty (AGT-JOB):
 * by the one file that names the launch's own id, else by the one file
 * that fits and that the launch's own process (session's pane and below)
 * holds open; never by "the newest file".  TRANSCRIPT_BOUND (r is
 * updated and written to session's agent.json with the evidence in
 * bound_by; a bound record is never bound again), TRANSCRIPT_NOT_YET,
 * TRANSCRIPT_AMBIGUOUS with err saying why (more than one file has the
 * evidence: none is taken), or -1 with err.  On the multiplexer's thread
 * (it asks for the pane's process).
 */
int	transcript_locate(const struct harness *h, const char *session,
	    struct agent_record *r, struct aiterm_error *err);
/* The directory transcript_locate searches (allocated), for watching. */
char	*transcript_dir(const struct harness *h, const struct agent_record *r,
	    int *depth, struct aiterm_error *err);
/*
 * What to watch for the transcript to change: the file once known, else
 * the folder it will appear in (allocated; NULL when there is none).
 */
char	*transcript_watch_target(const struct harness *h,
	    const struct agent_record *r);
/* How many turns the transcript holds (0 when it does not exist). */
unsigned transcript_count(const struct harness *h, const char *path);
/*
 * r's turn (r->index, 0-based, of r->transcript): fills turn, its answer
 * into answer (NONE when the transcript or the turn's prompt is not there
 * yet); 0, or -1 with err.  TRANSCRIPT_OTHER_PROMPT, with err saying
 * which, when the harness gave the prompt it found there and it is not
 * r->prompt (ABI 2.4): turn is then NONE ("prompt_mismatch").
 */
#define TRANSCRIPT_OTHER_PROMPT	1
int	transcript_turn(const struct harness *h, const struct agent_record *r,
	    struct aiterm_turn *turn, struct aiterm_buf *answer,
	    struct aiterm_error *err);

#endif
