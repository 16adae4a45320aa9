/*
 * The one tmux invocation that creates a session.
 *
 * Every step is a command of the same invocation (";" as its own argv
 * element), so the server runs them back to back before it reads any
 * output from the new pane: the pipe-pane log sees the first byte the
 * program writes, and no client can attach in between.
 *
 *   set-option -g update-environment "NAME ..."
 *   ; new-session -d -s ID -x C -y R -c CWD -e K=V ... -- ARGV
 *   ; set-option -gu update-environment
 *   ; set-option -w -t =ID: window-size manual
 *   ; set-option -t =ID: default-shell /bin/sh
 *   ; pipe-pane -o -t =ID: "exec 3>> 'LOG'; until cat >&3; do :; done"
 *   ; set-option -u -t =ID: default-shell
 *
 * update-environment names the variables the new session takes from
 * this client, that is from the server that opens it (tmux-env.c); it is
 * given back its default at once, so a person who attaches later does
 * not change the session's environment.  window-size manual keeps a
 * person who attaches from resizing the AI's screen; it is set per
 * window because a global manual value crashes tmux (up to 3.6a) on the
 * next detached new-session.  tmux runs the
 * pipe-pane command with the session's default-shell, which stays the
 * user's shell for the pane itself (tmux also forces SHELL to it); for
 * the pipe-pane command alone it is /bin/sh, so the POSIX quoting of the
 * log path holds whatever the user's shell is.
 *
 * With a log writer (the core's "aiterm-mcp --log-pipe LOG", issue 17)
 * the pipe-pane command is "exec 'WRITER' --log-pipe 'LOG'": it counts
 * and reports what a full disk loses (core/pty/logpipe.h).  Without one:
 * the log is opened once and cat is started again whenever it fails to
 * write (a full file system): what the pane prints while the log cannot
 * take it is lost, but the log goes on once there is room, where a lone
 * cat would have ended the pipe and left the session deaf for good.  cat
 * fails only after it has read something, so the loop never spins; at
 * the end of the pane's output it succeeds and the loop ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux-tmux.h"

/* Runs "$0" exactly, where tmux would give a single argument to a shell. */
static const char *const tx_exec_one[] = {
	"/bin/sh", "-c", "exec \"$0\"", NULL,
};

/* Runs "$@" exactly after env(1) has set the variables (tmux < 3.2). */
static const char *const tx_exec_all[] = {
	"/bin/sh", "-c", "exec \"$@\"", "sh", NULL,
};

/* The login shell, as tmux would start it, after env(1) (tmux < 3.2). */
static const char *const tx_exec_shell[] = {
	"/bin/sh", "-c", "exec \"$SHELL\" -l", NULL,
};

static void
tx_argv_list(struct tx_argv *cmd, const char *const *list)
{
	for (; list != NULL && *list != NULL; list++)
		tx_argv_add(cmd, *list);
}

static size_t
tx_count(const char *const *list)
{
	size_t n = 0;

	while (list != NULL && list[n] != NULL)
		n++;
	return n;
}

/* The command after "--", or nothing for tmux's default shell. */
static void
tx_create_command(const struct aiterm_mux_create *o, int has_env_flag,
    struct tx_argv *cmd)
{
	size_t argc = tx_count(o->argv), envc = tx_count(o->env);

	if (!has_env_flag && envc > 0) {
		tx_argv_add(cmd, "--");
		tx_argv_add(cmd, "/usr/bin/env");
		tx_argv_list(cmd, o->env);
		tx_argv_list(cmd, argc == 0 ? tx_exec_shell : tx_exec_all);
		tx_argv_list(cmd, o->argv);
	} else if (argc == 1) {
		/* tmux hands a lone argument to the shell as a command line. */
		tx_argv_add(cmd, "--");
		tx_argv_list(cmd, tx_exec_one);
		tx_argv_add(cmd, o->argv[0]);
	} else if (argc > 1) {
		tx_argv_add(cmd, "--");
		tx_argv_list(cmd, o->argv);
	}
}

static void
tx_create_number(struct tx_argv *cmd, const char *flag, unsigned value)
{
	char text[16];

	if (value > 0) {
		snprintf(text, sizeof text, "%u", value);
		tx_argv_add(cmd, flag);
		tx_argv_add(cmd, text);
	}
}

