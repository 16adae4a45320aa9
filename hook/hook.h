/* aiterm-hook's verbs that are not Claude Code hooks. */
#ifndef AITERM_HOOK_H
#define AITERM_HOOK_H

#include <jansson.h>

int	hook_codex_queue(const char *id);
int	hook_cursor_after(json_t *in);
int	hook_cursor_post(json_t *in);

#endif
