/*
 * An agent session's record (AGT-LAUNCH, AGT-TURN, AGT-JOB), agent.json in
 * the session's folder beside meta.json: which harness runs, the launch it
 * was, where its transcript is once found, and the current turn with its
 * boundary.  A restarted server reads it back, so an answer stays
 * correlated to its turn across restarts.  Answers of earlier turns are
 * saved as answer-<turn>.txt before the next turn is dispatched.
 */
#ifndef AITERM_AGENT_RECORD_H
#define AITERM_AGENT_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

#define AGENT_ENV_MAX	32
/* The bytes of a turn's prompt kept to check it against its transcript. */
#define AGENT_PROMPT_MAX	512

/* What the first receipt says of the prompt (AGT-START). */
enum agent_dispatch {
	DISPATCH_NOT_REQUESTED = 0,	/* no prompt given */
	DISPATCH_NOT_SENT,		/* given, not typed (start-up stopped) */
	DISPATCH_SENT_UNCONFIRMED,	/* typed, no start evidence yet */
	DISPATCH_START_CONFIRMED,	/* running seen, or the transcript has it */
};

struct agent_record {
	char		 harness[64];
	char		 launch_id[40];
	char		 binary[PATH_MAX];
	char		 version[64];
	char		 model[128];		/* "" the harness default */
	/* agent_configure's effort ("" the CLI's own); written when set. */
	char		 effort[32];
	char		 cwd[PATH_MAX];		/* real path */
	char		 home[PATH_MAX];
	long long	 started_ms;
	/* The plan's pane variables (KEY=VALUE), for the transcript query. */
	char		*env[AGENT_ENV_MAX + 1];
	char		 transcript[PATH_MAX];	/* "" until bound; never rebound */
	/* The evidence it was bound on (AGT-JOB), e.g. "session_id". */
	char		 bound_by[128];
	/* The current turn; 0 before the first. */
	unsigned	 turn;
	/* Its index among the transcript's turns, counted at dispatch. */
	unsigned	 index;
	enum agent_dispatch dispatch;
	char		 confirmed_by[64];	/* the start evidence */
	long long	 dispatched_ms;
	/*
	 * The text that opened the current turn, its first bytes (whole
	 * UTF-8 characters), for a harness whose read_turn gives the prompt
	 * it found (ABI 2.4, ADR 0039); "" unknown.
	 */
	char		 prompt[AGENT_PROMPT_MAX];
	/* AGT-CLAUDE-MARK: our mark that the turn runs (the screen's truth
	 * is not enough); cleared when the turn is seen ended. */
	bool		 running_mark;
	/*
	 * AGT-START: a launch without a prompt and without trust_project
	 * answers before it looks (startup "not_checked"); the first send
	 * then brings it to its composer, within this many milliseconds,
	 * before it types.  0: checked (or never to be).
	 */
	unsigned	 startup_check_ms;
};

const char	*agent_dispatch_name(enum agent_dispatch d);
int	agent_record_write(const char *session, const struct agent_record *r,
	    struct aiterm_error *err);
/* -1 with err when the session is no agent session (no agent.json). */
int	agent_record_read(const char *session, struct agent_record *r,
	    struct aiterm_error *err);
void	agent_record_free(struct agent_record *r);
/* Keep the first bytes of text (whole UTF-8 characters) as r's prompt. */
void	agent_record_prompt(struct agent_record *r, const char *text,
	    size_t len);
/* Save turn's answer as answer-<turn>.txt. */
int	agent_answer_save(const char *session, unsigned turn, const char *text,
	    size_t len, struct aiterm_error *err);
/* turn's answer is saved. */
bool	agent_answer_exists(const char *session, unsigned turn);
/* The saved answer of turn (allocated), or NULL. */
char	*agent_answer_load(const char *session, unsigned turn, size_t *len);

#endif
