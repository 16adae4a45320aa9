/*
 * The stdio MCP server: one libuv loop reading JSON-RPC lines from stdin
 * and writing replies to stdout.  stdout carries only JSON-RPC; everything
 * else goes to stderr.
 */
#ifndef AITERM_SERVER_H
#define AITERM_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include <uv.h>

#include "aiterm/plugin.h"

#define SERVER_DEFAULT_MAX_MESSAGE (64u * 1024 * 1024)

struct server_options {
	size_t	max_message;	/* bytes per line */
	bool	test_tools;	/* list tools marked test_only */
	bool	structured;	/* every client gets structuredContent */
};

/*
 * The experimental client capability that asks for structuredContent (and
 * outputSchema in tools/list) on one connection: ADR 0006.
 */
#define SERVER_STRUCTURED_CAP	"aiterm/structuredContent"

/* Serve until stdin closes or SIGTERM/SIGINT; returns the exit status. */
int		 server_run(const struct server_options *opts);
/*
 * CTL-CLI: run one tool call in this process, on the default loop, with
 * the same checks as tools/call; returns the result object (content,
 * structuredContent, isError).  SIGINT/SIGTERM cancel the call.  show
 * gets the result as soon as it is there: a result that offers a secret
 * page (issue 36) is shown before the page is served, until it is used,
 * expires or SIGINT/SIGTERM closes it.
 */
json_t		*server_call_once(const char *tool, json_t *args,
		    void (*show)(json_t *result, void *arg), void *arg);
/* Send notifications/message when level is at or above the client's. */
void		 server_log(enum aiterm_log_level level, const char *logger,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
