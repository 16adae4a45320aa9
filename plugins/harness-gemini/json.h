/*
 * harness-gemini: the little JSON this plugin reads (the records of
 * Gemini CLI's chat file), without a library: a plugin built against
 * the installed SDK alone links nothing but libc.
 */
#ifndef AITERM_HARNESS_GEMINI_JSON_H
#define AITERM_HARNESS_GEMINI_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <aiterm/plugin.h>

/* A span of JSON text: one value from p up to end. */
struct js {
	const char	*p, *end;
};

/* The first byte of the value at j after white space, or 0 at the end. */
char	js_peek(struct js j);
/* The value of key in the object j (false: none, or j no object). */
bool	js_get(struct js j, const char *key, struct js *v);
/* The i-th element of the array j. */
bool	js_at(struct js j, size_t i, struct js *v);
/* Append the string j decoded (UTF-8) to out; false: j no string. */
bool	js_str(const struct aiterm_host *host, struct js j,
	    struct aiterm_buf *out);
/* Whether the string j is exactly s (no escapes in j). */
bool	js_is(struct js j, const char *s);
/* Whether the string j starts with s (no escapes in that part of j). */
bool	js_starts(struct js j, const char *s);

#endif
