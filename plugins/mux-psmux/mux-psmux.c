/*
 * mux-psmux: the multiplexer ops for psmux >= 3.3.8 on native Windows
 * with PowerShell 7 (FEATURES.md OPS-PLATFORM, ADR 0024).  No fallback:
 * not Windows PowerShell 5.1, not cmd.exe, not WSL.
 *
 * Every op is one or two psmux client invocations in the private
 * namespace (ps-cmd.c); sessions are addressed as "=<id>:" so that a
 * missing id never matches another session by prefix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux-psmux.h"

/* The default shell of a new session: PowerShell 7, never powershell.exe. */
static const char *const ps_default_shell[] = { "pwsh", "-NoLogo", NULL };

#define PS_SEND_MAX	256
#define PS_PASTE_MAX	65536

static int
ps_session_check(const struct aiterm_host *host, const char *session,
    struct aiterm_error *err)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789_.-";

	if (session == NULL || *session == '\0' ||
	    strspn(session, ok) != strlen(session))
		return host->error(err, "invalid session id '%s'",
		    session == NULL ? "(null)" : session);
	return 0;
}

/*
 * Run words for session; 0, 1 when psmux said the session (or its
 * server) is not there, or -1 with err.  out may be NULL.
 */
static int
ps_do(const struct aiterm_host *host, const char *what, const char *session,
    const char *const *words, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	struct aiterm_buf *errout = host->buf_new();
	struct ps_server srv;
	int status, rc = -1;

	if (ps_server_get(host, &srv, err) != 0)
		goto out;
	status = ps_run(host, &srv, words, out, errout, err);
	if (status == -1)
		goto out;
	if (status == 0)
		rc = 0;
	else if (ps_missing(host, errout))
		rc = 1;
	else
		ps_fail(host, err, what, session, errout);
out:
	host->buf_free(errout);
	return rc;
}

/* ps_do where a missing session is an error. */
static int
ps_do_present(const struct aiterm_host *host, const char *what,
    const char *session, const char *const *words, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	int rc = ps_do(host, what, session, words, out, err);

	if (rc == 1)
		return host->error(err, "session '%s' does not exist",
		    session);
	return rc;
}

static int
ps_probe(const struct aiterm_host *host, struct aiterm_mux_info *info,
    struct aiterm_error *err)
{
	struct ps_server srv;

	memset(info, 0, sizeof *info);
	if (ps_server_get(host, &srv, err) != 0 ||
	    ps_version(host, &srv, info->version, sizeof info->version,
	    err) != 0)
		return -1;
	snprintf(info->binary, sizeof info->binary, "%s", srv.binary);
	snprintf(info->socket, sizeof info->socket, "%s", srv.ns);
	return 0;
}

/*
 * A one-word command is a shell line to psmux and tmux alike, so it is
 * taken only when it is a plain program name or path.
 */
static int
ps_argv_check(const struct aiterm_host *host, const char *const *argv,
    struct aiterm_error *err)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm"
	    "nopqrstuvwxyz0123456789_.-/\\:";

	if (argv[0] == NULL)
		return host->error(err, "empty command");
	if (argv[1] == NULL && strspn(argv[0], plain) != strlen(argv[0]))
		return host->error(err, "a one-word command must be a plain "
		    "program path (psmux would run '%s' as a shell line)",
		    argv[0]);
	return 0;
}

static int
ps_create(const struct aiterm_host *host, const struct aiterm_mux_create *o,
    struct aiterm_error *err)
{
	const char *const *argv = o->argv != NULL ? o->argv : ps_default_shell;
	const char **words = NULL;
	char target[160], cols[16], rows[16], *pipe = NULL;
	size_t n = 0, nenv = 0, nargv = 0, i;
	int rc = -1;

