/*
 * Comma-separated name lists ("harness-claude,reducers-git"), as
 * AITERM_PLUGINS and aiterm-setup's --clients/--plugins give them.
 */
#ifndef AITERM_NAMES_H
#define AITERM_NAMES_H

#include <stdbool.h>

/* Whether name is one of list's items (whole items only). */
bool	names_has(const char *list, const char *name);

#endif
