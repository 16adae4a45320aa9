/*
 * A tool whose work needs the multiplexer runs that work on the
 * multiplexer's thread (pty/muxjob.h) and is answered on the loop, so a
 * tmux server that stops answering holds that call, never the server
 * (issue 20).  The work sees its call's arguments (read-only) and fills a
 * result; it must not touch libuv, the call, or anything the loop
 * changes.
 */
#ifndef AITERM_TOOLS_ON_MUX_H
#define AITERM_TOOLS_ON_MUX_H

#include <jansson.h>

#include "tools/tool.h"
#include "util/error.h"

struct mux_result {
	char			*text;		/* the reply's text, allocated */
	json_t			*structured;	/* its structured content */
	struct aiterm_error	 err;		/* set: the call fails with it */
	void			*more;		/* for a continuation (one
						   allocation: free()d when
						   the work failed) */
};

typedef void	(*mux_work_fn)(json_t *args, struct mux_result *r);
/*
 * Continue on the loop with what the work found, instead of replying:
 * the continuation finishes the call and owns r->text, r->structured and
 * r->more.
 */
typedef void	(*mux_then_fn)(struct tool_call *call, struct mux_result *r);

/* Run work on the multiplexer's thread, then reply with its result. */
void	tool_call_on_mux(struct tool_call *call, const char *tool,
	    mux_work_fn work);
/* The same, then `then` on the loop when the work did not fail. */
void	tool_call_on_mux_then(struct tool_call *call, const char *tool,
	    mux_work_fn work, mux_then_fn then);

#endif
