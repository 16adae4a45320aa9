/*
 * Native process identity (PTY-OBSERVE): a PID always paired with its
 * start identifier and a digest of its argv, so that a reused PID or an
 * exec of something else is never taken for the same process.  The argv
 * text itself is never kept or returned.
 */
#ifndef AITERM_OBS_IDENTITY_H
#define AITERM_OBS_IDENTITY_H

#include <jansson.h>

#include "observe/cursor.h"
#include "proc/proc.h"

struct obs_identity {
	long	pid;
	char	start_id[PROC_START_ID_MAX];
	/* First 128 bits of SHA-256 over argv, each argument NUL-ended. */
	char	argv_digest[OBS_DIGEST_HEX + 1];
};

/*
 * The identity of the process ps describes, if it is still that process
 * after its argv was read (same start id).  -1 when it cannot be
 * determined: gone, a zombie, argv unreadable, or the PID was reused.
 */
int	obs_identity_of(const struct proc_stat *ps, struct obs_identity *id);
/* {pid, start_id, argv_digest}, or JSON null for NULL. */
json_t	*obs_identity_json(const struct obs_identity *id);

#endif
