/*
 * A pane's family: every process that is provably one session's, so that
 * closing the session can end them all and nothing else (PTY-CLOSE,
 * issue 37).  The rule is a pure function over a process table
 * (tests/unit/check_observe.c tries it on synthetic tables); family_read
 * gives it the table and the facts it needs from the OS.
 *
 * A process is of the family when nothing protects it and
 *   - it is a known process: its pid AND start id are one recorded before
 *     (the pane's first process, recorded at open, or one found by an
 *     earlier look), so a reused pid is never taken; or
 *   - it carries the session's marks: its environment holds every one of
 *     them (the pane's AITERM_SESSION_ID and AITERM_STATE_DIR) and it
 *     started at or after the pane did, which finds a child that left the
 *     pane's session and lost its parent (`setsid cmd &`); or
 *   - its parent is of the family; or
 *   - its session or process group is one a member leads (its id is a
 *     member's pid: while any process is in a group or session the kernel
 *     does not give its id to another process).
 * Protected, and never of the family: this server, the multiplexer's own
 * processes (its server, the log pipes it runs), and whatever descends
 * from them, except a known process (the pane) and what descends from it.
 */
#ifndef AITERM_PROC_FAMILY_H
#define AITERM_PROC_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

#include "proc/proc.h"

/* A process as it was seen: a pid is one process only with its start. */
struct proc_ident {
	long	pid;
	char	start_id[PROC_START_ID_MAX];
};

struct family_rules {
	const struct proc_ident	*known;
	size_t			 nknown;
	const bool		*marked;	/* per row, or NULL: none */
	const bool		*protect;	/* per row, or NULL: none */
};

/* member[i] for every row i of table (n rows, any order). */
void	family_select(const struct proc_stat *table, size_t n,
	    const struct family_rules *r, bool *member);

struct family_query {
	const struct proc_ident	*known;
	size_t			 nknown;
	/* "NAME=value" entries all to be in the environment; NULL: none. */
	const char *const	*marks;
	/* Marks count only for processes started at or after this. */
	unsigned long long	 marks_since_ms;
	/* Protected by pid (with this process, always). */
	const long		*protect_pids;
	size_t			 nprotect;
	/* Protected by executable name (the multiplexer's), or NULL. */
	const char		*protect_exe;
};

/*
 * Read the process table into t and decide the family: *member (allocated,
 * t->n entries) is true for each row of it.  Returns 0, or -1 with errno
 * when the table cannot be read.
 */
int	family_read(const struct family_query *q, struct proc_table *t,
	    bool **member);

#endif
