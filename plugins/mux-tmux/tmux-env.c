/*
 * The environment of a new pane: the one of the server that opens it
 * (issue 32).
 *
 * A tmux server keeps the environment of the client that started it
 * (its "global environment") and gives it to every pane, so on a state
 * root shared by several aiterm-mcp the first one to start the private
 * server would choose HOME, PATH, CODEX_HOME, ... for the panes of all
 * the others.  new-session copies into the new session's environment
 * the variables named by the global update-environment option, from the
 * environment of the client that runs it (our one-shot client, started
 * with the opening server's environment), and marks those named but
 * absent there as removed; the pane gets the global environment with the
 * session's on top, then -e, then tmux's own (TERM, TMUX, TMUX_PANE,
 * PWD, SHELL).  So create names, for that one new-session, every
 * variable of the opening server and every variable the tmux server has
 * globally: the pane gets exactly the server's environment, whoever
 * started tmux.  The values travel over the private socket, never in an
 * argv (ps shows the names only).
 *
 * Names are listed one by one: tmux 3.3a copies only the first variable
 * a pattern such as "*" matches.  Names outside [A-Za-z_][A-Za-z0-9_]*
 * are left out (a pane never gets such a variable), and tmux's client
 * leaves out a variable longer than its 16 KB message.
 */
#include <stdlib.h>
#include <string.h>

#include "mux-tmux.h"

/* Whether name (len bytes) is already one of the words of list. */
static int
tx_env_listed(const struct tx_str *list, const char *name, size_t len)
{
	const char *p = tx_str_get(list), *end;

	for (; *p != '\0'; p = end + (*end != '\0')) {
		end = p + strcspn(p, " ");
		if ((size_t)(end - p) == len && memcmp(p, name, len) == 0)
			return 1;
	}
	return 0;
}

/* Add the name of "NAME=value" (len bytes of name) unless bad or there. */
static void
tx_env_name_add(struct tx_str *list, const char *name, size_t len)
{
	char *key = tx_alloc(len + 1);

	memcpy(key, name, len);
	key[len] = '\0';
	if (tx_env_key_valid(key) &&
	    !tx_env_listed(list, name, len)) {
		if (list->len > 0)
			tx_str_adds(list, " ");
		tx_str_add(list, name, len);
	}
	free(key);
}

/* The names set in the tmux server's global environment ("-NAME": unset). */
static int
tx_env_global(const struct aiterm_host *host, const struct tx_server *srv,
    struct tx_str *list, struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT;
	const char *p, *end, *eq;
	int rc = -1;

	tx_argv_add(&cmd, "show-environment");
	tx_argv_add(&cmd, "-g");
	if (tx_run(host, srv, &cmd, TX_RESEND_OK, &res, err) != 0)
		goto out;
	if (res.status != 0 && !tx_result_missing(&res)) {
		tx_result_fail(host, err, "show-environment", NULL, &res);
		goto out;
	}
	/* No server: the create starts it with our environment as global. */
	for (p = tx_str_get(&res.out); res.status == 0 && *p != '\0';
	    p = end + (*end != '\0')) {
		end = p + strcspn(p, "\n");
		eq = memchr(p, '=', (size_t)(end - p));
		/* A line of a value with a newline: naming more is harmless. */
		if (eq != NULL)
			tx_env_name_add(list, p, (size_t)(eq - p));
	}
	rc = 0;
out:
	tx_result_free(&res);
	tx_argv_free(&cmd);
	return rc;
}

int
tx_env_names(const struct aiterm_host *host, const struct tx_server *srv,
    const char *const *env, struct tx_str *list, struct aiterm_error *err)
{
	const char *eq;

	for (; env != NULL && *env != NULL; env++)
		if ((eq = strchr(*env, '=')) != NULL)
			tx_env_name_add(list, *env, (size_t)(eq - *env));
	if (tx_env_global(host, srv, list, err) != 0)
		return -1;
	if (list->len > TX_ENV_NAMES_MAX)
		return host->error(err, "tmux: the environment has %zu bytes of "
		    "variable names, more than the %d a tmux command can carry "
		    "to a new session", list->len, TX_ENV_NAMES_MAX);
	return 0;
}
