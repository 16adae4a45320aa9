/* Reading a run's output as its backend says: json, jsonl or text. */
#include <stdlib.h>
#include <string.h>

#include "cli/run/backend.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* The value at a dotted path ("item.text"), or NULL. */
static json_t *
at_path(json_t *j, const char *path)
{
	char *copy = xstrdup(path), *part, *save = NULL;

	for (part = strtok_r(copy, ".", &save); j != NULL && part != NULL;
	    part = strtok_r(NULL, ".", &save))
		j = json_object_get(j, part);
	free(copy);
	return j;
}

/* The first of fields (a list of paths) at which j has a value of type. */
static json_t *
first_at(json_t *j, json_t *fields, json_type type)
{
	json_t *f, *v;
	size_t i;

	json_array_foreach(fields, i, f) {
		v = at_path(j, json_string_value(f));
		if (v != NULL && json_typeof(v) == type)
			return v;
	}
	return NULL;
}

/* Whether j meets every path: value of text_when. */
static bool
matches(json_t *j, json_t *when)
{
	const char *path;
	json_t *want;

	json_object_foreach(when, path, want) {
		if (!json_equal(at_path(j, path), want))
			return false;
	}
	return true;
}

/* Take what one JSON value of the output says. */
static void
take(const struct backend *b, json_t *j, struct aiterm_buf *text,
    struct backend_result *r)
{
	json_t *when = json_object_get(b->conf, "text_when"), *v;

	v = first_at(j, json_object_get(b->conf, "session_id_fields"),
	    JSON_STRING);
	if (v != NULL && r->session_id == NULL)
		r->session_id = xstrdup(json_string_value(v));
	v = first_at(j, json_object_get(b->conf, "usage_fields"),
	    JSON_OBJECT);
	if (v != NULL) {
		json_decref(r->usage);
		r->usage = json_incref(v);
	}
	if (when != NULL && !matches(j, when))
		return;
	v = first_at(j, json_object_get(b->conf, "text_fields"), JSON_STRING);
	if (v != NULL) {
		if (text->len > 0)
			buf_addc(text, '\n');
		buf_add(text, json_string_value(v), json_string_length(v));
	}
}

int
backend_parse(const struct backend *b, const char *out, size_t len,
    struct backend_result *r, struct aiterm_error *err)
{
	struct aiterm_buf text = BUF_INIT;
	json_error_t jerr;
	const char *line, *nl, *end = out + len;
	json_t *j;

	memset(r, 0, sizeof *r);
	switch (b->output) {
	case BACKEND_TEXT:
		buf_add(&text, out, len);
		break;
	case BACKEND_JSON:
		if ((j = json_loadb(out, len, 0, &jerr)) == NULL) {
			error_set(err, "backend %s: the output is not JSON "
			    "(%s, line %d)", b->id, jerr.text, jerr.line);
			buf_free(&text);
			return -1;
		}
		take(b, j, &text, r);
		json_decref(j);
		break;
	case BACKEND_JSONL:
		for (line = out; line < end; line = nl + 1) {
			if ((nl = memchr(line, '\n', (size_t)(end - line))) ==
			    NULL)
				nl = end;
			j = json_loadb(line, (size_t)(nl - line), 0, &jerr);
			if (json_is_object(j))
				take(b, j, &text, r);
			json_decref(j);
		}
		break;
	}
	buf_addc(&text, '\0');
	r->text = buf_steal(&text, NULL);
	return 0;
}

void
backend_result_free(struct backend_result *r)
{
	free(r->text);
	free(r->session_id);
	json_decref(r->usage);
	memset(r, 0, sizeof *r);
}
