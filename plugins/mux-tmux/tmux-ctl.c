/*
 * The control client: one "tmux -C" kept running next to the private
 * server, so that an op costs a line written and a reply read instead of
 * a new tmux process (about 9 ms each).
 *
 * Which session it sits on.  It is attached to a hidden session of its
 * own, TX_CTL_SESSION, whose pane runs cat and so prints nothing; it is
 * never attached to a user's session, so no %output of theirs comes to
 * it.  list() hides names starting with TX_RESERVED_PREFIX and ids may
 * not use it.
 *
 * Who starts the server.  Never this client: it is started only when the
 * socket accepts a connection, and with -N (tmux 3.2 and later) so that
 * even a server that died in between is not started again by it.  The
 * server is only ever started by create's one-shot client and, like any
 * tmux server, detaches itself, so it outlives aiterm-mcp.  The client
 * dies with aiterm-mcp: its stdin is a pipe only we hold (FD_CLOEXEC),
 * and tmux ends a control client at the end of its input.
 *
 * The protocol (tmux(1), CONTROL MODE).  A command list goes as one line
 * for tmux's command parser (tx_argv_line quotes every word).  Each
 * command answers with "%begin T N F", its output lines, and "%end T N F"
 * or "%error T N F" with the same T N F; the first error ends the list,
 * so a list of n commands gets n blocks or fewer, the last an %error.
 * Commands read from the client have F = 1; blocks with F = 0 (the attach
 * command, hooks) and the notifications between blocks (%sessions-changed,
 * %window-add, %exit...) are skipped.  Output lines are not escaped, so a
 * pane could show a line that looks like a guard: only the exact closing
 * guard of the open block closes it.
 *
 * When it goes wrong.  Every wait is bounded by tx_ctl_timeout_ms (5 s).
 * A client whose output ends is reaped and the next op starts a new one.
 * A client that gives no answer in time is kept (issue 37): the op fails,
 * and until the answers it owes have come, every later op fails at once
 * and sends nothing, and no other client is started.  tmux 3.3a (a
 * stopped server, SIGSTOP) dies on resume when it finds clients that
 * connected meanwhile and were killed: it attaches them, runs what they
 * sent and drops them at once, all in one go, and a notification reaches
 * a control client without its control state (the crash of ADR 0020,
 * doc/reliability.md).  Killing the stalled client and starting new ones,
 * as before, left it exactly that.  A client started under the creation
 * lock keeps the lock until its first answer, even across ops.
 *
 * The client process only passes its stdin and stdout to the server,
 * which then reads our pipe itself: the line in flight runs when the
 * server resumes.  So tx_run sends a command again by a one-shot client
 * only when resending is harmless or the line never got out
 * (TX_CTL_UNSENT).
 *
 * AITERM_TMUX_CONTROL=0 turns the control client off (every op a one-shot
 * client, as before it existed); AITERM_TMUX_CONTROL_TIMEOUT_MS changes
 * the timeout.  Both are read on every op, for tests and benchmarks.
 *
 * The ops are called from one thread: this state is not locked.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mux-tmux.h"

extern char **environ;

#define TX_CTL_SESSION		TX_RESERVED_PREFIX "_ctl"
#define TX_CTL_TIMEOUT_MS	5000L
/* After a client that never answered, one-shot clients for this long. */
#define TX_CTL_RETRY_MS		1000LL
/* How long an op waits for the answers a stalled client still owes. */
#define TX_CTL_CATCH_UP_MS	250L

struct tx_ctl {
	pid_t		 pid;		/* the client, -1 when there is none */
	int		 in;		/* our end of its stdin: commands */
	int		 out;		/* our end of its stdout: replies */
	char		 binary[512];	/* the tmux it runs */
	char		 socket[512];	/* the server it is attached to */
	struct tx_str	 rbuf;		/* read, not yet taken as lines */
	size_t		 rpos;		/* where the first untaken line starts */
	int		 answered;	/* it has answered at least once */
	int		 locked;	/* holds the creation lock until then */
	long long	 retry_ms;	/* start no client before this time */
	/* The line in flight: its answers, as far as they were read. */
	size_t		 owed;		/* commands not answered yet */
	long long	 sent_ms;	/* when it was sent */
	int		 open;		/* inside a %begin block */
	int		 ours;		/* that block answers our line */
	char		 guard[96];	/* its "T N F", to match its end */
};

static struct tx_ctl tx_ctl = { .pid = -1, .in = -1, .out = -1 };

/*
 * Counts every notification read between blocks and every start and stop
 * of a client (tmux-view.c: a view taken at one count is stale at any
 * other); tx_ctl_answered_line says whether the last tx_ctl_run was
 * answered by the client.
 */
