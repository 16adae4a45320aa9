/*
 * The activity cursor of pty_observe (PTY-OBSERVE): what one observation
 * hands to the next.  It holds only a screen digest and per-process CPU,
 * plus what is needed to tell whether the next observation sees the same
 * pane: the session id, the pane's first process (PID and start id) and
 * the time on the process clock.  Never screen text, never argv text.
 *
 * Text form (opaque to clients; doc/observe.md):
 *
 *   obs1;<session>;<pane pid>:<pane start|-> or -;<clock ms>;<digest|->;
 *       <pid>:<start>:<cpu ms>:<child cpu ms>,...
 *
 * "-" stands for unknown (no pane, a pane process gone, no screen).
 */
#ifndef AITERM_OBS_CURSOR_H
#define AITERM_OBS_CURSOR_H

#include <stdbool.h>
#include <stddef.h>

#include "proc/proc.h"
#include "util/error.h"

#define OBS_SESSION_MAX		64
#define OBS_DIGEST_HEX		32	/* the first 128 bits of SHA-256 */
/* A cursor records at most this many processes. */
#define OBS_MAX_PROCS		4096

struct obs_cpu {
	long			 pid;
	char			 start_id[PROC_START_ID_MAX];
	unsigned long long	 cpu_ms;
	unsigned long long	 child_cpu_ms;
	/* Of the current observation only (not in the text form). */
	unsigned long long	 start_ms;
	bool			 background;
};

struct obs_cursor {
	char			 session[OBS_SESSION_MAX + 1];
	long			 pane_pid;		/* -1 unknown */
	char			 pane_start[PROC_START_ID_MAX];	/* "" unknown */
	unsigned long long	 clock_ms;		/* proc_clock_ms */
	char			 screen[OBS_DIGEST_HEX + 1];	/* "" none */
	struct obs_cpu		*procs;
	size_t			 n;
	bool			 truncated;	/* more than OBS_MAX_PROCS */
};

/* What changed between two observations of the same pane. */
struct obs_delta_proc {
	const struct obs_cpu	*now;
	unsigned long long	 cpu_ms;
	bool			 started;	/* not in the previous cursor */
};

struct obs_delta {
	unsigned long long	 interval_ms;
	bool			 screen_changed;
	unsigned long long	 cpu_ms;
	/*
	 * False when CPU went unseen: a process of the previous observation
	 * is gone, a waited-for child's CPU appeared, or a process first
	 * seen now had started before the previous observation.
	 */
	bool			 complete;
	struct obs_delta_proc	*procs;		/* those with CPU, or started */
	size_t			 nprocs;
	const struct obs_cpu	**ended;	/* from the previous cursor */
	size_t			 nended;
	unsigned long long	 background_cpu_ms;
	size_t			 background_procs;
};

/* Add a process to c (ignored past OBS_MAX_PROCS, which sets truncated). */
void	obs_cursor_add(struct obs_cursor *c, const struct obs_cpu *p);
void	obs_cursor_free(struct obs_cursor *c);
/* The text form (allocated). */
char	*obs_cursor_format(const struct obs_cursor *c);
/* Parse the text form; -1 with err saying what is wrong. */
int	 obs_cursor_parse(const char *text, struct obs_cursor *c,
	    struct aiterm_error *err);
/* True when both name the same pane process (and it is known). */
bool	 obs_cursor_same_pane(const struct obs_cursor *prev,
	    const struct obs_cursor *now);
/* The delta from prev to now; free with obs_delta_free. */
void	 obs_delta_compute(const struct obs_cursor *prev,
	    const struct obs_cursor *now, struct obs_delta *d);
void	 obs_delta_free(struct obs_delta *d);

#endif
