#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <aiterm/harness-util.h>

#include "hlib.h"

const struct aiterm_input_step hl_enter_keys[] = {
	{ AITERM_INPUT_KEY, "Enter" }, { AITERM_INPUT_END, NULL },
};
const struct aiterm_input_step hl_escape_keys[] = {
	{ AITERM_INPUT_KEY, "Escape" }, { AITERM_INPUT_END, NULL },
};

bool
hl_match_known(const struct aiterm_screen *s, const struct hl_known *table,
    size_t n, struct aiterm_screen_verdict *v)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (hl_has(s, table[i].needle) && (table[i].also == NULL ||
		    hl_has(s, table[i].also))) {
			v->state = table[i].state;
			v->reason = table[i].reason;
			v->dialog = table[i].dialog;
			return true;
		}
	}
	return false;
}

bool
hl_has(const struct aiterm_screen *s, const char *needle)
{
	return s->len > 0 && memmem(s->text, s->len, needle,
	    strlen(needle)) != NULL;
}

static bool
blank(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	}
	return true;
}

bool
hl_last_line(const struct aiterm_screen *s, const char **line, size_t *len)
{
	size_t end = s->len, start;

	while (end > 0) {
		start = end;
		while (start > 0 && s->text[start - 1] != '\n')
			start--;
		if (!blank(s->text + start, end - start)) {
			*line = s->text + start;
			*len = end - start;
			return true;
		}
		end = start > 0 ? start - 1 : 0;
	}
	return false;
}

bool
hl_line_has(const char *line, size_t len, const char *needle)
{
	return len > 0 && memmem(line, len, needle, strlen(needle)) != NULL;
}

bool
hl_line_starting(const struct aiterm_screen *s, const char *prefix,
    const char **rest, size_t *rest_len)
{
	const char *p = s->text, *end = s->text + s->len, *nl, *q;
	size_t n = strlen(prefix);
	bool found = false;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		for (q = p; q < nl && *q == ' '; q++)
			;
		if ((size_t)(nl - q) >= n && memcmp(q, prefix, n) == 0) {
			q += n;
			/* Spaces, and no-break spaces (U+00A0) TUIs draw. */
			for (;;) {
				if (q < nl && *q == ' ')
					q++;
				else if (nl - q >= 2 && memcmp(q, "\xc2\xa0",
				    2) == 0)
					q += 2;
				else
					break;
			}
			*rest = q;
			*rest_len = (size_t)(nl - q);
			for (;;) {
				if (*rest_len > 0 && q[*rest_len - 1] == ' ')
					(*rest_len)--;
				else if (*rest_len >= 2 && memcmp(q +
				    *rest_len - 2, "\xc2\xa0", 2) == 0)
					*rest_len -= 2;
				else
					break;
			}
			found = true;
		}
		p = nl + 1;
	}
	return found;
}

bool
hl_box_text(const struct aiterm_screen *s, const char *prefix,
    const char **text, size_t *len)
{
	const char *rest;
	size_t n;

	if (!hl_line_starting(s, prefix, &rest, &n))
		return false;
	while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\n'))
		n--;
	if (n >= 3 && memcmp(rest + n - 3, "\xe2\x94\x82", 3) == 0)
		n -= 3;
	while (n > 0 && rest[n - 1] == ' ')
		n--;
	*text = rest;
	*len = n;
	return true;
}

int
hl_check_model(const struct aiterm_host *host, const char *model,
    const char *cli, const char *example, struct aiterm_error *err)
{
	size_t i;

	for (i = 0; model != NULL && model[i] != '\0'; i++) {
		if (!isalnum((unsigned char)model[i]) &&
		    strchr("-._:/", model[i]) == NULL)
			return host->error(err, "model '%.80s': %s model names "
			    "are letters, digits and - . _ : / (e.g. %s)", model,
			    cli, example);
	}
	return 0;
}

