/*
 * Claude Code and Cursor keep MCP servers in a JSON file of the user's
 * (edited by config.c); Codex and Grok are asked through their own CLIs
 * (`codex mcp add|get|remove`, `grok mcp add|list|remove`).  Every
 * registration is read back through the client before it counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clients.h"
#include "hooks.h"
#include "jconf.h"
#include "run.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define CLI_MS		60000	/* one client command */

struct client {
	const char	*id;
	const char	*harness;
	const char	*bins[3];
	char		*(*config)(void);	/* JSON clients: the file */
	bool		 typed;			/* entry has "type":"stdio" */
	const char	*dir;			/* ~/<dir> also means found */
	int		 hooks;			/* enum hookset + 1, 0: none */
	/* CLI clients: the command of this server, NULL if none. */
	char		*(*cli_get)(const char *bin, struct setup_outcome *o);
	char		*const *add_argv;	/* after bin; NAME, -- cmd */
	char		*const *remove_argv;
	/* JSON clients: a read-back through the client, NULL if none. */
	int		(*readback)(const char *bin, const char *server,
			    struct setup_outcome *o);
};

static char *
home_path(const char *rel)
{
	const char *home = getenv("HOME");

	return xasprintf("%s/%s", home != NULL ? home : "", rel);
}

static char *
claude_config(void)
{
	const char *dir = getenv("CLAUDE_CONFIG_DIR");

	return dir != NULL && *dir != '\0' ? xasprintf("%s/.claude.json",
	    dir) : home_path(".claude.json");
}

static char *
cursor_config(void)
{
	return home_path(".cursor/mcp.json");
}

/* `claude mcp get aiterm`: its "Command:" line must be the server. */
static int
claude_readback(const char *bin, const char *server, struct setup_outcome *o)
{
	char *argv[] = { (char *)bin, "mcp", "get", SETUP_NAME, NULL };
	struct run_result r;
	char *want = xasprintf("Command: %s\n", server), *ex;
	int rc = -1;

	if (run_cmd(argv, CLI_MS, &r) != 0)
		rc = setup_fail(o, "READBACK_FAILED", "could not run %s", bin);
	else if (r.status != 0 || strstr(r.out.data, want) == NULL) {
		ex = run_excerpt(&r);
		rc = setup_fail(o, "READBACK_MISMATCH", "`claude mcp get %s` "
		    "(status %d) does not show %s: %s", SETUP_NAME, r.status,
		    server, ex);
		free(ex);
	} else {
		rc = 0;
		setup_note(o, "%s", strstr(r.out.data, "Connected") != NULL ?
		    "claude mcp get: connected" : "claude mcp get: listed");
	}
	run_result_free(&r);
	free(want);
	return rc;
}

