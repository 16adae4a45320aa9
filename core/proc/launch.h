/*
 * Which processes of a pane are one launch (PTY-OBSERVE).  Pure functions
 * over a process table, so the rules are tested on synthetic tables
 * (tests/unit/check_observe.c); the table comes from proc_table_read.
 * doc/observe.md states the rules; in short:
 *
 *   - The pane tree is the pane's first process (the root) and every
 *     process descended from it by parent PID.
 *   - Glue is a shell or an exec wrapper (env, nohup, timeout, ...), by
 *     executable name; a zombie is nothing.  Every other process of the
 *     tree is a candidate.
 *   - A candidate belongs to the launch of its nearest candidate ancestor,
 *     whatever glue lies in between; a candidate with no candidate
 *     ancestor heads a launch of its own.  Siblings are never joined.
 *   - The body of a launch is its head, unless the head is a shim runtime
 *     (node) with exactly one candidate child: then the body is that
 *     child, and so on down.  The head is then the launch's shim.
 *   - A launch is in the foreground when a candidate of it is in the
 *     terminal's foreground process group.  The harness is the one
 *     foreground launch; none or several means no harness identity.
 */
#ifndef AITERM_LAUNCH_H
#define AITERM_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include "proc/proc.h"

/* What descendants count as background work once the pane is this old. */
#define LAUNCH_BACKGROUND_MS	60000ULL

enum launch_role {
	LAUNCH_CANDIDATE,
	LAUNCH_SHELL,		/* glue */
	LAUNCH_WRAPPER,		/* glue */
	LAUNCH_DEAD,		/* a zombie: not a candidate, not glue */
};

struct launch_node {
	const struct proc_stat	*ps;
	int			 parent;	/* index in nodes, -1 for root */
	enum launch_role	 role;
	bool			 shim_runtime;	/* its executable is node */
	int			 launch;	/* its launch (candidates), or -1 */
	/* Created LAUNCH_BACKGROUND_MS or more after the root (not root). */
	bool			 background;
};

struct launch {
	int		head;		/* node index */
	int		body;		/* node index */
	int		shim;		/* node index of the head when != body */
	size_t		candidates;
	bool		foreground;
	bool		stopped;	/* the body is stopped */
};

enum launch_harness {
	HARNESS_NONE,		/* no launch in the foreground */
	HARNESS_ONE,		/* exactly one: harness is its index */
	HARNESS_AMBIGUOUS,	/* several foreground launches */
	HARNESS_NO_ROOT,	/* the root is not in the table */
};

struct launch_tree {
	struct launch_node	*nodes;		/* nodes[0] is the root */
	size_t			 n;
	struct launch		*launches;
	size_t			 nlaunches;
	enum launch_harness	 why;
	int			 harness;	/* launch index, or -1 */
	long			 tpgid;		/* the root's terminal's */
};

/* The role the executable called name plays (shell, wrapper, other). */
enum launch_role launch_role_of(const char *name);
bool	launch_is_shim_runtime(const char *name);

/*
 * Build the tree of root_pid from table (n rows, in any order; ps->name
 * is what roles are decided by).  bg_ms is the background threshold.  The
 * nodes point into table, which must outlive the tree.
 */
void	launch_tree_build(struct launch_tree *t, const struct proc_stat *table,
	    size_t n, long root_pid, unsigned long long bg_ms);
void	launch_tree_free(struct launch_tree *t);
/* The node index of pid in the tree, or -1. */
int	launch_tree_find(const struct launch_tree *t, long pid);

#endif
