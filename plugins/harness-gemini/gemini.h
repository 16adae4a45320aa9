/* harness-gemini: the Gemini CLI (AGT-GEMINI), built on <aiterm/plugin.h> alone. */
#ifndef AITERM_HARNESS_GEMINI_H
#define AITERM_HARNESS_GEMINI_H

#include <stdbool.h>

#include <aiterm/plugin.h>

/* screen.c */
void	gemini_classify(const struct aiterm_screen *s,
	    struct aiterm_screen_verdict *v);
const struct aiterm_input_step *gemini_startup_keys(const char *dialog,
	    int trust_project);
int	gemini_approval(const struct aiterm_host *host,
	    const struct aiterm_screen *s, struct aiterm_approval *a);
const struct aiterm_input_step *gemini_approval_keys(const char *choice);

/* chat.c */
unsigned gemini_count_turns(const char *bytes, size_t len);
int	gemini_read_turn(const struct aiterm_host *host, const char *bytes,
	    size_t len, unsigned index, struct aiterm_turn *turn,
	    struct aiterm_error *err);

/* How a chat file opens: its header line, naming the session. */
#define GEMINI_HEADER	"{\"sessionId\":\""

#endif
