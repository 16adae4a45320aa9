/*
 * Ending a run's whole process tree (SUP-RUN, ADR 0023): its process
 * group, and every process descended from the supervisor, which is the
 * child subreaper on Linux, so a grandchild that left the group (setsid,
 * a daemon's double fork) is still found: it is re-parented to us, not
 * to init.
 */
#ifndef AITERM_RUN_KILLTREE_H
#define AITERM_RUN_KILLTREE_H

#include <stdbool.h>

/*
 * Send sig to the process group pgid (0: none) and to every live
 * descendant of this process.  Returns how many descendants were
 * signalled (every member of the group is one, while we are the reaper).
 */
unsigned	killtree_signal(long pgid, int sig);
/* Whether any descendant of this process (not a zombie) is alive. */
bool		killtree_any_alive(void);
/* Reap every exited child of this process (once libuv has none left). */
void		killtree_reap(void);

#endif
