/*
 * Small UTF-8 helpers shared by the reducer stages.  They are inline
 * because the stripper calls them once per character on its slow path.
 */
#ifndef AITERM_REDUCE_U8_H
#define AITERM_REDUCE_U8_H

#include <stdbool.h>
#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER, which stands in for invalid bytes. */
#define RED_U8_REPLACEMENT	"\xef\xbf\xbd"
#define RED_U8_REPLACEMENT_LEN	3

/*
 * Length of the character whose lead byte is c, for text already known to
 * be valid.  A stray continuation byte counts as one so that a walk over
 * unchecked text always advances.
 */
static inline size_t
red_u8_len(unsigned char c)
{
	size_t n = 1;

	if (c >= 0xf0)
		n = 4;
	else if (c >= 0xe0)
		n = 3;
	else if (c >= 0xc0)
		n = 2;
	return n;
}

static inline bool
red_u8_is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * Length of the well-formed sequence that starts p (at least one byte
 * before end), or 0 when there is none; then *bad is the length of the
 * maximal ill-formed subpart, which one U+FFFD replaces (the practice
 * Unicode recommends).  Overlong forms, surrogates and code points above
 * U+10FFFF are ill-formed.
 */
static inline size_t
red_u8_check(const unsigned char *p, const unsigned char *end, size_t *bad)
{
	unsigned char lead = p[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i, n = 0;

	*bad = 1;
	if (lead < 0x80)
		return 1;
	if (lead < 0xc2 || lead > 0xf4)
		return 0;
	need = red_u8_len(lead);
	if (lead == 0xe0)
		lo = 0xa0;
	else if (lead == 0xed)
		hi = 0x9f;
	else if (lead == 0xf0)
		lo = 0x90;
	else if (lead == 0xf4)
		hi = 0x8f;
	for (i = 1; i < need; i++) {
		if (p + i >= end || p[i] < lo || p[i] > hi)
			break;
		lo = 0x80;
		hi = 0xbf;
	}
	if (i == need)
		n = need;
	else
		*bad = i;
	return n;
}

/* The nearest character boundary at or before off in s. */
static inline size_t
red_u8_floor(const char *s, size_t off)
{
	size_t steps = 0;

	while (off > 0 && steps < 3 && red_u8_is_cont((unsigned char)s[off])) {
		off--;
		steps++;
	}
	return off;
}

/* The nearest character boundary at or after off in s (of len bytes). */
static inline size_t
red_u8_ceil(const char *s, size_t len, size_t off)
{
	size_t steps = 0;

	while (off < len && steps < 3 && red_u8_is_cont((unsigned char)s[off])) {
		off++;
		steps++;
	}
	return off;
}

#endif
