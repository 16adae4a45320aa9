/* Ending a closed session's processes: see treekill.h. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "proc/family.h"
#include "pty/muxjob.h"
#include "pty/paneenv.h"
#include "pty/treekill.h"
#include "util/loop.h"
#include "util/watch.h"
#include "util/xmalloc.h"

/* The hangup's grace: what SIGHUP ends has this long before SIGTERM. */
#define TREEKILL_HANGUP_MS	500
/* More processes than this are waited for by the timer alone. */
#define TREEKILL_WATCH_MAX	64

/* After the hangup's grace, one look and one signal per step. */
static const struct {
	int		 sig;
	unsigned	 grace_ms;	/* before the next step's look */
} treekill_steps[] = {
	{ SIGTERM, 500 },
	{ SIGKILL, 500 },
	/* What the family forked while it was being ended. */
	{ SIGKILL, 200 },
	{ SIGKILL, 200 },
};
#define TREEKILL_STEPS	(sizeof treekill_steps / sizeof treekill_steps[0])

static const struct {
	int		 sig;
	const char	*name;
} signal_names[] = {
	{ SIGTERM, "SIGTERM" },
	{ SIGKILL, "SIGKILL" },
};

struct tk_proc {
	struct proc_ident	 id;
	char			 command[PROC_NAME_MAX];
	int			 sig;		/* strongest beyond SIGHUP, 0 */
	bool			 alive;		/* at the last look */
};

struct treekill {
	struct tk_proc		*procs;
	size_t			 n, cap;
	const char		*marks[PANE_ENV_MARKS + 1];
	unsigned long long	 since_ms;
	long			 protect;	/* the pane's parent, 0 */
	char			 mux_exe[PROC_NAME_MAX];
	size_t			 step;		/* the next treekill_steps */
	bool			 finished;
	uv_timer_t		 timer;
	bool			 timer_open;
	bool			 waiting;
	struct pid_watch	*watches[TREEKILL_WATCH_MAX];
	size_t			 nwatch, pending;
	void			(*done)(void *);
	void			*arg;
};

static const char *
signal_name(int sig)
{
	size_t i;

	for (i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++) {
		if (signal_names[i].sig == sig)
			return signal_names[i].name;
	}
	return "?";
}

static struct tk_proc *
tk_find(struct treekill *tk, const struct proc_stat *ps)
{
	size_t i;

	for (i = 0; i < tk->n; i++) {
		if (tk->procs[i].id.pid == ps->pid &&
		    strcmp(tk->procs[i].id.start_id, ps->start_id) == 0)
			return &tk->procs[i];
	}
	return NULL;
}

static struct tk_proc *
tk_add(struct treekill *tk, const struct proc_stat *ps)
{
	struct tk_proc *p;

	if (tk->n == tk->cap) {
		tk->cap = tk->cap == 0 ? 16 : tk->cap * 2;
		tk->procs = xrealloc(tk->procs, tk->cap * sizeof *tk->procs);
	}
	p = &tk->procs[tk->n++];
	memset(p, 0, sizeof *p);
	p->id.pid = ps->pid;
	snprintf(p->id.start_id, sizeof p->id.start_id, "%s", ps->start_id);
	if (proc_exe_name(ps->pid, p->command, sizeof p->command) != 0)
		snprintf(p->command, sizeof p->command, "%s", ps->name);
	return p;
}

