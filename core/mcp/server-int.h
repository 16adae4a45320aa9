/*
 * Server internals shared by the files of core/mcp/ only (and by the fuzz
 * harness, which feeds a server in memory: fuzz/fuzz-mcp.c).
 */
#ifndef AITERM_SERVER_INT_H
#define AITERM_SERVER_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <uv.h>

#include "aiterm/plugin.h"
#include "mcp/framing.h"
#include "mcp/server.h"

struct tool_call;

/* SIGTERM, SIGINT and SIGHUP: each stops the server the orderly way. */
#define SERVER_STOP_SIGNALS	3

struct server {
	uv_loop_t		*loop;
	union {
		uv_pipe_t	 pipe;
		uv_tty_t	 tty;
	}			 in;
	uv_fs_t			 file_req;	/* stdin that is a regular file */
	char			 file_buf[65536];
	bool			 in_is_file;
	uv_signal_t		 stop_signals[SERVER_STOP_SIGNALS];
	struct framer		 framer;
	struct server_options	 opts;

	bool			 initialized;	/* initialize answered */
	char			 protocol[16];
	json_t			*client_info;
	json_t			*client_caps;
	bool			 structured;	/* results carry structuredContent */
	enum aiterm_log_level	 log_level;	/* for notifications/message */
	bool			 log_level_set;

	struct tool_call	*pending;	/* list of calls in flight */
	bool			 stopping;
	int			 exit_status;
	bool			 local;		/* server_call_once: no client */
};

extern struct server *the_server;

/*
 * Make s the server, with its framer, and no input yet: bytes fed to
 * s->framer are dispatched and answered on stdout.  server_fini releases
 * what it holds and unsets the server.
 */
void	server_init(struct server *s, const struct server_options *opts,
	    uv_loop_t *loop);
void	server_fini(struct server *s);

/* Write one JSON value as a line to stdout; steals msg. */
void	server_send(json_t *msg);
/* Stop reading and end the loop after pending work is cancelled. */
void	server_stop(int status);
/* Watch the stop signals with cb (unreferenced handles, data set). */
void	server_stop_signals(uv_loop_t *loop, uv_signal_t *h, uv_signal_cb cb,
	    void *data);

/* Method handlers: reply with server_send (or not, for notifications). */
struct method {
	const char	*name;
	bool		 before_init;	/* allowed before initialize */
	void		(*request)(json_t *id, json_t *params);
	void		(*notification)(json_t *params);
};
const struct method *method_find(const char *name);

/* The secret page's completions go out as notifications (elicit.c). */
void	elicit_init(void);
/* A response from the client: an elicitation's answer, or ignored. */
void	elicit_response(json_t *id, json_t *result, json_t *error);

void	lifecycle_initialize(json_t *id, json_t *params);
void	lifecycle_ping(json_t *id, json_t *params);
void	lifecycle_set_level(json_t *id, json_t *params);
void	lifecycle_initialized(json_t *params);
void	calls_list_tools(json_t *id, json_t *params);
void	calls_call_tool(json_t *id, json_t *params);
void	calls_cancelled(json_t *params);
/* Cancel every pending call (shutdown). */
void	calls_cancel_all(void);
/*
 * A call of the aiterm command (CTL-CLI): the same checks as a client's
 * tools/call (schema, remote relay), the result to done with
 * structuredContent always.  Steals args; -1 when there is no such tool
 * (test-only tools are not reachable).
 */
typedef void	(*tool_call_done_fn)(void *arg, json_t *result);
int	tool_call_checked(const char *tool, json_t *args,
	    tool_call_done_fn done, void *arg);

#endif
