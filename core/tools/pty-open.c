/* pty_open (PTY-OPEN): a new terminal session in the multiplexer. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin/host.h"
#include "pty/logpipe.h"
#include "pty/paneenv.h"
#include "pty/session.h"
#include "shell/launch.h"
#include "state/stateroot.h"
#include "tools/on-mux.h"
#include "tools/pty-common.h"
#include "tools/pty-ready.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/jsonschema.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define DEFAULT_COLS	120
#define DEFAULT_ROWS	40

/* Shells whose integration marks command start (C) as well. */
static const char *const start_mark_shells[] = { "bash", "zsh", "fish",
    NULL };

/*
 * $AITERM_SHELL_DIR, else the installed folder, else (a server run from
 * its build tree, not installed) the source tree's.
 */
static const char *
integration_dir(void)
{
	const char *dir = getenv("AITERM_SHELL_DIR");

	if (dir != NULL && *dir != '\0')
		return dir;
	if (access(AITERM_SHELLDIR, R_OK | X_OK) != 0 &&
	    access(AITERM_SRC_SHELLDIR, R_OK | X_OK) == 0)
		return AITERM_SRC_SHELLDIR;
	return AITERM_SHELLDIR;
}

static char *
resolve_shell(const char *want, struct aiterm_error *err)
{
	char *found;

	if (want == NULL) {
		want = getenv("SHELL");
		if (want == NULL || !path_is_executable(want))
			want = "/bin/bash";
	}
	if ((found = path_search(want)) != NULL)
		return found;
	if (strchr(want, '/') != NULL)
		error_set(err, "shell '%s' is not an executable file", want);
	else
		error_set(err, "shell '%s' was not found in PATH", want);
	return NULL;
}

static bool
env_name_valid(const char *k)
{
	size_t i;

	if (k[0] == '\0' || (k[0] >= '0' && k[0] <= '9'))
		return false;
	for (i = 0; k[i] != '\0'; i++) {
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_", k[i]) == NULL)
			return false;
	}
	return true;
}

static bool
has_start_marks(const char *shell)
{
	const char *base = strrchr(shell, '/');
	size_t i;

	base = base == NULL ? shell : base + 1;
	for (i = 0; start_mark_shells[i] != NULL; i++) {
		if (strcmp(base, start_mark_shells[i]) == 0)
			return true;
	}
	return false;
}

/* What pty_open's reply waits for: the shell's first prompt mark. */
struct open_ready {
	char	 log[PATH_MAX];
	char	 token[SESSION_TOKEN_LEN + 1];
	char	 id[SESSION_ID_MAX + 1];
	bool	 integration;
};

/*
 * pty_open{command} (issue 34): once the shell is ready the command is
 * typed as pty_send would type it, and the call ends as a waited send
 * does, after the open's own lines: a program that takes the terminal
 * (ssh, python3) once it waits for input, anything else at its end.
 */
struct open_command {
	struct tool_call	*call;
	char			 id[SESSION_ID_MAX + 1];
	struct pty_wait		 w;
	struct send_job		*job;	/* until open_sent */
	char			*head;	/* the open's text */
	json_t			*head_sc;
};

static void
open_command_free(struct open_command *oc)
{
	free(oc->head);
	json_decref(oc->head_sc);
	free(oc);
}

/* Cancelled while the command waits for its turn: it is not typed. */
static void
open_command_cancel(struct tool_call *call)
{
	struct open_command *oc = tool_call_data(call);

	send_cancel(oc->job);
}

static void
open_sent(void *arg, int status, const struct aiterm_error *err,
    struct send_outcome *out)
{
	struct open_command *oc = arg;

