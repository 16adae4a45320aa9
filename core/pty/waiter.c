#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <fcntl.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin/host.h"
#include "proc/proc.h"
#include "pty/muxjob.h"
#include "pty/waiter.h"
#include "reduce/strip.h"
#include "util/buf.h"
#include "util/loop.h"
#include "util/watch.h"
#include "util/xmalloc.h"

#define WAITER_CHUNK	65536
#define UNTIL_WINDOW	8192
/*
 * Where the pane's process cannot be watched (no pidfd), its life is
 * asked of the multiplexer this often while an end mark is due.
 */
#define LIVENESS_MS	250
/*
 * After the pane's process exited, tmux is asked again this often, so
 * many times; a pane it still calls alive then (a child of the dead shell
 * holds the terminal) has ended for us all the same.
 */
#define EXITED_RECHECK_MS	20
#define EXITED_RECHECKS		10

struct waiter {
	struct waiter_opts	 o;
	char			*session;
	char			*token;
	char			*nonce;
	char			*until;
	pcre2_code		*re;
	pcre2_match_data	*md;
	int			 fd;
	uint64_t		 scanned;
	struct render		 render;
	struct aiterm_buf	 window;	/* recent kept text, for until */
	uv_fs_event_t		 watch;
	uv_timer_t		 timeout, quiet, progress, kick;
	struct pid_watch	*exit;		/* the pane's process, or NULL */
	bool			 exited;	/* ... has ended */
	int			 rechecks;	/* tmux asked since */
	int			 open_handles;
	bool			 closing;	/* close_all has run */
	/*
	 * Pane queries run on the multiplexer's thread (pty/muxjob.h), so a
	 * stalled tmux holds this wait, not the loop: how many are in
	 * flight, and what the last one found.
	 */
	int			 jobs;
	bool			 asking;
	int			 q_state, q_dead_status;
	bool			 q_shell_fg;
	bool			 q_prompting;	/* another program waits for input */
	uint64_t		 q_from;	/* scanned when it was asked */
	int			 q_canon;	/* its terminal reads lines: 1 */
	char			 q_program[64];
	bool			 q_secret;	/* it waits for a secret */
	char			 q_prompt[SECRET_PROMPT_MAX];
	long			 q_pane_pid;
	char			 q_mux_socket[512];
	char			 q_start_id[PROC_START_ID_MAX];
	long			 q_pid;
	uint64_t		 started;	/* uv_now */
	bool			 finished;
	struct waiter_result	 result;
};

/*
 * REPLs that keep their terminal key by key while they work on a line
 * (their own line editor: node's readline), so that only their next
 * prompt, not the terminal's mode, says the work is done.
 */
static const char *const raw_repls[] = { "node", "deno", "bun", NULL };

static bool
raw_repl(const char *program)
{
	size_t i;

	for (i = 0; raw_repls[i] != NULL; i++) {
		if (strcmp(raw_repls[i], program) == 0)
			return true;
	}
	return false;
}

static const char *const via_names[] = {
	[VIA_EXIT] = "exit",
	[VIA_SENTINEL] = "sentinel",
	[VIA_UNTIL] = "until",
	[VIA_QUIESCENT] = "quiescent",
	[VIA_NESTED] = "nested",
	[VIA_INPUT] = "input",
	[VIA_SECRET] = "secret",
	[VIA_TIMEOUT] = "timeout",
	[VIA_LOST] = "lost",
};

const char *
waiter_via_name(enum waiter_via via)
{
	return via_names[via];
}

static pcre2_code *
compile(const char *re, struct aiterm_error *err)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE offset;
	pcre2_code *code;
	int errcode;

	code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_MULTILINE, &errcode, &offset, NULL);
	if (code == NULL) {
		pcre2_get_error_message(errcode, msg, sizeof msg);
		error_set(err, "invalid until regex at offset %zu: %s",
		    (size_t)offset, (char *)msg);
	}
	return code;
}

int
waiter_check_regex(const char *re, struct aiterm_error *err)
{
	pcre2_code *code = compile(re, err);

	if (code == NULL)
		return -1;
	pcre2_code_free(code);
	return 0;
}

