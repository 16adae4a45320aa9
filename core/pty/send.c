#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "plugin/host.h"
#include "proc/proc.h"
#include "pty/muxjob.h"
#include "pty/replwait.h"
#include "pty/send.h"
#include "pty/sendq.h"
#include "shell/posix-eval.h"
#include "shell/pwsh.h"
#include "shell/repl-prompt.h"
#include "shell/sanitize.h"
#include "shell/sentinel.h"
#include "shell/utf8.h"
#include "state/atomic.h"
#include "state/errtally.h"
#include "state/lock.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/loop.h"
#include "util/xmalloc.h"

#define LOCK_RETRY_MS	5	/* tried again this often, from a timer */
#define CANCEL_PROMPT_MS 1000	/* a cancelled line's new prompt, at most */
#define CANCEL_POLL_MS	10
#define PROMPT_WAIT_MS	500	/* the prompt after an end mark, at most */
#define PROMPT_POLL_MS	1

static const char *const route_names[SEND_ROUTE_COUNT] = {
	[SEND_SHELL] = "shell",
	[SEND_NESTED] = "nested",
	[SEND_DIRECT] = "direct",
};

const char *
send_route_name(enum send_route r)
{
	return (unsigned)r < SEND_ROUTE_COUNT ? route_names[r] : "?";
}

/* Foreground programs that carry a shell of their own (PTY-DONE nested). */
static const char *const shell_carriers[] = {
	"ssh", "mosh-client", "docker", "podman", "kubectl", "su", "sudo",
	"chroot", "nsenter", "machinectl", "toolbox", "distrobox",
	"lxc-attach", "incus", "telnet", NULL,
};

static bool
is_carrier(const char *command)
{
	size_t i;

	for (i = 0; shell_carriers[i] != NULL; i++) {
		if (strcmp(shell_carriers[i], command) == 0)
			return true;
	}
	return false;
}

int
send_check_session(const char *id, struct session_meta *meta,
    struct aiterm_pane_info *info, struct aiterm_error *err)
{
	const struct aiterm_mux_ops *mux;

	if (!session_id_valid(id))
		return error_set(err, "invalid session_id '%.80s': use 1-64 of "
		    "A-Z a-z 0-9 _ - (not starting with -)", id);
	if (state_root_require(err) != 0)
		return -1;
	if (!session_exists_on_disk(id))
		return error_set(err, "unknown session '%s' (pty_list shows "
		    "the open ones)", id);
	if (session_meta_read(id, meta, err) != 0)
		return -1;
	if ((mux = session_mux(err)) == NULL)
		return -1;
	memset(info, 0, sizeof *info);
	if (mux->pane_info(host_get(), id, info, err) != 0)
		return -1;
	if (!info->exists) {
		errtally_note(ERRTALLY_MUX_LOST);
		return error_set(err, "session '%s' lost: its terminal no "
		    "longer exists in the multiplexer (the tmux server or the "
		    "session was killed); pty_close it and pty_open a new one",
		    id);
	}
	if (info->dead)
		return error_set(err, "session '%s': its process has exited "
		    "(status %d); pty_close it and pty_open a new one", id,
		    info->dead_status);
	return 0;
}

/* Decide where the text goes and how its end is recognised. */
static void
route(const struct send_request *req, const struct aiterm_pane_info *info,
    struct send_outcome *out)
{
	long pgrp, tpgid;
	bool shell_fg = false;
	enum shell_dialect fg_dialect = shell_dialect_for(info->command);

	if (proc_tty_foreground(info->pid, &pgrp, &tpgid) == 0)
		shell_fg = pgrp == tpgid;
	out->cmd.dialect = out->meta.dialect;
	if (shell_fg) {
		out->route = SEND_SHELL;
		out->cmd.mark = out->meta.integration ? MARK_INTEGRATION :
		    MARK_SENTINEL;
	} else if (fg_dialect != SHELL_UNKNOWN || is_carrier(info->command)) {
		out->route = SEND_NESTED;
		out->cmd.mark = MARK_SENTINEL;
		out->cmd.dialect = fg_dialect != SHELL_UNKNOWN ? fg_dialect :
		    SHELL_POSIX;
	} else {
		out->route = SEND_DIRECT;
		out->cmd.mark = MARK_NONE;
		out->prompting = proc_tty_canonical(info->pid) == 0;
	}
	if (req->raw || !req->enter) {
		/* Typed as is: only our own prompt hook can still mark it. */
		if (out->cmd.mark == MARK_SENTINEL)
			out->cmd.mark = MARK_NONE;
		if (!req->enter)
			out->cmd.mark = MARK_NONE;
	}
}