	tool_call_set_data(oc->call, NULL, NULL);
	if (status != 0) {
		tool_call_fail(oc->call, "pty_open: %s is open, but its command "
		    "was not typed: %s", oc->id, error_msg(err));
	} else if (tool_call_cancelled(oc->call)) {
		send_release(out->hold);
		tool_call_fail(oc->call, "cancelled (%s is open)", oc->id);
	} else {
		oc->w.head = oc->head;
		oc->w.head_sc = oc->head_sc;
		pty_wait_and_reply(oc->call, oc->id, &oc->w, out, false);
	}
	open_command_free(oc);
}

/* The shell is ready (text NULL: the call was cancelled meanwhile). */
static void
open_command_start(struct tool_call *call, char *text, json_t *structured,
    void *arg)
{
	struct open_command *oc = arg;
	json_t *cmd = json_object_get(tool_call_args(call), "command");
	struct send_request req;
	struct send_job *job;

	if (text == NULL) {
		open_command_free(oc);
		return;
	}
	oc->head = text;
	oc->head_sc = structured;
	memset(&req, 0, sizeof req);
	req.session = oc->id;
	req.text = json_string_value(cmd);
	req.len = json_string_length(cmd);
	req.enter = true;
	req.hold = true;
	req.turn_ms = oc->w.timeout > 0 ? (unsigned)(oc->w.timeout *
	    1000.0) : 0;
	/* NULL: open_sent has run and oc is gone already. */
	if ((job = send_text_async(&req, open_sent, oc)) != NULL) {
		oc->job = job;
		tool_call_set_data(call, oc, open_command_cancel);
	}
}

