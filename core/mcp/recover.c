/*
 * The id of a message jansson refused only for its limits: a NUL in a
 * string, a number out of range, nesting deeper than its stack.  The text
 * is checked to be one well-formed JSON value by a scanner that has none
 * of those limits, and the top-level "id" member is read from it, so the
 * request is answered with its own id (issue 37).
 */
#include <stdbool.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "shell/utf8.h"
#include "util/buf.h"

struct scan {
	const char	*p;
	const char	*end;
};

static void
skip_ws(struct scan *s)
{
	while (s->p < s->end && strchr(" \t\r\n", *s->p) != NULL &&
	    *s->p != '\0')
		s->p++;
}

static int
hex4(const char *p, const char *end, unsigned *v)
{
	int i;

	*v = 0;
	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		if (strchr("0123456789abcdefABCDEF", p[i]) == NULL ||
		    p[i] == '\0')
			return -1;
		*v = *v * 16 + (unsigned)(p[i] <= '9' ? p[i] - '0' :
		    (p[i] | 0x20) - 'a' + 10);
	}
	return 0;
}

/* A \u escape at p (after the backslash and u); surrogates in pairs. */
static const char *
unicode_escape(const char *p, const char *end)
{
	unsigned v, lo;

	if (hex4(p, end, &v) != 0)
		return NULL;
	p += 4;
	if (v >= 0xdc00 && v <= 0xdfff)
		return NULL;
	if (v < 0xd800 || v > 0xdbff)
		return p;
	if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
	    hex4(p + 2, end, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff)
		return NULL;
	return p + 6;
}

/* A string at s->p (its opening quote); s->p is left after it. */
static int
scan_string(struct scan *s)
{
	const char *p = s->p + 1;
	size_t n;

	while (p < s->end) {
		unsigned char c = (unsigned char)*p;

		if (c == '"') {
			s->p = p + 1;
			return 0;
		}
		if (c < 0x20)
			return -1;
		if (c == '\\') {
			if (++p == s->end)
				return -1;
			if (*p == 'u')
				p = unicode_escape(p + 1, s->end);
			else if (*p != '\0' && strchr("\"\\/bfnrt", *p) != NULL)
				p++;
			else
				return -1;
			if (p == NULL)
				return -1;
			continue;
		}
		n = c < 0x80 ? 1 : utf8_seq_len((const unsigned char *)p,
		    (size_t)(s->end - p));
		if (n == 0)
			return -1;
		p += n;
	}
	return -1;
}

static const char *
digits(const char *p, const char *end)
{
	const char *start = p;

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p == start ? NULL : p;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? of any size. */
static int
scan_number(struct scan *s)
{
	const char *p = s->p;

	if (p < s->end && *p == '-')
		p++;
	if (p < s->end && *p == '0')
		p++;
	else if ((p = digits(p, s->end)) == NULL)
		return -1;
	if (p < s->end && *p == '.' && (p = digits(p + 1, s->end)) == NULL)
		return -1;
	if (p < s->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < s->end && (*p == '+' || *p == '-'))
			p++;
		if ((p = digits(p, s->end)) == NULL)
			return -1;
	}
	s->p = p;
	return 0;
}

static int
scan_scalar(struct scan *s)
{
	static const char *const words[] = { "true", "false", "null" };
	size_t i, n;

	if (*s->p == '"')
		return scan_string(s);
	if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
		return scan_number(s);
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		n = strlen(words[i]);
		if ((size_t)(s->end - s->p) >= n &&
		    memcmp(s->p, words[i], n) == 0) {
			s->p += n;
			return 0;
		}
	}
	return -1;
}

static char
closer(char open)
{
	return open == '{' ? '}' : ']';
}

