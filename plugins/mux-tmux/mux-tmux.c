/*
 * mux-tmux: the multiplexer plugin for tmux 3.x.
 *
 * Each op is one tmux command list on the private server of the state
 * root (see tmux-conf.c), with the session targeted exactly as "=<id>:".
 * It goes through the control client (tmux-ctl.c) when the server is up,
 * else through a one-shot tmux client; create always uses a one-shot
 * client, since it may have to start the server.  A session or server
 * that does not exist is "not there" for pane_info, list and kill, and an
 * error naming the session for the other ops.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mux-tmux.h"

extern char **environ;

#define TX_SEND_MAX 256

/* pane_info questions asked while a dead pane has no exit status yet. */
#define TX_REAP_TRIES 4

static int
tmux_probe(const struct aiterm_host *host, struct aiterm_mux_info *info,
    struct aiterm_error *err)
{
	struct tx_server srv;
	int has_env_flag, rc = -1;

	if (tx_server_get(host, &srv, err) != 0)
		goto out;
	if (tx_version(host, &srv, info->version, sizeof info->version,
	    &has_env_flag, err) != 0)
		goto out;
	snprintf(info->binary, sizeof info->binary, "%s", srv.binary);
	snprintf(info->socket, sizeof info->socket, "%s", srv.socket);
	rc = 0;
out:
	return rc;
}

/* Check the create options the plugin can check before tmux runs. */
static int
tmux_create_check(const struct aiterm_host *host,
    const struct aiterm_mux_create *o, struct aiterm_error *err)
{
	const char *const *e;
	char *key;
	struct stat st;
	int rc;

	rc = tx_session_check(host, o->session, err);
	for (e = o->env; rc == 0 && e != NULL && *e != NULL; e++) {
		key = tx_strdup(*e);
		if (strchr(key, '=') == NULL)
			rc = host->error(err, "tmux: environment entry '%s' "
			    "is not KEY=VALUE", key);
		else {
			*strchr(key, '=') = '\0';
			rc = tx_env_key_check(host, key, err);
		}
		free(key);
	}
	/* tmux silently falls back to $HOME when -c is not a directory. */
	if (rc == 0 && o->cwd != NULL && stat(o->cwd, &st) != 0)
		rc = host->error(err, "tmux: working directory %s: %s", o->cwd,
		    strerror(errno));
	else if (rc == 0 && o->cwd != NULL && !S_ISDIR(st.st_mode))
		rc = host->error(err, "tmux: working directory %s: not a "
		    "directory", o->cwd);
	if (rc == 0 && o->argv != NULL && o->argv[0] != NULL &&
	    *o->argv[0] == '\0')
		rc = host->error(err, "tmux: empty command name");
	return rc;
}

/* Make sure the log exists with mode 0600 before the shell appends to it. */
static int
tmux_log_open(const struct aiterm_host *host, const char *path,
    struct aiterm_error *err)
{
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		rc = host->error(err, "tmux: cannot open the output log %s: %s",
		    path, strerror(errno));
	else
		close(fd);
	return rc;
}

static int
tmux_create(const struct aiterm_host *host, const struct aiterm_mux_create *o,
    struct aiterm_error *err)
{
	struct aiterm_mux_create abs = *o;
	struct tx_server srv;
	struct tx_argv cmd = TX_ARGV_INIT, undo = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT, ignored = TX_RESULT_INIT;
	struct tx_str names = TX_STR_INIT;
	char version[64], cwd[PATH_MAX];
	int has_env_flag, locked = 0, rc = -1;