/* Freed once closed and no job of the multiplexer's thread holds it. */
static void
maybe_free(struct waiter *w)
{
	if (!w->closing || w->open_handles > 0 || w->jobs > 0)
		return;
	render_free(&w->render);
	buf_free(&w->window);
	if (w->md != NULL)
		pcre2_match_data_free(w->md);
	if (w->re != NULL)
		pcre2_code_free(w->re);
	free(w->session);
	free(w->token);
	free(w->nonce);
	free(w->until);
	free(w);
}

static void
handle_closed(uv_handle_t *h)
{
	struct waiter *w = h->data;

	w->open_handles--;
	maybe_free(w);
}

static void
close_all(struct waiter *w)
{
	uv_handle_t *handles[] = {
		(uv_handle_t *)&w->watch, (uv_handle_t *)&w->timeout,
		(uv_handle_t *)&w->quiet, (uv_handle_t *)&w->progress,
		(uv_handle_t *)&w->kick,
	};
	size_t i;

	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	if (w->exit != NULL)
		pid_watch_stop(w->exit);
	w->exit = NULL;
	w->open_handles = (int)(sizeof handles / sizeof handles[0]);
	w->closing = true;
	for (i = 0; i < sizeof handles / sizeof handles[0]; i++)
		uv_close(handles[i], handle_closed);
}

static void
finish(struct waiter *w, bool complete, enum waiter_via via, int exit_code,
    uint64_t end)
{
	if (w->finished)
		return;
	w->finished = true;
	w->result.complete = complete;
	w->result.via = via;
	w->result.exit_code = exit_code;
	w->result.end = end;
	w->result.scanned = w->scanned;
	w->result.duration_ms = (double)(uv_now(core_loop()) - w->started);
	w->o.done(w->o.arg, &w->result);
	close_all(w);
}

void
waiter_cancel(struct waiter *w)
{
	if (w->finished)
		return;
	w->finished = true;
	close_all(w);
}

static void
on_mark(void *arg, const struct osc133_mark *m)
{
	struct waiter *w = arg;

	/*
	 * Our session token, or this command's nonce: the shell says the
	 * command is over, whether or not a mark was expected (a command
	 * typed with enter=false and run by a key, a REPL that exited).
	 */
	if (m->kind != 'D' || !m->has_exit || m->start < w->o.mark_after)
		return;
	/* An earlier command's end: ours is still to come. */
	if (w->o.marks_ahead > 0 && m->token[0] != '\0' &&
	    strcmp(m->token, w->token == NULL ? "" : w->token) == 0) {
		w->o.marks_ahead--;
		return;
	}
	if (w->nonce != NULL && strcmp(m->token, w->nonce) == 0)
		w->result.mark_end = m->end;
	w->result.by_shell = w->token != NULL && strcmp(m->token,
	    w->token) == 0;
	finish(w, true, VIA_SENTINEL, m->exit_code, m->start);
}

static bool
until_in(struct waiter *w, const char *text, size_t len)
{
	if (w->re == NULL)
		return memmem(text, len, w->until, strlen(w->until)) != NULL;
	return pcre2_match(w->re, (PCRE2_SPTR)text, len, 0, 0, w->md,
	    NULL) >= 0;
}

/* Bytes a terminal plays rather than shows: ESC, CR, BS. */
static bool
has_motions(const char *s, size_t len)
{
	return memchr(s, '\033', len) != NULL || memchr(s, '\r', len) !=
	    NULL || memchr(s, '\b', len) != NULL;
}

/*
 * until is looked for in the bytes, then in the text they show, as the
 * model reads it (issue 34): a REPL colours its results (node writes 42
 * as "\e[33m42\e[39m") and redraws its line as it is typed.
 */
static bool
until_found(struct waiter *w)
{
	struct aiterm_buf shown = BUF_INIT;
	bool found;

	if (w->until == NULL || w->window.len == 0)
		return false;
	if (until_in(w, w->window.data, w->window.len))
		return true;
	if (!has_motions(w->window.data, w->window.len))
		return false;
	red_strip(w->window.data, w->window.len, &shown);
	found = shown.len > 0 && until_in(w, buf_str(&shown), shown.len);
	buf_free(&shown);
	return found;
}

