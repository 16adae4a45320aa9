/*
 * CTL-CLI: the variables every pane Aiterm starts gets, so that the
 * aiterm command works in it without setup (ADR 0022): the pane's own
 * session id, the state root, and the path of the aiterm command.
 */
#ifndef AITERM_PANEENV_H
#define AITERM_PANEENV_H

#include <stddef.h>

/* How many variables pane_env_add appends. */
#define PANE_ENV_VARS	3

/*
 * Append AITERM_SESSION_ID, AITERM_STATE_DIR and AITERM_BIN ("NAME=value",
 * malloc'd) at env[*n], advancing *n; env has room for PANE_ENV_VARS more.
 */
void	 pane_env_add(const char **env, size_t *n, const char *session_id);
/*
 * How many of them name the pane, and those ones alone: AITERM_SESSION_ID
 * and AITERM_STATE_DIR, the marks its processes carry (PTY-CLOSE).
 */
#define PANE_ENV_MARKS	2
void	 pane_env_marks(const char **env, size_t *n, const char *session_id);
/*
 * The aiterm command: the one beside the running program (a build tree
 * or an installed prefix), else the configured bindir's.  Malloc'd.
 */
char	*pane_env_aiterm_bin(void);

#endif
