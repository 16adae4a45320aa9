/* The host table handed to every plugin: the only way back into the core. */
#ifndef AITERM_HOST_H
#define AITERM_HOST_H

#include "aiterm/plugin.h"

const struct aiterm_host *host_get(void);

/* Minimum level written to stderr by host->log (default: warning). */
void	host_set_log_level(enum aiterm_log_level level);

/*
 * Run argv to completion without a shell; see struct aiterm_host.run.
 * Also used by the core itself.
 */
int	host_run(const char *const argv[], struct aiterm_buf *out,
	    struct aiterm_buf *errout, struct aiterm_error *err);

#endif