/* True when the key spanning [start, end) (quotes included) is "id". */
static bool
key_is_id(const char *start, const char *end)
{
	json_t *k;
	bool yes;

	if (end - start == 4 && memcmp(start, "\"id\"", 4) == 0)
		return true;
	if (memchr(start, '\\', (size_t)(end - start)) == NULL)
		return false;
	k = json_loadb(start, (size_t)(end - start),
	    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	yes = json_string_length(k) == 2 &&
	    memcmp(json_string_value(k), "id", 2) == 0;
	json_decref(k);
	return yes;
}

/* A member's key and colon at s->p; *is_id when it is a top-level "id". */
static int
scan_key(struct scan *s, size_t depth, bool *is_id)
{
	const char *start;

	skip_ws(s);
	start = s->p;
	if (s->p == s->end || *s->p != '"' || scan_string(s) != 0)
		return -1;
	*is_id = depth == 1 && key_is_id(start, s->p);
	skip_ws(s);
	if (s->p == s->end || *s->p != ':')
		return -1;
	s->p++;
	return 0;
}

/*
 * Checks that text is one JSON value (whitespace around it allowed) and
 * sets [*id, *id_end) to the value of its last top-level "id" member (as
 * jansson keeps the last of duplicate keys), or both to NULL.
 */
static int
scan(struct scan *s, const char **id, const char **id_end)
{
	struct aiterm_buf stack = BUF_INIT;	/* '{' or '[' per level */
	bool want_id = false, in_id = false, after = false;
	int rc = -1;
	char top;

	*id = *id_end = NULL;
	for (;;) {
		skip_ws(s);
		if (!after) {
			/* A value. */
			if (s->p == s->end)
				break;
			if (want_id) {
				*id = s->p;
				want_id = false;
				in_id = true;
			}
			if (*s->p == '{' || *s->p == '[') {
				top = *s->p++;
				buf_addc(&stack, top);
				skip_ws(s);
				if (s->p < s->end && *s->p == closer(top)) {
					s->p++;
					stack.len--;
					after = true;
				} else if (top == '{' &&
				    scan_key(s, stack.len, &want_id) != 0)
					break;
			} else if (scan_scalar(s) != 0)
				break;
			else
				after = true;
		} else if (stack.len == 0) {
			/* The value is complete: nothing may follow it. */
			rc = s->p == s->end ? 0 : -1;
			break;
		} else if (s->p == s->end) {
			break;
		} else if (*s->p == ',') {
			s->p++;
			after = false;
			if (stack.data[stack.len - 1] == '{' &&
			    scan_key(s, stack.len, &want_id) != 0)
				break;
		} else if (*s->p == closer(stack.data[stack.len - 1])) {
			s->p++;
			stack.len--;
		} else {
			break;
		}
		if (after && in_id && stack.len == 1) {
			*id_end = s->p;
			in_id = false;
		}
	}
	buf_free(&stack);
	if (rc != 0)
		*id = *id_end = NULL;
	return rc;
}

/* What each limit is called in the answer. */
static const struct {
	enum json_error_code	 code;
	const char		*what;
} limits[] = {
	{ json_error_null_character, "a string contains \\u0000 (NUL), "
	    "which is not accepted" },
	{ json_error_null_byte_in_key, "a key contains \\u0000 (NUL), "
	    "which is not accepted" },
	{ json_error_numeric_overflow, "a number is out of range (an "
	    "integer must lie in -2^63 .. 2^63-1, a real in a double's "
	    "range)" },
	{ json_error_stack_overflow, "arrays and objects are nested "
	    "deeper than 2048 levels" },
};

const char *
jsonrpc_beyond_limits(const char *text, size_t len,
    const json_error_t *jerr, json_t **id)
{
	struct scan s = { text, text + len };
	const char *what = NULL, *start, *end;
	json_t *v;
	size_t i;

	*id = NULL;
	for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		if (json_error_code(jerr) == limits[i].code)
			what = limits[i].what;
	}
	if (what == NULL || scan(&s, &start, &end) != 0)
		return NULL;
	if (start == NULL)
		return what;
	v = json_loadb(start, (size_t)(end - start),
	    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	if (json_is_string(v) || json_is_integer(v))
		*id = v;
	else
		json_decref(v);
	return what;
}