/*
 * What the far side of a shell carrier shows: an ssh target at a
 * PowerShell prompt now speaks PowerShell; one at a REPL's prompt (python3
 * run over ssh) gets the text as given, like a local REPL (issue 34).
 */
static void
apply_prompt(struct send_outcome *out, const char *session)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf screen = BUF_INIT;
	const struct aiterm_mux_ops *mux = session_mux(&err);

	if (mux != NULL && mux->capture(host_get(), session, &screen,
	    &err) == 0) {
		if (shell_repl_prompt(buf_str(&screen)) != NULL) {
			out->route = SEND_DIRECT;
			out->cmd.mark = MARK_NONE;
		} else if (shell_dialect_from_prompt(buf_str(&screen)) ==
		    SHELL_POWERSHELL)
			out->cmd.dialect = SHELL_POWERSHELL;
	}
	buf_free(&screen);
	error_clear(&err);
}

static int
build_line(const struct send_request *req, struct send_outcome *out,
    struct aiterm_buf *line, struct aiterm_error *err)
{
	struct aiterm_buf clean = BUF_INIT;
	const char *text = req->text;
	size_t len = req->len;
	bool shellish = out->route != SEND_DIRECT;
	int rc = 0;

	if (!req->raw) {
		if (shell_sanitize(req->text, req->len, &clean, &out->removed,
		    err) != 0)
			return -1;
		text = buf_str(&clean);
		len = clean.len;
	}
	/*
	 * To a shell a trailing newline means "and run it", as enter does.
	 * A program of another kind (a REPL) gets the text as given: its
	 * blank lines and final newline may be what closes a block.
	 */
	while (shellish && len > 0 && text[len - 1] == '\n' && !req->raw)
		len--;
	if (!req->raw && shellish && memchr(text, '\n', len) != NULL) {
		if (out->cmd.dialect == SHELL_POWERSHELL)
			rc = shell_eval_pwsh(text, len, line, err);
		else if (out->cmd.dialect == SHELL_FISH)
			rc = shell_eval_fish(text, len, line, err);
		else
			/*
			 * Always cut into physical lines the tty's canonical
			 * mode can hold: dash reads that way, and so do bash
			 * and zsh while a command runs (typeahead).
			 */
			rc = shell_eval_posix(text, len,
			    SHELL_EVAL_CANON_LINE_MAX, line, err);
	} else {
		buf_add(line, text, len);
	}
	if (rc == 0 && out->cmd.mark == MARK_SENTINEL) {
		/* Its start and end marks around it (issue 34). */
		session_random_hex(out->cmd.nonce, SESSION_TOKEN_LEN);
		rc = sentinel_wrap(out->cmd.dialect, out->cmd.nonce, line,
		    NULL, err);
	}
	buf_free(&clean);
	return rc;
}

/*
 * Whether Enter follows the line: as asked, but not after text to a
 * program that is not a shell which already ends with its own newline
 * (that newline is its Enter; a second one would be an empty line more).
 */
static bool
wants_enter(const struct send_request *req, enum send_route route,
    const struct aiterm_buf *line)
{
	if (!req->enter)
		return false;
	if (route != SEND_DIRECT || req->raw || line->len == 0)
		return true;
	return line->data[line->len - 1] != '\n';
}

static int
type_line(const char *session, const char *line, size_t len, bool enter,
    struct aiterm_error *err)
{
	const struct aiterm_mux_ops *mux = session_mux(err);
	size_t *lens = NULL, n, i, off = 0;
	int rc = 0;

	if (mux == NULL)
		return -1;
	n = utf8_chunks(line, len, UTF8_CHUNK_MAX, &lens);
	for (i = 0; i < n && rc == 0; i++) {
		rc = mux->send_text(host_get(), session, line + off, lens[i],
		    enter && i == n - 1, err);
		off += lens[i];
	}
	free(lens);
	if (rc == 0 && enter && n == 0)
		rc = mux->send_key(host_get(), session, "Enter", err);
	return rc;
}

/* Marks of one kind in the log, counted by render's on_mark. */
struct mark_count {
	char		kind;	/* 'C' started, 'D' done */
	unsigned	n;
};

