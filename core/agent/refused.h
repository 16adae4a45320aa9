/*
 * A prompt the user's own hook refused (ADR 0017): Cursor's
 * beforeSubmitPrompt hook answering continue:false keeps the prompt from
 * the model and shows "Hook blocked with message: <words>".  A dispatch
 * that sees it on the screen after typing fails with USER_HOOK_BLOCKED
 * and the hook's words, and the turn it opened is closed again: nothing
 * reached the model, nothing is retried or sent again.
 */
#ifndef AITERM_AGENT_REFUSED_H
#define AITERM_AGENT_REFUSED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/record.h"
#include "agent/screen.h"

#define USER_HOOK_BLOCKED	"USER_HOOK_BLOCKED"

/* What the record held before the dispatch opened its turn. */
struct agent_turn_mark {
	unsigned		 turn, index;
	enum agent_dispatch	 dispatch;
	char			 confirmed_by[64];
	long long		 dispatched_ms;
	bool			 running_mark;
};

/* A digest of a capture, to tell a screen from the one before typing. */
uint64_t agent_screen_digest(const struct agent_screen *s);
/*
 * The screen shows a refusal by the user's hook (its harness says
 * AITERM_USER_HOOK_BLOCKED): true, with the hook's words (the rest of
 * the line after AITERM_HOOK_BLOCKED_WORDS, "" when there are none) in
 * words.
 */
bool	agent_hook_refused(const struct agent_screen *s, char *words,
	    size_t size);
void	agent_turn_mark_save(struct agent_turn_mark *m,
	    const struct agent_record *rec);
/* Turn m's successor, when it is still the record's turn, closed again. */
void	agent_turn_unopen(const char *session, unsigned opened,
	    const struct agent_turn_mark *m);

#endif