static void
tx_create_env_register(const struct aiterm_mux_create *o,
    struct tx_argv *cmd)
{
	const char *const *e;
	const char *eq;
	char *key;

	for (e = o->env; e != NULL && *e != NULL; e++) {
		eq = strchr(*e, '=');
		key = tx_alloc((size_t)(eq - *e) + 1);
		memcpy(key, *e, (size_t)(eq - *e));
		key[eq - *e] = '\0';
		tx_argv_next(cmd);
		tx_argv_add(cmd, "set-environment");
		tx_argv_target(cmd, o->session);
		tx_argv_add(cmd, key);
		tx_argv_add(cmd, eq + 1);
		free(key);
	}
}

static void
tx_create_pipe(const struct aiterm_mux_create *o, struct tx_argv *cmd)
{
	struct tx_str line = TX_STR_INIT;
	char *quoted, *escaped, *writer;

	quoted = tx_shell_quote(o->log_path);
	if (o->log_writer != NULL) {
		writer = tx_shell_quote(o->log_writer);
		tx_str_adds(&line, "exec ");
		tx_str_adds(&line, writer);
		tx_str_adds(&line, " --log-pipe ");
		tx_str_adds(&line, quoted);
		free(writer);
	} else {
		tx_str_adds(&line, "exec 3>> ");
		tx_str_adds(&line, quoted);
		tx_str_adds(&line, "; until cat >&3; do :; done");
	}
	escaped = tx_format_escape(line.data);

	tx_argv_next(cmd);
	tx_argv_add(cmd, "set-option");
	tx_argv_target(cmd, o->session);
	tx_argv_add(cmd, "default-shell");
	tx_argv_add(cmd, "/bin/sh");
	tx_argv_next(cmd);
	tx_argv_add(cmd, "pipe-pane");
	tx_argv_add(cmd, "-o");
	tx_argv_target(cmd, o->session);
	tx_argv_add(cmd, escaped);
	tx_argv_next(cmd);
	tx_argv_add(cmd, "set-option");
	tx_argv_add(cmd, "-u");
	tx_argv_target(cmd, o->session);
	tx_argv_add(cmd, "default-shell");

	free(escaped);
	free(quoted);
	tx_str_free(&line);
}

static void
tx_create_update_env(const char *names, int set, struct tx_argv *cmd)
{
	tx_argv_add(cmd, "set-option");
	tx_argv_add(cmd, set ? "-g" : "-gu");
	tx_argv_add(cmd, "update-environment");
	if (set)
		tx_argv_add(cmd, names);
}

void
tx_create_argv(const struct aiterm_mux_create *o, int has_env_flag,
    const char *env_names, struct tx_argv *cmd)
{
	const char *const *e;
	char *cwd;

	if (env_names != NULL) {
		tx_create_update_env(env_names, 1, cmd);
		tx_argv_next(cmd);
	}
	tx_argv_add(cmd, "new-session");
	tx_argv_add(cmd, "-d");
	tx_argv_add(cmd, "-s");
	tx_argv_add(cmd, o->session);
	tx_create_number(cmd, "-x", o->cols);
	tx_create_number(cmd, "-y", o->rows);
	if (o->cwd != NULL) {
		/* tmux expands formats in -c. */
		cwd = tx_format_escape(o->cwd);
		tx_argv_add(cmd, "-c");
		tx_argv_add(cmd, cwd);
		free(cwd);
	}
	for (e = o->env; has_env_flag && e != NULL && *e != NULL; e++) {
		tx_argv_add(cmd, "-e");
		tx_argv_add(cmd, *e);
	}
	tx_create_command(o, has_env_flag, cmd);
	if (env_names != NULL) {
		tx_argv_next(cmd);
		tx_create_update_env(NULL, 0, cmd);
	}

	tx_argv_next(cmd);
	tx_argv_add(cmd, "set-option");
	tx_argv_add(cmd, "-w");
	tx_argv_target(cmd, o->session);
	tx_argv_add(cmd, "window-size");
	tx_argv_add(cmd, "manual");

	if (!has_env_flag)
		tx_create_env_register(o, cmd);
	if (o->log_path != NULL)
		tx_create_pipe(o, cmd);
}
