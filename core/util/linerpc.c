#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/linerpc.h"
#include "util/xmalloc.h"

extern char **environ;

long long
linerpc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* environ with env's members set (KEY=VALUE), allocated. */
static char **
with_env(json_t *env)
{
	size_t n = 0, k = 0;
	const char *key;
	json_t *v;
	char **e;

	while (environ[n] != NULL)
		n++;
	e = xcalloc(n + json_object_size(env) + 1, sizeof *e);
	json_object_foreach(env, key, v) {
		e[k++] = xasprintf("%s=%s", key, json_string_value(v));
	}
	for (n = 0; environ[n] != NULL; n++) {
		json_object_foreach(env, key, v) {
			if (strncmp(environ[n], key, strlen(key)) == 0 &&
			    environ[n][strlen(key)] == '=')
				break;
		}
		if (key == NULL)
			e[k++] = xstrdup(environ[n]);
	}
	return e;
}

static void
free_env(char **e)
{
	size_t i;

	for (i = 0; e[i] != NULL; i++)
		free(e[i]);
	free(e);
}

static void
fail(struct linerpc *r, char *why)
{
	free(r->why);
	r->why = why;
}

int
linerpc_start(struct linerpc *r, char *const argv[], json_t *env,
    bool jsonrpc)
{
	posix_spawn_file_actions_t fa;
	int in[2], out[2], rc;
	char **e = with_env(env);

	memset(r, 0, sizeof *r);
	r->in = r->out = -1;
	r->jsonrpc = jsonrpc;
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
		free_env(e);
		fail(r, xasprintf("pipe: %s", strerror(errno)));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&r->pid, argv[0], &fa, NULL, argv, e);
	posix_spawn_file_actions_destroy(&fa);
	free_env(e);
	close(in[0]);
	close(out[1]);
	r->in = in[1];
	r->out = out[0];
	signal(SIGPIPE, SIG_IGN);
	if (rc != 0) {
		r->pid = 0;
		fail(r, xasprintf("cannot start %s: %s", argv[0],
		    strerror(rc)));
		return -1;
	}
	return 0;
}

static int
send_msg(struct linerpc *r, json_t *msg)
{
	char *line;
	ssize_t n;

	if (r->jsonrpc)
		json_object_set_new(msg, "jsonrpc", json_string("2.0"));
	line = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	n = line != NULL ? write(r->in, line, strlen(line)) : -1;
	n = n >= 0 ? write(r->in, "\n", 1) : n;
	free(line);
	return n < 0 ? -1 : 0;
}

int
linerpc_notify(struct linerpc *r, const char *method, json_t *params)
{
	json_t *msg = json_pack("{s:s}", "method", method);

	if (params != NULL)
		json_object_set_new(msg, "params", params);
	return send_msg(r, msg);
}

json_t *
linerpc_call(struct linerpc *r, const char *method, json_t *params,
    int timeout_ms)
{
	long long deadline = linerpc_now_ms() + timeout_ms;
	struct pollfd pf = { r->out, POLLIN, 0 };
	char chunk[4096], *nl;
	json_t *res;
	ssize_t n;
	size_t used;
	int left, id = ++r->id;

	if (send_msg(r, json_pack("{s:i, s:s, s:o}", "id", id, "method",
	    method, "params", params != NULL ? params : json_object())) != 0) {
		fail(r, xasprintf("%s: the peer's stdin closed (%s)", method,
		    strerror(errno)));
		return NULL;
	}
	for (;;) {
		buf_addc(&r->rd, '\0');
		r->rd.len--;
		while ((nl = memchr(r->rd.data, '\n', r->rd.len)) != NULL) {
			used = (size_t)(nl + 1 - r->rd.data);
			*nl = '\0';
			res = json_loads(r->rd.data, 0, NULL);
			memmove(r->rd.data, nl + 1, r->rd.len - used + 1);
			r->rd.len -= used;
			if (res != NULL && json_integer_value(json_object_get(
			    res, "id")) == id && json_object_get(res,
			    "method") == NULL)
				return res;
			json_decref(res);
		}
		left = (int)(deadline - linerpc_now_ms());
		if (left <= 0 || poll(&pf, 1, left) <= 0 ||
		    (n = read(r->out, chunk, sizeof chunk)) <= 0) {
			fail(r, xasprintf("%s: no answer within %d s", method,
			    timeout_ms / 1000));
			return NULL;
		}
		buf_add(&r->rd, chunk, (size_t)n);
	}
}

int
linerpc_stop(struct linerpc *r, int timeout_ms)
{
	long long deadline = linerpc_now_ms() + timeout_ms;
	int st = 0;
	pid_t got = 0;

	if (r->in >= 0)
		close(r->in);
	r->in = -1;
	while (r->pid > 0 && (got = waitpid(r->pid, &st, WNOHANG)) == 0 &&
	    linerpc_now_ms() < deadline)
		usleep(20000);
	if (r->pid > 0 && got == 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, &st, 0);
		got = -1;
	}
	if (r->out >= 0)
		close(r->out);
	r->out = -1;
	buf_free(&r->rd);
	return got > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
