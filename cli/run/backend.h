/*
 * Run backends as data (SUP-RUN, ADR 0023): how to start one CLI for one
 * prompt and read its answer.  The built-in ones are YAML files installed
 * with Aiterm (generic) and with the harness of their CLI (claude, codex:
 * plugins/harness-<cli>/backends); a file of the user's config dir
 * ($XDG_CONFIG_HOME/aiterm/backends/<id>.yaml, else
 * ~/.config/aiterm/backends/<id>.yaml) replaces the keys it gives of the
 * built-in of that id, or defines a new one.  Every file is checked
 * against one schema: an unknown key or a wrong type is an error naming
 * the file.
 */
#ifndef AITERM_RUN_BACKEND_H
#define AITERM_RUN_BACKEND_H

#include <jansson.h>
#include <stdbool.h>

#include "util/error.h"

enum backend_output { BACKEND_TEXT, BACKEND_JSON, BACKEND_JSONL };
enum backend_input { BACKEND_INPUT_ARG, BACKEND_INPUT_STDIN };
enum backend_session { SESSION_ALWAYS, SESSION_EXISTING, SESSION_NONE };

struct backend {
	json_t			*conf;		/* the merged, checked file */
	const char		*id;
	const char		*command;	/* "" generic: the words */
	enum backend_output	 output;
	enum backend_input	 input;
	enum backend_session	 session;
};

/* Load backend id (built-in, then the user's override); -1 with err. */
int	backend_load(const char *id, struct backend *b,
	    struct aiterm_error *err);
void	backend_free(struct backend *b);

/*
 * The argv of one run (NULL-terminated, malloc'd strings): command, the
 * args (resume_args with {session_id} replaced when resuming), the model
 * option, the session option, then the prompt when input is arg.
 * session_id may be NULL.  -1 with err when the backend cannot (resume
 * without resume_args, a session id the mode does not take).
 */
int	backend_argv(const struct backend *b, const char *prompt,
	    const char *model, const char *session_id, bool resume,
	    char ***argv, struct aiterm_error *err);
void	backend_argv_free(char **argv);

/*
 * What a run printed, read as the backend says: the answer's text, the
 * session id and the usage object it reported (NULL when absent).  A json
 * output that is not JSON is an error; jsonl lines that are not are
 * skipped.
 */
struct backend_result {
	char	*text;
	char	*session_id;
	json_t	*usage;
};
int	backend_parse(const struct backend *b, const char *out, size_t len,
	    struct backend_result *r, struct aiterm_error *err);
void	backend_result_free(struct backend_result *r);

#endif
