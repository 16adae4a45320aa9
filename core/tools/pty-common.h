/*
 * Shared by pty_send and pty_read: the wait options, waiting for
 * completion, and the reply (readable text plus structuredContent).
 */
#ifndef AITERM_PTY_COMMON_H
#define AITERM_PTY_COMMON_H

#include <jansson.h>
#include <stdbool.h>

#include "pty/output.h"
#include "pty/send.h"
#include "pty/session.h"
#include "pty/waiter.h"
#include "tools/tool.h"

#define PTY_DEFAULT_TIMEOUT	10.0
#define PTY_QUIET_MS		400

/* The wait arguments, in one schema fragment shared by both tools. */
#define PTY_WAIT_PROPS \
	"\"wait\":{\"type\":\"boolean\",\"default\":false,\"description\":" \
	"\"Wait for completion (exit mark, until, or quiescence).\"}," \
	"\"until\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":1024," \
	"\"description\":\"Stop waiting when this text appears (implies wait).\"}," \
	"\"until_regex\":{\"type\":\"boolean\",\"default\":false}," \
	"\"timeout\":{\"type\":\"number\",\"minimum\":0,\"maximum\":3600," \
	"\"default\":10,\"description\":\"Seconds, default 10, max 3600.\"}"

/*
 * A shell read's result (result_json): the completion, where the read
 * ended, what it left out.  mode: output (a read or a send that waited),
 * screen, full, line_range, lines, or the route of a send that did not
 * wait (shell, nested, direct).  pty_read and pty_send declare it beside
 * the agent paths' results (tools/agent-schema.h).  sanitized (pty_send
 * only, when sanitising changed the text): what it took out, by kind
 * (issue 37).
 */
#define PTY_SHELL_PROPS \
	"\"session_id\":{\"type\":\"string\"}," \
	"\"complete\":{\"type\":[\"boolean\",\"null\"]}," \
	"\"via\":{\"type\":[\"string\",\"null\"],\"enum\":[\"exit\"," \
	"\"sentinel\",\"until\",\"quiescent\",\"nested\",\"input\",\"timeout\"," \
	"\"lost\",\"secret\"," \
	"null]}," \
	"\"exit_code\":{\"type\":[\"integer\",\"null\"]}," \
	"\"duration_ms\":{\"type\":[\"number\",\"null\"]}," \
	"\"cursor\":{\"type\":\"integer\"},\"line\":{\"type\":\"integer\"}," \
	"\"bytes\":{\"type\":\"integer\"}," \
	"\"omitted\":{\"type\":[\"array\",\"null\"],\"items\":" \
	"{\"type\":\"integer\"}}," \
	"\"reducer\":{\"type\":[\"string\",\"null\"]}," \
	"\"secret\":{\"type\":\"object\",\"properties\":{" \
	"\"prompt\":{\"type\":\"string\"},\"program\":{\"type\":\"string\"}," \
	"\"url\":{\"type\":\"string\"},\"attach\":{\"type\":\"string\"}," \
	"\"elicitation\":{\"type\":\"string\",\"enum\":[\"url\",\"form\",\"none\"]}," \
	"\"elicitation_answer\":{\"type\":\"string\",\"enum\":[\"accept\"," \
	"\"decline\",\"cancel\",\"error\",\"none\"]}}," \
	"\"required\":[\"prompt\",\"program\",\"attach\",\"elicitation\"]}," \
	"\"lost\":{\"type\":\"object\",\"properties\":{" \
	"\"bytes\":{\"type\":\"integer\"},\"from\":{\"type\":\"string\"}," \
	"\"to\":{\"type\":\"string\"},\"screen\":{\"type\":\"string\"}}}," \
	"\"sanitized\":{\"type\":\"object\",\"properties\":{" \
	"\"bytes\":{\"type\":\"integer\"},\"controls\":{\"type\":\"integer\"}," \
	"\"c1_controls\":{\"type\":\"integer\"}," \
	"\"escape_sequences\":{\"type\":\"integer\"}," \
	"\"first\":{\"type\":\"string\"}}," \
	"\"required\":[\"bytes\",\"controls\",\"c1_controls\"," \
	"\"escape_sequences\",\"first\"]}," \
	"\"mode\":{\"type\":\"string\",\"enum\":[\"output\",\"screen\"," \
	"\"full\",\"line_range\",\"lines\",\"shell\",\"nested\",\"direct\"]}"
#define PTY_SHELL_REQUIRED \
	"[\"session_id\",\"complete\",\"via\",\"cursor\",\"mode\"]"

struct pty_wait {
	bool		 wait;
	const char	*until;
	bool		 until_regex;
	double		 timeout;
	/*
	 * pty_open's command: its lines before the output, its fields in
	 * the structured result (borrowed; pty_wait_args sets them NULL).
	 */
	const char	*head;
	json_t		*head_sc;
};

/* Read the wait arguments; -1 with err (bad regex). */
int	pty_wait_args(json_t *args, struct pty_wait *w, struct aiterm_error *err);

/*
 * Wait (if asked) from the session's pending command, then collect the
 * output from the read cursor and reply.  sent: the send this call made
 * (NULL for a read): its own command is waited for, not whatever the
 * session's record names by then, a turn it holds (sent->hold) is
 * given back once the reply is made, and what sanitising took out of its
 * text is said (pty_sanitized) (issue 37).  Takes ownership of nothing
 * but that turn.
 */
void	pty_wait_and_reply(struct tool_call *call, const char *session,
	    const struct pty_wait *w, const struct send_outcome *sent,
	    bool raw);

/*
 * NULL when sanitising took nothing out of a send's text; else the line
 * that says what (allocated: "[text sanitized: removed 1 control character
 * (first U+0003); ...]\n") and in *sc the "sanitized" object for the
 * structured result (issue 37).
 */
char	*pty_sanitized(const struct shell_removed *r, json_t **sc);

/*
 * Reply to a read that is not incremental: the screen (lines NULL) or the
 * log by lines (its range and what it left out).  Takes text.
 */
void	pty_reply_plain(struct tool_call *call, const char *session,
	    const char *mode, char *text, const struct output_text *lines);

#endif