/* The JSON a command printed, or NULL. */
static json_t *
cli_json(const char *bin, char *const *args, int *status)
{
	char *argv[8];
	struct run_result r;
	json_t *j = NULL;
	size_t i;

	argv[0] = (char *)bin;
	for (i = 0; args[i] != NULL && i + 2 < 8; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	*status = -1;
	if (run_cmd(argv, CLI_MS, &r) == 0) {
		*status = r.status;
		j = r.status == 0 ? json_loads(r.out.data, 0, NULL) : NULL;
	}
	run_result_free(&r);
	return j;
}

static char *
codex_get(const char *bin, struct setup_outcome *o)
{
	static char *const args[] = { "mcp", "get", SETUP_NAME, "--json",
	    NULL };
	int st;
	json_t *j = cli_json(bin, args, &st);
	const char *cmd = json_string_value(json_object_get(json_object_get(
	    j, "transport"), "command"));
	char *out = cmd != NULL ? xstrdup(cmd) : NULL;

	(void)o;
	json_decref(j);
	return out;
}

static char *
grok_get(const char *bin, struct setup_outcome *o)
{
	static char *const args[] = { "mcp", "list", "--json", NULL };
	int st;
	json_t *j = cli_json(bin, args, &st), *e;
	char *out = NULL;
	size_t i;

	(void)o;
	json_array_foreach(j, i, e) {
		if (json_string_value(json_object_get(e, "name")) != NULL &&
		    strcmp(json_string_value(json_object_get(e, "name")),
		    SETUP_NAME) == 0 && json_string_value(json_object_get(e,
		    "command")) != NULL)
			out = xstrdup(json_string_value(json_object_get(e,
			    "command")));
	}
	json_decref(j);
	return out;
}

static char *const codex_add[] = { "mcp", "add", SETUP_NAME, NULL };
static char *const codex_remove[] = { "mcp", "remove", SETUP_NAME, NULL };
static char *const grok_add[] = { "mcp", "add", "--scope", "user",
	SETUP_NAME, NULL };
static char *const grok_remove[] = { "mcp", "remove", "--scope", "user",
	SETUP_NAME, NULL };

static const struct client table[] = {
	{ "claude-code", "claude-code", { "claude", NULL }, claude_config,
	    true, NULL, HOOKS_CLAUDE + 1, NULL, NULL, NULL, claude_readback },
	{ "codex-cli", "codex-cli", { "codex", NULL }, NULL, false, NULL,
	    0, codex_get, codex_add, codex_remove, NULL },
	{ "grok-cli", "grok-cli", { "grok", NULL }, NULL, false, NULL, 0,
	    grok_get, grok_add, grok_remove, NULL },
	{ "cursor", "cursor-cli", { "cursor-agent", "agent", NULL },
	    cursor_config, false, ".cursor", HOOKS_CURSOR + 1, NULL, NULL, NULL,
	    NULL },
};

size_t
clients_count(void)
{
	return sizeof table / sizeof table[0];
}

const struct client *
client_at(size_t i)
{
	return i < clients_count() ? &table[i] : NULL;
}

const char *
client_id(const struct client *c)
{
	return c->id;
}

const char *
client_harness(const struct client *c)
{
	return c->harness;
}

bool
client_detect(const struct client *c, struct setup_outcome *o)
{
	struct run_result r;
	struct stat st;
	char *argv[] = { NULL, "--version", NULL }, *dir;
	size_t i;

	for (i = 0; c->bins[i] != NULL && o->binary == NULL; i++)
		o->binary = path_search(c->bins[i]);
	if (o->binary != NULL) {
		argv[0] = o->binary;
		if (run_cmd(argv, CLI_MS, &r) == 0 && r.status == 0)
			o->version = run_first_line(r.out.data, 80);
		run_result_free(&r);
		if (o->version == NULL) {
			setup_fail(o, "CLIENT_BROKEN", "%s --version failed",
			    o->binary);
			return true;
		}
		return true;
	}
	if (c->dir != NULL) {
		dir = home_path(c->dir);
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
			setup_note(o, "%s found; no %s command",
			    dir, c->bins[0]);
			free(dir);
			return true;
		}
		free(dir);
	}
	o->status = SETUP_SKIPPED;
	setup_note(o, "not installed (no %s in PATH)", c->bins[0]);
	return false;
}

/* The entry setup writes into a JSON config. */
static json_t *
entry(const struct client *c, struct setup_ctx *x)
{
	json_t *e = json_object();

	if (c->typed)
		json_object_set_new(e, "type", json_string("stdio"));
	json_object_set_new(e, "command", json_string(x->opts->server));
	json_object_set_new(e, "args", json_array());
	json_object_set_new(e, "env", json_deep_copy(x->env));
	return e;
}

static void
own(struct setup_ctx *x, const struct client *c, const char *config,
    bool created, bool new_file)
{
	json_object_set_new(x->owned, c->id, json_pack("{s:s, s:s*, s:b, "
	    "s:b}", "command", x->opts->server, "config", config,
	    "created_parent", created, "created_file", new_file));
}

/* Claude Code's parent hooks, after its registration (SET-HOOKS). */
static int
add_hooks(struct setup_ctx *x, const struct client *c, struct setup_outcome *o)
{
	char *note = NULL;
	json_t *rec;
	int rc = hooks_install((enum hookset)(c->hooks - 1), o->version,
	    x->opts->dry_run, o,
	    &note);

	if (rc == 0 && note != NULL) {
		if (o->message != NULL && *o->message != '\0')
			setup_note(o, "%s; %s", o->message, note);
		else
			setup_note(o, "%s", note);
	}
	if (rc == 0 && !x->opts->dry_run && note != NULL &&
	    strstr(note, "installed in") != NULL) {
		rec = json_object_get(x->owned, c->id);
		if (rec == NULL) {
			rec = json_object();
			json_object_set_new(x->owned, c->id, rec);
		}
		json_object_set_new(rec, "hooks", json_true());
	}
	free(note);
	return rc;
}

static int
json_register(const struct client *c, struct setup_ctx *x,
    struct setup_outcome *o)
{
	struct jconf conf;
	json_t *e = entry(c, x), *have;
	char *path = c->config();
	bool created = false, existed;
	int rc = -1;

