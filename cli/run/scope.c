/* Replace-existing-scope: a new run ends the older runs of its scope. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run/scope.h"
#include "pty/session.h"
#include "state/atomic.h"
#include "util/xmalloc.h"

#define POLL_MS	50

struct replace {
	const struct run_record	*self;
	unsigned		 pending;	/* older runs not exited yet */
	bool			 ask;		/* first pass: ask them */
};

/* A run whose supervisor is gone: end its group and close its record. */
static void
take_over(const struct run_record *old, const char *by)
{
	struct aiterm_error err = ERROR_INIT;
	struct run_record r;

	if (run_record_read(old->run_id, &r, &err) != 0) {
		error_clear(&err);
		return;
	}
	if (run_same_process(r.pid, r.start_id))
		kill(-(pid_t)r.pgid, SIGKILL);
	r.state = RUN_EXITED;
	r.reason = RUN_REASON_REPLACED;
	r.ended_ms = session_now_ms();
	snprintf(r.error, sizeof r.error, "its supervisor was gone; ended "
	    "by %s", by);
	run_record_write(&r, &err);
	error_clear(&err);
	run_record_free(&r);
}

static int
each_old(const struct run_record *old, void *arg)
{
	struct replace *rp = arg;
	struct aiterm_error err = ERROR_INIT;
	char *mark;

	if (strcmp(old->run_id, rp->self->run_id) == 0)
		return 0;
	if (!run_same_process(old->supervisor_pid, old->supervisor_start_id)) {
		take_over(old, rp->self->run_id);
		return 0;
	}
	rp->pending++;
	if (rp->ask) {
		mark = run_path(old->run_id, RUN_REPLACED_FILE);
		atomic_replace(mark, rp->self->run_id,
		    strlen(rp->self->run_id), &err);
		error_clear(&err);
		free(mark);
		kill((pid_t)old->supervisor_pid, SIGTERM);
	}
	return 0;
}

static void
tick(uv_timer_t *t)
{
	(void)t;
}

static void
timer_closed(uv_handle_t *h)
{
	(void)h;
}

void
run_scope_replace(uv_loop_t *loop, const struct run_record *rec)
{
	struct replace rp = { rec, 0, true };
	long long deadline = session_now_ms() + RUN_REPLACE_WAIT_MS;
	uv_timer_t t;

	run_scope_each(rec->scope, each_old, &rp);
	rp.ask = false;
	uv_timer_init(loop, &t);
	while (rp.pending > 0 && session_now_ms() < deadline) {
		/* Wait on the loop (signals still answered), not in sleep. */
		uv_timer_start(&t, tick, POLL_MS, 0);
		uv_run(loop, UV_RUN_ONCE);
		rp.pending = 0;
		run_scope_each(rec->scope, each_old, &rp);
	}
	uv_close((uv_handle_t *)&t, timer_closed);
	/* The timer is on this stack: its close completes before we return. */
	uv_run(loop, UV_RUN_NOWAIT);
}