static unsigned long long tx_ctl_gen;
static int tx_ctl_last_done;

unsigned long long
tx_ctl_generation(void)
{
	return tx_ctl_gen;
}

int
tx_ctl_answered_line(void)
{
	return tx_ctl_last_done;
}

long long
tx_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
tx_ctl_enabled(void)
{
	const char *env = getenv("AITERM_TMUX_CONTROL");

	return env == NULL || strcmp(env, "0") != 0;
}

long
tx_ctl_timeout_ms(void)
{
	const char *env = getenv("AITERM_TMUX_CONTROL_TIMEOUT_MS");
	char *end;
	long ms = TX_CTL_TIMEOUT_MS;

	if (env != NULL && *env != '\0') {
		ms = strtol(env, &end, 10);
		if (*end != '\0' || ms <= 0 || ms > 600000)
			ms = TX_CTL_TIMEOUT_MS;
	}
	return ms;
}

/* Nonzero when a server accepts connections on path. */
static int
tx_server_up(const char *path)
{
	struct sockaddr_un sun;
	int fd, up = 0;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	/* tx_server_get has checked that the path fits. */
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd >= 0) {
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		up = connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0;
		close(fd);
	}
	return up;
}

/* A pipe closed on exec, with our end (0 or 1) non-blocking. */
static int
tx_ctl_pipe(int fds[2], int ours)
{
	int rc = pipe(fds);

	if (rc == 0) {
		fcntl(fds[0], F_SETFD, FD_CLOEXEC);
		fcntl(fds[1], F_SETFD, FD_CLOEXEC);
		fcntl(fds[ours], F_SETFL,
		    fcntl(fds[ours], F_GETFL) | O_NONBLOCK);
	}
	return rc;
}

void
tx_ctl_stop(void)
{
	pid_t r;

	if (tx_ctl.in >= 0)
		close(tx_ctl.in);
	if (tx_ctl.out >= 0)
		close(tx_ctl.out);
	tx_ctl.in = tx_ctl.out = -1;
	tx_ctl_gen++;
	if (tx_ctl.pid > 0) {
		/*
		 * Only a child still ours is killed: once reaped (here, or
		 * by someone's waitpid(-1)) its PID may be another process.
		 */
		do
			r = waitpid(tx_ctl.pid, NULL, WNOHANG);
		while (r < 0 && errno == EINTR);
		if (r == 0) {
			kill(tx_ctl.pid, SIGKILL);
			while (waitpid(tx_ctl.pid, NULL, 0) < 0 &&
			    errno == EINTR)
				;
		}
	}
	/* Stored whole: an unload on another thread may read it (below). */
	__atomic_store_n(&tx_ctl.pid, -1, __ATOMIC_RELAXED);
	tx_str_free(&tx_ctl.rbuf);
	tx_ctl.rpos = 0;
	tx_ctl.owed = 0;
	tx_ctl.open = 0;
	if (tx_ctl.locked)
		tx_lock_drop();
	tx_ctl.locked = 0;
}

/*
 * The client is the multiplexer thread's, but the unload runs on the
 * thread that exits or unloads the plugin: a command of the other thread
 * may be in flight then (`aiterm read --wait` exiting while its mux
 * thread read a pane: under AddressSanitizer both stopped the client and
 * freed its buffer twice).  A run holds tx_ctl_mu; an unload that cannot
 * have it only kills the client, and leaves the rest to the run.
 */
static pthread_mutex_t tx_ctl_mu = PTHREAD_MUTEX_INITIALIZER;

static void __attribute__((destructor))
tx_ctl_unload(void)
{
	pid_t pid;

	if (pthread_mutex_trylock(&tx_ctl_mu) == 0) {
		tx_ctl_stop();
		pthread_mutex_unlock(&tx_ctl_mu);
		return;
	}
	pid = __atomic_load_n(&tx_ctl.pid, __ATOMIC_RELAXED);
	if (pid > 0 && waitpid(pid, NULL, WNOHANG) == 0)
		kill(pid, SIGKILL);
}

