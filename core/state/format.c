/*
 * The state format: the stamp in each JSON state file and the state
 * root's format.json (format.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/atomic.h"
#include "state/errtally.h"
#include "state/format.h"
#include "util/xmalloc.h"

void
state_format_stamp(json_t *o)
{
	json_object_set_new(o, "format", json_integer(STATE_FORMAT));
}

int
state_json_write(const char *path, json_t *o, struct aiterm_error *err)
{
	char *text;
	int rc;

	state_format_stamp(o);
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	rc = atomic_write(path, text, strlen(text), err);
	free(text);
	return rc;
}

int
state_format_check(const json_t *o, const char *what,
    struct aiterm_error *err)
{
	json_t *f = json_object_get(o, "format");
	json_int_t n;

	if (f == NULL)
		return 0;
	n = json_is_integer(f) ? json_integer_value(f) : -1;
	if (n >= 0 && n <= STATE_FORMAT)
		return 0;
	errtally_note(ERRTALLY_STATE_FORMAT_NEWER);
	if (n < 0)
		return error_set(err, "%s has a format this aiterm-mcp does "
		    "not know (not a number); it is left untouched", what);
	return error_set(err, "%s was written by a newer Aiterm (state "
	    "format %" JSON_INTEGER_FORMAT "; this aiterm-mcp reads formats up "
	    "to %d); it is left untouched: use the newer aiterm-mcp, or "
	    "another AITERM_STATE_DIR", what, n, STATE_FORMAT);
}

static char *
format_path(const char *root)
{
	return xasprintf("%s/format.json", root);
}

int
state_format_root_check(const char *root, struct aiterm_error *err)
{
	char *path = format_path(root);
	json_t *o;
	int rc = 0;

	/* Missing or unreadable: a root of an older release, or a new one. */
	o = json_load_file(path, 0, NULL);
	if (o != NULL)
		rc = state_format_check(o, path, err);
	json_decref(o);
	free(path);
	return rc;
}

int
state_format_root_mark(const char *root, struct aiterm_error *err)
{
	char *path = format_path(root);
	json_t *o;
	int rc = 0;

	o = json_load_file(path, 0, NULL);
	if (json_integer_value(json_object_get(o, "format")) != STATE_FORMAT)
		rc = state_json_write(path, json_object(), err);
	json_decref(o);
	free(path);
	return rc;
}
