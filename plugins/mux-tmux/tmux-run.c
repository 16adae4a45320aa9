/*
 * Strings, quoting and argv building for tmux, and running it.
 *
 * A command list is built once as plain words (struct tx_argv) and sent
 * one of two ways, never through a shell:
 *   - as a tmux client's argv (tx_run_spawn).  The client splits
 *     commands on an argument that ends in ';', so a value ending in ';'
 *     goes as '\;' (tx_arg_escape);
 *   - as a line for tmux's command parser, to the control client
 *     (tmux-ctl.c).  Every word is single-quoted, so '$', '~', '#', ';'
 *     and '\' stay literal, and a quote or a control byte (a newline in
 *     send-keys text) goes outside the quotes as \' or \ooo
 *     (tx_cmd_quote).
 * Either way tmux itself still reads some arguments:
 *   - some are format-expanded (new-session -c, the pipe-pane command),
 *     so a '#' in them is doubled (tx_format_escape);
 *   - the pipe-pane command is a shell line, run by /bin/sh, so paths in
 *     it are single-quoted (tx_shell_quote).
 * Session ids go into targets and so are restricted to [A-Za-z0-9_-].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux-tmux.h"

/*
 * What tmux prints when there is no server or no such session.  A server
 * with no sessions left (exit-empty is off) answers any explicit target
 * with "no current target".
 */
static const char *const tx_missing_texts[] = {
	"no server running",
	"error connecting to",
	"can't find session",
	"no such session",
	"session not found",
	"no current target",
	NULL,
};

void *
tx_alloc(size_t size)
{
	void *p = malloc(size == 0 ? 1 : size);

	if (p == NULL)
		abort();
	return p;
}

char *
tx_strdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(tx_alloc(len), s, len);
}

void
tx_str_add(struct tx_str *s, const void *data, size_t len)
{
	size_t need = s->len + len + 1;
	char *p;

	if (need > s->cap) {
		s->cap = s->cap == 0 ? 128 : s->cap;
		while (s->cap < need)
			s->cap *= 2;
		p = realloc(s->data, s->cap);
		if (p == NULL)
			abort();
		s->data = p;
	}
	if (len > 0)
		memcpy(s->data + s->len, data, len);
	s->len += len;
	s->data[s->len] = '\0';
}

void
tx_str_adds(struct tx_str *s, const char *text)
{
	tx_str_add(s, text, strlen(text));
}

const char *
tx_str_get(const struct tx_str *s)
{
	return s->data == NULL ? "" : s->data;
}

void
tx_str_free(struct tx_str *s)
{
	free(s->data);
	s->data = NULL;
	s->len = s->cap = 0;
}

