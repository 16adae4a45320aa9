#include <stdlib.h>

#include "pty/muxjob.h"
#include "tools/on-mux.h"
#include "util/xmalloc.h"

struct on_mux {
	struct tool_call	*call;
	const char		*tool;
	json_t			*args;
	mux_work_fn		 work;
	mux_then_fn		 then;
	struct mux_result	 r;
};

static void
work(void *arg)
{
	struct on_mux *m = arg;

	m->work(m->args, &m->r);
}

static void
done(void *arg)
{
	struct on_mux *m = arg;

	if (m->r.err.msg != NULL) {
		tool_call_fail(m->call, "%s: %s", m->tool, error_msg(&m->r.err));
		free(m->r.text);
		json_decref(m->r.structured);
		free(m->r.more);
	} else if (m->then != NULL)
		m->then(m->call, &m->r);
	else
		tool_call_reply(m->call, m->r.text != NULL ? m->r.text :
		    xstrdup(""), m->r.structured);
	error_clear(&m->r.err);
	json_decref(m->args);
	free(m);
}

void
tool_call_on_mux_then(struct tool_call *call, const char *tool,
    mux_work_fn fn, mux_then_fn then)
{
	struct on_mux *m = xcalloc(1, sizeof *m);

	m->call = call;
	m->tool = tool;
	/* The work's own copy: the call's arguments stay the loop's. */
	m->args = json_deep_copy(tool_call_args(call));
	m->work = fn;
	m->then = then;
	muxjob_run(work, done, m);
}

void
tool_call_on_mux(struct tool_call *call, const char *tool, mux_work_fn fn)
{
	tool_call_on_mux_then(call, tool, fn, NULL);
}
