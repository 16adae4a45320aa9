/* Checks shared by the fuzz harnesses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reduce/u8.h"

void
fuzz_require(bool ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "property failed: %s\n", what);
	abort();
}

bool
fuzz_valid_utf8(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end;
	size_t n, bad;

	if (len == 0)
		return true;
	for (end = p + len; p < end; p += n) {
		n = red_u8_check(p, end, &bad);
		if (n == 0)
			return false;
	}
	return true;
}

bool
fuzz_clean_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end;
	size_t n, bad;

	if (len == 0)
		return true;
	for (end = p + len; p < end; p += n) {
		n = red_u8_check(p, end, &bad);
		if (n == 0)
			return false;
		if (*p < 0x20 && *p != '\n' && *p != '\t')
			return false;
		if (*p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0))
			return false;
	}
	return true;
}

size_t
fuzz_count_lines(const char *s, size_t len)
{
	const char *p = s, *end;
	size_t n = 0;

	if (len == 0)
		return 0;
	end = s + len;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

bool
fuzz_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

bool
fuzz_has(const char *s, size_t len, char c)
{
	return len > 0 && memchr(s, c, len) != NULL;
}
