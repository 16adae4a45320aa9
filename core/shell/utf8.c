/* UTF-8 validation and character-safe chunking. */
#include <stdlib.h>

#include "shell/utf8.h"
#include "util/xmalloc.h"

/*
 * Well-formed sequences as in Unicode table 3-7: for each lead byte range,
 * the sequence length and the allowed range of the second byte (the later
 * bytes are always 0x80..0xBF).  The narrowed second-byte ranges reject
 * overlong forms, surrogates and code points above U+10FFFF.
 */
static const struct utf8_form {
	unsigned char	lead_lo, lead_hi;
	unsigned char	second_lo, second_hi;
	size_t		len;
} utf8_forms[] = {
	{ 0x00, 0x7f, 0x00, 0x00, 1 },
	{ 0xc2, 0xdf, 0x80, 0xbf, 2 },
	{ 0xe0, 0xe0, 0xa0, 0xbf, 3 },
	{ 0xe1, 0xec, 0x80, 0xbf, 3 },
	{ 0xed, 0xed, 0x80, 0x9f, 3 },
	{ 0xee, 0xef, 0x80, 0xbf, 3 },
	{ 0xf0, 0xf0, 0x90, 0xbf, 4 },
	{ 0xf1, 0xf3, 0x80, 0xbf, 4 },
	{ 0xf4, 0xf4, 0x80, 0x8f, 4 },
};

size_t
utf8_seq_len(const unsigned char *s, size_t len)
{
	const struct utf8_form *f = NULL;
	size_t i;

	for (i = 0; i < sizeof utf8_forms / sizeof utf8_forms[0]; i++) {
		if (s[0] >= utf8_forms[i].lead_lo &&
		    s[0] <= utf8_forms[i].lead_hi) {
			f = &utf8_forms[i];
			break;
		}
	}
	if (f == NULL || len < f->len)
		return 0;
	if (f->len == 1)
		return 1;
	if (s[1] < f->second_lo || s[1] > f->second_hi)
		return 0;
	for (i = 2; i < f->len; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	}
	return f->len;
}

bool
utf8_valid(const char *s, size_t len, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t off = 0, n;

	while (off < len) {
		n = utf8_seq_len(u + off, len - off);
		if (n == 0) {
			if (bad != NULL)
				*bad = off;
			return false;
		}
		off += n;
	}
	return true;
}

static bool
utf8_is_continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t
utf8_chunk_len(const char *s, size_t len, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t cut;

	if (max < 4)
		max = 4;
	if (len <= max)
		return len;
	/* u[max] is the first byte left out; cut before the character it is in. */
	for (cut = max; cut > max - 4; cut--) {
		if (!utf8_is_continuation(u[cut]))
			return cut;
	}
	return max;
}

size_t
utf8_chunks(const char *s, size_t len, size_t max, size_t **lens)
{
	size_t n = 0, cap = 0, off = 0, l;
	size_t *out = NULL;

	while (off < len) {
		l = utf8_chunk_len(s + off, len - off, max);
		if (n == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			out = xrealloc(out, cap * sizeof *out);
		}
		out[n++] = l;
		off += l;
	}
	*lens = out;
	return n;
}

void
utf8_clean(const char *s, size_t len, struct aiterm_buf *out)
{
	size_t i = 0, n, bad;

	while (i < len) {
		if (utf8_valid(s + i, len - i, &bad)) {
			buf_add(out, s + i, len - i);
			return;
		}
		buf_add(out, s + i, bad);
		i += bad;
		n = utf8_seq_len((const unsigned char *)s + i, len - i);
		buf_adds(out, "\xef\xbf\xbd");
		i += n == 0 ? 1 : n;
	}
}