static void
trim_window(struct waiter *w)
{
	size_t drop;

	if (w->window.len <= UNTIL_WINDOW)
		return;
	drop = w->window.len - UNTIL_WINDOW;
	memmove(w->window.data, w->window.data + drop, UNTIL_WINDOW);
	w->window.len = UNTIL_WINDOW;
	w->window.data[w->window.len] = '\0';
}

/*
 * Play a chunk of the log; what lies before until_from is not kept for
 * until (the window is emptied once the chunk reaches it).
 */
static void
feed(struct waiter *w, const char *chunk, size_t n)
{
	struct aiterm_buf *win = w->until != NULL ? &w->window : NULL;
	uint64_t at = w->scanned;
	size_t before = 0;

	w->scanned += (uint64_t)n;
	if (win != NULL && w->o.until_from > at)
		before = w->o.until_from - at < n ? (size_t)(w->o.until_from -
		    at) : n;
	if (before > 0) {
		render_feed(&w->render, chunk, before, win);
		if (w->finished)
			return;
		w->window.len = 0;
		if (w->window.data != NULL)
			w->window.data[0] = '\0';
	}
	if (before < n)
		render_feed(&w->render, chunk + before, n - before, win);
}

/* Read what the log gained since the last scan. */
static void
scan(struct waiter *w)
{
	char chunk[WAITER_CHUNK];
	ssize_t n;
	bool grew = false;

	while (!w->finished) {
		n = pread(w->fd, chunk, sizeof chunk, (off_t)w->scanned);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		grew = true;
		feed(w, chunk, (size_t)n);
		if (w->finished)
			return;
		if (until_found(w)) {
			finish(w, true, VIA_UNTIL, -1, w->scanned);
			return;
		}
		trim_window(w);
	}
	if (grew && !w->finished)
		uv_timer_again(&w->quiet);
}

/*
 * The pane: gone (-1), dead (1), or alive (0) with the shell in the
 * foreground or not.  On the multiplexer's thread: it reads only the
 * session's id and writes only the q_ fields.
 */
static void
pane_work(void *arg)
{
	struct waiter *w = arg;
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_mux_ops *mux = session_mux(&err);
	struct aiterm_pane_info info;
	struct aiterm_mux_info minfo;
	long pgrp, tpgid;

	memset(&minfo, 0, sizeof minfo);
	w->q_shell_fg = false;
	w->q_secret = false;
	w->q_prompting = false;
	w->q_canon = -1;
	w->q_dead_status = -1;
	w->q_state = 0;
	memset(&info, 0, sizeof info);
	if (mux == NULL || mux->pane_info(host_get(), w->session, &info,
	    &err) != 0) {
		error_clear(&err);
		return;		/* unknown: keep waiting */
	}
	if (!info.exists)
		w->q_state = -1;
	else if (info.dead) {
		w->q_dead_status = info.dead_status;
		w->q_state = 1;
	} else if (proc_tty_foreground(info.pid, &pgrp, &tpgid) == 0) {
		w->q_shell_fg = pgrp == tpgid;
		/*
		 * A prompt: the cursor after text on its line, the terminal
		 * read key by key (a line editor, a REPL, ssh).
		 */
		w->q_canon = w->q_shell_fg ? -1 : proc_tty_canonical(info.pid);
		w->q_prompting = !w->q_shell_fg && info.cursor_x > 0 &&
		    w->q_canon == 0;
		snprintf(w->q_program, sizeof w->q_program, "%s",
		    info.command);
		/* read -s waits in the shell itself: not only other programs. */
		w->q_secret = secret_pane_waits(w->session, &info,
		    w->q_prompt) && proc_start_id(info.pid,
		    w->q_start_id, sizeof w->q_start_id) == 0;
		w->q_pane_pid = info.pid;
		/* Where the person attaches (the probe may run tmux -V). */
		if (w->q_secret && mux->probe(host_get(), &minfo, NULL) == 0)
			snprintf(w->q_mux_socket, sizeof w->q_mux_socket, "%s",
			    minfo.socket);
	}
}

/* Another program waits for input: the wait ends, naming it. */
static void
finish_input(struct waiter *w)
{
	snprintf(w->result.program, sizeof w->result.program, "%s",
	    w->q_program);
	finish(w, true, VIA_INPUT, -1, w->scanned);
}