static void
count_mark(void *arg, const struct osc133_mark *m)
{
	struct mark_count *c = arg;

	if (m->kind == c->kind && (c->kind != 'D' || m->has_exit))
		c->n++;
}

/* Our marks (the session token) in the log between from and to, to cb. */
static void
scan_marks(const char *log, const char *token, uint64_t from, uint64_t to,
    void (*cb)(void *, const struct osc133_mark *), void *arg)
{
	char chunk[65536];
	struct render r;
	ssize_t got;
	int fd = open(log, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	render_init(&r, from, REGION_OUTPUT, token, NULL);
	r.on_mark = cb;
	r.arg = arg;
	while (from < to) {
		got = pread(fd, chunk, to - from < sizeof chunk ?
		    (size_t)(to - from) : sizeof chunk, (off_t)from);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		render_feed(&r, chunk, (size_t)got, NULL);
		from += (uint64_t)got;
	}
	render_free(&r);
	close(fd);
}

/* Our marks of a kind in the log between from and to. */
static unsigned
marks_between(const char *log, const char *token, char kind, uint64_t from,
    uint64_t to)
{
	struct mark_count c = { kind, 0 };

	scan_marks(log, token, from, to, count_mark, &c);
	return c.n;
}

static void
last_prompt_mark(void *arg, const struct osc133_mark *m)
{
	if (m->kind == 'A')
		*(uint64_t *)arg = m->end;
}

/*
 * Wait until the prompt that follows the last command's end mark is
 * being drawn: its A mark, then bytes after it (the shell's line editor
 * has the terminal), at most PROMPT_WAIT_MS (issue 38).  Text typed
 * between the end mark and the line editor is echoed by the terminal
 * before the prompt and again after it, and the first echo read as the
 * next command's output ("true" for `true`).  A waited send's reply goes
 * out at the end mark, so once a round trip took 1 ms the next send
 * often came that soon.  Normally the prompt is there already.
 */
static void
wait_prompt(const char *session, const char *log, const char *token)
{
	struct timespec ts = { 0, PROMPT_POLL_MS * 1000000L };
	struct session_command prev;
	struct stat st;
	uint64_t a_end;
	int waited;

	if (session_command_read(session, &prev) != 0 || !prev.done ||
	    prev.end == 0)
		return;
	for (waited = 0; waited < PROMPT_WAIT_MS; waited += PROMPT_POLL_MS) {
		if (stat(log, &st) != 0)
			return;
		a_end = 0;
		scan_marks(log, token, prev.end, (uint64_t)st.st_size,
		    last_prompt_mark, &a_end);
		if (a_end > 0 && (uint64_t)st.st_size > a_end)
			return;
		nanosleep(&ts, NULL);
	}
}

/*
 * How many end marks come before ours: a command typed while earlier
 * ones have not run yet (two senders, or a send without waiting) waits
 * in the terminal, and the D marks of those earlier commands arrive
 * first.  The previous record says how many it was owed; what the log
 * shows since it was sent has been paid.  After a takeover (its sender
 * died, perhaps in the middle of the line, which was then killed) the
 * previous command owes a mark only if the shell started it: its C mark
 * is in the log.
 */
static unsigned
marks_ahead(const char *session, const char *log, const char *token,
    uint64_t now, bool took_over)
{
	struct session_command prev;
	unsigned owed, seen;

	if (session_command_read(session, &prev) != 0 || prev.done ||
	    prev.mark != MARK_INTEGRATION || prev.offset > now)
		return 0;
	if (took_over && marks_between(log, token, 'C', prev.offset,
	    now) == 0)
		return 0;
	owed = prev.ahead + 1;
	seen = marks_between(log, token, 'D', prev.offset, now);
	return seen >= owed ? 0 : owed - seen;
}

static void
save_last_command(const char *session, const char *text, size_t len)
{
	struct aiterm_error err = ERROR_INIT;
	char *path = session_path(session, "last-command");

	/* Lost at a power cut, it only chooses a reducer again. */
	if (path != NULL)
		atomic_replace(path, text, len, &err);
	error_clear(&err);
	free(path);
}

/*
 * A send.  It waits for its turn in the session's queue (pty/sendq.h),
 * then what needs the multiplexer (the session checked, the route, the
 * prompt's dialect; then, holding the lock, the command's record and the
 * typing) runs on the multiplexer's thread (pty/muxjob.h); the lock is
 * tried from the loop, again from a timer every LOCK_RETRY_MS while
 * another sender holds it, never by sleeping, until the turn's deadline.
 */
enum job_stage {
	JOB_QUEUED,		/* waiting for its turn in this server */
	JOB_PREPARING,		/* the worker checks the session */
	JOB_LOCKING,		/* tried from the timer */
	JOB_TYPING,		/* the worker types: no way back */
	JOB_HELD,		/* typed; the caller holds the turn */
};

struct send_job {
	struct send_request	 req;	/* its strings are the job's copies */
	struct send_outcome	 out;
	struct aiterm_buf	 line;
	struct sendq_slot	 slot;
	enum job_stage		 stage;
	bool			 locked;	/* we hold send.lock */
	bool			 took_over;	/* from a sender that is gone */
	bool			 enter;		/* Enter after the line */
	char			*lock;
	uv_timer_t		 timer;
	uint64_t		 deadline;	/* uv_now: the turn must come */
	int			 rc;	/* of the last step on the worker */
	struct aiterm_error	 err;	/* its error */
	send_cb			 cb;
	void			*arg;
};

static void
job_closed(uv_handle_t *h)
{
	struct send_job *j = h->data;

	send_outcome_free(&j->out);
	buf_free(&j->line);
	error_clear(&j->err);
	free((char *)j->req.session);
	free((char *)j->req.text);
	free(j->lock);
	free(j);
}

/* The job is over for the queue: its lock, its place, its memory. */
static void
job_free(struct send_job *j)
{
	if (j->locked)
		lock_release(j->lock, NULL);
	j->locked = false;
	sendq_leave(&j->slot);
	uv_timer_stop(&j->timer);
	uv_close((uv_handle_t *)&j->timer, job_closed);
}

/* The job's callback; the job stays only while its turn is held. */
static void
job_end(struct send_job *j, int status, const struct aiterm_error *err)
{
	bool hold = status == 0 && j->req.hold;

	j->stage = JOB_HELD;
	j->out.hold = hold ? j : NULL;
	/*
	 * A turn not held goes back before the caller hears of it: the lock
	 * first (another server may go on), the queue after (its next send
	 * starts on the worker, after this reply).
	 */
	if (!hold && j->locked) {
		lock_release(j->lock, NULL);
		j->locked = false;
	}
	j->cb(j->arg, status, status == 0 ? NULL : err, &j->out);
	if (!hold)
		job_free(j);
}

static void
job_fail(struct send_job *j, const char *why)
{
	struct aiterm_error err = ERROR_INIT;

	error_set(&err, "%s", why);
	job_end(j, -1, &err);
	error_clear(&err);
}

/*
 * C-c to the shell, then up to CANCEL_PROMPT_MS for its new prompt's A
 * mark in the log, so that the end mark the cancel makes lands before
 * our command's offset.  False when the prompt did not come back in
 * time: its end mark may still come, and is then counted as one more
 * mark ahead (a late one makes a timeout, never another's result).  On
 * the multiplexer's thread, after a takeover only: a rare recovery,
 * which may hold that thread this long.
 */
static bool
cancel_left_input(const char *session, const char *log, const char *token)
{
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_mux_ops *mux = session_mux(&err);
	struct timespec ts = { 0, CANCEL_POLL_MS * 1000000L };
	struct stat st;
	uint64_t from;
	int waited;
	bool back = false;

	if (mux == NULL || log == NULL || stat(log, &st) != 0)
		goto out;
	from = (uint64_t)st.st_size;
	if (mux->send_key(host_get(), session, "C-c", &err) != 0)
		goto out;
	for (waited = 0; waited < CANCEL_PROMPT_MS; waited += CANCEL_POLL_MS) {
		nanosleep(&ts, NULL);
		if (stat(log, &st) == 0 && marks_between(log, token, 'A', from,
		    (uint64_t)st.st_size) > 0) {
			back = true;
			break;
		}
	}
out:
	error_clear(&err);
	return back;
}

/*
 * Holding the lock.  The route was decided before it, while another
 * sender's command may still have had the terminal: the subshell of
 * `(exit 7)` made a send nested, wrapped in a sentinel whose end mark
 * came beside the prompt hook's, one end mark too many for the next
 * command (issue 38, two servers taking turns).  When our shell has the
 * terminal now, the send goes the shell's way and its line is built again.
 */
static int
reroute(struct send_job *j)
{
	struct send_outcome *out = &j->out;
	struct send_outcome was = *out;	/* route() changes no pointer */
	struct aiterm_pane_info info;

	if (out->route == SEND_SHELL || !out->meta.integration ||
	    j->took_over)
		return 0;
	memset(&info, 0, sizeof info);
	info.pid = out->shell_pid;
	route(&j->req, &info, out);
	if (out->route != SEND_SHELL) {
		*out = was;	/* it was right */
		return 0;
	}
	out->prompting = false;
	out->cmd.nonce[0] = '\0';
	/* Not typed into a REPL any more: no echo of it to leave out. */
	free(out->typed);
	out->typed = NULL;
	buf_free(&j->line);
	if (build_line(&j->req, out, &j->line, &j->err) != 0)
		return -1;
	j->enter = wants_enter(&j->req, out->route, &j->line);
	return 0;
}

/* On the multiplexer's thread, holding the lock: record, type. */
static void
locked_work(void *arg)
{
	struct send_job *j = arg;
	const struct send_request *req = &j->req;
	struct send_outcome *out = &j->out;
	char *log = session_path(req->session, "output.log");
	struct stat st;
	bool late = false;

	/*
	 * A sender that died while typing may have left part of its line
	 * (or of a script's continuation lines) at the prompt: it is
	 * cancelled first, so ours is not glued to it.
	 */
	if (j->took_over && out->route == SEND_SHELL)
		late = !cancel_left_input(req->session, log, out->meta.token);
	else if ((j->rc = reroute(j)) != 0) {
		free(log);
		return;
	} else if (out->route == SEND_SHELL &&
	    out->cmd.mark == MARK_INTEGRATION && log != NULL)
		wait_prompt(req->session, log, out->meta.token);
	else if (out->route == SEND_DIRECT && out->typed != NULL &&
	    repl_wait_prompt(out->shell_pid, log))
		out->prompting = proc_tty_canonical(out->shell_pid) == 0;
	out->cmd.offset = log != NULL && stat(log, &st) == 0 ?
	    (uint64_t)st.st_size : 0;
	out->cmd.sent_ms = session_now_ms();
	out->cmd.exit_code = -1;
	if (out->cmd.mark == MARK_INTEGRATION)
		out->cmd.ahead = marks_ahead(req->session, log,
		    out->meta.token, out->cmd.offset, j->took_over) +
		    (late ? 1 : 0);
	if (req->enter)
		save_last_command(req->session, req->text, req->len);
	j->rc = session_command_write(req->session, &out->cmd, &j->err);
	if (j->rc == 0)
		j->rc = type_line(req->session, buf_str(&j->line),
		    j->line.len, j->enter, &j->err);
	free(log);
}

static void
locked_done(void *arg)
{
	struct send_job *j = arg;

	job_end(j, j->rc, &j->err);
}

/* The turn did not come in time: nothing was typed. */
static void
job_busy(struct send_job *j, const struct lock_owner *owner)
{
	struct aiterm_error err = ERROR_INIT;

	errtally_note(ERRTALLY_SESSION_BUSY);
	if (owner != NULL)
		error_set(&err, "session busy: another sender (pid %ld) holds "
		    "%s; nothing was typed", owner->pid, j->lock);
	else
		error_set(&err, "session busy: %u earlier send%s to this "
		    "session %s not done (a waited command keeps the session "
		    "until it ends); nothing was typed",
		    sendq_ahead(&j->slot), sendq_ahead(&j->slot) == 1 ? "" :
		    "s", sendq_ahead(&j->slot) == 1 ? "is" : "are");
	job_end(j, -1, &err);
	error_clear(&err);
}

/*
 * A lock whose owner is gone is taken over (lock_take_over: under a
 * guard, only while it still names that owner, ABA); said in the log.
 */
static int
take_over(struct send_job *j, struct lock_owner *owner,
    struct aiterm_error *err)
{
	struct lock_owner gone = *owner;
	int st;

	errtally_note(ERRTALLY_LOCK_STALE);
	st = lock_take_over(j->lock, &gone, owner, err);
	j->took_over = st == LOCK_ACQUIRED;
	if (st == LOCK_ACQUIRED)
		host_get()->log(AITERM_LOG_WARNING, "send", "took over the "
		    "send lock %s left by pid %ld (start %s), which is gone",
		    j->lock, gone.pid, gone.start);
	return st;
}

/* Try the lock once: 1 when the job ended or went on, 0 to try again. */
static int
job_try(struct send_job *j)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	int st;

	st = lock_acquire(j->lock, &owner, &err);
	if (st == LOCK_STALE)
		st = take_over(j, &owner, &err);
	if (st == LOCK_HELD && uv_now(core_loop()) < j->deadline)
		return 0;
	uv_timer_stop(&j->timer);
	if (st == LOCK_ACQUIRED) {
		j->locked = true;
		j->stage = JOB_TYPING;
		muxjob_run(locked_work, locked_done, j);
	} else if (st == LOCK_HELD) {
		job_busy(j, &owner);
	} else {
		if (st == LOCK_STALE)
			error_set(&err, "stale send lock %s: its owner (pid "
			    "%ld) is gone and another process is taking it "
			    "over; nothing was typed", j->lock, owner.pid);
		job_end(j, -1, &err);
	}
	error_clear(&err);
	return 1;
}