	if (tmux_create_check(host, o, err) != 0)
		goto out;
	if (o->cwd != NULL && realpath(o->cwd, cwd) != NULL)
		abs.cwd = cwd;
	if (tx_server_get(host, &srv, err) != 0 ||
	    tx_version(host, &srv, version, sizeof version, &has_env_flag,
	    err) != 0 || tx_config_write(host, &srv, err) != 0)
		goto out;
	if (o->log_path != NULL && tmux_log_open(host, o->log_path, err) != 0)
		goto out;
	/*
	 * A one-shot client stuck on a stopped server would be killed by
	 * the host's timeout and left to tmux: ask the control client first.
	 */
	if (tx_answering(host, &srv, err) != 0)
		goto out;
	/* One creation at a time on this tmux server (tmux-lock.c). */
	if (tx_lock_take(host, &srv, err) != 0)
		goto out;
	locked = 1;
	/* Under the lock: no other create changes the global environment. */
	if (tx_env_names(host, &srv, (const char *const *)environ, &names,
	    err) != 0)
		goto out;
	tx_create_argv(&abs, has_env_flag, names.len > 0 ?
	    tx_str_get(&names) : NULL, &cmd);
	if (tx_run_spawn(host, &srv, &cmd, &res, err) != 0)
		goto out;
	if (res.status != 0) {
		tx_result_fail(host, err, "new-session", o->session, &res);
		/* The list stopped at the failure: update-environment back. */
		tx_argv_add(&undo, "set-option");
		tx_argv_add(&undo, "-gu");
		tx_argv_add(&undo, "update-environment");
		/*
		 * A step after new-session failed: remove the half-made
		 * session, but never one that existed before this call.
		 */
		if (strstr(tx_str_get(&res.errout), "duplicate session") ==
		    NULL) {
			tx_argv_next(&undo);
			tx_argv_add(&undo, "kill-session");
			tx_argv_target(&undo, o->session);
		}
		tx_run_spawn(host, &srv, &undo, &ignored, NULL);
		goto out;
	}
	rc = 0;
out:
	if (locked)
		tx_lock_drop();
	tx_result_free(&ignored);
	tx_result_free(&res);
	tx_argv_free(&undo);
	tx_argv_free(&cmd);
	tx_str_free(&names);
	return rc;
}

/*
 * Run a command list aimed at one existing session and turn a failure into
 * an error naming it; out (may be NULL) gets tmux's output.
 */
static int
tmux_session_run(const struct aiterm_host *host, const char *session,
    const struct tx_argv *cmd, enum tx_resend resend, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	struct tx_server srv;
	struct tx_result res = TX_RESULT_INIT;
	int rc = -1;

	if (tx_server_get(host, &srv, err) != 0 ||
	    tx_run(host, &srv, cmd, resend, &res, err) != 0)
		goto out;
	if (res.status != 0 && tx_result_missing(&res))
		host->error(err, "tmux: session '%s' does not exist (%.*s)",
		    session, (int)strcspn(tx_str_get(&res.errout), "\n"),
		    tx_str_get(&res.errout));
	else if (res.status != 0)
		tx_result_fail(host, err, cmd->v[0], session, &res);
	else {
		if (out != NULL)
			host->buf_add(out, tx_str_get(&res.out), res.out.len);
		rc = 0;
	}
out:
	tx_result_free(&res);
	return rc;
}

/*
 * One command: "<verb> [flags] -t =<id>: [args]" after checking the id.
 */
static int
tmux_session_cmd(const struct aiterm_host *host, const char *session,
    const char *const *verb, const char *const *args, enum tx_resend resend,
    struct aiterm_buf *out, struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	int rc = -1;

	if (tx_session_check(host, session, err) != 0)
		goto out;
	for (; *verb != NULL; verb++)
		tx_argv_add(&cmd, *verb);
	tx_argv_target(&cmd, session);
	for (; args != NULL && *args != NULL; args++)
		tx_argv_add(&cmd, *args);
	rc = tmux_session_run(host, session, &cmd, resend, out, err);
out:
	tx_argv_free(&cmd);
	return rc;
}