/* Look again: which of the family run now.  Returns how many. */
static size_t
tk_look(struct treekill *tk)
{
	struct proc_table t = PROC_TABLE_INIT;
	struct family_query q;
	struct proc_ident *known;
	struct tk_proc *p;
	bool *member = NULL;
	size_t i, alive = 0;

	known = xcalloc(tk->n + 1, sizeof *known);
	for (i = 0; i < tk->n; i++) {
		known[i] = tk->procs[i].id;
		tk->procs[i].alive = false;
	}
	memset(&q, 0, sizeof q);
	q.known = known;
	q.nknown = tk->n;
	q.marks = tk->since_ms > 0 ? tk->marks : NULL;
	q.marks_since_ms = tk->since_ms;
	q.protect_pids = &tk->protect;
	q.nprotect = tk->protect > 0 ? 1 : 0;
	q.protect_exe = tk->mux_exe[0] != '\0' ? tk->mux_exe : NULL;
	if (family_read(&q, &t, &member) == 0) {
		for (i = 0; i < t.n; i++) {
			if (!member[i] || t.procs[i].state == PROC_ZOMBIE)
				continue;
			if ((p = tk_find(tk, &t.procs[i])) == NULL)
				p = tk_add(tk, &t.procs[i]);
			p->alive = true;
			alive++;
		}
	}
	free(member);
	proc_table_free(&t);
	free(known);
	return alive;
}

/* sig to every process of the family the last look saw running. */
static void
tk_signal(struct treekill *tk, int sig)
{
	struct tk_proc *p;
	size_t i;

	for (i = 0; i < tk->n; i++) {
		p = &tk->procs[i];
		if (!p->alive || proc_signal(p->id.pid, p->id.start_id, sig) != 0)
			continue;
		if (sig != SIGHUP)
			p->sig = sig;
		/* A stopped process acts on SIGHUP or SIGTERM once continued. */
		if (sig != SIGKILL)
			proc_signal(p->id.pid, p->id.start_id, SIGCONT);
	}
}

struct treekill *
treekill_find(const char *id, long live_pid, const struct session_meta *meta,
    const char *mux_exe)
{
	struct treekill *tk = xcalloc(1, sizeof *tk);
	struct proc_stat ps;
	size_t n = 0;

	if (meta != NULL && meta->pane_pid > 0 &&
	    proc_stat_get(meta->pane_pid, &ps) == 0 &&
	    strcmp(ps.start_id, meta->pane_start) == 0)
		tk_add(tk, &ps);
	if (meta != NULL && meta->pane_pid > 0)
		tk->since_ms = meta->pane_start_ms;
	if (live_pid > 0 && proc_stat_get(live_pid, &ps) == 0) {
		/* The multiplexer names it: the pane's, whatever was recorded. */
		if (tk_find(tk, &ps) == NULL)
			tk_add(tk, &ps);
		tk->protect = ps.ppid;
		if (tk->since_ms == 0 || ps.start_ms < tk->since_ms)
			tk->since_ms = ps.start_ms;
	}
	pane_env_marks(tk->marks, &n, id);
	tk->marks[n] = NULL;
	if (mux_exe != NULL)
		snprintf(tk->mux_exe, sizeof tk->mux_exe, "%s", mux_exe);
	/* Without a known pane nothing proves a process is the session's. */
	if (tk->n > 0 || tk->since_ms > 0)
		tk_look(tk);
	return tk;
}

void
treekill_hangup(struct treekill *tk)
{
	tk_signal(tk, SIGHUP);
}

static void	tk_wait(struct treekill *tk, unsigned ms);

/* On the worker: the next step's look and signal. */
static void
tk_step_work(void *arg)
{
	struct treekill *tk = arg;

	if ((tk->n == 0 && tk->since_ms == 0) || tk_look(tk) == 0 ||
	    tk->step >= TREEKILL_STEPS) {
		tk->finished = true;
		return;
	}
	tk_signal(tk, treekill_steps[tk->step].sig);
}

static void
tk_step_done(void *arg)
{
	struct treekill *tk = arg;

	if (tk->finished) {
		tk->done(tk->arg);
		return;
	}
	tk_wait(tk, treekill_steps[tk->step++].grace_ms);
}

/* The wait is over (its grace ran out, or everything it watched ended). */
static void
tk_waited(struct treekill *tk)
{
	size_t i;

	if (!tk->waiting)
		return;
	tk->waiting = false;
	uv_timer_stop(&tk->timer);
	for (i = 0; i < tk->nwatch; i++)
		pid_watch_stop(tk->watches[i]);
	tk->nwatch = 0;
	muxjob_run(tk_step_work, tk_step_done, tk);
}

