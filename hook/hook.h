/* aiterm-hook's verbs that are not Claude Code hooks. */
#ifndef AITERM_HOOK_H
#define AITERM_HOOK_H

int	hook_codex_queue(const char *id);

#endif