/* send_text and send_secret: how the command may go is resend's. */
static int
tmux_type(const struct aiterm_host *host, const char *session,
    const char *bytes, size_t len, int enter, enum tx_resend resend,
    struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	char text[TX_SEND_MAX + 1];
	int rc = -1;

	if (len > TX_SEND_MAX)
		rc = host->error(err, "tmux: send_text takes at most %d bytes "
		    "(got %zu)", TX_SEND_MAX, len);
	else if (len > 0 && memchr(bytes, '\0', len) != NULL)
		rc = host->error(err, "tmux: send_text cannot send a NUL byte");
	else if (len == 0 && !enter)
		rc = 0;
	else if (tx_session_check(host, session, err) == 0) {
		/*
		 * send-keys -l -t =id: -- TEXT ; send-keys -t =id: Enter: the
		 * Enter comes in the same command list, straight after the
		 * text, and only when the text went in.
		 */
		if (len > 0) {
			memcpy(text, bytes, len);
			text[len] = '\0';
			tx_argv_add(&cmd, "send-keys");
			tx_argv_add(&cmd, "-l");
			tx_argv_target(&cmd, session);
			tx_argv_add(&cmd, "--");
			tx_argv_add(&cmd, text);
		}
		if (len > 0 && enter)
			tx_argv_next(&cmd);
		if (enter) {
			tx_argv_add(&cmd, "send-keys");
			tx_argv_target(&cmd, session);
			tx_argv_add(&cmd, "Enter");
		}
		rc = tmux_session_run(host, session, &cmd, resend, NULL, err);
		tx_wipe(text);
	}
	tx_argv_free(&cmd);
	return rc;
}

static int
tmux_send_text(const struct aiterm_host *host, const char *session,
    const char *bytes, size_t len, int enter, struct aiterm_error *err)
{
	return tmux_type(host, session, bytes, len, enter, TX_RESEND_NEVER,
	    err);
}

static int
tmux_send_secret(const struct aiterm_host *host, const char *session,
    const char *bytes, size_t len, struct aiterm_error *err)
{
	return tmux_type(host, session, bytes, len, 1, TX_CONTROL_ONLY, err);
}

/* The most one paste takes (the pane gets it as one bracketed paste). */
#define TX_PASTE_MAX	65536

static int
tmux_paste(const struct aiterm_host *host, const char *session,
    const char *bytes, size_t len, struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	char *text, name[96];
	int rc = -1;

	if (len > TX_PASTE_MAX)
		return host->error(err, "tmux: paste takes at most %d bytes "
		    "(got %zu)", TX_PASTE_MAX, len);
	if (len > 0 && memchr(bytes, '\0', len) != NULL)
		return host->error(err, "tmux: paste cannot send a NUL byte");
	if (len == 0 || tx_session_check(host, session, err) != 0)
		return len == 0 ? 0 : -1;
	text = malloc(len + 1);
	if (text == NULL)
		return host->error(err, "tmux: out of memory");
	memcpy(text, bytes, len);
	text[len] = '\0';
	/*
	 * set-buffer -b NAME -- TEXT ; paste-buffer -p -d -b NAME -t =id:
	 * -p brackets it when the program asked for bracketed paste; -d
	 * deletes the buffer; a buffer of its own per session.
	 */
	snprintf(name, sizeof name, "aiterm-paste-%s", session);
	tx_argv_add(&cmd, "set-buffer");
	tx_argv_add(&cmd, "-b");
	tx_argv_add(&cmd, name);
	tx_argv_add(&cmd, "--");
	tx_argv_add(&cmd, text);
	tx_argv_next(&cmd);
	tx_argv_add(&cmd, "paste-buffer");
	tx_argv_add(&cmd, "-p");
	tx_argv_add(&cmd, "-d");
	tx_argv_add(&cmd, "-b");
	tx_argv_add(&cmd, name);
	tx_argv_target(&cmd, session);
	rc = tmux_session_run(host, session, &cmd, TX_RESEND_NEVER, NULL, err);
	tx_argv_free(&cmd);
	free(text);
	return rc;
}

