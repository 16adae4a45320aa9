/*
 * Owner locks: a lock is a file created exclusively, 0600, holding its
 * owner's PID and process start identifier as JSON ({"pid":123,"start":
 * "456"}).  The record is written to a temporary beside the lock and
 * published with link(2), which fails when the lock exists, so a lock is
 * never seen half written.  A lock whose owner is gone (no such PID, or
 * the PID now belongs to a process with another start identifier) is
 * stale: lock_acquire reports it and never removes it, because another
 * process may be deciding the same thing (ABA); lock_take_over replaces
 * it under a guard that rules that out.
 */
#ifndef AITERM_LOCK_H
#define AITERM_LOCK_H

#include <stdbool.h>

#include "util/error.h"

struct lock_owner {
	long	pid;
	char	start[32];	/* proc_start_id of pid when it took the lock */
};

enum lock_status {
	LOCK_ACQUIRED = 0,	/* we own it now */
	LOCK_HELD,		/* a live owner holds it; *owner says who */
	LOCK_STALE,		/* its owner is gone; *owner says who it was */
};

/*
 * Try once.  Returns a lock_status and fills *owner (when not NULL), or -1
 * with err on I/O failure or an unreadable lock file.
 */
int	lock_acquire(const char *path, struct lock_owner *owner, struct aiterm_error *err);
/*
 * Take over a stale lock: only while it still names gone (the owner a
 * lock_acquire found dead), which is checked again under a guard
 * (flock(2) on "<path>.guard"), so that two processes deciding the same
 * thing never both own it (ABA).  The lock is replaced by this process's
 * record in one rename, so it never disappears on the way and a plain
 * lock_acquire cannot slip in.  Returns LOCK_ACQUIRED, LOCK_HELD (it
 * names a live owner now, *owner says who; also while another process
 * holds the guard) or -1 with err.
 */
int	lock_take_over(const char *path, const struct lock_owner *gone,
	    struct lock_owner *owner, struct aiterm_error *err);
/* Remove the lock only when this process owns it. */
int	lock_release(const char *path, struct aiterm_error *err);
/* Read the owner; -1 with err when missing or unreadable. */
int	lock_read(const char *path, struct lock_owner *owner, struct aiterm_error *err);
/*
 * The owner process still exists with the same start identifier.  A PID
 * that exists but whose start identifier cannot be read counts as alive.
 */
bool	lock_owner_alive(const struct lock_owner *owner);

#endif
