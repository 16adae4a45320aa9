/*
 * A blocking client for a child that speaks JSON-RPC, one message per
 * line, on its stdin/stdout (an MCP server, `codex app-server`).  For the
 * helper programs (aiterm-setup, aiterm-hook), never the server's loop.
 * Every wait has a deadline; the child is ours, ended by its PID.
 */
#ifndef AITERM_LINERPC_H
#define AITERM_LINERPC_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "util/buf.h"

struct linerpc {
	pid_t			 pid;
	int			 in, out;
	struct aiterm_buf	 rd;
	int			 id;
	bool			 jsonrpc;	/* send "jsonrpc":"2.0" */
	char			*why;		/* the last failure, allocated */
};

/* Start argv (PATH searched) with env's members set; stderr to null. */
int	 linerpc_start(struct linerpc *r, char *const argv[], json_t *env,
	    bool jsonrpc);
/* A request (params stolen); its response message, or NULL (r->why). */
json_t	*linerpc_call(struct linerpc *r, const char *method, json_t *params,
	    int timeout_ms);
/* A notification (params stolen, may be NULL). */
int	 linerpc_notify(struct linerpc *r, const char *method, json_t *params);
/* Close its stdin, wait up to timeout_ms, then kill; its exit status. */
int	 linerpc_stop(struct linerpc *r, int timeout_ms);
long long linerpc_now_ms(void);

#endif
