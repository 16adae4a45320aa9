/* Run backends: loading, merging and checking the YAML, building argv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/run/backend.h"
#include "cli/run/yamljson.h"
#include "util/jsonschema.h"
#include "util/xmalloc.h"

#ifndef AITERM_BACKENDDIR
#define AITERM_BACKENDDIR "/usr/local/share/aiterm/backends"
#endif
#ifndef AITERM_SRC_BACKENDDIR
#define AITERM_SRC_BACKENDDIR AITERM_BACKENDDIR
#endif

#define STRINGS "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"

/* Every key a backend file may have (ADR 0023). */
static const char backend_schema[] = "{\"type\":\"object\","
    "\"additionalProperties\":false,\"properties\":{"
    "\"backend\":{\"type\":\"integer\",\"enum\":[1]},"
    "\"id\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":63},"
    "\"summary\":{\"type\":\"string\"},"
    "\"command\":{\"type\":\"string\"},"
    "\"args\":" STRINGS ",\"resume_args\":" STRINGS ","
    "\"output\":{\"type\":\"string\",\"enum\":[\"json\",\"jsonl\","
    "\"text\"]},"
    "\"input\":{\"type\":\"string\",\"enum\":[\"arg\",\"stdin\"]},"
    "\"model_arg\":{\"type\":\"string\",\"minLength\":1},"
    "\"session_arg\":{\"type\":\"string\",\"minLength\":1},"
    "\"session_mode\":{\"type\":\"string\",\"enum\":[\"always\","
    "\"existing\",\"none\"]},"
    "\"session_id_fields\":" STRINGS ",\"text_fields\":" STRINGS ","
    "\"text_when\":{\"type\":\"object\"},"
    "\"usage_fields\":" STRINGS "},"
    "\"required\":[\"backend\",\"id\",\"command\",\"output\","
    "\"session_mode\"]}";

static const char *const outputs[] = { "text", "json", "jsonl" };
static const char *const inputs[] = { "arg", "stdin" };
static const char *const sessions[] = { "always", "existing", "none" };

static int
index_in(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s != NULL && i < n; i++) {
		if (strcmp(names[i], s) == 0)
			return (int)i;
	}
	return 0;
}

/*
 * The built-in file of id (malloc'd; it may not exist): in
 * $AITERM_BACKEND_DIR, else in the installed folder, else in the first
 * folder of the source tree's colon-separated list that has it (the
 * generic backend's in cli/run, each CLI's in its harness folder).
 */
static char *
builtin_file(const char *id)
{
	const char *dir = getenv("AITERM_BACKEND_DIR");
	char *copy, *d, *save = NULL, *path = NULL;

	if (dir != NULL && *dir != '\0')
		return xasprintf("%s/%s.yaml", dir, id);
	if (access(AITERM_BACKENDDIR, R_OK | X_OK) != 0) {
		copy = xstrdup(AITERM_SRC_BACKENDDIR);
		for (d = strtok_r(copy, ":", &save); d != NULL && path == NULL;
		    d = strtok_r(NULL, ":", &save)) {
			path = xasprintf("%s/%s.yaml", d, id);
			if (access(path, F_OK) != 0) {
				free(path);
				path = NULL;
			}
		}
		free(copy);
		if (path != NULL)
			return path;
	}
	return xasprintf("%s/%s.yaml", AITERM_BACKENDDIR, id);
}

/* The user's override file of id, malloc'd (it may not exist). */
static char *
user_file(const char *id)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg != NULL && *xdg == '/')
		return xasprintf("%s/aiterm/backends/%s.yaml", xdg, id);
	if (home != NULL && *home != '\0')
		return xasprintf("%s/.config/aiterm/backends/%s.yaml", home, id);
	return NULL;
}

static bool
id_valid(const char *id)
{
	size_t i, n = strlen(id);

	if (n == 0 || n > 63)
		return false;
	for (i = 0; i < n; i++) {
		if (strchr("abcdefghijklmnopqrstuvwxyz0123456789_-", id[i]) ==
		    NULL)
			return false;
	}
	return true;
}

/* One file, checked alone: every key it gives must be a known one. */
static json_t *
load_file(const char *path, const json_t *schema, bool whole,
    struct aiterm_error *err)
{
	struct aiterm_error e = ERROR_INIT;
	json_t *j, *part;

	if ((j = yamljson_load(path, err)) == NULL)
		return NULL;
	if (!json_is_object(j)) {
		json_decref(j);
		error_set(err, "%s: not a mapping of keys", path);
		return NULL;
	}
	/* An override need not repeat the required keys. */
	part = json_deep_copy(schema);
	if (!whole)
		json_object_del(part, "required");
	if (schema_check(part, j, &e) != 0) {
		error_set(err, "%s: %s", path, error_msg(&e));
		error_clear(&e);
		json_decref(j);
		j = NULL;
	}
	json_decref(part);
	return j;
}

