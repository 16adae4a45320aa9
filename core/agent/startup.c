#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/input.h"
#include "agent/startup.h"
#include "plugin/host.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "util/loop.h"
#include "util/watch.h"
#include "util/xmalloc.h"

/* A look waits this long after a change, so a redraw is seen whole. */
#define SETTLE_MS	60
/* A composer must still be there this much later to count as ready. */
#define READY_CONFIRM_MS	250
/* A look after the CLI's process ended waits this long (on_exit_seen). */
#define EXIT_SETTLE_MS	300
/* The most times one start-up screen is answered. */
#define ADVANCE_MAX	3
/*
 * After answering a screen, how long it may stay before it is answered
 * again: a CLI takes its time to leave a dialog (Claude Code 2.1.197's
 * trust screen stayed ~200 ms after its Enter), and a second Enter meant
 * for the dialog must not reach what comes after it.
 */
#define ANSWER_PATIENCE_MS	2000
/*
 * A dead pane whose status tmux has not reaped yet is looked at again
 * this many times, this far apart, before "status unknown" (the same
 * patience as the end of a command, pty-common.c).
 */
#define REAP_LOOKS	10
#define REAP_LOOK_MS	20

struct startup {
	const struct harness	*h;
	char			 session[SESSION_ID_MAX + 1];
	int			 trust;
	startup_cb		 cb;
	void			*arg;
	uv_fs_event_t		 watch;
	struct pid_watch	*exit;		/* the CLI's process ending */
	uv_timer_t		 look, deadline;
	int			 open;
	bool			 done, typing, watching;
	bool			 ready_once;	/* a composer was seen once */
	unsigned		 advances;
	unsigned		 reap_looks;	/* looks at a dead pane */
	char			 answered[32];	/* the screen last answered */
	uint64_t		 answered_at;	/* loop time of that answer */
	long long		 t0;
	struct startup_result	 r;
	/*
	 * Looks and the pane's pid are read on the multiplexer's thread
	 * (pty/muxjob.h): how many jobs are in flight, what a look found.
	 */
	int			 jobs;
	bool			 looking;
	bool			 look_again;	/* a look was due during one */
	int			 look_rc;
	struct agent_screen	 scr;
	struct aiterm_error	 look_err;
	long			 pane_pid;
};

static const char *const state_names[STARTUP_STATE_COUNT] = {
	[STARTUP_READY] = "ready",
	[STARTUP_ONBOARDING] = "vendor_onboarding_required",
	[STARTUP_EXITED] = "exited",
	[STARTUP_NEEDS_USER] = "needs_user",
	[STARTUP_APPROVAL] = "approval",
	[STARTUP_RATE_LIMITED] = "rate_limited",
	[STARTUP_NOT_READY] = "not_ready",
	[STARTUP_NOT_CHECKED] = "not_checked",
};

const char *
startup_state_name(enum startup_state s)
{
	return (unsigned)s < STARTUP_STATE_COUNT ? state_names[s] : "?";
}

/*
 * Freed once its handles are closed, no play is under way (typed() comes
 * then) and no job holds it.
 */
static void
s_free(struct startup *s)
{
	if (s->open == 0 && !s->typing && s->jobs == 0)
		free(s);
}

static void
closed(uv_handle_t *h)
{
	struct startup *s = h->data;

	s->open--;
	s_free(s);
}

static void
stop(struct startup *s)
{
	s->done = true;
	pid_watch_stop(s->exit);
	s->exit = NULL;
	uv_timer_stop(&s->look);
	uv_timer_stop(&s->deadline);
	uv_close((uv_handle_t *)&s->look, closed);
	uv_close((uv_handle_t *)&s->deadline, closed);
	if (s->watching)
		uv_fs_event_stop(&s->watch);
	uv_close((uv_handle_t *)&s->watch, closed);
}

static void
end(struct startup *s, enum startup_state state)
{
	if (s->done)
		return;
	s->r.state = state;
	s->r.ms = session_now_ms() - s->t0;
	s->cb(s->arg, &s->r);
	stop(s);
}

static void schedule(struct startup *s, unsigned ms);

