/*
 * The system reducers (logs: journalctl, dmesg and log files read with
 * tail/cat/less; docker ps, kubectl get, df, free, ps, systemctl status,
 * dd).  Each reducer is a pure function of its input; see struct
 * aiterm_reducer in aiterm/plugin.h.
 */
#ifndef AITERM_RED_SYS_H
#define AITERM_RED_SYS_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"
#include "redlib.h"

int	red_journalctl(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_dmesg(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_logfile(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_docker_ps(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_kubectl_get(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_df(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_free(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_ps(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_systemctl_status(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_dd(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);

#endif