static void
tx_argv_push(struct tx_argv *a, char *s, int sep)
{
	char **v, *k;

	if (a->n + 2 > a->cap) {
		a->cap = a->cap == 0 ? 32 : a->cap * 2;
		v = realloc(a->v, a->cap * sizeof *v);
		k = realloc(a->sep, a->cap);
		if (v == NULL || k == NULL)
			abort();
		a->v = v;
		a->sep = k;
	}
	a->sep[a->n] = (char)sep;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void
tx_argv_add(struct tx_argv *a, const char *s)
{
	tx_argv_push(a, tx_strdup(s), 0);
}

void
tx_argv_target(struct tx_argv *a, const char *session)
{
	struct tx_str t = TX_STR_INIT;

	/*
	 * "=" asks for an exact session name ("foo" never matches "foobar")
	 * and the ":" makes the target mean that session's current window
	 * and pane for every kind of target (session, window or pane).
	 */
	tx_str_adds(&t, "=");
	tx_str_adds(&t, session);
	tx_str_adds(&t, ":");
	tx_argv_add(a, "-t");
	tx_argv_push(a, t.data, 0);
}

void
tx_argv_next(struct tx_argv *a)
{
	tx_argv_push(a, tx_strdup(";"), 1);
}

size_t
tx_argv_commands(const struct tx_argv *a)
{
	size_t i, n = a->n > 0;

	for (i = 0; i < a->n; i++)
		n += a->sep[i] != 0;
	return n;
}

char **
tx_argv_client(const struct tx_argv *a)
{
	char **v = tx_alloc((a->n + 1) * sizeof *v);
	size_t i;

	for (i = 0; i < a->n; i++)
		v[i] = a->sep[i] ? tx_strdup(a->v[i]) : tx_arg_escape(a->v[i]);
	v[a->n] = NULL;
	return v;
}

char *
tx_argv_line(const struct tx_argv *a)
{
	struct tx_str line = TX_STR_INIT;
	char *word;
	size_t i;

	for (i = 0; i < a->n; i++) {
		if (i > 0)
			tx_str_adds(&line, " ");
		if (a->sep[i])
			tx_str_adds(&line, ";");
		else {
			word = tx_cmd_quote(a->v[i]);
			tx_str_adds(&line, word);
			free(word);
		}
	}
	tx_str_adds(&line, "\n");
	return line.data;
}

void
tx_strv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/*
 * Overwrite a string before it is freed: send-keys text may be a
 * password typed from the secret page (issue 36, ADR 0037).
 */
void
tx_wipe(char *s)
{
	volatile char *p = s;

	if (s == NULL)
		return;
	while (*p != '\0')
		*p++ = '\0';
}

void
tx_argv_free(struct tx_argv *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		tx_wipe(a->v[i]);
		free(a->v[i]);
	}
	free(a->v);
	free(a->sep);
	a->v = NULL;
	a->sep = NULL;
	a->n = a->cap = 0;
}

char *
tx_shell_quote(const char *s)
{
	struct tx_str q = TX_STR_INIT;

	tx_str_adds(&q, "'");
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			tx_str_adds(&q, "'\\''");
		else
			tx_str_add(&q, s, 1);
	}
	tx_str_adds(&q, "'");
	return q.data;
}

char *
tx_format_escape(const char *s)
{
	struct tx_str q = TX_STR_INIT;

	tx_str_add(&q, "", 0);
	for (; *s != '\0'; s++) {
		if (*s == '#')
			tx_str_adds(&q, "##");
		else
			tx_str_add(&q, s, 1);
	}
	return q.data;
}

char *
tx_arg_escape(const char *s)
{
	size_t len = strlen(s);
	char *e;

	/*
	 * The client drops a final ';' and ends the command there; "\;" at
	 * the end becomes a plain ';'.  So "x;" goes as "x\;" and "x\;" as
	 * "x\\;", which tmux turns back into the original.
	 */
	if (len == 0 || s[len - 1] != ';')
		e = tx_strdup(s);
	else {
		e = tx_alloc(len + 2);
		memcpy(e, s, len - 1);
		e[len - 1] = '\\';
		e[len] = ';';
		e[len + 1] = '\0';
	}
	return e;
}

char *
tx_cmd_quote(const char *s)
{
	struct tx_str q = TX_STR_INIT;
	const unsigned char *p = (const unsigned char *)s;
	char octal[8];
	int quoted = 0;

	/*
	 * Single quotes keep every byte as it is ('$', '~', '#', ';', '\\',
	 * '{', '"', spaces); a quote and the control bytes, a newline above
	 * all, go outside them as escapes: \' and \ooo.  Parts next to each
	 * other make one word, as in sh.
	 */
	tx_str_add(&q, "", 0);
	for (; *p != '\0'; p++) {
		if (*p == '\'' || *p < 0x20 || *p == 0x7f) {
			if (quoted)
				tx_str_adds(&q, "'");
			quoted = 0;
			if (*p == '\'')
				tx_str_adds(&q, "\\'");
			else {
				snprintf(octal, sizeof octal, "\\%03o", *p);
				tx_str_adds(&q, octal);
			}
		} else {
			if (!quoted)
				tx_str_adds(&q, "'");
			quoted = 1;
			tx_str_add(&q, p, 1);
		}
	}
	if (quoted)
		tx_str_adds(&q, "'");
	else if (q.len == 0)
		tx_str_adds(&q, "''");
	return q.data;
}

