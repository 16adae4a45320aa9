/*
 * What the agent tools share: naming an agent session, spawning its pane
 * with the harness's launch plan and writing its records, and the attach
 * command a person uses to watch.
 */
#ifndef AITERM_AGENT_COMMON_H
#define AITERM_AGENT_COMMON_H

#include <stdbool.h>

#include "agent/harness.h"
#include "pty/session.h"
#include "util/error.h"

#define AGENT_COLS	120
#define AGENT_ROWS	40

struct agent_spawn {
	const char		*id;
	const struct harness	*h;
	const char		*binary, *version, *model, *cwd;
	bool			 trust;
	/* Throughline's supplement file: THROUGHLINE_SUPPLEMENT, or NULL. */
	const char		*supplement;
	/* Readiness left to the first send, within this (agent.json). */
	unsigned		 startup_check_ms;
	bool			 created;	/* out: files exist (discard them) */
};

/* name, or a new "agent-<hex>" into id; -1 with err (bad or taken). */
int	agent_session_name(const char *name, char id[SESSION_ID_MAX + 1],
	    struct aiterm_error *err);
/* meta.json, agent.json, output.log and the pane running the harness. */
int	agent_session_spawn(struct agent_spawn *sp, struct aiterm_error *err);
/* Kill the pane if any and remove the session's files. */
void	agent_session_discard(const char *id);
/* "tmux -S <socket> attach -t <id>" (allocated). */
char	*agent_attach_command(const char *id);

#endif