static void
typed(void *arg, int status, const struct aiterm_error *err)
{
	struct startup *s = arg;

	s->typing = false;
	if (s->done) {
		s_free(s);
		return;
	}
	if (status != 0) {
		snprintf(s->r.screen_tail, sizeof s->r.screen_tail,
		    "typing into the start-up screen failed: %s",
		    error_msg(err));
		end(s, STARTUP_NOT_READY);
		return;
	}
	schedule(s, SETTLE_MS);
}

/* list ("a, b, c") names the first len bytes of name. */
static bool
advanced_has(const char *list, const char *name, size_t len)
{
	const char *p = list;

	while (*p != '\0') {
		if (strncmp(p, name, len) == 0 && (p[len] == ',' ||
		    p[len] == '\0'))
			return true;
		if ((p = strchr(p, ',')) == NULL)
			return false;
		p += 2;		/* ", " */
	}
	return false;
}

static void
advance(struct startup *s, const struct aiterm_screen_verdict *v)
{
	const struct aiterm_input_step *keys = v->dialog == NULL ? NULL :
	    s->h->ops->startup_keys(v->dialog, s->trust);
	size_t n = strlen(s->r.advanced), base;

	if (keys != NULL && strcmp(s->answered, v->dialog) == 0 &&
	    uv_now(core_loop()) - s->answered_at < ANSWER_PATIENCE_MS) {
		/* Answered just now: give it time to go. */
		schedule(s, SETTLE_MS);
		return;
	}
	if (keys == NULL || ++s->advances > ADVANCE_MAX) {
		end(s, STARTUP_NEEDS_USER);
		return;
	}
	snprintf(s->answered, sizeof s->answered, "%s", v->dialog);
	s->answered_at = uv_now(core_loop());
	/* "screen:step" is a step through that screen: the receipt names it. */
	base = strcspn(v->dialog, ":");
	if (!advanced_has(s->r.advanced, v->dialog, base))
		snprintf(s->r.advanced + n, sizeof s->r.advanced - n, "%s%.*s",
		    n > 0 ? ", " : "", (int)base, v->dialog);
	s->typing = true;
	agent_input_play(s->session, keys, NULL, 0, typed, s);
}

/* A look's screen, on the multiplexer's thread. */
static void
look_work(void *arg)
{
	struct startup *s = arg;

	s->look_rc = agent_screen_read(s->h, s->session, &s->scr,
	    &s->look_err);
	agent_screen_test_lag();
}

/* What the screen shows decides, back on the loop. */
static void
look_done(void *arg)
{
	struct startup *s = arg;
	struct agent_screen scr = s->scr;

	s->jobs--;
	s->looking = false;
	memset(&s->scr, 0, sizeof s->scr);
	if (s->done) {
		if (s->look_rc == 0)
			agent_screen_free(&scr);
		error_clear(&s->look_err);
		s_free(s);
		return;
	}
	if (s->look_rc != 0) {
		snprintf(s->r.screen_tail, sizeof s->r.screen_tail, "%s",
		    error_msg(&s->look_err));
		error_clear(&s->look_err);
		end(s, STARTUP_NOT_READY);
		return;
	}
	s->r.verdict = scr.verdict;
	switch (scr.verdict.state) {
	case AITERM_SCREEN_EXITED:
		if (scr.pane.dead_status < 0 && s->reap_looks++ < REAP_LOOKS) {
			schedule(s, REAP_LOOK_MS);
			break;
		}
		s->r.exit_status = scr.pane.dead_status;
		/* An end the harness named there is the verdict's already. */
		snprintf(s->r.screen_tail, sizeof s->r.screen_tail, "%s",
		    scr.words);
		end(s, STARTUP_EXITED);
		break;
	case AITERM_SCREEN_ONBOARDING:
		end(s, STARTUP_ONBOARDING);
		break;
	case AITERM_SCREEN_RATE_LIMITED:
		end(s, STARTUP_RATE_LIMITED);
		break;
	case AITERM_SCREEN_APPROVAL:
		end(s, STARTUP_APPROVAL);
		break;
	case AITERM_SCREEN_BLOCKING_DIALOG:
		s->ready_once = false;
		advance(s, &scr.verdict);
		break;
	case AITERM_SCREEN_INPUT_READY:
		/* Seen twice, READY_CONFIRM_MS apart: not a passing frame. */
		if (s->ready_once)
			end(s, STARTUP_READY);
		else {
			s->ready_once = true;
			/*
			 * A test may shorten it (AITERM_TEST_TOOLS=1) to let
			 * a dialog that comes late open as the prompt goes in.
			 */
			schedule(s, agent_test_ms("AITERM_TEST_READY_CONFIRM_MS",
			    READY_CONFIRM_MS));
		}
		break;
	default:
		s->ready_once = false;
		break;
	}
	agent_screen_free(&scr);
	/*
	 * A look fell due while this one was in flight: what changed since
	 * is looked at now, or a composer drawn meanwhile is never seen.
	 */
	if (s->look_again && !s->done && !uv_is_active((uv_handle_t *)
	    &s->look))
		schedule(s, 0);
	s->look_again = false;
}