	o->config = xstrdup(path);
	if (jconf_load(&conf, path, o) != 0)
		goto out;
	existed = conf.exists;
	have = jconf_server(&conf, SETUP_NAME);
	if (have != NULL && json_equal(have, e)) {
		o->status = SETUP_ALREADY;
	} else if (have != NULL) {
		rc = setup_fail(o, "NAME_TAKEN", "%s already has an MCP server "
		    "named \"%s\" (%s), not this one; it was left as it is",
		    path, SETUP_NAME, json_string_value(json_object_get(have,
		    "command")) ? json_string_value(json_object_get(have,
		    "command")) : "?");
		goto out;
	} else {
		if (jconf_change(&conf, SETUP_NAME, e, false,
		    x->opts->dry_run, &created, o) != 0)
			goto out;
		o->status = x->opts->dry_run ? SETUP_PLANNED :
		    SETUP_REGISTERED;
	}
	if (x->opts->dry_run) {
		rc = c->hooks ? add_hooks(x, c, o) : 0;
		goto out;
	}
	if (c->readback != NULL && o->binary != NULL)
		rc = c->readback(o->binary, x->opts->server, o);
	else {
		/* No client command to ask (Cursor here): the file again. */
		jconf_free(&conf);
		rc = jconf_load(&conf, path, o) == 0 &&
		    json_equal(jconf_server(&conf, SETUP_NAME), e) ? 0 :
		    setup_fail(o, "READBACK_MISMATCH", "%s does not hold the "
		    "entry after writing it", path);
		if (rc == 0)
			setup_note(o, "%s", "read back from the file (no "
			    "client command to ask)");
	}
	if (rc == 0 && o->status == SETUP_REGISTERED)
		own(x, c, path, created, !existed);
	if (rc == 0 && c->hooks)
		rc = add_hooks(x, c, o);
out:
	jconf_free(&conf);
	json_decref(e);
	free(path);
	return rc;
}

/* `<bin> <args...> [extra...]`: failed CLI_FAILED with its stderr. */
static int
cli_run(const char *bin, char *const *args, char **extra,
    struct setup_outcome *o)
{
	char *argv[24], *ex;
	struct run_result r;
	size_t n = 0, i;
	int rc;

	argv[n++] = (char *)bin;
	for (i = 0; args[i] != NULL && n < 12; i++)
		argv[n++] = args[i];
	for (i = 0; extra != NULL && extra[i] != NULL && n < 23; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	if (run_cmd(argv, CLI_MS, &r) != 0)
		return setup_fail(o, "CLI_FAILED", "could not run %s", bin);
	rc = r.status == 0 ? 0 : -1;
	if (rc != 0) {
		ex = run_excerpt(&r);
		setup_fail(o, "CLI_FAILED", "`%s %s %s` exited with status "
		    "%d%s: %s", bin, args[0], args[1], r.status,
		    r.timed_out ? " (timed out)" : "", ex);
		free(ex);
	}
	run_result_free(&r);
	return rc;
}

/*
 * --env K=V ... -- server, for `mcp add`.  Codex passes its own
 * environment to no MCP server: the server gets where the parent's
 * CODEX_HOME is and which codex serves it (DLV-CODEX's receiver).
 */
static char **
add_tail(struct setup_ctx *x, const struct client *c,
    const struct setup_outcome *o)
{
	char **v = xcalloc(2 * json_object_size(x->env) + 7, sizeof *v);
	const char *k, *home = getenv("CODEX_HOME"), *h = getenv("HOME");
	json_t *val;
	size_t n = 0;

	json_object_foreach(x->env, k, val) {
		v[n++] = xstrdup("--env");
		v[n++] = xasprintf("%s=%s", k, json_string_value(val));
	}
	if (c->cli_get == codex_get) {
		v[n++] = xstrdup("--env");
		v[n++] = home != NULL && *home != '\0' ? xasprintf(
		    "CODEX_HOME=%s", home) : xasprintf("CODEX_HOME=%s/.codex",
		    h != NULL ? h : "");
		v[n++] = xstrdup("--env");
		v[n++] = xasprintf("AITERM_CODEX_BIN=%s", o->binary);
	}
	v[n++] = xstrdup("--");
	v[n++] = xstrdup(x->opts->server);
	return v;
}

static void
strv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

static int
cli_register(const struct client *c, struct setup_ctx *x,
    struct setup_outcome *o)
{
	char *have = c->cli_get(o->binary, o), **tail;
	int rc = -1;