	if (ps_session_check(host, o->session, err) != 0 ||
	    ps_argv_check(host, argv, err) != 0)
		return -1;
	for (i = 0; o->env != NULL && o->env[i] != NULL; i++)
		nenv++;
	for (i = 0; argv[i] != NULL; i++)
		nargv++;
	words = calloc(2 * nenv + nargv + 24, sizeof *words);
	if (words == NULL)
		abort();
	snprintf(cols, sizeof cols, "%u", o->cols);
	snprintf(rows, sizeof rows, "%u", o->rows);
	ps_target(target, sizeof target, o->session);
	words[n++] = "new-session";
	words[n++] = "-d";
	words[n++] = "-s";
	words[n++] = o->session;
	words[n++] = "-x";
	words[n++] = cols;
	words[n++] = "-y";
	words[n++] = rows;
	if (o->cwd != NULL) {
		words[n++] = "-c";
		words[n++] = o->cwd;
	}
	for (i = 0; i < nenv; i++) {
		words[n++] = "-e";
		words[n++] = o->env[i];
	}
	words[n++] = "--";
	for (i = 0; i < nargv; i++)
		words[n++] = argv[i];
	/* In the same client, before the program can end: keep dead panes. */
	words[n++] = ";";
	words[n++] = "set-option";
	words[n++] = "-w";
	words[n++] = "-t";
	words[n++] = target;
	words[n++] = "remain-on-exit";
	words[n++] = "on";
	words[n] = NULL;
	if (ps_do_present(host, "new-session", o->session, words, NULL,
	    err) != 0)
		goto out;
	if (o->log_path != NULL) {
		pipe = ps_pipe_command(o->log_path);
		n = 0;
		words[n++] = "pipe-pane";
		words[n++] = "-o";
		words[n++] = "-t";
		words[n++] = target;
		words[n++] = pipe;
		words[n] = NULL;
		if (ps_do_present(host, "pipe-pane", o->session, words, NULL,
		    err) != 0) {
			words[0] = "kill-session";
			words[1] = "-t";
			words[2] = target;
			words[3] = NULL;
			(void)ps_do(host, "kill-session", o->session, words,
			    NULL, NULL);
			goto out;
		}
	}
	rc = 0;
out:
	free(pipe);
	free(words);
	return rc;
}

/* Bytes as one NUL-free, escaped word; NULL with err. */
static char *
ps_bytes_word(const struct aiterm_host *host, const char *bytes, size_t len,
    size_t max, struct aiterm_error *err)
{
	char *copy, *word;

	if (len > max) {
		host->error(err, "%lu bytes is more than %lu",
		    (unsigned long)len, (unsigned long)max);
		return NULL;
	}
	if (memchr(bytes, '\0', len) != NULL) {
		host->error(err, "text with a NUL byte cannot be typed");
		return NULL;
	}
	copy = malloc(len + 1);
	if (copy == NULL)
		abort();
	memcpy(copy, bytes, len);
	copy[len] = '\0';
	word = ps_word_escape(copy);
	free(copy);
	return word;
}

static int
ps_send_text(const struct aiterm_host *host, const char *session,
    const char *bytes, size_t len, int enter, struct aiterm_error *err)
{
	char target[160], *word;
	int rc = -1;

	if (ps_session_check(host, session, err) != 0 ||
	    (word = ps_bytes_word(host, bytes, len, PS_SEND_MAX, err)) == NULL)
		return -1;
	ps_target(target, sizeof target, session);
	{
		const char *typed[] = { "send-keys", "-t", target, "-l", "--",
		    word, ";", "send-keys", "-t", target, "Enter", NULL };

		if (!enter)
			typed[6] = NULL;
		rc = ps_do_present(host, "send-keys", session, typed, NULL,
		    err);
	}
	free(word);
	return rc;
}

static int
ps_send_key(const struct aiterm_host *host, const char *session,
    const char *key, struct aiterm_error *err)
{
	char target[160];
	const char *words[] = { "send-keys", "-t", target, key, NULL };

	if (ps_session_check(host, session, err) != 0)
		return -1;
	if (!ps_key_valid(key))
		return host->error(err, "unknown key name '%s'", key);
	ps_target(target, sizeof target, session);
	return ps_do_present(host, "send-keys", session, words, NULL, err);
}

static int
ps_paste(const struct aiterm_host *host, const char *session,
    const char *bytes, size_t len, struct aiterm_error *err)
{
	char target[160], buffer[160], *word;
	int rc;

	if (ps_session_check(host, session, err) != 0 ||
	    (word = ps_bytes_word(host, bytes, len, PS_PASTE_MAX, err)) == NULL)
		return -1;
	ps_target(target, sizeof target, session);
	snprintf(buffer, sizeof buffer, "aiterm-%s", session);
	{
		const char *words[] = { "set-buffer", "-b", buffer, "--", word,
		    ";", "paste-buffer", "-d", "-p", "-b", buffer, "-t", target,
		    NULL };

		rc = ps_do_present(host, "paste-buffer", session, words, NULL,
		    err);
	}
	free(word);
	return rc;
}

static int
ps_capture(const struct aiterm_host *host, const char *session,
    struct aiterm_buf *out, struct aiterm_error *err)
{
	char target[160];
	const char *words[] = { "capture-pane", "-p", "-t", target, NULL };

