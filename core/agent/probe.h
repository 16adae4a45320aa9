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

#define PROBE_DEADLINE_MS	20000

struct probe_result {
	int	ok;			/* found, version read, not too old */
	char	binary[PATH_MAX];	/* "" when not found */
	char	version[64];		/* "" when unknown */
	char	error[PATH_MAX + 1024];	/* why not ok */
};

typedef void (*probe_cb)(void *arg, const struct probe_result *r);

/* Calls cb once, later from the loop or at once (a cached or no binary). */
void	harness_probe(const struct harness *h, probe_cb cb, void *arg);

#endif