static int
tmux_send_key(const struct aiterm_host *host, const char *session,
    const char *key, struct aiterm_error *err)
{
	static const char *const verb[] = { "send-keys", NULL };
	static const char *const literal[] = { "send-keys", "-l", NULL };
	const char *args[] = { "--", key, NULL };
	int rc;

	/*
	 * One printable character other than space is its own key (q, y,
	 * /, ;), as the core offers it; it is typed literally so that tmux's
	 * key-name parsing never sees it.
	 */
	if (key != NULL && key[0] > ' ' && key[0] < 0x7f && key[1] == '\0')
		rc = tmux_session_cmd(host, session, literal, args,
		    TX_RESEND_NEVER, NULL, err);
	else if (!tx_key_valid(key))
		rc = host->error(err, "tmux: unknown key name '%s'",
		    key == NULL ? "(null)" : key);
	else
		rc = tmux_session_cmd(host, session, verb, args,
		    TX_RESEND_NEVER, NULL, err);
	return rc;
}

static int
tmux_capture(const struct aiterm_host *host, const char *session,
    struct aiterm_buf *out, struct aiterm_error *err)
{
	static const char *const verb[] = { "capture-pane", "-p", NULL };

	return tmux_session_cmd(host, session, verb, NULL, TX_RESEND_OK, out,
	    err);
}

static int
tmux_set_env(const struct aiterm_host *host, const char *session,
    const char *key, const char *value, struct aiterm_error *err)
{
	static const char *const verb[] = { "set-environment", NULL };
	const char *args[] = { key, value, NULL };
	int rc;

	rc = tx_env_key_check(host, key, err);
	if (rc == 0 && value == NULL)
		rc = host->error(err, "tmux: no value for %s", key);
	if (rc == 0)
		rc = tmux_session_cmd(host, session, verb, args, TX_RESEND_OK,
		    NULL, err);
	return rc;
}

/* Nothing known of a pane yet. */
static void
tmux_pane_unknown(struct aiterm_pane_info *info)
{
	memset(info, 0, sizeof *info);
	info->pid = -1;
	info->dead_status = -1;
}

/*
 * display-message falls back to no target when the target is missing and
 * prints an empty format with status 0, so has-session goes first: its
 * failure ends the invocation.
 */
static void
tmux_pane_question(struct tx_argv *cmd, const char *session)
{
	tx_argv_add(cmd, "has-session");
	tx_argv_target(cmd, session);
	tx_argv_next(cmd);
	tx_argv_add(cmd, "display-message");
	tx_argv_add(cmd, "-p");
	tx_argv_target(cmd, session);
	tx_argv_add(cmd, tx_pane_format);
}

/* One pane_info question; *server_pid gets the server's PID when known. */
static int
tmux_pane_query(const struct aiterm_host *host, const struct tx_server *srv,
    const char *session, struct aiterm_pane_info *info, long *server_pid,
    struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT;
	int rc = -1;

	tmux_pane_unknown(info);
	*server_pid = -1;
	tmux_pane_question(&cmd, session);
	if (tx_run(host, srv, &cmd, TX_RESEND_OK, &res, err) != 0)
		goto out;
	if (res.status != 0 && tx_result_missing(&res))
		rc = 0;
	else if (res.status != 0)
		tx_result_fail(host, err, "display-message", session, &res);
	else if (tx_pane_parse(tx_str_get(&res.out), info, server_pid) != 0)
		host->error(err, "tmux display-message gave an unexpected "
		    "answer for session '%s': %.80s", session,
		    tx_str_get(&res.out));
	else
		rc = 0;
out:
	tx_result_free(&res);
	tx_argv_free(&cmd);
	return rc;
}

static int
tmux_pane_info(const struct aiterm_host *host, const char *session,
    struct aiterm_pane_info *info, struct aiterm_error *err)
{
	struct tx_server srv;
	long server_pid = -1;
	int rc = -1, tries;

	tmux_pane_unknown(info);
	if (tx_session_check(host, session, err) != 0 ||
	    tx_server_get(host, &srv, err) != 0)
		goto out;
	/*
	 * tmux marks a pane dead when its terminal closes and learns the
	 * exit status when SIGCHLD makes it reap the process.  That signal
	 * can be lost (tmux built with libutempter, as Debian's is): the
	 * process then stays a zombie and the status never comes.  A dead
	 * pane without a status gets SIGCHLD sent to our own private
	 * server, which only makes it reap, and is asked about again.
	 */
	for (tries = 0; tries < TX_REAP_TRIES; tries++) {
		rc = tmux_pane_query(host, &srv, session, info, &server_pid,
		    err);
		if (rc != 0 || !info->dead || info->dead_status != -1 ||
		    server_pid <= 1)
			break;
		kill((pid_t)server_pid, SIGCHLD);
	}
out:
	return rc;
}