	if (ps_session_check(host, session, err) != 0)
		return -1;
	ps_target(target, sizeof target, session);
	return ps_do_present(host, "capture-pane", session, words, out, err);
}

static int
ps_pane_info(const struct aiterm_host *host, const char *session,
    struct aiterm_pane_info *info, struct aiterm_error *err)
{
	char target[160], *line;
	/*
	 * list-panes, not display-message: tmux's display-message falls
	 * back to another session when the target is missing.
	 */
	const char *words[] = { "list-panes", "-t", target, "-F",
	    ps_pane_format, NULL };
	struct aiterm_buf *out;
	int rc;

	memset(info, 0, sizeof *info);
	info->pid = -1;
	info->dead_status = -1;
	if (ps_session_check(host, session, err) != 0)
		return -1;
	ps_target(target, sizeof target, session);
	out = host->buf_new();
	rc = ps_do(host, "list-panes", session, words, out, err);
	if (rc == 1) {
		rc = 0;		/* not there: exists stays 0 */
	} else if (rc == 0) {
		host->buf_add(out, "", 1);
		line = ps_strdup(host->buf_data(out));
		if (ps_pane_parse(line, NULL, NULL, info) != 0)
			rc = host->error(err, "psmux list-panes for "
			    "session '%s' printed '%.80s'", session, line);
		free(line);
	}
	host->buf_free(out);
	return rc;
}

static int
ps_list(const struct aiterm_host *host, aiterm_mux_list_cb cb, void *arg,
    struct aiterm_error *err)
{
	const char *words[] = { "list-panes", "-a", "-F", ps_list_format,
	    NULL };
	struct aiterm_buf *out = host->buf_new();
	struct aiterm_pane_info info;
	const char *session, *prev = "";
	char *text, *line, *next;
	long created;
	int rc;

	rc = ps_do(host, "list-panes", NULL, words, out, err);
	if (rc == 1)
		rc = 0;		/* no server: no sessions */
	else if (rc == 0) {
		host->buf_add(out, "", 1);
		text = ps_strdup(host->buf_data(out));
		/* The first pane of each session; panes come grouped. */
		for (line = text; line != NULL && *line != '\0'; line = next) {
			next = strchr(line, '\n');
			if (next != NULL)
				*next++ = '\0';
			if (ps_pane_parse(line, &session, &created,
			    &info) != 0 || strcmp(session, prev) == 0)
				continue;
			prev = session;
			cb(session, created, &info, arg);
		}
		free(text);
	}
	host->buf_free(out);
	return rc;
}

static int
ps_set_env(const struct aiterm_host *host, const char *session,
    const char *key, const char *value, struct aiterm_error *err)
{
	static const char first[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm"
	    "nopqrstuvwxyz_";
	static const char rest[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm"
	    "nopqrstuvwxyz_0123456789";
	char target[160], *word;
	int rc;

	if (ps_session_check(host, session, err) != 0)
		return -1;
	if (key == NULL || *key == '\0' || strchr(first, *key) == NULL ||
	    strspn(key, rest) != strlen(key))
		return host->error(err, "invalid environment variable name "
		    "'%s'", key == NULL ? "(null)" : key);
	ps_target(target, sizeof target, session);
	word = ps_word_escape(value);
	{
		const char *words[] = { "set-environment", "-t", target, key,
		    word, NULL };

		rc = ps_do_present(host, "set-environment", session, words,
		    NULL, err);
	}
	free(word);
	return rc;
}

static int
ps_kill(const struct aiterm_host *host, const char *session,
    struct aiterm_error *err)
{
	char target[160];
	const char *words[] = { "kill-session", "-t", target, NULL };

	if (ps_session_check(host, session, err) != 0)
		return -1;
	ps_target(target, sizeof target, session);
	return ps_do(host, "kill-session", session, words, NULL, err) == -1 ?
	    -1 : 0;
}

static const struct aiterm_mux_ops ps_ops = {
	.probe = ps_probe,
	.create = ps_create,
	.send_text = ps_send_text,
	.send_key = ps_send_key,
	.capture = ps_capture,
	.pane_info = ps_pane_info,
	.list = ps_list,
	.set_env = ps_set_env,
	.kill = ps_kill,
	.key_names = ps_key_names,
	.paste = ps_paste,
};

static const struct aiterm_plugin ps_plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.kind = AITERM_KIND_MUX,
	.name = "mux-psmux",
	.version = "0.1.0",
	.caps = 0,
	.ops = &ps_ops,
	.init = NULL,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &ps_plugin;
}
