/*
 * harness-gemini: a JSON reader just large enough for Gemini CLI's chat
 * records: find an object's member, an array's element, decode a string.
 * Malformed text is never read past its end: each step says false.
 */
#include <stdint.h>
#include <string.h>

#include "json.h"

static const char *
ws(const char *p, const char *end)
{
	while (p < end && strchr(" \t\r\n", *p) != NULL && *p != '\0')
		p++;
	return p;
}

/* Past the string whose quote is at p, or NULL. */
static const char *
skip_str(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* Past the value at p (after white space), or NULL. */
static const char *
skip(const char *p, const char *end)
{
	int depth = 0;

	p = ws(p, end);
	if (p >= end)
		return NULL;
	if (*p == '"')
		return skip_str(p, end);
	if (*p != '{' && *p != '[') {
		while (p < end && strchr(",]} \t\r\n", *p) == NULL)
			p++;
		return p;
	}
	for (; p < end; p++) {
		if (*p == '"') {
			if ((p = skip_str(p, end)) == NULL)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
	}
	return NULL;
}

char
js_peek(struct js j)
{
	const char *p = ws(j.p, j.end);

	return p < j.end ? *p : '\0';
}

bool
js_get(struct js j, const char *key, struct js *v)
{
	const char *p = ws(j.p, j.end), *k, *e;
	size_t klen = strlen(key);

	if (p >= j.end || *p != '{')
		return false;
	for (p = ws(p + 1, j.end); p < j.end && *p == '"'; ) {
		k = p + 1;
		if ((e = skip_str(p, j.end)) == NULL)
			return false;
		p = ws(e, j.end);
		if (p >= j.end || *p != ':')
			return false;
		v->p = ws(p + 1, j.end);
		if ((v->end = skip(v->p, j.end)) == NULL)
			return false;
		if ((size_t)(e - 1 - k) == klen && memcmp(k, key, klen) == 0)
			return true;
		p = ws(v->end, j.end);
		if (p < j.end && *p == ',')
			p = ws(p + 1, j.end);
	}
	return false;
}

bool
js_at(struct js j, size_t i, struct js *v)
{
	const char *p = ws(j.p, j.end);

	if (p >= j.end || *p != '[')
		return false;
	p = ws(p + 1, j.end);
	while (p < j.end && *p != ']') {
		v->p = p;
		if ((v->end = skip(p, j.end)) == NULL)
			return false;
		if (i-- == 0)
			return true;
		p = ws(v->end, j.end);
		if (p < j.end && *p == ',')
			p = ws(p + 1, j.end);
	}
	return false;
}

static int
hex4(const char *p, const char *end, uint32_t *u)
{
	int i;

	*u = 0;
	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p[i];

		*u <<= 4;
		if (c >= '0' && c <= '9')
			*u |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*u |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*u |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static void
utf8(const struct aiterm_host *host, struct aiterm_buf *out, uint32_t u)
{
	char b[4];
	size_t n;

	if (u < 0x80) {
		b[0] = (char)u;
		n = 1;
	} else if (u < 0x800) {
		b[0] = (char)(0xc0 | u >> 6);
		b[1] = (char)(0x80 | (u & 0x3f));
		n = 2;
	} else if (u < 0x10000) {
		b[0] = (char)(0xe0 | u >> 12);
		b[1] = (char)(0x80 | (u >> 6 & 0x3f));
		b[2] = (char)(0x80 | (u & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | u >> 18);
		b[1] = (char)(0x80 | (u >> 12 & 0x3f));
		b[2] = (char)(0x80 | (u >> 6 & 0x3f));
		b[3] = (char)(0x80 | (u & 0x3f));
		n = 4;
	}
	host->buf_add(out, b, n);
}

/* The escape at p (after the backslash) into out; past it, or NULL. */
static const char *
unescape(const struct aiterm_host *host, const char *p, const char *end,
    struct aiterm_buf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *c;
	uint32_t u, lo;

	if (*p != 'u') {
		if ((c = strchr(from, *p)) == NULL || *p == '\0')
			return NULL;
		host->buf_add(out, &to[c - from], 1);
		return p + 1;
	}
	if (hex4(p + 1, end, &u) != 0)
		return NULL;
	p += 5;
	if (u >= 0xd800 && u < 0xdc00 && end - p >= 6 && p[0] == '\\' &&
	    p[1] == 'u' && hex4(p + 2, end, &lo) == 0 && lo >= 0xdc00 &&
	    lo < 0xe000) {
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		p += 6;
	} else if (u >= 0xd800 && u < 0xe000)
		u = 0xfffd;
	utf8(host, out, u);
	return p;
}

bool
js_str(const struct aiterm_host *host, struct js j, struct aiterm_buf *out)
{
	const char *p = ws(j.p, j.end), *run;

	if (p >= j.end || *p != '"')
		return false;
	for (p++, run = p; p < j.end && *p != '"'; ) {
		if (*p != '\\') {
			p++;
			continue;
		}
		host->buf_add(out, run, (size_t)(p - run));
		if (p + 1 >= j.end || (p = unescape(host, p + 1, j.end,
		    out)) == NULL)
			return false;
		run = p;
	}
	if (p >= j.end)
		return false;
	host->buf_add(out, run, (size_t)(p - run));
	return true;
}

bool
js_starts(struct js j, const char *s)
{
	const char *p = ws(j.p, j.end);
	size_t n = strlen(s);

	return p < j.end && *p == '"' && (size_t)(j.end - p - 1) >= n &&
	    memcmp(p + 1, s, n) == 0;
}

bool
js_is(struct js j, const char *s)
{
	const char *p = ws(j.p, j.end);
	size_t n = strlen(s);

	return js_starts(j, s) && p + 1 + n < j.end && p[1 + n] == '"';
}
