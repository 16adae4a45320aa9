/*
 * The state root: every file Aiterm keeps lives below one directory,
 * $AITERM_STATE_DIR, else $XDG_STATE_HOME/aiterm, else
 * $HOME/.local/state/aiterm.  Directories are 0700 and files 0600 whatever
 * the umask.
 */
#ifndef AITERM_STATEROOT_H
#define AITERM_STATEROOT_H

#include "util/error.h"

/*
 * Resolve the root (override wins when not NULL), create it and its
 * missing parents with mode 0700, and remember it.  An existing root owned
 * by another user is an error; an existing root of ours is chmod'ed 0700.
 */
int		 state_root_init(const char *override, struct aiterm_error *err);
/* The resolved absolute root, or NULL before state_root_init succeeded. */
const char	*state_root(void);
/*
 * 0 when there is a root; else -1 with err saying why there is none (the
 * failure of state_root_init, such as a read-only file system).
 */
int		 state_root_require(struct aiterm_error *err);
/* As state_root_require, but not counted as an error met (diagnostics). */
int		 state_root_problem(struct aiterm_error *err);
/* Forget the root (tests). */
void		 state_root_reset(void);
/*
 * Allocated "<root>/<formatted>"; the caller frees it.  NULL before
 * state_root_init succeeded.
 */
char		*state_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* mkdir -p with mode 0700 on every directory it creates. */
int		 state_mkdir(const char *path, struct aiterm_error *err);

#endif
