/* One supervised run in child mode (SUP-RUN, ADR 0023). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/run/killtree.h"
#include "cli/run/pty.h"
#include "cli/run/scope.h"
#include "cli/run/supervisor.h"
#include "proc/proc.h"
#include "pty/session.h"
#include "util/xmalloc.h"

/* How often the end of the tree is looked for once the child exited. */
#define SWEEP_MS	20

struct out_pipe {
	uv_pipe_t	 pipe;
	int		 log_fd;	/* stdout.log / stderr.log */
	int		 our_fd;	/* passthrough target, -1 none */
	bool		 open;
};

struct sup {
	const struct run_options *o;
	struct run_record	*rec;
	uv_loop_t		*loop;
	uv_process_t		 proc;
	uv_pipe_t		 in;		/* with o->input */
	uv_write_t		 in_write;
	struct out_pipe		 out[2];
	uv_timer_t		 overall, quiet, grace, sweep;
	uv_signal_t		 sigs[3];
	uv_signal_t		 sigchld;	/* PTY mode */
	bool			 exited;	/* the child exited */
	bool			 killed;	/* KILL was sent */
	bool			 done;
	long long		 tree_gone_ms;	/* 0 until then */
	int			 signum;
	struct aiterm_error	*err;
	int			 rc;
};

static void
note(struct sup *s)
{
	struct aiterm_error e = ERROR_INIT;

	/* A record that cannot be written is reported once, at the end. */
	if (run_record_write(s->rec, &e) != 0 && s->rc == 0) {
		error_set(s->err, "%s", error_msg(&e));
		s->rc = -1;
	}
	error_clear(&e);
}

static void
kill_now(uv_timer_t *t)
{
	struct sup *s = t->data;

	s->killed = true;
	killtree_signal(s->rec->pgid, SIGKILL);
}

/* End the run's tree for this reason: TERM now, KILL after the grace. */
static void
terminate(struct sup *s, enum run_reason why)
{
	if (s->rec->state == RUN_EXITING || s->rec->state == RUN_EXITED)
		return;
	s->rec->reason = why;
	s->rec->state = RUN_EXITING;
	note(s);
	killtree_signal(s->rec->pgid, SIGTERM);
	uv_timer_start(&s->grace, kill_now, (uint64_t)s->o->grace_ms, 0);
}

static void
on_overall(uv_timer_t *t)
{
	terminate(t->data, RUN_REASON_OVERALL_TIMEOUT);
}

static void
on_quiet(uv_timer_t *t)
{
	terminate(t->data, RUN_REASON_NO_OUTPUT_TIMEOUT);
}

static void
on_signal(uv_signal_t *h, int signum)
{
	struct sup *s = h->data;
	char *mark = run_path(s->rec->run_id, RUN_REPLACED_FILE);

	if (s->signum == 0)
		s->signum = signum;
	terminate(s, access(mark, F_OK) == 0 ? RUN_REASON_REPLACED :
	    RUN_REASON_MANUAL_CANCEL);
	free(mark);
}

/* 0, or -1 when fd took no more (a closed pipe: EPIPE, SIGPIPE ignored). */
static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (fd >= 0 && len > 0) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	static char chunk[65536];

	(void)h;
	(void)suggested;
	buf->base = chunk;
	buf->len = sizeof chunk;
}

static void maybe_finish(struct sup *s);

static void
pipe_closed(uv_handle_t *h)
{
	struct sup *s = h->data;

	maybe_finish(s);
}

static void
close_pipe(struct sup *s, struct out_pipe *p)
{
	if (!p->open)
		return;
	p->open = false;
	uv_read_stop((uv_stream_t *)&p->pipe);
	p->pipe.data = s;
	uv_close((uv_handle_t *)&p->pipe, pipe_closed);
}

static void
read_cb(uv_stream_t *stream, ssize_t n, const uv_buf_t *buf)
{
	struct sup *s = stream->data;
	struct out_pipe *p = (struct out_pipe *)stream;

	if (n > 0) {
		write_all(p->log_fd, buf->base, (size_t)n);
		/* Whoever read our output went away: the log still has it. */
		if (write_all(p->our_fd, buf->base, (size_t)n) != 0)
			p->our_fd = -1;
		s->rec->last_output_ms = session_now_ms();
		if (s->rec->state == RUN_RUNNING)
			uv_timer_again(&s->quiet);
	} else if (n < 0)
		close_pipe(s, p);
}

