#include "config.h"
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

#include "run.h"
#include "selftest.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define STEP_MS		30000	/* one request's answer */
#define PROBE_WORD	"aiterm-setup-probe"
#define PROBE_EXIT	3
#define INITIALIZED \
	"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"

extern char **environ;

struct mcp {
	pid_t			 pid;
	int			 in, out;
	struct aiterm_buf	 rd;
	int			 id;
	char			*why;
};

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

static int
start(struct mcp *m, const char *server, json_t *env)
{
	posix_spawn_file_actions_t fa;
	int in[2], out[2], rc;
	char *argv[] = { (char *)server, NULL };
	char **e = with_env(env);

	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
		free_env(e);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&m->pid, server, &fa, NULL, argv, e);
	posix_spawn_file_actions_destroy(&fa);
	free_env(e);
	close(in[0]);
	close(out[1]);
	m->in = in[1];
	m->out = out[0];
	if (rc != 0) {
		m->why = xasprintf("cannot start %s: %s", server,
		    strerror(rc));
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* Send a request and wait for the response with its id. */
static json_t *
call(struct mcp *m, const char *method, json_t *params)
{
	json_t *req = json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0",
	    "id", ++m->id, "method", method, "params", params), *res;
	char *line = json_dumps(req, JSON_COMPACT), chunk[4096], *nl;
	long long deadline = run_now_ms() + STEP_MS;
	struct pollfd pf = { m->out, POLLIN, 0 };
	ssize_t n;
	int left;

	json_decref(req);
	n = write(m->in, line, strlen(line));
	n = n >= 0 ? write(m->in, "\n", 1) : n;
	free(line);
	if (n < 0) {
		m->why = xasprintf("%s: the server's stdin closed (%s)",
		    method, strerror(errno));
		return NULL;
	}
	for (;;) {
		buf_addc(&m->rd, '\0');
		m->rd.len--;
		while ((nl = memchr(m->rd.data, '\n', m->rd.len)) != NULL) {
			size_t used = (size_t)(nl + 1 - m->rd.data);

			*nl = '\0';
			res = json_loads(m->rd.data, 0, NULL);
			memmove(m->rd.data, nl + 1, m->rd.len - used + 1);
			m->rd.len -= used;
			if (res != NULL && json_integer_value(json_object_get(
			    res, "id")) == m->id)
				return res;
			json_decref(res);
		}
		left = (int)(deadline - run_now_ms());
		if (left <= 0 || poll(&pf, 1, left) <= 0 ||
		    (n = read(m->out, chunk, sizeof chunk)) <= 0) {
			m->why = xasprintf("%s: no answer from the server "
			    "within %d s", method, STEP_MS / 1000);
			return NULL;
		}
		buf_add(&m->rd, chunk, (size_t)n);
	}
}

/* A tools/call; its result's text, or NULL with m->why. */
static char *
tool(struct mcp *m, const char *name, json_t *args, json_t **sc)
{
	json_t *res = call(m, "tools/call", json_pack("{s:s, s:o}", "name",
	    name, "arguments", args)), *r, *text;
	char *out = NULL;

	if (res == NULL)
		return NULL;
	r = json_object_get(res, "result");
	text = json_object_get(json_array_get(json_object_get(r, "content"),
	    0), "text");
	if (r == NULL || json_is_true(json_object_get(r, "isError")))
		m->why = xasprintf("%s failed: %s", name, text != NULL ?
		    json_string_value(text) : json_string_value(json_object_get(
		    json_object_get(res, "error"), "message")));
	else
		out = xstrdup(json_string_value(text) != NULL ?
		    json_string_value(text) : "");
	if (sc != NULL && r != NULL)
		*sc = json_incref(json_object_get(r, "structuredContent"));
	json_decref(res);
	return out;
}

static int
stop(struct mcp *m)
{
	long long deadline = run_now_ms() + 10000;
	int st = 0;
	pid_t got = 0;

	if (m->in >= 0)
		close(m->in);
	while (m->pid > 0 && (got = waitpid(m->pid, &st, WNOHANG)) == 0 &&
	    run_now_ms() < deadline)
		usleep(20000);
	if (m->pid > 0 && got == 0) {
		kill(m->pid, SIGKILL);
		waitpid(m->pid, &st, 0);
	}
	if (m->out >= 0)
		close(m->out);
	buf_free(&m->rd);
	return got > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* initialize, pty_open, the probe, pty_close. */
static int
converse(struct mcp *m, json_t *facts)
{
	json_t *res, *sc = NULL;
	char *text, *session;
	const char *version;
	int ok;

	/* A program: it asks for structuredContent (ADR 0006). */
	res = call(m, "initialize", json_pack("{s:s, s:{s:{s:{}}}, "
	    "s:{s:s, s:s}}", "protocolVersion", "2025-06-18", "capabilities",
	    "experimental", "aiterm/structuredContent", "clientInfo",
	    "name", "aiterm-setup", "version", PACKAGE_VERSION));
	if (res == NULL)
		return -1;
	version = json_string_value(json_object_get(json_object_get(
	    json_object_get(res, "result"), "serverInfo"), "version"));
	json_object_set_new(facts, "server_version", json_string(version ?
	    version : "?"));
	json_decref(res);
	if (write(m->in, INITIALIZED, strlen(INITIALIZED)) < 0)
		return -1;
	if ((text = tool(m, "pty_open", json_object(), &sc)) == NULL)
		return -1;
	free(text);
	session = xstrdup(json_string_value(json_object_get(sc,
	    "session_id")) ? json_string_value(json_object_get(sc,
	    "session_id")) : "");
	json_decref(sc);
	if (*session == '\0') {
		m->why = xstrdup("pty_open gave no session_id");
		free(session);
		return -1;
	}
	text = tool(m, "pty_send", json_pack("{s:s, s:s, s:b, s:i}",
	    "session_id", session, "text", "sh -c 'echo " PROBE_WORD
	    "; exit 3'", "wait", 1, "timeout", 20), NULL);
	ok = text != NULL && strstr(text, PROBE_WORD "\n") != NULL &&
	    strstr(text, "exit 3") != NULL;
	if (text != NULL && !ok)
		m->why = xasprintf("the probe command came back without its "
		    "output or exit code %d: %s", PROBE_EXIT, text);
	free(text);
	text = tool(m, "pty_close", json_pack("{s:s}", "session_id",
	    session), NULL);
	json_object_set_new(facts, "session", json_string(session));
	free(session);
	if (text == NULL)
		return -1;
	free(text);
	return ok ? 0 : -1;
}

int
selftest_run(const char *server, json_t *env, json_t **facts, char **why)
{
	struct mcp m;
	int rc, st;

	memset(&m, 0, sizeof m);
	m.in = m.out = -1;
	*facts = json_object();
	rc = start(&m, server, env) == 0 ? converse(&m, *facts) : -1;
	st = stop(&m);
	if (rc == 0 && st != 0)
		m.why = xasprintf("the server did not exit 0 when its stdin "
		    "closed (status %d)", st);
	json_object_set_new(*facts, "probe", json_string(rc == 0 && st == 0 ?
	    "passed" : "failed"));
	*why = m.why;
	return rc == 0 && st == 0 ? 0 : -1;
}