int
tx_session_check(const struct aiterm_host *host, const char *session,
    struct aiterm_error *err)
{
	static const char allowed[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	int rc = 0;

	/*
	 * tmux turns '.' and ':' in a session name into '_' and reads '.'
	 * in a target as a pane separator, so "a.b" could neither be
	 * created nor targeted under its own name.
	 */
	if (session == NULL || *session == '\0')
		rc = host->error(err, "tmux: empty session id");
	else if (strchr(session, '.') != NULL)
		rc = host->error(err, "tmux: invalid session id '%s': tmux "
		    "cannot name a session with '.'; use [A-Za-z0-9_-]",
		    session);
	else if (session[strspn(session, allowed)] != '\0')
		rc = host->error(err, "tmux: invalid session id '%s': only "
		    "[A-Za-z0-9_-] is allowed", session);
	else if (strncmp(session, TX_RESERVED_PREFIX,
	    sizeof TX_RESERVED_PREFIX - 1) == 0)
		rc = host->error(err, "tmux: invalid session id '%s': ids "
		    "starting with '%s' are reserved for the plugin", session,
		    TX_RESERVED_PREFIX);
	return rc;
}

int
tx_env_key_valid(const char *key)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_";
	static const char rest[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";

	return key != NULL && *key != '\0' && strchr(first, *key) != NULL &&
	    key[strspn(key, rest)] == '\0';
}

int
tx_env_key_check(const struct aiterm_host *host, const char *key,
    struct aiterm_error *err)
{
	if (tx_env_key_valid(key))
		return 0;
	return host->error(err, "tmux: invalid environment variable name '%s'",
	    key == NULL ? "(null)" : key);
}

int
tx_host_run(const struct aiterm_host *host, const char *const argv[],
    struct tx_result *res, struct aiterm_error *err)
{
	struct aiterm_buf *out = host->buf_new(), *errout = host->buf_new();
	int status, rc = -1;

	status = host->run(argv, out, errout, err);
	if (status >= 0) {
		res->status = status;
		tx_str_add(&res->out, host->buf_data(out), host->buf_len(out));
		tx_str_add(&res->errout, host->buf_data(errout),
		    host->buf_len(errout));
		rc = 0;
	}
	host->buf_free(errout);
	host->buf_free(out);
	return rc;
}

int
tx_run_spawn(const struct aiterm_host *host, const struct tx_server *srv,
    const struct tx_argv *cmd, struct tx_result *res, struct aiterm_error *err)
{
	const char **argv;
	char **words = tx_argv_client(cmd);
	size_t i, n = 0;
	int rc;

	/*
	 * -S: the private server of this state root.  -f: our config, so
	 * ~/.tmux.conf and /etc/tmux.conf are never read; tmux reads it
	 * only when this call starts the server.
	 */
	argv = tx_alloc((cmd->n + 7) * sizeof *argv);
	argv[n++] = srv->binary;
	/* -u: UTF-8 whatever the locale (without it tmux prints a tab as _). */
	argv[n++] = "-u";
	argv[n++] = "-S";
	argv[n++] = srv->socket;
	argv[n++] = "-f";
	argv[n++] = srv->config;
	for (i = 0; i < cmd->n; i++)
		argv[n++] = words[i];
	argv[n] = NULL;
	rc = tx_host_run(host, argv, res, err);
	free(argv);
	tx_strv_free(words);
	return rc;
}

/* The error of a command tmux did not take (STALLED, BUSY or LOCKED). */
static int
tx_silent(const struct aiterm_host *host, const struct tx_server *srv,
    enum tx_ctl_outcome outcome, const char *note, struct aiterm_error *err)
{
	/* Nothing more goes to tmux until it answers (tmux-ctl.c). */
	if (outcome == TX_CTL_BUSY)
		return host->error(err, "tmux server not answering (stopped?) "
		    "for %lld ms; nothing is sent to it until it answers",
		    tx_ctl_stalled_ms());
	if (outcome == TX_CTL_LOCKED)
		return host->error(err, "tmux server not answering (stopped?): "
		    "another aiterm-mcp on this state root has held %s for "
		    "more than %d ms; nothing was sent", srv->lock,
		    TX_LOCK_WAIT_MS);
	return host->error(err, "tmux server not answering for %ld ms%s",
	    tx_ctl_timeout_ms(), note);
}

int
tx_run(const struct aiterm_host *host, const struct tx_server *srv,
    const struct tx_argv *cmd, enum tx_resend resend, struct tx_result *res,
    struct aiterm_error *err)
{
	enum tx_ctl_outcome outcome = tx_ctl_run(host, srv, cmd, res);
	int rc;

