#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "plugin/host.h"
#include "proc/proc.h"
#include "pty/muxjob.h"
#include "pty/send.h"
#include "shell/posix-eval.h"
#include "shell/pwsh.h"
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

#define LOCK_WAIT_MS	2000	/* a busy send lock is waited for */
#define LOCK_RETRY_MS	5	/* tried again this often, from a timer */

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
	}
	if (req->raw || !req->enter) {
		/* Typed as is: only our own prompt hook can still mark it. */
		if (out->cmd.mark == MARK_SENTINEL)
			out->cmd.mark = MARK_NONE;
		if (!req->enter)
			out->cmd.mark = MARK_NONE;
	}
}

static void
apply_prompt_dialect(struct send_outcome *out, const char *session)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf screen = BUF_INIT;
	const struct aiterm_mux_ops *mux = session_mux(&err);

	/* An ssh target showing a PowerShell prompt now speaks PowerShell. */
	if (mux != NULL && mux->capture(host_get(), session, &screen,
	    &err) == 0 && shell_dialect_from_prompt(buf_str(&screen)) ==
	    SHELL_POWERSHELL)
		out->cmd.dialect = SHELL_POWERSHELL;
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
		if (shell_sanitize(req->text, req->len, &clean, err) != 0)
			return -1;
		text = buf_str(&clean);
		len = clean.len;
	}
	/* A trailing newline means "and run it", as enter does. */
	while (len > 0 && text[len - 1] == '\n' && !req->raw)
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
		size_t before = line->len;

		session_random_hex(out->cmd.nonce, SESSION_TOKEN_LEN);
		rc = sentinel_build(out->cmd.dialect, out->cmd.nonce, line,
		    err);
		if (rc == 0)
			out->echo_suffix = xstrndup(line->data + before,
			    line->len - before);
	}
	buf_free(&clean);
	return rc;
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

static void
count_done(void *arg, const struct osc133_mark *m)
{
	if (m->kind == 'D' && m->has_exit)
		(*(unsigned *)arg)++;
}

/* Our D marks (the session token) in the log between from and to. */
static unsigned
done_marks_between(const char *log, const char *token, uint64_t from,
    uint64_t to)
{
	char chunk[65536];
	struct render r;
	unsigned n = 0;
	ssize_t got;
	int fd = open(log, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	render_init(&r, from, REGION_OUTPUT, token, NULL);
	r.on_mark = count_done;
	r.arg = &n;
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
	return n;
}

/*
 * How many end marks come before ours: a command typed while earlier
 * ones have not run yet (two senders, or a send without waiting) waits
 * in the terminal, and the D marks of those earlier commands arrive
 * first.  The previous record says how many it was owed; what the log
 * shows since it was sent has been paid.
 */
static unsigned
marks_ahead(const char *session, const char *log, const char *token,
    uint64_t now)
{
	struct session_command prev;
	unsigned owed, seen;

	if (session_command_read(session, &prev) != 0 || prev.done ||
	    prev.mark != MARK_INTEGRATION || prev.offset > now)
		return 0;
	owed = prev.ahead + 1;
	seen = done_marks_between(log, token, prev.offset, now);
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
 * A send.  What needs the multiplexer (the session checked, the route,
 * the prompt's dialect; then, holding the lock, the command's record and
 * the typing) runs on the multiplexer's thread (pty/muxjob.h); the lock
 * is tried from the loop, again from a timer every LOCK_RETRY_MS while
 * another sender holds it, never by sleeping, up to LOCK_WAIT_MS.
 */
struct send_job {
	struct send_request	 req;	/* its strings are the job's copies */
	struct send_outcome	 out;
	struct aiterm_buf	 line;
	char			*lock;
	uv_timer_t		 timer;
	int			 waited;
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

/* The job is over: its callback, then its timer and memory go. */
static void
job_end(struct send_job *j, int status, const struct aiterm_error *err)
{
	j->cb(j->arg, status, status == 0 ? NULL : err, &j->out);
	uv_timer_stop(&j->timer);
	uv_close((uv_handle_t *)&j->timer, job_closed);
}

/* On the multiplexer's thread, holding the lock: record, type, unlock. */
static void
locked_work(void *arg)
{
	struct send_job *j = arg;
	const struct send_request *req = &j->req;
	struct send_outcome *out = &j->out;
	char *log = session_path(req->session, "output.log");
	struct stat st;

	out->cmd.offset = log != NULL && stat(log, &st) == 0 ?
	    (uint64_t)st.st_size : 0;
	out->cmd.sent_ms = session_now_ms();
	out->cmd.exit_code = -1;
	if (out->cmd.mark == MARK_INTEGRATION)
		out->cmd.ahead = marks_ahead(req->session, log,
		    out->meta.token, out->cmd.offset);
	if (req->enter)
		save_last_command(req->session, req->text, req->len);
	j->rc = session_command_write(req->session, &out->cmd, &j->err);
	if (j->rc == 0)
		j->rc = type_line(req->session, buf_str(&j->line),
		    j->line.len, req->enter, &j->err);
	lock_release(j->lock, NULL);
	free(log);
}

static void
locked_done(void *arg)
{
	struct send_job *j = arg;

	job_end(j, j->rc, &j->err);
}

/* Try the lock once: 1 when the job ended or went on, 0 to try again. */
static int
job_try(struct send_job *j)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	int st;

	st = lock_acquire(j->lock, &owner, &err);
	if (st == LOCK_HELD && j->waited < LOCK_WAIT_MS)
		return 0;
	uv_timer_stop(&j->timer);
	if (st == LOCK_ACQUIRED) {
		muxjob_run(locked_work, locked_done, j);
		error_clear(&err);
		return 1;
	}
	if (st == LOCK_STALE) {
		errtally_note(ERRTALLY_LOCK_STALE);
		error_set(&err, "stale send lock %s: its owner (pid %ld, start "
		    "%s) is gone. It is not removed automatically; recover "
		    "with pty_close on this session and pty_open with the "
		    "same name", j->lock, owner.pid, owner.start);
	} else if (st == LOCK_HELD) {
		errtally_note(ERRTALLY_SESSION_BUSY);
		error_set(&err, "session busy: another sender (pid %ld) holds "
		    "%s", owner.pid, j->lock);
	}
	job_end(j, -1, &err);
	error_clear(&err);
	return 1;
}

static void
on_retry(uv_timer_t *t)
{
	struct send_job *j = t->data;

	j->waited += LOCK_RETRY_MS;
	job_try(j);
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
		apply_prompt_dialect(&j->out, req->session);
	j->rc = build_line(req, &j->out, &j->line, &j->err);
}

static void
prepare_done(void *arg)
{
	struct send_job *j = arg;

	if (j->rc != 0) {
		job_end(j, -1, &j->err);
		return;
	}
	j->lock = session_path(j->req.session, "send.lock");
	if (job_try(j) == 0)
		uv_timer_start(&j->timer, on_retry, LOCK_RETRY_MS,
		    LOCK_RETRY_MS);
}

void
send_text_async(const struct send_request *req, send_cb cb, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct send_job *j = xcalloc(1, sizeof *j);

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
		return;
	}
	muxjob_run(prepare_work, prepare_done, j);
}

void
send_outcome_free(struct send_outcome *out)
{
	free(out->echo_suffix);
	out->echo_suffix = NULL;
}