static void on_quiet(uv_timer_t *t);

/* What the pane query found decides, back on the loop. */
static void
pane_done(void *arg)
{
	struct waiter *w = arg;
	bool moved;

	w->jobs--;
	w->asking = false;
	if (w->finished) {
		maybe_free(w);
		return;
	}
	scan(w);
	if (w->finished)
		return;
	if (w->q_state < 0) {
		finish(w, false, VIA_LOST, -1, w->scanned);
		return;
	}
	if (w->q_state > 0) {
		finish(w, true, VIA_EXIT, w->q_dead_status, w->scanned);
		return;
	}
	/*
	 * A prompt counts once something was printed since the wait began,
	 * and nothing came while the pane was asked (quiet still).
	 */
	moved = w->scanned != w->q_from;
	if (moved || w->scanned <= w->o.from)
		w->q_prompting = false;
	if (w->exited && ++w->rechecks > EXITED_RECHECKS) {
		finish(w, true, VIA_EXIT, -1, w->scanned);
		return;
	}
	if (w->q_secret) {
		/* Only the person can go on: no until, no timeout helps. */
		snprintf(w->result.program, sizeof w->result.program, "%s",
		    w->q_program);
		memcpy(w->result.prompt, w->q_prompt, sizeof w->result.prompt);
		memcpy(w->result.start_id, w->q_start_id,
		    sizeof w->result.start_id);
		w->result.pane_pid = w->q_pane_pid;
		memcpy(w->result.mux_socket, w->q_mux_socket,
		    sizeof w->result.mux_socket);
		finish(w, true, VIA_SECRET, -1, w->scanned);
		return;
	}
	if (w->o.input_end && w->until == NULL && w->q_prompting) {
		finish_input(w);
		return;
	}
	if (w->o.expect_mark || w->until != NULL) {
		/*
		 * Evidence is due: the output log and the pane's process
		 * ending wake us; only without a process watch, or while tmux
		 * has not yet seen an exit we saw, is tmux asked again.
		 */
		if (w->exit == NULL)
			uv_timer_start(&w->quiet, on_quiet, LIVENESS_MS,
			    LIVENESS_MS);
		else if (w->exited)
			uv_timer_start(&w->quiet, on_quiet, EXITED_RECHECK_MS,
			    0);
		else if (w->o.input_end && w->until == NULL && moved)
			uv_timer_start(&w->quiet, on_quiet, w->o.quiet_ms,
			    w->o.quiet_ms);
		else
			uv_timer_stop(&w->quiet);
		return;
	}
	if (w->exited) {
		/* Ended, and tmux does not know yet: not a quiet shell. */
		uv_timer_start(&w->quiet, on_quiet, EXITED_RECHECK_MS, 0);
		return;
	}
	if (!w->q_shell_fg && moved) {
		/* Output came meanwhile: not quiet after all. */
		uv_timer_start(&w->quiet, on_quiet, w->o.quiet_ms,
		    w->o.quiet_ms);
		return;
	}
	if (w->q_shell_fg)
		finish(w, true, VIA_QUIESCENT, -1, w->scanned);
	else if (w->q_prompting)
		finish_input(w);
	else if (w->o.expect_prompt && (w->q_canon == 1 ||
	    (w->q_canon == 0 && raw_repl(w->q_program))))
		/*
		 * It took the line and works on it (a line editor gives the
		 * terminal back to line mode meanwhile): its output, the
		 * next prompt among it, asks again.
		 */
		uv_timer_stop(&w->quiet);
	else
		finish(w, false, VIA_NESTED, -1, w->scanned);
}

static void
on_quiet(uv_timer_t *t)
{
	struct waiter *w = t->data;

	scan(w);
	/* One query at a time: its answer decides what comes next. */
	if (w->finished || w->asking)
		return;
	w->asking = true;
	w->jobs++;
	w->q_from = w->scanned;
	muxjob_run(pane_work, pane_done, w);
}

/* The pane's process ended: ask tmux what became of the pane now. */
static void
on_exit_event(void *arg)
{
	struct waiter *w = arg;

	if (w->finished)
		return;
	w->exited = true;
	uv_timer_start(&w->quiet, on_quiet, 0, 0);
}