	switch (outcome) {
	case TX_CTL_DONE:
		rc = 0;
		break;
	case TX_CTL_STALLED:
	case TX_CTL_BUSY:
	case TX_CTL_LOCKED:
		/* A one-shot client would wait on the same server. */
		rc = tx_silent(host, srv, outcome, outcome == TX_CTL_STALLED &&
		    resend != TX_RESEND_OK ? " (the command was not sent "
		    "again: it may still run when tmux recovers)" : "", err);
		break;
	case TX_CTL_LOST:
		if (resend != TX_RESEND_OK) {
			rc = host->error(err, "tmux gave no answer (timeout %ld "
			    "ms) and the command was not sent again: it may "
			    "still run when tmux recovers", tx_ctl_timeout_ms());
			break;
		}
		/* FALLTHROUGH */
	default:
		if (resend == TX_CONTROL_ONLY) {
			rc = host->error(err, "tmux's control client is not "
			    "available (control mode off, or it just failed), "
			    "and a secret is never typed by a one-shot tmux "
			    "process, whose arguments any process can read; "
			    "nothing was typed");
			break;
		}
		res->blocks = 0;
		rc = tx_run_spawn(host, srv, cmd, res, err);
		break;
	}
	return rc;
}

int
tx_answering(const struct aiterm_host *host, const struct tx_server *srv,
    struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT;
	enum tx_ctl_outcome outcome;
	int rc = 0;

	tx_argv_add(&cmd, "display-message");
	tx_argv_add(&cmd, "-p");
	tx_argv_add(&cmd, "");
	outcome = tx_ctl_run(host, srv, &cmd, &res);
	if (outcome == TX_CTL_STALLED || outcome == TX_CTL_BUSY ||
	    outcome == TX_CTL_LOCKED)
		rc = tx_silent(host, srv, outcome, "", err);
	tx_result_free(&res);
	tx_argv_free(&cmd);
	return rc;
}

int
tx_result_missing(const struct tx_result *res)
{
	const char *text = tx_str_get(&res->errout);
	int i, found = 0;

	for (i = 0; tx_missing_texts[i] != NULL && !found; i++)
		found = strstr(text, tx_missing_texts[i]) != NULL;
	return found;
}

int
tx_result_fail(const struct aiterm_host *host, struct aiterm_error *err,
    const char *what, const char *session, const struct tx_result *res)
{
	const char *text = tx_str_get(&res->errout);
	int len = (int)strcspn(text, "\n");
	struct tx_str where = TX_STR_INIT;

	tx_str_add(&where, "", 0);
	if (session != NULL) {
		tx_str_adds(&where, " for session '");
		tx_str_adds(&where, session);
		tx_str_adds(&where, "'");
	}
	if (len == 0)
		host->error(err, "tmux %s failed%s (exit status %d)", what,
		    where.data, res->status);
	else
		host->error(err, "tmux %s failed%s: %.*s", what, where.data,
		    len, text);
	tx_str_free(&where);
	return -1;
}

void
tx_result_free(struct tx_result *res)
{
	tx_str_free(&res->out);
	tx_str_free(&res->errout);
	res->status = -1;
	res->blocks = 0;
}