int
hl_catalog(const struct aiterm_host *host, const char *out, size_t len,
    const char *model, const char *cli,
    size_t (*id_of)(const char *line, size_t n, const char **id),
    struct aiterm_error *err)
{
	struct aiterm_buf *ids = host->buf_new();
	const char *p = out, *end = out + len, *nl, *id;
	size_t n, k, count = 0;
	int rc;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((k = id_of(p, (size_t)(nl - p), &id)) == 0)
			continue;
		if (k == strlen(model) && memcmp(id, model, k) == 0) {
			host->buf_free(ids);
			return 1;
		}
		if (count++ < 40)
			host->buf_printf(ids, "%s%.*s", count > 1 ? ", " : "",
			    (int)k, id);
	}
	n = host->buf_len(ids);
	if (count == 0)
		rc = host->error(err, "%s printed no model catalog: %.200s",
		    cli, len > 0 ? out : "(nothing)");
	else {
		host->error(err, "model '%.80s' is not in %s's catalog (it "
		    "lists %.*s%s)", model, cli, (int)n, host->buf_data(ids),
		    count > 40 ? ", ..." : "");
		rc = 0;
	}
	host->buf_free(ids);
	return rc;
}

void
hl_session_uuid(const char *launch_id, char out[37])
{
	aiterm_session_uuid(launch_id, out);
}

void
hl_arg(const struct aiterm_host *host, struct aiterm_buf *b, const char *s)
{
	host->buf_add(b, s, strlen(s) + 1);
}

int
hl_version(const char *out, size_t len, char *buf, size_t size)
{
	size_t i, j;

	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)out[i]) || (i > 0 &&
		    (isalnum((unsigned char)out[i - 1]) || out[i - 1] == '.')))
			continue;
		for (j = i; j < len && (isdigit((unsigned char)out[j]) ||
		    out[j] == '.'); j++)
			;
		while (j > i && out[j - 1] == '.')
			j--;
		if (memchr(out + i, '.', j - i) == NULL || j - i >= size)
			continue;
		memcpy(buf, out + i, j - i);
		buf[j - i] = '\0';
		return 0;
	}
	return -1;
}

const char *
hl_env(const char *const *env, const char *key)
{
	size_t n = strlen(key), i;

	for (i = 0; env != NULL && env[i] != NULL; i++) {
		if (strncmp(env[i], key, n) == 0 && env[i][n] == '=')
			return env[i] + n + 1;
	}
	return NULL;
}

void
hl_jsonl_each(const char *bytes, size_t len,
    int (*cb)(json_t *obj, size_t index, void *arg), void *arg)
{
	const char *p = bytes, *end = bytes + len, *nl;
	size_t index = 0;
	json_t *o;
	int stop;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		o = nl > p ? json_loadb(p, (size_t)(nl - p), 0, NULL) : NULL;
		if (json_is_object(o)) {
			stop = cb(o, index++, arg);
			json_decref(o);
			if (stop)
				return;
		} else {
			json_decref(o);
		}
		p = nl + 1;
	}
}

const char *
hl_str(json_t *o, const char *path)
{
	char key[64];
	const char *dot;
	size_t n;

	while (o != NULL && (dot = strchr(path, '.')) != NULL) {
		n = (size_t)(dot - path);
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		path = dot + 1;
	}
	return json_string_value(json_object_get(o, path));
}

void
hl_content_text(const struct aiterm_host *host, json_t *content,
    struct aiterm_buf *out)
{
	const char *t;
	json_t *b;
	size_t i;
	bool first = host->buf_len(out) == 0;

	if (json_is_string(content)) {
		host->buf_add(out, json_string_value(content),
		    json_string_length(content));
		return;
	}
	json_array_foreach(content, i, b) {
		t = json_string_value(json_object_get(b, "text"));
		if (t == NULL || (json_object_get(b, "type") != NULL &&
		    strcmp(json_string_value(json_object_get(b, "type")) ?
		    json_string_value(json_object_get(b, "type")) : "",
		    "text") != 0 && strcmp(json_string_value(
		    json_object_get(b, "type")) ? json_string_value(
		    json_object_get(b, "type")) : "", "output_text") != 0))
			continue;
		if (!first)
			host->buf_add(out, "\n", 1);
		host->buf_add(out, t, strlen(t));
		first = false;
	}
}
