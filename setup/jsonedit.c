/*
 * A scanner over JSON text that finds byte spans (it trusts the text: it
 * is only used on text jansson parsed first), and the two edits.
 */
#include <stdlib.h>
#include <string.h>

#include "jsonedit.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* A member of an object: key (quoted) start .. value end. */
struct jmember {
	size_t	key, key_end, value, value_end;
};

static size_t
ws(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	return i;
}

static size_t
string_end(const char *s, size_t i)
{
	for (i++; s[i] != '\0' && s[i] != '"'; i++) {
		if (s[i] == '\\' && s[i + 1] != '\0')
			i++;
	}
	return s[i] == '"' ? i + 1 : i;
}

/* The end of the value starting at i. */
static size_t
value_end(const char *s, size_t i)
{
	int depth = 0;

	if (s[i] == '"')
		return string_end(s, i);
	if (s[i] != '{' && s[i] != '[') {
		while (s[i] != '\0' && strchr(",}] \t\r\n", s[i]) == NULL)
			i++;
		return i;
	}
	for (; s[i] != '\0'; i++) {
		if (s[i] == '"')
			i = string_end(s, i) - 1;
		else if (s[i] == '{' || s[i] == '[')
			depth++;
		else if ((s[i] == '}' || s[i] == ']') && --depth == 0)
			return i + 1;
	}
	return i;
}

/* Whether the quoted string at s[a..b) is name (no escapes in name). */
static bool
key_is(const char *s, size_t a, size_t b, const char *name)
{
	return b - a == strlen(name) + 2 && memcmp(s + a + 1, name,
	    strlen(name)) == 0;
}

/*
 * Walk the object opening at s[open]: find the member named name (when
 * not NULL) and the last member; *close gets the '}'.  Returns members.
 */
static size_t
walk(const char *s, size_t open, const char *name, struct jmember *found,
    struct jmember *last, size_t *close)
{
	struct jmember m;
	size_t i = ws(s, open + 1), n = 0;

	found->key = last->key = (size_t)-1;
	while (s[i] == '"') {
		m.key = i;
		m.key_end = string_end(s, i);
		i = ws(s, m.key_end);
		if (s[i] != ':')
			break;
		m.value = ws(s, i + 1);
		m.value_end = value_end(s, m.value);
		if (name != NULL && key_is(s, m.key, m.key_end, name))
			*found = m;
		*last = m;
		n++;
		i = ws(s, m.value_end);
		if (s[i] == ',')
			i = ws(s, i + 1);
	}
	*close = i;
	return n;
}

/* The indentation of the line holding s[at], as a string. */
static char *
indent_of(const char *s, size_t at)
{
	size_t start = at, end;

	while (start > 0 && s[start - 1] != '\n')
		start--;
	for (end = start; s[end] == ' ' || s[end] == '\t'; end++)
		;
	return xstrndup(s + start, end - start);
}

/*
 * Insert "key": value as the last member of the object at s[open]: on a
 * line of its own indented like the first member when the members are on
 * lines of their own, else on the same line.
 */
static void
insert_member(struct aiterm_buf *b, const char *s, size_t open,
    const char *key, const char *value)
{
	struct jmember found, last, first;
	size_t close, n = walk(s, open, NULL, &found, &last, &close);
	size_t at = n > 0 ? last.value_end : open + 1, i;
	char *ind = NULL;

	if (n > 0) {
		first.key = ws(s, open + 1);
		for (i = open + 1; i < first.key && s[i] != '\n'; i++)
			;
		if (i < first.key)
			ind = indent_of(s, first.key);
	}
	buf_add(b, s, at);
	if (n > 0)
		buf_addc(b, ',');
	if (ind != NULL)
		buf_printf(b, "\n%s", ind);
	else if (n > 0)
		buf_addc(b, ' ');
	buf_printf(b, "\"%s\": %s", key, value);
	buf_adds(b, s + at);
	free(ind);
}

char *
jedit_add(const char *text, const char *parent, const char *key,
    const json_t *value, bool *created)
{
	struct jmember found, last;
	struct aiterm_buf b = BUF_INIT;
	size_t open = ws(text, 0), close;
	char *v, *sub;

	if (text[open] != '{')
		return NULL;
	walk(text, open, parent, &found, &last, &close);
	*created = found.key == (size_t)-1;
	v = json_dumps(value, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (v == NULL)
		return NULL;
	if (*created) {
		sub = xasprintf("{\"%s\": %s}", key, v);
		insert_member(&b, text, open, parent, sub);
		free(sub);
	} else if (text[found.value] == '{')
		insert_member(&b, text, found.value, key, v);
	else {
		free(v);
		return NULL;
	}
	free(v);
	return buf_steal(&b, NULL);
}

/* Remove member m of the object at s[open] with its comma and line. */
static char *
cut_member(const char *s, size_t open, const struct jmember *m)
{
	struct jmember found, last, prev;
	struct aiterm_buf b = BUF_INIT;
	size_t close, a, z, i;

	walk(s, open, NULL, &found, &last, &close);
	z = ws(s, m->value_end);
	if (s[z] == ',') {			/* a member follows */
		a = m->key;
		z = ws(s, z + 1);
		while (a > 0 && (s[a - 1] == ' ' || s[a - 1] == '\t'))
			a--;
		i = z;
		while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
			i--;
		z = i;
	} else {				/* the last one */
		prev.value_end = (size_t)-1;
		for (i = ws(s, open + 1); i < m->key;) {
			prev.key = i;
			i = ws(s, string_end(s, i));
			prev.value_end = value_end(s, ws(s, i + 1));
			i = ws(s, prev.value_end);
			if (s[i] == ',')
				i = ws(s, i + 1);
		}
		a = prev.value_end != (size_t)-1 ? prev.value_end : open + 1;
		z = prev.value_end != (size_t)-1 ? m->value_end : close;
	}
	buf_add(&b, s, a);
	buf_adds(&b, s + z);
	return buf_steal(&b, NULL);
}

char *
jedit_remove(const char *text, const char *parent, const char *key,
    bool drop_parent)
{
	struct jmember p, m, last;
	size_t open = ws(text, 0), close, n;

	if (text[open] != '{')
		return NULL;
	walk(text, open, parent, &p, &last, &close);
	if (p.key == (size_t)-1 || text[p.value] != '{')
		return NULL;
	n = walk(text, p.value, key, &m, &last, &close);
	if (m.key == (size_t)-1)
		return NULL;
	if (n == 1 && drop_parent)
		return cut_member(text, open, &p);
	return cut_member(text, p.value, &m);
}
