#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/record.h"
#include "pty/session.h"
#include "state/atomic.h"
#include "util/xmalloc.h"

static const char *const dispatch_names[] = {
	[DISPATCH_NOT_REQUESTED] = "not_requested",
	[DISPATCH_NOT_SENT] = "not_sent",
	[DISPATCH_SENT_UNCONFIRMED] = "sent_unconfirmed",
	[DISPATCH_START_CONFIRMED] = "start_confirmed",
};

const char *
agent_dispatch_name(enum agent_dispatch d)
{
	return dispatch_names[d];
}

static enum agent_dispatch
dispatch_parse(const char *s)
{
	size_t i;

	for (i = 0; s != NULL && i < sizeof dispatch_names /
	    sizeof dispatch_names[0]; i++) {
		if (strcmp(s, dispatch_names[i]) == 0)
			return (enum agent_dispatch)i;
	}
	return DISPATCH_NOT_REQUESTED;
}

int
agent_record_write(const char *session, const struct agent_record *r,
    struct aiterm_error *err)
{
	json_t *env = json_array(), *o;
	size_t i;

	for (i = 0; r->env[i] != NULL; i++)
		json_array_append_new(env, json_string(r->env[i]));
	o = json_pack(
	    "{s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:o, s:s, s:s,"
	    " s:i, s:I, s:s, s:s, s:I, s:b}",
	    "format", 1, "harness", r->harness, "launch_id", r->launch_id,
	    "binary", r->binary, "version", r->version, "model", r->model,
	    "cwd", r->cwd, "home", r->home,
	    "started_ms", (json_int_t)r->started_ms, "env", env,
	    "transcript", r->transcript, "bound_by", r->bound_by,
	    "turn", (int)r->turn,
	    "index", (json_int_t)r->index,
	    "dispatch", agent_dispatch_name(r->dispatch),
	    "confirmed_by", r->confirmed_by,
	    "dispatched_ms", (json_int_t)r->dispatched_ms,
	    "running_mark", r->running_mark);
	if (o != NULL && r->prompt[0] != '\0')
		json_object_set_new(o, "prompt", json_string(r->prompt));
	if (o != NULL && r->effort[0] != '\0')
		json_object_set_new(o, "effort", json_string(r->effort));
	/* Only while it is owed: a record without it reads as checked. */
	if (o != NULL && r->startup_check_ms > 0)
		json_object_set_new(o, "startup_check_ms",
		    json_integer(r->startup_check_ms));
	return session_json_write(session, "agent.json", o, err);
}

static void
copy(char *dst, size_t size, json_t *o, const char *key)
{
	snprintf(dst, size, "%s", json_string_value(json_object_get(o, key)) ?
	    json_string_value(json_object_get(o, key)) : "");
}

int
agent_record_read(const char *session, struct agent_record *r,
    struct aiterm_error *err)
{
	json_t *o, *v;
	size_t i, n = 0;

	memset(r, 0, sizeof *r);
	if ((o = session_json_read(session, "agent.json", err)) == NULL)
		return -1;
	copy(r->harness, sizeof r->harness, o, "harness");
	copy(r->launch_id, sizeof r->launch_id, o, "launch_id");
	copy(r->binary, sizeof r->binary, o, "binary");
	copy(r->version, sizeof r->version, o, "version");
	copy(r->model, sizeof r->model, o, "model");
	copy(r->effort, sizeof r->effort, o, "effort");
	copy(r->cwd, sizeof r->cwd, o, "cwd");
	copy(r->home, sizeof r->home, o, "home");
	copy(r->transcript, sizeof r->transcript, o, "transcript");
	copy(r->bound_by, sizeof r->bound_by, o, "bound_by");
	copy(r->confirmed_by, sizeof r->confirmed_by, o, "confirmed_by");
	copy(r->prompt, sizeof r->prompt, o, "prompt");
	r->started_ms = json_integer_value(json_object_get(o, "started_ms"));
	r->turn = (unsigned)json_integer_value(json_object_get(o, "turn"));
	r->index = (unsigned)json_integer_value(json_object_get(o, "index"));
	r->dispatch = dispatch_parse(json_string_value(json_object_get(o,
	    "dispatch")));
	r->dispatched_ms = json_integer_value(json_object_get(o,
	    "dispatched_ms"));
	r->running_mark = json_is_true(json_object_get(o, "running_mark"));
	r->startup_check_ms = (unsigned)json_integer_value(json_object_get(o,
	    "startup_check_ms"));
	json_array_foreach(json_object_get(o, "env"), i, v) {
		if (n < AGENT_ENV_MAX && json_is_string(v))
			r->env[n++] = xstrdup(json_string_value(v));
	}
	json_decref(o);
	return 0;
}

void
agent_record_free(struct agent_record *r)
{
	size_t i;

	for (i = 0; r->env[i] != NULL; i++) {
		free(r->env[i]);
		r->env[i] = NULL;
	}
}

void
agent_record_prompt(struct agent_record *r, const char *text, size_t len)
{
	if (len >= sizeof r->prompt) {
		len = sizeof r->prompt - 1;
		/* Not inside a character: back over continuation bytes. */
		while (len > 0 && ((unsigned char)text[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(r->prompt, text, len);
	r->prompt[len] = '\0';
}

static char *
answer_path(const char *session, unsigned turn)
{
	char name[32];

	snprintf(name, sizeof name, "answer-%u.txt", turn);
	return session_path(session, name);
}

int
agent_answer_save(const char *session, unsigned turn, const char *text,
    size_t len, struct aiterm_error *err)
{
	char *path = answer_path(session, turn);
	int rc;

	if (path == NULL)
		return error_set(err, "no state root");
	rc = atomic_write(path, text, len, err);
	free(path);
	return rc;
}

char *
agent_answer_load(const char *session, unsigned turn, size_t *len)
{
	char *path = answer_path(session, turn), *data = NULL;

	if (path == NULL || file_read(path, &data, len, NULL) != 0)
		data = NULL;
	free(path);
	return data;
}

bool
agent_answer_exists(const char *session, unsigned turn)
{
	char *path = answer_path(session, turn);
	bool yes = path != NULL && access(path, F_OK) == 0;

	free(path);
	return yes;
}
