/*
 * Probing a harness (AGT-LAUNCH): its binary on PATH and its version, by
 * running the plugin's version_args without blocking the loop (a child
 * with a deadline).  Results are cached per binary path and modification
 * time.
 */
#ifndef AITERM_AGENT_PROBE_H
#define AITERM_AGENT_PROBE_H

#include <limits.h>

#include "agent/harness.h"
#include "util/error.h"

#define PROBE_DEADLINE_MS	20000

/*
 * The result, the probe's own: its err is cleared once the callback
 * returns, so a copy must not keep err (one made when status is 0 holds
 * none).
 */
struct probe_result {
	/* 0: found, its version read and not too old; else -1 with err. */
	int			 status;
	struct aiterm_error	 err;
	char			 binary[PATH_MAX];	/* "" when not found */
	char			 version[64];		/* "" when unknown */
};

/* r->status 0, or -1 with r->err; r is borrowed for the call. */
typedef void (*probe_cb)(void *arg, const struct probe_result *r);

/* Calls cb once, later from the loop or at once (a cached or no binary). */
void	harness_probe(const struct harness *h, probe_cb cb, void *arg);

#endif