/* Start a client for srv; 0, or -1 when none could start (or no server). */
static int
tx_ctl_start(const struct aiterm_host *host, const struct tx_server *srv)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	const char *argv[20];
	char version[64];
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 };
	int has_n, e, i, n = 0, rc = -1;
	pid_t pid;

	if (!tx_server_up(srv->socket))
		goto out;
	if (tx_version(host, srv, version, sizeof version, &has_n, NULL) != 0)
		goto out_fail;
	if (tx_ctl_pipe(inp, 1) != 0 || tx_ctl_pipe(outp, 0) != 0) {
		host->log(AITERM_LOG_WARNING, "mux-tmux", "no control client: "
		    "pipe: %s", strerror(errno));
		goto out_fail;
	}
	argv[n++] = srv->binary;
	argv[n++] = "-u";	/* as tmux-run.c: tabs stay tabs */
	argv[n++] = "-S";
	argv[n++] = srv->socket;
	argv[n++] = "-f";
	argv[n++] = srv->config;
	if (tx_version_at_least(version, 3, 2))
		argv[n++] = "-N";
	argv[n++] = "-C";
	argv[n++] = "new-session";
	argv[n++] = "-A";
	argv[n++] = "-s";
	argv[n++] = TX_CTL_SESSION;
	argv[n++] = "--";
	argv[n++] = "/bin/sh";
	argv[n++] = "-c";
	argv[n++] = "exec cat";
	argv[n] = NULL;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, inp[0], 0);
	posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	/* Its own process group: a ^C meant for aiterm-mcp is not for it. */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
	    POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
	e = posix_spawn(&pid, srv->binary, &fa, &attr, (char *const *)argv,
	    environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (e != 0) {
		host->log(AITERM_LOG_WARNING, "mux-tmux", "no control client: "
		    "cannot run %s: %s", srv->binary, strerror(e));
		goto out_fail;
	}
	close(inp[0]);
	close(outp[1]);
	__atomic_store_n(&tx_ctl.pid, pid, __ATOMIC_RELAXED);
	tx_ctl.in = inp[1];
	tx_ctl.out = outp[0];
	snprintf(tx_ctl.binary, sizeof tx_ctl.binary, "%s", srv->binary);
	snprintf(tx_ctl.socket, sizeof tx_ctl.socket, "%s", srv->socket);
	tx_ctl.answered = 0;
	tx_ctl_gen++;
	rc = 0;
	goto out;
out_fail:
	for (i = 0; i < 2; i++) {
		if (inp[i] >= 0)
			close(inp[i]);
		if (outp[i] >= 0)
			close(outp[i]);
	}
	tx_ctl.retry_ms = tx_now_ms() + TX_CTL_RETRY_MS;
out:
	return rc;
}

/* Take in what the client wrote since the last op; 0 while it lives. */
static int
tx_ctl_alive(void)
{
	char chunk[4096];
	ssize_t n;

	for (;;) {
		n = read(tx_ctl.out, chunk, sizeof chunk);
		if (n > 0)
			tx_str_add(&tx_ctl.rbuf, chunk, (size_t)n);
		else if (n < 0 && errno == EINTR)
			continue;
		else
			break;
	}
	return n < 0 && errno == EAGAIN ? 0 : -1;
}

/*
 * Write a whole line by deadline; 0, or -1 when it did not all go (tmux
 * acts on complete lines only, so then nothing of it runs).  SIGPIPE is
 * held back around the write, and one it raised is taken away, so a gone
 * client is an EPIPE here and never ends aiterm-mcp.
 */
static int
tx_ctl_send(const char *data, size_t len, long long deadline)
{
	struct pollfd pfd = { .fd = tx_ctl.in, .events = POLLOUT };
	sigset_t pipe_set, saved, pending;
	long long left;
	size_t off = 0;
	ssize_t n;
	int was_pending, sig;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &saved);
	while (off < len) {
		n = write(tx_ctl.in, data + off, len - off);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN &&
		    (left = deadline - tx_now_ms()) > 0) {
			poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
			continue;
		}
		break;
	}
	sigpending(&pending);
	if (!was_pending && sigismember(&pending, SIGPIPE))
		sigwait(&pipe_set, &sig);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return off == len ? 0 : -1;
}

/*
 * The next line from the client, without its '\n', in *line (good until
 * the next call) and *len: 1, or 0 at the end of its output, or -1 when
 * the deadline passes first.
 */
