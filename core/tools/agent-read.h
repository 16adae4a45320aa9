/* pty_read{agent_transcript:true}: an agent turn's answer (AGT-TURN). */
#ifndef AITERM_TOOLS_AGENT_READ_H
#define AITERM_TOOLS_AGENT_READ_H

#include <jansson.h>
#include <stdbool.h>

#include "tools/tool.h"

/* Reply with the answer of the current turn (or args' "turn"). */
void	agent_read_reply(struct tool_call *call, const char *session,
	    json_t *args, double timeout, bool wait);

#endif
