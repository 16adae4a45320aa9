/*
 * Scope keys (SUP-RUN, ADR 0023): runs that share a scope (e.g.
 * "cli:claude:<session>") replace each other: a new run ends the older
 * ones first, through their supervisors, and starts when they are gone.
 */
#ifndef AITERM_RUN_SCOPE_H
#define AITERM_RUN_SCOPE_H

#include <uv.h>

#include "cli/run/record.h"

/* The file a newer run leaves in an older run's folder before ending it. */
#define RUN_REPLACED_FILE	"replaced-by"
/* How long a new run waits for the older ones of its scope to end. */
#define RUN_REPLACE_WAIT_MS	8000

/*
 * End every other unfinished run of rec's scope: its supervisor is asked
 * with SIGTERM (it records "replaced"); a run whose supervisor died is
 * ended here (its group killed, its record set exited).  Waits on loop's
 * timers until they are exited or RUN_REPLACE_WAIT_MS passed.
 */
void	run_scope_replace(uv_loop_t *loop, const struct run_record *rec);

#endif