static void
look(struct startup *s)
{
	if (s->done || s->typing)
		return;
	if (s->looking) {
		s->look_again = true;
		return;
	}
	s->looking = true;
	s->jobs++;
	muxjob_run(look_work, look_done, s);
}

static void
on_look(uv_timer_t *t)
{
	look(t->data);
}

static void
schedule(struct startup *s, unsigned ms)
{
	if (!s->done)
		uv_timer_start(&s->look, on_look, ms, 0);
}

static void
on_change(uv_fs_event_t *h, const char *name, int events, int status)
{
	struct startup *s = h->data;

	(void)name;
	(void)events;
	(void)status;
	/* A pending confirmation look keeps its time. */
	if (!s->done && !s->ready_once && !uv_is_active((uv_handle_t *)
	    &s->look))
		schedule(s, SETTLE_MS);
}

/*
 * The CLI's process ended (a dead pane writes nothing to the log): look
 * once the multiplexer has taken the death in (tmux 3.3a may still name no
 * exit status right after a fast exit).
 */
static void
on_exit_seen(void *arg)
{
	struct startup *s = arg;

	if (!s->done && !s->typing) {
		uv_timer_stop(&s->look);
		s->ready_once = false;
		schedule(s, EXIT_SETTLE_MS);
	}
}

static void
on_deadline(uv_timer_t *t)
{
	struct startup *s = t->data;

	end(s, s->r.verdict.state == AITERM_SCREEN_INPUT_READY ?
	    STARTUP_READY : STARTUP_NOT_READY);
}

/* The CLI's process, named by the multiplexer (its thread). */
static void
pid_work(void *arg)
{
	struct startup *s = arg;

	s->pane_pid = session_pane_pid(s->session, false);
}

static void
pid_done(void *arg)
{
	struct startup *s = arg;

	s->jobs--;
	if (!s->done && s->pane_pid > 0)
		s->exit = pid_watch_start(s->pane_pid, on_exit_seen, s);
	s_free(s);
}

struct startup *
agent_startup_begin(const struct harness *h, const char *session,
    int trust_project, unsigned timeout_ms, startup_cb cb, void *arg)
{
	struct startup *s = xcalloc(1, sizeof *s);
	char *log = session_path(session, "output.log");

	s->h = h;
	snprintf(s->session, sizeof s->session, "%s", session);
	s->trust = trust_project;
	s->cb = cb;
	s->arg = arg;
	s->t0 = session_now_ms();
	s->r.exit_status = -1;
	s->r.state = STARTUP_NOT_READY;
	uv_timer_init(core_loop(), &s->look);
	uv_timer_init(core_loop(), &s->deadline);
	uv_fs_event_init(core_loop(), &s->watch);
	s->look.data = s->deadline.data = s->watch.data = s;
	s->open = 3;
	s->watching = log != NULL && uv_fs_event_start(&s->watch, on_change,
	    log, 0) == 0;
	free(log);
	s->jobs++;
	muxjob_run(pid_work, pid_done, s);
	uv_timer_start(&s->deadline, on_deadline, timeout_ms, 0);
	schedule(s, SETTLE_MS);
	return s;
}

void
agent_startup_cancel(struct startup *s)
{
	if (!s->done)
		stop(s);
}