static int
tx_ctl_getline(long long deadline, const char **line, size_t *len)
{
	struct pollfd pfd = { .fd = tx_ctl.out, .events = POLLIN };
	struct tx_str *b = &tx_ctl.rbuf;
	char chunk[16384], *start = NULL, *nl = NULL;
	long long left;
	ssize_t n;
	int rc = 1;

	while (nl == NULL) {
		if (b->len > tx_ctl.rpos) {
			start = b->data + tx_ctl.rpos;
			nl = memchr(start, '\n', b->len - tx_ctl.rpos);
			if (nl != NULL)
				break;
		}
		/* No whole line: drop what was taken, then read more. */
		if (tx_ctl.rpos > 0) {
			b->len -= tx_ctl.rpos;
			memmove(b->data, b->data + tx_ctl.rpos, b->len);
			b->data[b->len] = '\0';
			tx_ctl.rpos = 0;
		}
		if ((left = deadline - tx_now_ms()) <= 0) {
			rc = -1;
			break;
		}
		if (poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left) < 0 &&
		    errno != EINTR) {
			rc = 0;
			break;
		}
		n = read(tx_ctl.out, chunk, sizeof chunk);
		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
			rc = 0;
			break;
		}
		if (n > 0)
			tx_str_add(b, chunk, (size_t)n);
	}
	if (nl != NULL) {
		*line = start;
		*len = (size_t)(nl - start);
		tx_ctl.rpos += *len + 1;
	}
	return rc;
}

/* Nonzero when line is exactly "<word><guard>". */
static int
tx_ctl_guard(const char *line, size_t len, const char *word,
    const char *guard)
{
	size_t wlen = strlen(word), glen = strlen(guard);

	return len == wlen + glen && memcmp(line, word, wlen) == 0 &&
	    memcmp(line + wlen, guard, glen) == 0;
}

/*
 * Read the answers the line in flight still owes (tx_ctl.owed): the
 * output of each command that succeeded into res->out and an error's text
 * into res->errout (status 1), as a one-shot client would print them.
 * Where it got to is kept in tx_ctl, so a read that timed out can be
 * taken up again by the next op.  Returns 1 when all came, 0 at the end
 * of the client's output, -1 on timeout.
 */
static int
tx_ctl_reply(long long deadline, struct tx_result *res)
{
	struct tx_str text = TX_STR_INIT;
	const char *line, *flags;
	size_t len;
	int r = 1;

	res->status = 0;
	res->blocks = 0;
	while (tx_ctl.owed > 0) {
		if ((r = tx_ctl_getline(deadline, &line, &len)) != 1)
			break;
		if (!tx_ctl.open) {
			/* Anything else between blocks is a notification. */
			if (len > 7 && len - 7 < sizeof tx_ctl.guard &&
			    memcmp(line, "%begin ", 7) == 0) {
				memcpy(tx_ctl.guard, line + 7, len - 7);
				tx_ctl.guard[len - 7] = '\0';
				flags = strrchr(tx_ctl.guard, ' ');
				tx_ctl.ours = flags != NULL &&
				    strcmp(flags, " 1") == 0;
				tx_ctl.open = 1;
				text.len = 0;
			} else
				tx_ctl_gen++;
		} else if (tx_ctl_guard(line, len, "%end ", tx_ctl.guard)) {
			tx_ctl.open = 0;
			if (tx_ctl.ours) {
				tx_str_add(&res->out, text.data, text.len);
				if (res->blocks < TX_BLOCKS_MAX)
					res->ends[res->blocks++] =
					    res->out.len;
				tx_ctl.owed--;
			}
		} else if (tx_ctl_guard(line, len, "%error ", tx_ctl.guard)) {
			tx_ctl.open = 0;
			if (tx_ctl.ours) {
				/* The first error ends the list. */
				tx_str_add(&res->errout, text.data, text.len);
				res->status = 1;
				tx_ctl.owed = 0;
			}
		} else {
			tx_str_add(&text, line, len);
			tx_str_add(&text, "\n", 1);
		}
	}
	tx_str_free(&text);
	return tx_ctl.owed == 0 ? 1 : r;
}

/* The first answer came: a client started under the lock lets it go. */
static void
tx_ctl_answered(void)
{
	tx_ctl.answered = 1;
	if (tx_ctl.locked)
		tx_lock_drop();
	tx_ctl.locked = 0;
}

/*
 * Take in the answers a stalled client still owes, waiting for them at
 * most TX_CTL_CATCH_UP_MS (a server just continued answers in a moment),
 * and throw them away (their op has failed already): 0 when none is owed
 * any more (or the client ended and was reaped), -1 while tmux still has
 * not answered.
 */
static int
tx_ctl_catch_up(const struct aiterm_host *host)
{
	struct tx_result old = TX_RESULT_INIT;
	long wait;
	int r;

	if (tx_ctl.pid <= 0 || tx_ctl.owed == 0)
		return 0;
	wait = tx_ctl_timeout_ms() < TX_CTL_CATCH_UP_MS ?
	    tx_ctl_timeout_ms() : TX_CTL_CATCH_UP_MS;
	r = tx_ctl_reply(tx_now_ms() + wait, &old);
	tx_result_free(&old);
	if (r < 0)
		return -1;
	if (r == 1) {
		host->log(AITERM_LOG_NOTICE, "mux-tmux", "the tmux server "
		    "answered the control client (pid %ld) again after %lld "
		    "ms", (long)tx_ctl.pid, tx_now_ms() - tx_ctl.sent_ms);
		tx_ctl_answered();
	} else
		tx_ctl_stop();
	return 0;
}

