/*
 * The host table: logging to stderr, errors, buffers, running programs and
 * the state root, offered to plugins as function pointers.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plugin/host.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/envnum.h"
#include "util/error.h"
#include "util/xmalloc.h"

extern char **environ;

/* The longest a program run for a plugin (host->run) may take. */
#define HOST_RUN_TIMEOUT_MS	10000LL

static enum aiterm_log_level host_log_level = AITERM_LOG_WARNING;

static const char *const level_names[] = {
	[AITERM_LOG_DEBUG] = "debug",
	[AITERM_LOG_INFO] = "info",
	[AITERM_LOG_NOTICE] = "notice",
	[AITERM_LOG_WARNING] = "warning",
	[AITERM_LOG_ERROR] = "error",
};

void
host_set_log_level(enum aiterm_log_level level)
{
	host_log_level = level;
}

/*
 * The lowest level written: AITERM_PLUGIN_LOG's (debug, info, notice,
 * warning or error; read at every line, so a test may set it late), else
 * host_set_log_level's (warning).
 */
static enum aiterm_log_level
log_threshold(void)
{
	const char *v = getenv("AITERM_PLUGIN_LOG");
	size_t i;

	for (i = 0; v != NULL && i < sizeof level_names / sizeof
	    level_names[0]; i++) {
		if (strcmp(v, level_names[i]) == 0)
			return (enum aiterm_log_level)i;
	}
	return host_log_level;
}

static void __attribute__((format(printf, 3, 4)))
host_log(enum aiterm_log_level level, const char *plugin, const char *fmt, ...)
{
	va_list ap;

	if (level < log_threshold() || level > AITERM_LOG_ERROR)
		return;
	fprintf(stderr, "aiterm-mcp: %s: %s: ", level_names[level],
	    plugin == NULL ? "core" : plugin);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int __attribute__((format(printf, 2, 3)))
host_error(struct aiterm_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

static void __attribute__((format(printf, 2, 3)))
host_buf_printf(struct aiterm_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

static const char *
host_buf_data(const struct aiterm_buf *b)
{
	return buf_str(b);
}

static size_t
host_buf_len(const struct aiterm_buf *b)
{
	return b->len;
}

static const char *
host_state_root(void)
{
	return state_root();
}

/*
 * How long a program run for a plugin may take (ms): HOST_RUN_TIMEOUT_MS,
 * or AITERM_HOST_RUN_TIMEOUT_MS (read on every run, for tests).
 */
static long long
run_timeout_ms(void)
{
	return env_num("AITERM_HOST_RUN_TIMEOUT_MS", HOST_RUN_TIMEOUT_MS, 1,
	    HOST_RUN_TIMEOUT_MS * 1000);
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Read both pipes until EOF on each, appending to the buffers; false when
 * the deadline passed first.
 */
static bool
drain_pipes(int outfd, int errfd, struct aiterm_buf *out,
    struct aiterm_buf *errout, long long deadline)
{
	struct pollfd pfd[2] = {
		{ .fd = outfd, .events = POLLIN },
		{ .fd = errfd, .events = POLLIN },
	};
	struct aiterm_buf *dst[2] = { out, errout };
	char chunk[8192];
	int open_count = 2, i;
	long long left;
	ssize_t n;

	while (open_count > 0) {
		if ((left = deadline - now_ms()) <= 0)
			return false;
		if (poll(pfd, 2, left > 60000 ? 60000 : (int)left) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			if (pfd[i].fd < 0 || pfd[i].revents == 0)
				continue;
			n = read(pfd[i].fd, chunk, sizeof chunk);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				pfd[i].fd = -1;
				open_count--;
				continue;
			}
			if (dst[i] != NULL)
				buf_add(dst[i], chunk, (size_t)n);
		}
	}
	return true;
}

int
host_run(const char *const argv[], struct aiterm_buf *out,
    struct aiterm_buf *errout, struct aiterm_error *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	int status, rc = -1, e;
	long long timeout = run_timeout_ms();
	pid_t pid;

	if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0) {
		error_set(err, "cannot run %s: pipe: %s", argv[0], strerror(errno));
		goto out_close;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
	posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr,
	    POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	e = posix_spawnp(&pid, argv[0], &fa, &attr, (char *const *)argv,
	    environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (e != 0) {
		error_set(err, "cannot run %s: %s", argv[0], strerror(e));
		goto out_close;
	}
	close(outp[1]);
	close(errp[1]);
	outp[1] = errp[1] = -1;
	if (!drain_pipes(outp[0], errp[0], out, errout, now_ms() + timeout)) {
		/* A stuck program must not hold the server: killed, reaped. */
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		error_set(err, "%s did not finish within %lld ms; it was "
		    "killed", argv[0], timeout);
		goto out_close;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			error_set(err, "cannot wait for %s: %s", argv[0],
			    strerror(errno));
			goto out_close;
		}
	}
	if (WIFEXITED(status))
		rc = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		rc = 128 + WTERMSIG(status);
out_close:
	for (e = 0; e < 2; e++) {
		if (outp[e] >= 0)
			close(outp[e]);
		if (errp[e] >= 0)
			close(errp[e]);
	}
	return rc;
}

static struct aiterm_buf *
host_buf_new(void)
{
	return xcalloc(1, sizeof(struct aiterm_buf));
}

static void
host_buf_free(struct aiterm_buf *b)
{
	if (b == NULL)
		return;
	buf_free(b);
	free(b);
}

static const struct aiterm_host host = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.log = host_log,
	.error = host_error,
	.buf_add = buf_add,
	.buf_printf = host_buf_printf,
	.buf_data = host_buf_data,
	.buf_len = host_buf_len,
	.run = host_run,
	.state_root = host_state_root,
	.buf_new = host_buf_new,
	.buf_free = host_buf_free,
	.write_state = host_write_state,
	.spawn_program = host_spawn_program,
};

const struct aiterm_host *
host_get(void)
{
	return &host;
}