/* On the multiplexer's thread: the session's files and its terminal. */
static void
open_work(json_t *args, struct mux_result *r)
{
	json_t *vars, *v;
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_mux_ops *mux;
	struct shell_integration_options so;
	struct shell_launch launch = { NULL, NULL, false };
	struct aiterm_mux_create mc;
	struct aiterm_mux_info info;
	struct aiterm_pane_info pane;
	struct session_meta meta;
	const char *name, *key, **env = NULL;
	char *shell = NULL, cwd[PATH_MAX], *log = NULL, *text;
	char *attach = NULL;
	struct open_ready *ready;
	json_t *result;
	size_t n = 0, i;
	bool created = false;

	memset(&meta, 0, sizeof meta);
	memset(&info, 0, sizeof info);
	if (state_root_require(&err) != 0 || (mux = session_mux(&err)) == NULL)
		goto out_fail;
	name = json_string_value(json_object_get(args, "name"));
	if (name != NULL && !session_id_valid(name)) {
		error_set(&err, "invalid name '%.80s': use 1-64 of A-Z a-z 0-9 "
		    "_ - (not starting with -)", name);
		goto out_fail;
	}
	if (name != NULL) {
		snprintf(meta.id, sizeof meta.id, "%s", name);
	} else {
		memcpy(meta.id, "pty-", 4);
		session_random_hex(meta.id + 4, 6);
	}
	memset(&pane, 0, sizeof pane);
	if (session_exists_on_disk(meta.id) || (mux->pane_info(host_get(),
	    meta.id, &pane, &err) == 0 && pane.exists)) {
		error_set(&err, "session '%s' already exists; pty_close it "
		    "first or choose another name", meta.id);
		goto out_fail;
	}
	error_clear(&err);
	if (realpath(json_object_get(args, "cwd") != NULL ?
	    json_string_value(json_object_get(args, "cwd")) : ".", cwd) ==
	    NULL) {
		error_set(&err, "cwd '%.200s': %s",
		    json_string_value(json_object_get(args, "cwd")),
		    strerror(errno));
		goto out_fail;
	}
	snprintf(meta.cwd, sizeof meta.cwd, "%s", cwd);
	shell = resolve_shell(json_string_value(json_object_get(args,
	    "shell")), &err);
	if (shell == NULL)
		goto out_fail;
	snprintf(meta.shell, sizeof meta.shell, "%s", shell);
	meta.cols = (unsigned)schema_integer(json_object_get(args, "cols"),
	    DEFAULT_COLS);
	meta.rows = (unsigned)schema_integer(json_object_get(args, "rows"),
	    DEFAULT_ROWS);
	session_random_hex(meta.token, SESSION_TOKEN_LEN);
	{
		const char *b = strrchr(shell, '/');

		meta.dialect = shell_dialect_for(b == NULL ? shell : b + 1);
	}
	memset(&so, 0, sizeof so);
	so.shell = shell;
	so.dir = integration_dir();
	so.token = meta.token;
	so.user_zdotdir = getenv("ZDOTDIR");
	so.user_env = getenv("ENV");
	so.require_scripts = true;
	if (shell_integration_argv(&so, &launch, &err) != 0)
		goto out_fail;
	meta.integration = launch.integrated;
	meta.start_marks = launch.integrated && has_start_marks(shell);
	meta.created_ms = session_now_ms();

	vars = json_object_get(args, "env_vars");
	env = xcalloc(json_object_size(vars) + PANE_ENV_VARS + 16,
	    sizeof *env);
	pane_env_add(env, &n, meta.id);
	for (i = 0; launch.env != NULL && launch.env[i] != NULL; i++)
		env[n++] = xstrdup(launch.env[i]);
	json_object_foreach(vars, key, v) {
		if (!env_name_valid(key)) {
			error_set(&err, "env_vars: invalid variable name "
			    "'%.80s'", key);
			goto out_fail;
		}
		if (!json_is_string(v)) {
			error_set(&err, "env_vars: the value of %s must be a "
			    "string", key);
			goto out_fail;
		}
		env[n++] = xasprintf("%s=%s", key, json_string_value(v));
	}
	if (session_create_log(meta.id, &err) != 0)
		goto out_fail;
	created = true;
	if (session_meta_write(&meta, &err) != 0)
		goto out_fail;
	log = session_path(meta.id, "output.log");
	memset(&mc, 0, sizeof mc);
	mc.session = meta.id;
	mc.cwd = meta.cwd;
	mc.env = env;
	mc.argv = (const char *const *)launch.argv;
	mc.cols = meta.cols;
	mc.rows = meta.rows;
	mc.log_path = log;
	mc.log_writer = logpipe_writer();
	if (mux->create(host_get(), &mc, &err) != 0)
		goto out_fail;
	/* Best effort: a session without it is closed by what tmux says. */
	session_pane_record(meta.id, NULL);
	mux->probe(host_get(), &info, &err);
	error_clear(&err);
	attach = xasprintf("tmux -S %s attach -t %s", info.socket, meta.id);
	text = xasprintf("opened %s (%s, %ux%u)\nwatch: %s\n", meta.id,
	    shell, meta.cols, meta.rows, attach);
	result = json_pack("{s:s, s:s, s:s, s:i, s:i, s:b, s:s}",
	    "session_id", meta.id, "shell", shell, "cwd", meta.cwd,
	    "cols", (int)meta.cols, "rows", (int)meta.rows,
	    "integration", meta.integration, "attach", attach);
	r->text = text;
	r->structured = result;
	ready = xcalloc(1, sizeof *ready);
	snprintf(ready->log, sizeof ready->log, "%s", log);
	snprintf(ready->token, sizeof ready->token, "%s", meta.token);
	snprintf(ready->id, sizeof ready->id, "%s", meta.id);
	ready->integration = meta.integration;
	r->more = ready;
	goto out;
out_fail:
	if (created)
		session_remove(meta.id, NULL);
	r->err = err;
	err.msg = NULL;
out:
	for (i = 0; env != NULL && env[i] != NULL; i++)
		free((char *)env[i]);
	free(env);
	shell_launch_free(&launch);
	error_clear(&err);
	free(shell);
	free(log);
	free(attach);
}