static void
tk_on_timer(uv_timer_t *h)
{
	tk_waited(h->data);
}

static void
tk_on_exit(void *arg)
{
	struct treekill *tk = arg;

	if (tk->pending > 0 && --tk->pending == 0)
		tk_waited(tk);
}

static void
tk_wait(struct treekill *tk, unsigned ms)
{
	struct tk_proc *p;
	struct pid_watch *w;
	size_t i, alive = 0;
	bool unwatched = false;

	tk->waiting = true;
	tk->nwatch = tk->pending = 0;
	uv_timer_start(&tk->timer, tk_on_timer, ms, 0);
	for (i = 0; i < tk->n; i++)
		alive += tk->procs[i].alive;
	/* Watched only when every one can be: else the grace decides. */
	if (alive > TREEKILL_WATCH_MAX)
		return;
	for (i = 0; i < tk->n && !unwatched; i++) {
		p = &tk->procs[i];
		if (!p->alive)
			continue;
		if ((w = pid_watch_start(p->id.pid, tk_on_exit, tk)) != NULL)
			tk->watches[tk->nwatch++] = w;
		/* No watch for one that ended already; one that runs: none. */
		else
			unwatched = proc_signal(p->id.pid, p->id.start_id, 0) == 0;
	}
	if (unwatched)
		return;
	if (tk->nwatch == 0)
		tk_waited(tk);
	else
		tk->pending = tk->nwatch;
}

void
treekill_run(struct treekill *tk, void (*done)(void *), void *arg)
{
	tk->done = done;
	tk->arg = arg;
	uv_timer_init(core_loop(), &tk->timer);
	tk->timer.data = tk;
	tk->timer_open = true;
	tk_wait(tk, TREEKILL_HANGUP_MS);
}

json_t *
treekill_killed(const struct treekill *tk)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < tk->n; i++) {
		if (tk->procs[i].sig == 0 || tk->procs[i].alive)
			continue;
		json_array_append_new(a, json_pack("{s:I, s:s, s:s}", "pid",
		    (json_int_t)tk->procs[i].id.pid, "command",
		    tk->procs[i].command, "signal",
		    signal_name(tk->procs[i].sig)));
	}
	return a;
}

json_t *
treekill_left(const struct treekill *tk)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < tk->n; i++) {
		if (tk->procs[i].alive)
			json_array_append_new(a, json_pack("{s:I, s:s}", "pid",
			    (json_int_t)tk->procs[i].id.pid, "command",
			    tk->procs[i].command));
	}
	return a;
}

static void
describe(struct aiterm_buf *b, json_t *a, const char *what)
{
	json_t *o;
	size_t i;

	if (json_array_size(a) == 0)
		return;
	buf_printf(b, "; %s:", what);
	json_array_foreach(a, i, o) {
		buf_printf(b, "%s %" JSON_INTEGER_FORMAT " %s", i > 0 ? "," :
		    "", json_integer_value(json_object_get(o, "pid")),
		    json_string_value(json_object_get(o, "command")));
		if (json_object_get(o, "signal") != NULL)
			buf_printf(b, " (%s)", json_string_value(
			    json_object_get(o, "signal")));
	}
}

void
treekill_describe(const struct treekill *tk, struct aiterm_buf *b)
{
	json_t *killed = treekill_killed(tk), *left = treekill_left(tk);

	describe(b, killed, "ignored the hangup and had to be killed");
	describe(b, left, "still running after SIGKILL");
	json_decref(left);
	json_decref(killed);
}

static void
tk_closed(uv_handle_t *h)
{
	struct treekill *tk = h->data;

	free(tk->procs);
	free(tk);
}

void
treekill_free(struct treekill *tk)
{
	size_t i;

	if (tk == NULL)
		return;
	for (i = 0; tk->marks[i] != NULL; i++)
		free((char *)tk->marks[i]);
	tk->marks[0] = NULL;
	if (tk->timer_open) {
		uv_close((uv_handle_t *)&tk->timer, tk_closed);
		return;
	}
	free(tk->procs);
	free(tk);
}
