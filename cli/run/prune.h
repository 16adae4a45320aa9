/*
 * How long run records are kept (SUP-RUN, ADR 0023): every run leaves its
 * argv and output in <state_root>/runs/<run_id>/, so the finished ones
 * beyond the newest `count`, or that ended more than `max_age_ms` ago,
 * are removed when a new run starts (and by aiterm run --prune).  A run
 * still going (its supervisor or its command alive) is never removed.
 */
#ifndef AITERM_RUN_PRUNE_H
#define AITERM_RUN_PRUNE_H

#include "util/error.h"

/* The defaults, and the variables that change them. */
#define RUN_KEEP_DEFAULT	100
#define RUN_KEEP_DAYS_DEFAULT	30
#define RUN_KEEP_ENV		"AITERM_RUN_KEEP"
#define RUN_KEEP_DAYS_ENV	"AITERM_RUN_KEEP_DAYS"
#define RUN_DAY_MS		86400000LL
/* A folder without a readable record this young may be a run being made. */
#define RUN_UNREADABLE_GRACE_MS	60000LL

struct run_keep {
	long long	count;		/* finished runs kept, newest first */
	long long	max_age_ms;	/* older finished runs go */
};

struct run_pruned {
	unsigned	removed, kept, live;
};

/* The retention $AITERM_RUN_KEEP and $AITERM_RUN_KEEP_DAYS say. */
void	run_keep_from_env(struct run_keep *k);
/*
 * Remove the finished runs k does not keep.  0, or -1 with err when a
 * folder could not be removed (the others are still tried).
 */
int	run_prune(const struct run_keep *k, struct run_pruned *out,
	    struct aiterm_error *err);

#endif