static void
open_then(struct tool_call *call, struct mux_result *r)
{
	struct open_ready *ready = r->more;
	struct open_command *oc = NULL;
	struct aiterm_error err = ERROR_INIT;

	if (json_object_get(tool_call_args(call), "command") != NULL) {
		oc = xcalloc(1, sizeof *oc);
		oc->call = call;
		snprintf(oc->id, sizeof oc->id, "%s", ready->id);
		pty_wait_args(tool_call_args(call), &oc->w, &err);
		oc->w.wait = true;
	}
	if (ready->integration)
		pty_ready_reply(call, r->text, r->structured, ready->log,
		    ready->token, oc != NULL ? open_command_start : NULL, oc);
	else if (oc != NULL)
		open_command_start(call, r->text, r->structured, oc);
	else
		tool_call_reply(call, r->text, r->structured);
	error_clear(&err);
	free(ready);
}

/* Arguments that only a command uses, and a command that says nothing. */
static int
open_args_check(json_t *args, struct aiterm_error *err)
{
	const char *cmd = json_string_value(json_object_get(args, "command"));

	if (cmd == NULL && (json_object_get(args, "until") != NULL ||
	    json_object_get(args, "timeout") != NULL))
		return error_set(err, "until and timeout wait for command; "
		    "give command too (or drop them)");
	if (cmd != NULL && cmd[strspn(cmd, " \t\r\n")] == '\0')
		return error_set(err, "command is empty: give the command to "
		    "start (ssh host, python3), or leave command out");
	return 0;
}

static void
pty_open_call(struct tool_call *call)
{
	struct aiterm_error err = ERROR_INIT;

	if (open_args_check(tool_call_args(call), &err) != 0) {
		tool_call_fail(call, "pty_open: %s", error_msg(&err));
		error_clear(&err);
		return;
	}
	tool_call_on_mux_then(call, "pty_open", open_work, open_then);
}

const struct tool_entry tool_pty_open = {
	.name = "pty_open",
	.title = "Open a terminal",
	.description = "Open a persistent terminal (a shell in tmux). It "
	    "survives server restarts. Returns session_id and the command a "
	    "person runs to watch. command (ssh host, python3, docker exec "
	    "-it c bash): run it there, reply as pty_send wait=true.",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"name\":{\"type\":\"string\",\"description\":\"Session id to "
	    "use (A-Z a-z 0-9 _ -).\"},"
	    "\"shell\":{\"type\":\"string\",\"description\":\"Default $SHELL "
	    "or bash.\"},"
	    "\"cwd\":{\"type\":\"string\"},"
	    "\"cols\":{\"type\":\"integer\",\"minimum\":20,\"maximum\":1000,"
	    "\"description\":\"Default 120 (20-1000).\"},"
	    "\"rows\":{\"type\":\"integer\",\"minimum\":5,\"maximum\":500,"
	    "\"description\":\"Default 40 (5-500).\"},"
	    "\"env_vars\":{\"type\":\"object\",\"additionalProperties\":"
	    "{\"type\":\"string\"}},"
	    "\"command\":{\"type\":\"string\"},"
	    "\"until\":{\"type\":\"string\",\"minLength\":1},"
	    "\"timeout\":{\"type\":\"number\",\"minimum\":0,\"maximum\":"
	    "3600,\"description\":\"Seconds for command, default 10, max "
	    "3600.\"}},"
	    "\"additionalProperties\":false}",
	/* With command, also a waited send's result (PTY_SHELL_PROPS). */
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    PTY_SHELL_PROPS ",\"shell\":{\"type\":"
	    "\"string\"},\"cwd\":{\"type\":\"string\"},\"cols\":{\"type\":"
	    "\"integer\"},\"rows\":{\"type\":\"integer\"},\"integration\":"
	    "{\"type\":\"boolean\"},\"attach\":{\"type\":\"string\"}},"
	    "\"required\":[\"session_id\",\"attach\"]}",
	.hints = TOOL_OPEN_WORLD,
	.call = pty_open_call,
	.relayable = true,
	.always_load = true,
};