int
backend_load(const char *id, struct backend *b, struct aiterm_error *err)
{
	struct aiterm_error e = ERROR_INIT;
	json_t *schema = json_loads(backend_schema, 0, NULL), *over;
	char *builtin = NULL, *user = NULL;
	int rc = -1;

	memset(b, 0, sizeof b[0]);
	if (!id_valid(id)) {
		error_set(err, "backend '%.64s': use 1-63 of a-z 0-9 _ -", id);
		goto out;
	}
	builtin = builtin_file(id);
	user = user_file(id);
	if (access(builtin, F_OK) == 0 &&
	    (b->conf = load_file(builtin, schema, true, err)) == NULL)
		goto out;
	if (user != NULL && access(user, F_OK) == 0) {
		if ((over = load_file(user, schema, b->conf == NULL,
		    err)) == NULL)
			goto out;
		if (b->conf == NULL)
			b->conf = over;
		else {
			json_object_update(b->conf, over);
			json_decref(over);
		}
	}
	if (b->conf == NULL) {
		error_set(err, "no backend '%s' (built-in: claude, codex, "
		    "generic; yours: %s)", id, user != NULL ? user :
		    "$XDG_CONFIG_HOME/aiterm/backends/<id>.yaml");
		goto out;
	}
	if (schema_check(schema, b->conf, &e) != 0 ||
	    strcmp(json_string_value(json_object_get(b->conf, "id")), id)
	    != 0) {
		error_set(err, "backend %s: %s", id, e.msg != NULL ?
		    error_msg(&e) : "its id differs from its file name");
		error_clear(&e);
		goto out;
	}
	b->id = json_string_value(json_object_get(b->conf, "id"));
	b->command = json_string_value(json_object_get(b->conf, "command"));
	b->output = (enum backend_output)index_in(outputs, 3,
	    json_string_value(json_object_get(b->conf, "output")));
	b->input = (enum backend_input)index_in(inputs, 2,
	    json_string_value(json_object_get(b->conf, "input")));
	b->session = (enum backend_session)index_in(sessions, 3,
	    json_string_value(json_object_get(b->conf, "session_mode")));
	rc = 0;
out:
	if (rc != 0) {
		json_decref(b->conf);
		b->conf = NULL;
	}
	json_decref(schema);
	free(builtin);
	free(user);
	return rc;
}

void
backend_free(struct backend *b)
{
	json_decref(b->conf);
	memset(b, 0, sizeof b[0]);
}

/* s with every {session_id} replaced (malloc'd). */
static char *
substitute(const char *s, const char *session_id)
{
	const char *mark = "{session_id}", *p;
	size_t ml = strlen(mark);
	char *out = xstrdup(""), *next;

	while ((p = strstr(s, mark)) != NULL) {
		next = xasprintf("%s%.*s%s", out, (int)(p - s), s,
		    session_id != NULL ? session_id : "");
		free(out);
		out = next;
		s = p + ml;
	}
	next = xasprintf("%s%s", out, s);
	free(out);
	return next;
}

int
backend_argv(const struct backend *b, const char *prompt, const char *model,
    const char *session_id, bool resume, char ***argv,
    struct aiterm_error *err)
{
	json_t *args = json_object_get(b->conf, resume ? "resume_args" :
	    "args"), *v;
	const char *marg = json_string_value(json_object_get(b->conf,
	    "model_arg"));
	const char *sarg = json_string_value(json_object_get(b->conf,
	    "session_arg"));
	char **av;
	size_t n = 0, i;

	if (resume && (args == NULL || session_id == NULL))
		return error_set(err, "backend %s: %s", b->id, args == NULL ?
		    "it has no resume_args: it cannot resume a session" :
		    "resuming needs --session-id");
	if (session_id != NULL && b->session == SESSION_NONE)
		return error_set(err, "backend %s: session_mode none takes no "
		    "session id", b->id);
	if (model != NULL && marg == NULL)
		return error_set(err, "backend %s: it has no model_arg for "
		    "--model", b->id);
	av = xcalloc(json_array_size(args) + 8, sizeof *av);
	av[n++] = xstrdup(b->command);
	json_array_foreach(args, i, v)
		av[n++] = substitute(json_string_value(v), session_id);
	if (model != NULL) {
		av[n++] = xstrdup(marg);
		av[n++] = xstrdup(model);
	}
	/* A resumed run names its session in resume_args already. */
	if (!resume && session_id != NULL && sarg != NULL) {
		av[n++] = xstrdup(sarg);
		av[n++] = xstrdup(session_id);
	}
	if (prompt != NULL && b->input == BACKEND_INPUT_ARG)
		av[n++] = xstrdup(prompt);
	*argv = av;
	return 0;
}

void
backend_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}