static void
handle_closed(uv_handle_t *h)
{
	(void)h;
}

/* Once the child exited: is anything of its tree left? */
static void
on_sweep(uv_timer_t *t)
{
	struct sup *s = t->data;
	long long now = session_now_ms();

	killtree_reap();
	if (s->tree_gone_ms == 0 && !killtree_any_alive() &&
	    (s->rec->pgid <= 1 || kill(-(pid_t)s->rec->pgid, 0) != 0))
		s->tree_gone_ms = now;
	/* A writer outside the tree (no subreaper) must not hold us. */
	if (s->tree_gone_ms != 0 && now - s->tree_gone_ms > 1000) {
		close_pipe(s, &s->out[0]);
		close_pipe(s, &s->out[1]);
	}
	maybe_finish(s);
}

static void
child_ended(struct sup *s, int64_t status, int term_signal)
{
	unsigned left;

	s->exited = true;
	if (term_signal != 0)
		s->rec->exit_signal = term_signal;
	else {
		s->rec->has_exit_code = true;
		s->rec->exit_code = (int)status;
	}
	if (s->rec->reason == RUN_REASON_NONE)
		s->rec->reason = term_signal != 0 ? RUN_REASON_SIGNAL :
		    RUN_REASON_EXIT;
	uv_timer_stop(&s->overall);
	uv_timer_stop(&s->quiet);
	/* What it left behind is ended too: no grandchild survives. */
	if (s->rec->state == RUN_RUNNING) {
		left = killtree_signal(s->rec->pgid, SIGTERM);
		if (left > 0) {
			s->rec->leftovers_killed = left;
			s->rec->state = RUN_EXITING;
			note(s);
			uv_timer_start(&s->grace, kill_now,
			    (uint64_t)s->o->grace_ms, 0);
		}
	}
	uv_timer_start(&s->sweep, on_sweep, 0, SWEEP_MS);
}

static void
on_child_exit(uv_process_t *p, int64_t status, int term_signal)
{
	uv_close((uv_handle_t *)p, handle_closed);
	child_ended(p->data, status, term_signal);
}

