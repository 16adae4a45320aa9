/*
 * The runtime error aggregate (OPS-DIAG, ADR 0021): errors the server
 * meets are counted by a fixed code, with the first and last time, in
 * <state_root>/errors.json.  Only the codes of the table in errtally.c
 * and numbers and UTC times ever reach the file: no message text, path,
 * output, prompt or secret.  Nothing is sent anywhere.
 */
#ifndef AITERM_ERRTALLY_H
#define AITERM_ERRTALLY_H

#include <jansson.h>

enum errtally_code {
	ERRTALLY_MUX_LOST,		/* a session's terminal is gone */
	ERRTALLY_LOCK_STALE,		/* a send lock whose owner is gone */
	ERRTALLY_SESSION_BUSY,		/* a send lock held past the wait */
	ERRTALLY_TRANSCRIPT_MISSING,	/* an agent turn without transcript */
	ERRTALLY_STATE_WRITE_FAILED,	/* a state file could not be written */
	ERRTALLY_DISK_FULL,		/* ... because the disk was full */
	ERRTALLY_LOG_WRITE_FAILED,	/* output the log could not take */
	ERRTALLY_NO_STATE_ROOT,		/* a tool needed the missing root */
	ERRTALLY_STDOUT_CLOSED,		/* the client stopped reading */
	ERRTALLY_STATE_FORMAT_NEWER,	/* state of a newer format, left alone */
	ERRTALLY_COUNT
};

/* The code's name ("mux_lost"), or NULL outside the table. */
const char	*errtally_name(enum errtally_code code);
/* The code of a name, or -1 when the name is not in the table. */
int		 errtally_code(const char *name);
/*
 * Count one occurrence now.  Kept in memory and merged into the file
 * under <root>/errors.lock when that lock is free at once (never
 * waited for); what could not be written yet goes with the next call.
 */
void		 errtally_note(enum errtally_code code);
/* The same by name; -1 (nothing counted) for a name outside the table. */
int		 errtally_note_name(const char *name);
/*
 * The aggregate, the file's and this process's unwritten counts merged:
 * an array of {code, count, first, last}, in table order, codes with a
 * count only.  New reference.
 */
json_t		*errtally_json(void);
/*
 * Where errors.json lives: the state root (state_root_init names it; NULL
 * keeps counts in memory only).  From then on a failed atomic write
 * (state/atomic.h) is counted too, as disk_full or state_write_failed.
 */
void		 errtally_set_root(const char *root);
/* Forget what this process holds (tests). */
void		 errtally_reset(void);

#endif