/*
 * pane_info and capture in one command list over the control client:
 * has-session ; display-message -p FORMAT ; capture-pane -p, each
 * command's answer a block of its own (tx_result ends).  A one-shot
 * client's answer is not split, and a dead pane without a status needs
 * pane_info's reaping: those take the two operations.
 */
static int
tmux_pane_screen(const struct aiterm_host *host, const char *session,
    struct aiterm_pane_info *info, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT;
	struct tx_server srv;
	const char *text;
	char *line = NULL;
	long server_pid;
	size_t len;
	int rc = -1, split = 0;

	tmux_pane_unknown(info);
	if (tx_session_check(host, session, err) != 0 ||
	    tx_server_get(host, &srv, err) != 0)
		goto out;
	tmux_pane_question(&cmd, session);
	tx_argv_next(&cmd);
	tx_argv_add(&cmd, "capture-pane");
	tx_argv_add(&cmd, "-p");
	tx_argv_target(&cmd, session);
	if (tx_run(host, &srv, &cmd, TX_RESEND_OK, &res, err) != 0)
		goto out;
	text = tx_str_get(&res.out);
	if (res.status != 0 && tx_result_missing(&res)) {
		rc = 0;		/* no such session: exists 0 */
		goto out;
	}
	if (res.status == 0 && res.blocks == 3) {
		len = res.ends[1] - res.ends[0];
		if ((line = malloc(len + 1)) == NULL) {
			host->error(err, "tmux: out of memory");
			goto out;
		}
		memcpy(line, text + res.ends[0], len);
		line[len] = '\0';
		split = tx_pane_parse(line, info, &server_pid) == 0 &&
		    (!info->dead || info->dead_status != -1);
	}
	if (split) {
		host->buf_add(out, text + res.ends[1], res.ends[2] -
		    res.ends[1]);
		rc = 0;
	} else if ((rc = tmux_pane_info(host, session, info, err)) == 0 &&
	    info->exists)
		rc = tmux_capture(host, session, out, err);
out:
	free(line);
	tx_result_free(&res);
	tx_argv_free(&cmd);
	return rc;
}

/*
 * Go through list-panes lines and take the first pane of each session
 * (they come session by session, each in window and pane order), but none
 * of the plugin's own; hand each to cb unless cb is NULL.  Returns how
 * many of them are dead without an exit status yet; *server_pid gets the
 * server's PID.
 */
static int
tmux_list_walk(const char *text, aiterm_mux_list_cb cb, void *arg,
    long *server_pid)
{
	struct aiterm_pane_info info;
	const char *p, *end, *name;
	char *line, *prev = NULL;
	long created;
	int unreaped = 0;

	for (p = text; *p != '\0'; p = end + (*end != '\0')) {
		end = p + strcspn(p, "\n");
		line = tx_alloc((size_t)(end - p) + 1);
		memcpy(line, p, (size_t)(end - p));
		line[end - p] = '\0';
		if (tx_list_parse(line, &name, &created, &info,
		    server_pid) != 0 || (prev != NULL &&
		    strcmp(prev, name) == 0)) {
			free(line);
			continue;
		}
		free(prev);
		prev = line;
		if (strncmp(name, TX_RESERVED_PREFIX,
		    sizeof TX_RESERVED_PREFIX - 1) == 0)
			continue;
		if (info.dead && info.dead_status == -1)
			unreaped++;
		if (cb != NULL)
			cb(name, created, &info, arg);
	}
	free(prev);
	return unreaped;
}

static int
tmux_list(const struct aiterm_host *host, aiterm_mux_list_cb cb, void *arg,
    struct aiterm_error *err)
{
	struct tx_server srv;
	struct tx_argv cmd = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT;
	unsigned long long gen = 0;
	long server_pid = -1;
	int rc = -1, tries, whole = 0;

