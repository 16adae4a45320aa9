/*
 * run_cmd: posix_spawnp with stdin from /dev/null and two pipes, read
 * with poll until both close, then waitpid.  Past the deadline the child
 * (only the PID spawned here) gets SIGKILL.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"
#include "util/linerpc.h"
#include "util/xmalloc.h"

extern char **environ;


static int
drain(int fd, struct aiterm_buf *b)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof chunk);

	if (n > 0)
		buf_add(b, chunk, (size_t)n);
	return n > 0 || (n < 0 && errno == EINTR) ? 0 : -1;
}

static int
spawn(char *const argv[], int out[2], int err[2], pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	rc = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int
run_cmd(char *const argv[], int timeout_ms, struct run_result *r)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, st, rc = -1, left;
	struct pollfd pf[2];
	long long deadline = linerpc_now_ms() + timeout_ms;
	pid_t pid;

	memset(r, 0, sizeof *r);
	r->status = -1;
	if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
		goto out;
	if ((errno = spawn(argv, out, err, &pid)) != 0)
		goto out;
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	pf[0].fd = out[0];
	pf[1].fd = err[0];
	pf[0].events = pf[1].events = POLLIN;
	while (pf[0].fd >= 0 || pf[1].fd >= 0) {
		left = (int)(deadline - linerpc_now_ms());
		if (left <= 0) {
			r->timed_out = true;
			kill(pid, SIGKILL);
			break;
		}
		if (poll(pf, 2, left) < 0 && errno != EINTR)
			break;
		if ((pf[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0 &&
		    drain(pf[0].fd, &r->out) != 0)
			pf[0].fd = -1;
		if ((pf[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0 &&
		    drain(pf[1].fd, &r->err) != 0)
			pf[1].fd = -1;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) :
	    WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
	rc = 0;
out:
	for (st = 0; st < 2; st++) {
		if (out[st] >= 0)
			close(out[st]);
		if (err[st] >= 0)
			close(err[st]);
	}
	buf_addc(&r->out, '\0');
	r->out.len--;
	buf_addc(&r->err, '\0');
	r->err.len--;
	return rc;
}

void
run_result_free(struct run_result *r)
{
	buf_free(&r->out);
	buf_free(&r->err);
}

char *
run_first_line(const char *s, size_t max)
{
	size_t n;

	if (s == NULL)
		return xstrdup("");
	while (*s == '\n' || *s == ' ')
		s++;
	n = strcspn(s, "\r\n");
	return xstrndup(s, n < max ? n : max);
}

/* The last line of s holding something but blanks. */
static char *
last_line(const char *s, size_t len)
{
	size_t end = len, start;

	while (end > 0) {
		while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == ' ' ||
		    s[end - 1] == '\r'))
			end--;
		start = end;
		while (start > 0 && s[start - 1] != '\n')
			start--;
		if (end > start)
			return xstrndup(s + start, end - start > 300 ? 300 :
			    end - start);
	}
	return NULL;
}

char *
run_excerpt(const struct run_result *r)
{
	char *l = last_line(r->err.data ? r->err.data : "", r->err.len);

	if (l == NULL)
		l = last_line(r->out.data ? r->out.data : "", r->out.len);
	return l != NULL ? l : xstrdup("(no output)");
}