static void
on_retry(uv_timer_t *t)
{
	job_try(t->data);
}

/* On the multiplexer's thread: the session, the route, the line. */
static void
prepare_work(void *arg)
{
	struct send_job *j = arg;
	const struct send_request *req = &j->req;
	struct aiterm_pane_info info;

	j->rc = -1;
	if (send_check_session(req->session, &j->out.meta, &info,
	    &j->err) != 0)
		return;
	j->out.shell_pid = info.pid;
	route(req, &info, &j->out);
	if (j->out.route == SEND_NESTED)
		apply_prompt(&j->out, req->session);
	j->rc = build_line(req, &j->out, &j->line, &j->err);
	j->enter = wants_enter(req, j->out.route, &j->line);
	if (j->rc == 0 && j->out.route == SEND_DIRECT && !req->raw)
		j->out.typed = xstrndup(buf_str(&j->line), j->line.len);
}

static void
prepare_done(void *arg)
{
	struct send_job *j = arg;

	if (j->rc != 0) {
		job_end(j, -1, &j->err);
		return;
	}
	j->stage = JOB_LOCKING;
	j->lock = session_path(j->req.session, "send.lock");
	if (job_try(j) == 0)
		uv_timer_start(&j->timer, on_retry, LOCK_RETRY_MS,
		    LOCK_RETRY_MS);
}

