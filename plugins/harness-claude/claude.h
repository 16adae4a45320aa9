/* harness-claude: Claude Code (AGT-LAUNCH, AGT-START, AGT-TURN). */
#ifndef AITERM_HARNESS_CLAUDE_H
#define AITERM_HARNESS_CLAUDE_H

#include <aiterm/plugin.h>

/* The session id Claude is started with: a UUID made of the launch id. */
void	claude_session_uuid(const char *launch_id, char out[37]);

/* screen.c */
void	claude_classify(const struct aiterm_screen *s,
	    struct aiterm_screen_verdict *v);
const struct aiterm_input_step *claude_startup_keys(const char *dialog,
	    int trust_project);
int	claude_approval(const struct aiterm_host *host,
	    const struct aiterm_screen *s, struct aiterm_approval *a);
const struct aiterm_input_step *claude_approval_keys(const char *choice);
extern const struct aiterm_input_step claude_submit[];

/* model.c */
extern const struct aiterm_input_step claude_model_open[];
void	claude_model_step(const struct aiterm_screen *s,
	    const struct aiterm_model_goal *g, struct aiterm_model_move *m);

/* transcript.c */
int	claude_transcript_dir(const struct aiterm_host *host,
	    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
	    int *depth, struct aiterm_error *err);
int	claude_transcript_claim(const struct aiterm_transcript_query *q,
	    const char *name, const char *head, size_t len,
	    int64_t modified_ms);
unsigned claude_count_turns(const char *bytes, size_t len);
int	claude_read_turn(const struct aiterm_host *host, const char *bytes,
	    size_t len, unsigned index, struct aiterm_turn *turn,
	    struct aiterm_error *err);

#endif
