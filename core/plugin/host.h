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

/* ABI 2.1 (host-deliver.c); see struct aiterm_host. */
int	host_write_state(const char *relpath, const void *data, size_t len,
	    struct aiterm_error *err);
int	host_spawn_program(const char *const argv[], struct aiterm_error *err);

#endif