/* Its turn in this server's queue has come. */
static void
job_go(struct sendq_slot *slot)
{
	struct send_job *j = (struct send_job *)((char *)slot -
	    offsetof(struct send_job, slot));

	uv_timer_stop(&j->timer);
	j->stage = JOB_PREPARING;
	muxjob_run(prepare_work, prepare_done, j);
}

static void
on_turn_deadline(uv_timer_t *t)
{
	struct send_job *j = t->data;

	if (j->stage == JOB_QUEUED)
		job_busy(j, NULL);
}

struct send_job *
send_text_async(const struct send_request *req, send_cb cb, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct send_job *j = xcalloc(1, sizeof *j);
	unsigned turn_ms = req->turn_ms > 0 ? req->turn_ms : SEND_TURN_WAIT_MS;

	j->req = *req;
	j->req.session = xstrdup(req->session != NULL ? req->session : "");
	j->req.text = xmalloc(req->len + 1);
	memcpy((char *)j->req.text, req->text, req->len);
	((char *)j->req.text)[req->len] = '\0';
	j->cb = cb;
	j->arg = arg;
	uv_timer_init(core_loop(), &j->timer);
	j->timer.data = j;
	if (req->len > SEND_MAX_BYTES) {
		error_set(&err, "text is %zu bytes; the limit is %d bytes (64 "
		    "KiB): split it or write it to a file first", req->len,
		    SEND_MAX_BYTES);
		job_end(j, -1, &err);
		error_clear(&err);
		return NULL;
	}
	j->stage = JOB_QUEUED;
	j->deadline = uv_now(core_loop()) + turn_ms;
	uv_timer_start(&j->timer, on_turn_deadline, turn_ms, 0);
	sendq_join(&j->slot, j->req.session, job_go);
	return j;
}

void
send_cancel(struct send_job *j)
{
	switch (j->stage) {
	case JOB_QUEUED:
	case JOB_LOCKING:
		uv_timer_stop(&j->timer);
		job_fail(j, "cancelled; nothing was typed");
		break;
	case JOB_PREPARING:	/* on its way: typed as if asked before */
	case JOB_TYPING:
	case JOB_HELD:
		break;
	}
}

void
send_release(struct send_job *j)
{
	if (j != NULL)
		job_free(j);
}

void
send_outcome_free(struct send_outcome *out)
{
	free(out->typed);
	out->typed = NULL;
}