long long
tx_ctl_stalled_ms(void)
{
	return tx_ctl.pid > 0 && tx_ctl.owed > 0 ?
	    tx_now_ms() - tx_ctl.sent_ms : 0;
}

static enum tx_ctl_outcome
ctl_run(const struct aiterm_host *host, const struct tx_server *srv,
    const struct tx_argv *cmd, struct tx_result *res)
{
	enum tx_ctl_outcome outcome = TX_CTL_UNSENT;
	long long deadline;
	char *line = NULL;
	int r;

	tx_ctl_last_done = 0;
	if (!tx_ctl_enabled() || cmd->n == 0)
		goto out;
	if (tx_ctl.pid > 0 && (strcmp(tx_ctl.socket, srv->socket) != 0 ||
	    strcmp(tx_ctl.binary, srv->binary) != 0 || tx_ctl_alive() != 0))
		tx_ctl_stop();
	/* A client that waits on tmux is the only one: nothing more goes. */
	if (tx_ctl_catch_up(host) != 0) {
		outcome = TX_CTL_BUSY;
		goto out;
	}
	if (tx_ctl.pid <= 0) {
		/*
		 * A client is started under the creation lock, held until
		 * its first answer (tmux-lock.c): its attach, and its
		 * new-session of TX_CTL_SESSION, run alone.
		 */
		if (tx_now_ms() < tx_ctl.retry_ms)
			goto out;
		/*
		 * Held for 2 s, the lock's holder waits on tmux: a one-shot
		 * client would wait on it as well, and be killed meanwhile.
		 * A lock that cannot be had at all leaves one-shot clients.
		 */
		if ((r = tx_lock_take(host, srv, NULL)) != 0) {
			if (r == -2)
				outcome = TX_CTL_LOCKED;
			else
				tx_ctl.retry_ms = tx_now_ms() + TX_CTL_RETRY_MS;
			goto out;
		}
		if (tx_ctl_start(host, srv) != 0) {
			tx_lock_drop();
			goto out;
		}
		tx_ctl.locked = 1;
	}

	line = tx_argv_line(cmd);
	tx_ctl.sent_ms = tx_now_ms();
	deadline = tx_ctl.sent_ms + tx_ctl_timeout_ms();
	if (tx_ctl_send(line, strlen(line), deadline) != 0) {
		tx_ctl_stop();
		goto out;
	}
	tx_ctl.owed = tx_argv_commands(cmd);
	tx_ctl.open = 0;
	r = tx_ctl_reply(deadline, res);
	if (r == 1) {
		tx_ctl_answered();
		tx_ctl_last_done = 1;
		outcome = TX_CTL_DONE;
		goto out;
	}
	tx_result_free(res);
	if (r < 0) {
		host->log(AITERM_LOG_WARNING, "mux-tmux", "the control client "
		    "(pid %ld) gave no answer within %ld ms; it is kept, and "
		    "nothing more is sent to tmux until it answers",
		    (long)tx_ctl.pid, tx_ctl_timeout_ms());
		outcome = TX_CTL_STALLED;
		goto out;
	}
	if (!tx_ctl.answered) {
		host->log(AITERM_LOG_WARNING, "mux-tmux", "the control client "
		    "(pid %ld) ended before its first answer; one-shot tmux "
		    "clients for %lld ms", (long)tx_ctl.pid, TX_CTL_RETRY_MS);
		tx_ctl.retry_ms = tx_now_ms() + TX_CTL_RETRY_MS;
	}
	tx_ctl_stop();
	/* Its server is gone with the line: nothing can run it any more. */
	outcome = !tx_server_up(srv->socket) ? TX_CTL_UNSENT : TX_CTL_LOST;
out:
	tx_wipe(line);
	free(line);
	return outcome;
}

enum tx_ctl_outcome
tx_ctl_run(const struct aiterm_host *host, const struct tx_server *srv,
    const struct tx_argv *cmd, struct tx_result *res)
{
	enum tx_ctl_outcome outcome;

	pthread_mutex_lock(&tx_ctl_mu);
	outcome = ctl_run(host, srv, cmd, res);
	pthread_mutex_unlock(&tx_ctl_mu);
	return outcome;
}