/* The pane's process, named by the multiplexer (its thread). */
static void
pid_work(void *arg)
{
	struct waiter *w = arg;

	w->q_pid = session_pane_pid(w->session, true);
}

/* A watch on it, when the wait is still on. */
static void
pid_done(void *arg)
{
	struct waiter *w = arg;

	w->jobs--;
	if (!w->finished && w->q_pid > 0)
		w->exit = pid_watch_start(w->q_pid, on_exit_event, w);
	maybe_free(w);
}

static void
watch_pane(struct waiter *w)
{
	w->jobs++;
	muxjob_run(pid_work, pid_done, w);
}

static void
on_timeout(uv_timer_t *t)
{
	struct waiter *w = t->data;

	scan(w);
	finish(w, false, VIA_TIMEOUT, -1, w->scanned);
}

static void
on_progress(uv_timer_t *t)
{
	struct waiter *w = t->data;

	if (w->o.progress != NULL)
		w->o.progress(w->o.arg,
		    (double)(uv_now(core_loop()) - w->started));
}

static void
on_kick(uv_timer_t *t)
{
	scan(t->data);
}

static void
on_change(uv_fs_event_t *h, const char *name, int events, int status)
{
	(void)name;
	(void)events;
	(void)status;
	scan(h->data);
}

struct waiter *
waiter_start(const struct waiter_opts *o, struct aiterm_error *err)
{
	uv_loop_t *loop = core_loop();
	struct waiter *w = xcalloc(1, sizeof *w);
	char *log = session_path(o->session, "output.log");
	int rc;

	w->o = *o;
	w->session = xstrdup(o->session);
	w->token = o->token != NULL ? xstrdup(o->token) : NULL;
	w->nonce = o->nonce != NULL ? xstrdup(o->nonce) : NULL;
	w->until = o->until != NULL ? xstrdup(o->until) : NULL;
	w->fd = -1;
	if (w->until != NULL && o->until_regex) {
		w->re = compile(w->until, err);
		if (w->re == NULL)
			goto out_fail;
		w->md = pcre2_match_data_create_from_pattern(w->re, NULL);
	}
	w->fd = log == NULL ? -1 : open(log, O_RDONLY | O_CLOEXEC);
	if (w->fd < 0) {
		error_set(err, "cannot read the output log %s: %s",
		    log == NULL ? "(no state root)" : log, strerror(errno));
		goto out_fail;
	}
	w->scanned = o->from;
	render_init(&w->render, o->from, o->region, w->token, w->nonce);
	w->render.drop_prompt = o->drop_prompt;
	w->render.on_mark = on_mark;
	w->render.arg = w;
	w->started = uv_now(loop);
	uv_fs_event_init(loop, &w->watch);
	uv_timer_init(loop, &w->timeout);
	uv_timer_init(loop, &w->quiet);
	uv_timer_init(loop, &w->progress);
	uv_timer_init(loop, &w->kick);
	w->watch.data = w->timeout.data = w->quiet.data = w;
	w->progress.data = w->kick.data = w;
	rc = uv_fs_event_start(&w->watch, on_change, log, 0);
	if (rc != 0)
		host_get()->log(AITERM_LOG_WARNING, "waiter", "cannot watch %s: "
		    "%s; falling back to the liveness timer", log,
		    uv_strerror(rc));
	if (o->pane_pid > 0)
		w->exit = pid_watch_start(o->pane_pid, on_exit_event, w);
	else
		watch_pane(w);
	uv_timer_start(&w->timeout, on_timeout,
	    (uint64_t)(o->timeout_s * 1000.0), 0);
	uv_timer_start(&w->quiet, on_quiet, o->quiet_ms, o->quiet_ms);
	uv_timer_start(&w->progress, on_progress, 1000, 1000);
	uv_timer_start(&w->kick, on_kick, 0, 0);
	free(log);
	return w;
out_fail:
	if (w->fd >= 0)
		close(w->fd);
	if (w->re != NULL)
		pcre2_code_free(w->re);
	free(w->session);
	free(w->token);
	free(w->nonce);
	free(w->until);
	free(w);
	free(log);
	return NULL;
}