	if (have != NULL && strcmp(have, x->opts->server) == 0) {
		o->status = SETUP_ALREADY;
		rc = 0;
		goto out;
	}
	if (have != NULL) {
		rc = setup_fail(o, "NAME_TAKEN", "%s already has an MCP server "
		    "named \"%s\" (%s), not this one; it was left as it is",
		    c->id, SETUP_NAME, have);
		goto out;
	}
	tail = add_tail(x, c, o);
	if (x->opts->dry_run) {
		o->status = SETUP_PLANNED;
		o->diff = xasprintf("would run: %s mcp add ... %s -- %s",
		    o->binary, SETUP_NAME, x->opts->server);
		strv_free(tail);
		rc = 0;
		goto out;
	}
	rc = cli_run(o->binary, c->add_argv, tail, o);
	strv_free(tail);
	if (rc != 0)
		goto out;
	free(have);
	have = c->cli_get(o->binary, o);
	if (have == NULL || strcmp(have, x->opts->server) != 0) {
		rc = setup_fail(o, "READBACK_MISMATCH", "after `%s mcp add`, "
		    "the client lists %s as \"%s\"", o->binary,
		    have != NULL ? have : "nothing", SETUP_NAME);
		goto out;
	}
	o->status = SETUP_REGISTERED;
	setup_note(o, "read back with `%s mcp %s`", c->bins[0],
	    c->cli_get == codex_get ? "get --json" : "list --json");
	own(x, c, NULL, false, false);
out:
	free(have);
	return rc;
}

int
client_register(const struct client *c, struct setup_ctx *x,
    struct setup_outcome *o)
{
	if (c->config != NULL)
		return json_register(c, x, o);
	return cli_register(c, x, o);
}

int
client_unregister(const struct client *c, struct setup_ctx *x,
    struct setup_outcome *o)
{
	json_t *rec = json_object_get(x->owned, c->id);
	const char *cmd = json_string_value(json_object_get(rec, "command"));
	struct jconf conf;
	json_t *have;
	char *now;
	int rc = -1;

	o->status = SETUP_NOT_OURS;
	if (c->hooks && json_is_true(json_object_get(rec, "hooks"))) {
		bool removed;

		if (hooks_remove((enum hookset)(c->hooks - 1), x->opts->dry_run,
		    o, &removed) != 0)
			return -1;
		if (removed)
			o->status = x->opts->dry_run ? SETUP_PLANNED :
			    SETUP_REMOVED;
		setup_note(o, "%s", removed ? "parent hooks removed" :
		    "parent hooks already gone");
		if (!x->opts->dry_run)
			json_object_del(rec, "hooks");
	}
	if (cmd == NULL) {
		if (o->status != SETUP_NOT_OURS) {
			if (!x->opts->dry_run)
				json_object_del(x->owned, c->id);
			return 0;
		}
		setup_note(o, "%s", "aiterm-setup did not register Aiterm "
		    "here; nothing to remove");
		return 0;
	}
	if (c->config != NULL) {
		o->config = xstrdup(json_string_value(json_object_get(rec,
		    "config")));
		if (jconf_load(&conf, o->config, o) != 0) {
			jconf_free(&conf);
			return -1;
		}
		have = jconf_server(&conf, SETUP_NAME);
		if (have != NULL && json_string_value(json_object_get(have,
		    "command")) != NULL && strcmp(json_string_value(
		    json_object_get(have, "command")), cmd) == 0) {
			rc = jconf_change(&conf, SETUP_NAME, NULL,
			    json_is_true(json_object_get(rec,
			    "created_parent")), x->opts->dry_run, NULL, o);
			if (rc == 0)
				o->status = x->opts->dry_run ? SETUP_PLANNED :
				    SETUP_REMOVED;
			if (rc == 0)
				setup_note(o, "%s", "the entry setup added");
			if (rc == 0 && !x->opts->dry_run && json_is_true(
			    json_object_get(rec, "created_file")))
				rc = jconf_unlink_empty(o->config, o);
		} else {
			setup_note(o, "%s", "the entry setup added is gone "
			    "or was changed since; left as it is");
			rc = 0;
		}
		jconf_free(&conf);
	} else {
		now = o->binary != NULL ? c->cli_get(o->binary, o) : NULL;
		if (now == NULL || strcmp(now, cmd) != 0) {
			setup_note(o, "%s", "the entry setup added is gone "
			    "or was changed since; left as it is");
			rc = 0;
		} else if (x->opts->dry_run) {
			o->status = SETUP_PLANNED;
			o->diff = xasprintf("would run: %s mcp remove %s",
			    o->binary, SETUP_NAME);
			rc = 0;
		} else if ((rc = cli_run(o->binary, c->remove_argv, NULL,
		    o)) == 0)
			o->status = SETUP_REMOVED;
		free(now);
	}
	if (rc == 0 && !x->opts->dry_run && o->status != SETUP_FAILED)
		json_object_del(x->owned, c->id);
	return rc;
}