/* PTY mode: the child is ours, not libuv's; SIGCHLD says it may be done. */
static void
on_sigchld(uv_signal_t *h, int signum)
{
	struct sup *s = h->data;
	int st;

	(void)signum;
	if (s->exited || waitpid((pid_t)s->rec->pid, &st, WNOHANG) !=
	    (pid_t)s->rec->pid)
		return;
	uv_signal_stop(h);
	child_ended(s, WIFEXITED(st) ? WEXITSTATUS(st) : 0,
	    WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void
maybe_finish(struct sup *s)
{
	size_t i;

	if (s->done || !s->exited || s->tree_gone_ms == 0 || s->out[0].open ||
	    s->out[1].open || uv_is_active((uv_handle_t *)&s->proc))
		return;
	s->done = true;
	s->rec->state = RUN_EXITED;
	s->rec->ended_ms = session_now_ms();
	note(s);
	uv_close((uv_handle_t *)&s->overall, handle_closed);
	uv_close((uv_handle_t *)&s->quiet, handle_closed);
	uv_close((uv_handle_t *)&s->grace, handle_closed);
	uv_close((uv_handle_t *)&s->sweep, handle_closed);
	for (i = 0; i < 3; i++)
		uv_close((uv_handle_t *)&s->sigs[i], handle_closed);
	uv_close((uv_handle_t *)&s->sigchld, handle_closed);
	for (i = 0; i < 2; i++)
		close(s->out[i].log_fd);
}

static int
open_log(const char *run_id, const char *name, struct aiterm_error *err)
{
	char *path = run_path(run_id, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

	if (fd < 0)
		error_set(err, "%s: %s", path, strerror(errno));
	free(path);
	return fd;
}

static void
record_init(struct run_record *rec, const struct run_options *o)
{
	char hex[13];
	size_t i;

	memset(rec, 0, sizeof *rec);
	session_random_hex(hex, 12);
	hex[12] = '\0';
	snprintf(rec->run_id, sizeof rec->run_id, "run-%s", hex);
	snprintf(rec->backend, sizeof rec->backend, "%s", o->backend);
	snprintf(rec->scope, sizeof rec->scope, "%s", o->scope != NULL ?
	    o->scope : "");
	snprintf(rec->mode, sizeof rec->mode, "%s", o->pty ? "pty" : "child");
	snprintf(rec->session_id, sizeof rec->session_id, "%s",
	    o->session_id != NULL ? o->session_id : "");
	rec->argv = json_array();
	for (i = 0; o->argv[i] != NULL; i++)
		json_array_append_new(rec->argv, json_string(o->argv[i]));
	rec->cwd = o->cwd != NULL ? xstrdup(o->cwd) : getcwd(NULL, 0);
	rec->supervisor_pid = (long)getpid();
	proc_start_id(rec->supervisor_pid, rec->supervisor_start_id,
	    sizeof rec->supervisor_start_id);
	rec->started_ms = session_now_ms();
	rec->timeout_ms = o->timeout_ms;
	rec->no_output_timeout_ms = o->no_output_timeout_ms;
	rec->state = RUN_STARTING;
}

static void
input_written(uv_write_t *w, int status)
{
	(void)status;	/* a child that does not read: its business */
	uv_close((uv_handle_t *)w->handle, handle_closed);
}

/* The prompt on stdin, then end of file. */
static void
feed_input(struct sup *s)
{
	uv_buf_t b = uv_buf_init((char *)s->o->input,
	    (unsigned)strlen(s->o->input));

	if (uv_write(&s->in_write, (uv_stream_t *)&s->in, &b, 1,
	    input_written) != 0)
		uv_close((uv_handle_t *)&s->in, handle_closed);
}

/* PTY mode: one stream, the terminal's; stderr.log stays empty. */
static int
spawn_pty(struct sup *s)
{
	struct aiterm_error e = ERROR_INIT;
	int master, exec_errno;
	long pid;

	s->out[1].open = false;
	if (run_pty_spawn(s->o->argv, s->o->cwd, s->o->cols, s->o->rows,
	    &master, &pid, &exec_errno, &e) != 0) {
		snprintf(s->rec->error, sizeof s->rec->error, "%s",
		    error_msg(&e));
		error_clear(&e);
		s->rec->reason = RUN_REASON_SPAWN_ERROR;
		s->rec->has_exit_code = true;
		s->rec->exit_code = exec_errno == ENOENT ? 127 : 126;
		return -1;
	}
	s->rec->pid = s->rec->pgid = pid;
	proc_start_id(pid, s->rec->start_id, sizeof s->rec->start_id);
	uv_pipe_init(s->loop, &s->out[0].pipe, 0);
	s->out[0].pipe.data = s;
	s->out[0].open = true;
	uv_pipe_open(&s->out[0].pipe, master);
	uv_signal_start(&s->sigchld, on_sigchld, SIGCHLD);
	uv_read_start((uv_stream_t *)&s->out[0].pipe, alloc_cb, read_cb);
	return 0;
}

static int
spawn(struct sup *s)
{
	uv_process_options_t po;
	uv_stdio_container_t stdio[3];
	int rc, i;

	if (s->o->pty)
		return spawn_pty(s);
	memset(&po, 0, sizeof po);
	stdio[0].flags = UV_IGNORE;
	if (s->o->input != NULL) {
		uv_pipe_init(s->loop, &s->in, 0);
		stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
		stdio[0].data.stream = (uv_stream_t *)&s->in;
	}
	for (i = 0; i < 2; i++) {
		uv_pipe_init(s->loop, &s->out[i].pipe, 0);
		s->out[i].pipe.data = s;
		s->out[i].open = true;
		stdio[i + 1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
		stdio[i + 1].data.stream = (uv_stream_t *)&s->out[i].pipe;
	}
	po.file = s->o->argv[0];
	po.args = (char **)s->o->argv;
	po.cwd = s->o->cwd;
	po.stdio = stdio;
	po.stdio_count = 3;
	po.exit_cb = on_child_exit;
	/* setsid(): its own session and process group, pgid = pid. */
	po.flags = UV_PROCESS_DETACHED;
	s->proc.data = s;
	rc = uv_spawn(s->loop, &s->proc, &po);
	if (rc != 0) {
		snprintf(s->rec->error, sizeof s->rec->error, "%s: %s",
		    s->o->argv[0], uv_strerror(rc));
		s->rec->reason = RUN_REASON_SPAWN_ERROR;
		s->rec->has_exit_code = true;
		s->rec->exit_code = rc == UV_ENOENT ? 127 : 126;
		/* libuv initialised the handle: it is closed like any. */
		uv_close((uv_handle_t *)&s->proc, handle_closed);
		for (i = 0; i < 2; i++)
			close_pipe(s, &s->out[i]);
		if (s->o->input != NULL)
			uv_close((uv_handle_t *)&s->in, handle_closed);
		return -1;
	}
	if (s->o->input != NULL)
		feed_input(s);
	s->rec->pid = s->rec->pgid = (long)s->proc.pid;
	proc_start_id(s->rec->pid, s->rec->start_id, sizeof s->rec->start_id);
	for (i = 0; i < 2; i++)
		uv_read_start((uv_stream_t *)&s->out[i].pipe, alloc_cb, read_cb);
	return 0;
}

int
run_supervise(uv_loop_t *loop, const struct run_options *o,
    struct run_record *rec, int *signum, struct aiterm_error *err)
{
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct sup s;
	size_t i;

	memset(&s, 0, sizeof s);
	s.o = o;
	s.rec = rec;
	s.loop = loop;
	s.err = err;
	record_init(rec, o);
	if (run_dir_create(rec->run_id, err) != 0)
		return -1;
	s.out[0].log_fd = open_log(rec->run_id, "stdout.log", err);
	s.out[1].log_fd = open_log(rec->run_id, "stderr.log", err);
	if (s.out[0].log_fd < 0 || s.out[1].log_fd < 0 ||
	    run_record_write(rec, err) != 0) {
		if (s.out[0].log_fd >= 0)
			close(s.out[0].log_fd);
		if (s.out[1].log_fd >= 0)
			close(s.out[1].log_fd);
		return -1;
	}
	s.out[0].our_fd = o->passthrough && !o->keep_stdout ? STDOUT_FILENO :
	    -1;
	s.out[1].our_fd = o->passthrough ? STDERR_FILENO : -1;
	proc_become_subreaper();
	/* A closed stdout must not end the supervisor (the child keeps its). */
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < 3; i++) {
		uv_signal_init(loop, &s.sigs[i]);
		s.sigs[i].data = &s;
		uv_signal_start(&s.sigs[i], on_signal, sigs[i]);
	}
	uv_signal_init(loop, &s.sigchld);
	s.sigchld.data = &s;
	uv_timer_init(loop, &s.overall);
	uv_timer_init(loop, &s.quiet);
	uv_timer_init(loop, &s.grace);
	uv_timer_init(loop, &s.sweep);
	s.overall.data = s.quiet.data = s.grace.data = s.sweep.data = &s;
	/* A newer run of the scope ends the older ones first. */
	if (o->scope != NULL)
		run_scope_replace(loop, rec);
	if (spawn(&s) != 0) {
		s.exited = true;
		s.tree_gone_ms = session_now_ms();
	} else {
		rec->state = RUN_RUNNING;
		note(&s);
		/* PTY mode: it may have ended before SIGCHLD was watched. */
		if (o->pty)
			on_sigchld(&s.sigchld, SIGCHLD);
		uv_timer_start(&s.overall, on_overall,
		    (uint64_t)o->timeout_ms, 0);
		uv_timer_start(&s.quiet, on_quiet,
		    (uint64_t)o->no_output_timeout_ms,
		    (uint64_t)o->no_output_timeout_ms);
	}
	maybe_finish(&s);
	uv_run(loop, UV_RUN_DEFAULT);
	*signum = s.signum;
	return s.rc;
}