	if (tx_server_get(host, &srv, err) != 0)
		goto out;
	/* Nothing changed since the last full list (tmux-view.c). */
	rc = tx_view_list(host, &srv, tmux_pane_info, cb, arg, err);
	if (rc != 0) {
		rc = rc < 0 ? -1 : 0;
		goto out;
	}
	rc = -1;
	/* Every pane of every session, in one command. */
	tx_argv_add(&cmd, "list-panes");
	tx_argv_add(&cmd, "-a");
	tx_argv_add(&cmd, "-F");
	tx_argv_add(&cmd, tx_list_format);
	/* A dead pane without a status: see tmux_pane_info. */
	for (tries = 0; tries < TX_REAP_TRIES; tries++) {
		tx_result_free(&res);
		if (tx_run(host, &srv, &cmd, TX_RESEND_OK, &res, err) != 0)
			goto out;
		/* What tmux notified before this answer is in the list. */
		whole = tx_ctl_answered_line();
		gen = tx_ctl_generation();
		if (res.status != 0 && !tx_result_missing(&res)) {
			tx_result_fail(host, err, "list-panes", NULL, &res);
			goto out;
		}
		if (res.status != 0 || tmux_list_walk(tx_str_get(&res.out),
		    NULL, NULL, &server_pid) == 0 || server_pid <= 1)
			break;
		kill((pid_t)server_pid, SIGCHLD);
	}
	/* Kept only when the control client answered: its notifications. */
	tx_view_begin();
	if (res.status == 0 && whole) {
		tmux_list_walk(tx_str_get(&res.out), tx_view_add, NULL,
		    &server_pid);
		tx_view_commit(&srv, server_pid, gen);
	} else
		tx_view_drop();
	/* A pane whose process ended is asked again, as from the view. */
	if ((rc = tx_view_answer(host, tmux_pane_info, cb, arg, err)) != 0) {
		rc = rc < 0 ? -1 : 0;
		goto out;
	}
	if (res.status == 0)
		tmux_list_walk(tx_str_get(&res.out), cb, arg, &server_pid);
	rc = 0;
out:
	tx_result_free(&res);
	tx_argv_free(&cmd);
	return rc;
}

static int
tmux_kill(const struct aiterm_host *host, const char *session,
    struct aiterm_error *err)
{
	struct tx_server srv;
	struct tx_argv cmd = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT;
	int r, rc = -1;

	if (tx_session_check(host, session, err) != 0 ||
	    tx_server_get(host, &srv, err) != 0)
		goto out;
	tx_argv_add(&cmd, "kill-session");
	tx_argv_target(&cmd, session);
	/* Removing a session notifies control clients too (tmux-lock.c). */
	if (tx_lock_take(host, &srv, err) != 0)
		goto out;
	r = tx_run(host, &srv, &cmd, TX_RESEND_OK, &res, err);
	tx_lock_drop();
	if (r != 0)
		goto out;
	if (res.status != 0 && !tx_result_missing(&res))
		tx_result_fail(host, err, "kill-session", session, &res);
	else
		rc = 0;
out:
	tx_result_free(&res);
	tx_argv_free(&cmd);
	return rc;
}

static const struct aiterm_mux_ops tmux_ops = {
	.probe = tmux_probe,
	.create = tmux_create,
	.send_text = tmux_send_text,
	.send_secret = tmux_send_secret,
	.pane_screen = tmux_pane_screen,
	.paste = tmux_paste,
	.send_key = tmux_send_key,
	.capture = tmux_capture,
	.pane_info = tmux_pane_info,
	.list = tmux_list,
	.set_env = tmux_set_env,
	.kill = tmux_kill,
	.key_names = tx_key_names,
};

static const struct aiterm_plugin tmux_plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.kind = AITERM_KIND_MUX,
	.name = "mux-tmux",
	.version = "0.1.0",
	.caps = 0,
	.ops = &tmux_ops,
	.init = NULL,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &tmux_plugin;
}
