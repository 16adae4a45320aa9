/* token_hint: see token-hint.h. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "observe/token-hint.h"

/*
 * A number (1,234 / 1234 / 12.3) with an optional k or M, before "token"
 * or "tokens", or after "tokens:" / "tokens used:" / "tokens=".  Groups 1
 * and 2 are the first form, 3 and 4 the second.
 */
#define TOKEN_NUMBER	"(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)"
static const char token_re[] =
    "(?<![\\w.,])" TOKEN_NUMBER "\\h?([km])?\\h*tokens?\\b"
    "|\\btokens?(?:\\h+used)?\\h*[:=]\\h*" TOKEN_NUMBER "\\h?([km])?\\b";

static pcre2_code *
token_code(void)
{
	static pcre2_code *code;
	PCRE2_SIZE off;
	int e;

	if (code == NULL)
		code = pcre2_compile((PCRE2_SPTR)token_re,
		    PCRE2_ZERO_TERMINATED, PCRE2_CASELESS, &e, &off, NULL);
	return code;
}

/* The figure in [s, s + len): digits, commas, one '.', then a k/M suffix. */
static unsigned long long
figure(const char *s, size_t len, char suffix, bool *approx)
{
	unsigned long long whole = 0, frac = 0, scale = 1, mult = 1;
	bool point = false;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == ',')
			continue;
		if (s[i] == '.') {
			point = true;
			continue;
		}
		if (point) {
			if (scale < 1000000) {
				frac = frac * 10 + (unsigned long long)(s[i] - '0');
				scale *= 10;
			}
		} else if (whole < 1000000000000ULL) {
			whole = whole * 10 + (unsigned long long)(s[i] - '0');
		}
	}
	if (suffix == 'k' || suffix == 'K')
		mult = 1000;
	else if (suffix == 'm' || suffix == 'M')
		mult = 1000000;
	*approx = point || mult != 1;
	return whole * mult + (frac * mult + scale / 2) / scale;
}

bool
token_hint_find(const char *screen, size_t len, struct token_hint *h)
{
	pcre2_code *code = token_code();
	pcre2_match_data *md;
	PCRE2_SIZE *ov, at = 0, best = PCRE2_UNSET, nstart = 0, nlen = 0;
	char suffix = 0;
	size_t i;
	bool found = false;
	int g;

	if (code == NULL)
		return false;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	while (at <= len && pcre2_match(code, (PCRE2_SPTR)screen, len, at, 0,
	    md, NULL) > 0) {
		ov = pcre2_get_ovector_pointer(md);
		g = ov[2] != PCRE2_UNSET ? 1 : 3;
		best = ov[0];
		nstart = ov[2 * g];
		nlen = ov[2 * g + 1] - ov[2 * g];
		suffix = ov[2 * (g + 1)] != PCRE2_UNSET ?
		    screen[ov[2 * (g + 1)]] : 0;
		found = true;
		at = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
	}
	pcre2_match_data_free(md);
	if (!found)
		return false;
	h->value = figure(screen + nstart, nlen, suffix, &h->approximate);
	h->row = 0;
	for (i = 0; i < best; i++) {
		if (screen[i] == '\n')
			h->row++;
	}
	return true;
}
