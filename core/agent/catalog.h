/*
 * A launch's model against its harness's own model catalog (AGT-LAUNCH,
 * OPS-BOUNDARY): where the CLI can list its catalog (the plugin's
 * catalog_args, ABI 2.2), a model it does not list is an error before
 * anything is launched, never a fallback to another model.  Where it
 * cannot, the name goes to the CLI as given (ADR 0007).  The listing runs
 * as a child of the loop, never blocking it.
 */
#ifndef AITERM_AGENT_CATALOG_H
#define AITERM_AGENT_CATALOG_H

#include "agent/harness.h"
#include "util/error.h"

/* How long a CLI gets to list its catalog (Grok's first run: ~15 s). */
#define CATALOG_DEADLINE_MS	30000

/* status 0 (listed, or nothing to check), or -1 with err (borrowed). */
typedef void (*catalog_cb)(void *arg, int status,
	    const struct aiterm_error *err);

/* Calls cb once, from the loop (at once when there is nothing to run). */
void	harness_model_check(const struct harness *h, const char *binary,
	    const char *cwd, const char *model, catalog_cb cb, void *arg);

#endif
