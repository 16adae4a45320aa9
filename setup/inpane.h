/*
 * Whether aiterm-setup runs in a terminal Aiterm started (CTL-CLI,
 * ADR 0022), where an agent may be the one typing.  The environment
 * (AITERM_SESSION_ID) says so, and so does what a pane cannot unset: an
 * ancestor process that is the tmux server of an Aiterm state root, or a
 * standard stream or the controlling terminal being a pane of one (the
 * server holds the terminal's master; Linux).
 */
#ifndef AITERM_SETUP_INPANE_H
#define AITERM_SETUP_INPANE_H

#include <stdbool.h>

/*
 * True when in an Aiterm pane; *why (allocated) says how it was seen:
 * "AITERM_SESSION_ID is 'x'", "process 123, an ancestor, is ...".
 */
bool	inpane_detect(char **why);

#endif
