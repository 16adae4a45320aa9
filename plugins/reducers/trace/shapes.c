/*
 * Line shapes, as reduce/shape.c makes them (a blank run as one blank, a
 * hex run around a digit as '#', a path's file name as '*'), counted over
 * the lines that name something, so that a reducer keeps the lines the
 * core's check calls rare.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define FNV(h, c)	(((h) ^ (unsigned char)(c)) * 1099511628211ULL)

/* Bytes [i, e) with each hex run around a digit as one '#'. */
static unsigned long long
masked(unsigned long long h, const char *p, size_t i, size_t e)
{
	size_t d, r;

	while (i < e) {
		for (d = i; d < e && !isdigit((unsigned char)p[d]); d++)
			;
		if (d == e) {
			for (; i < e; i++)
				h = FNV(h, p[i]);
			break;
		}
		for (r = d; r > i && isxdigit((unsigned char)p[r - 1]); r--)
			;
		for (; i < r; i++)
			h = FNV(h, p[i]);
		h = FNV(h, '#');
		for (i = d; i < e && isxdigit((unsigned char)p[i]); i++)
			;
	}
	return h;
}

unsigned long long
tr_shape(const char *p, size_t len)
{
	unsigned long long h = 14695981039346656037ULL;
	size_t i = 0, e, k, last, prev, s;
	bool first = true, digit;

	while (i < len) {
		if (isspace((unsigned char)p[i])) {
			i++;
			continue;
		}
		if (!first)
			h = FNV(h, ' ');
		first = false;
		last = prev = SIZE_MAX;
		digit = false;
		for (e = i; e < len && !isspace((unsigned char)p[e]); e++) {
			if (p[e] == '/') {
				prev = last;
				last = e;
			}
			digit |= isdigit((unsigned char)p[e]) != 0;
		}
		/* A path's file name (after its last '/') as one '*'. */
		s = last != SIZE_MAX && last + 1 < e ? last : prev;
		k = s != SIZE_MAX ? s + 1 : e;
		if (digit)
			h = masked(h, p, i, k);
		else
			for (; i < k; i++)
				h = FNV(h, p[i]);
		if (s != SIZE_MAX)
			h = FNV(h, '*');
		i = e;
	}
	return h == 0 ? 1 : h;
}

static bool
letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static bool
wordc(unsigned char c)
{
	return letter(c) || isdigit(c) || c == '_' || c == '.' || c == '@' ||
	    c == '+' || c == '~' || c == '-';
}

/*
 * A word that names something: two bytes or more, not led by a digit,
 * with a letter, not a progress string ("FF.F."), not hex and digits
 * alone (reduce/shape.c, word_counts).
 */
static bool
word_names(const unsigned char *w, size_t n)
{
	bool let = false, digit = false, other = false;
	unsigned char a = 0, b = 0;
	size_t i, letters = 0, kinds = 0;

	if (n < 2 || isdigit(w[0]))
		return false;
	for (i = 0; i < n; i++) {
		if (isdigit(w[i]))
			digit = true;
		else if (letter(w[i])) {
			let = true;
			letters++;
			if (kinds == 0 || (w[i] != a && kinds == 1)) {
				b = a;
				a = w[i];
				kinds++;
			} else if (w[i] != a && w[i] != b)
				kinds = 3;
		}
		if (letter(w[i]) && !isxdigit(w[i]))
			other = true;
	}
	if (!let || (letters >= 4 && kinds <= 2))
		return false;
	return !digit || other;
}

/* Whether a line holds a word that names something. */
static bool
named(const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0, e, k;

	while (i < len) {
		while (i < len && !wordc(p[i]))
			i++;
		for (e = i; e < len && wordc(p[e]); e++)
			;
		for (k = e; k > i && (p[k - 1] == '.' || p[k - 1] == ',');
		    k--)
			;
		if (k > i && word_names(p + i, k - i))
			return true;
		i = e;
	}
	return false;
}

static size_t
slot(const struct tr_shapes *s, unsigned long long k)
{
	size_t i = (size_t)(k ^ k >> 29) & (s->cap - 1);

	while (s->key[i] != 0 && s->key[i] != k)
		i = (i + 1) & (s->cap - 1);
	return i;
}

bool
tr_shapes_count(struct tr_shapes *s, const struct rl_lines *t)
{
	unsigned long long k;
	size_t i, j;

	memset(s, 0, sizeof *s);
	for (s->cap = 64; s->cap < t->n * 2; s->cap *= 2)
		;
	if ((s->key = calloc(s->cap, sizeof *s->key)) == NULL ||
	    (s->n = calloc(s->cap, sizeof *s->n)) == NULL) {
		tr_shapes_free(s);
		return false;
	}
	for (i = 0; i < t->n; i++) {
		if (rl_blank(&t->v[i]) || !named(t->v[i].p, t->v[i].len) ||
		    rl_starts(&t->v[i], "[… "))
			continue;
		k = tr_shape(t->v[i].p, t->v[i].len);
		j = slot(s, k);
		s->key[j] = k;
		s->n[j]++;
		s->lines++;
	}
	for (j = 0; j < s->cap; j++)
		if (s->n[j] > 1)
			s->shared += s->n[j];
	return true;
}

size_t
tr_shapes_get(const struct tr_shapes *s, unsigned long long k)
{
	return s->cap == 0 ? 0 : s->n[slot(s, k)];
}

bool
tr_shapes_patterned(const struct tr_shapes *s)
{
	return s->lines > 0 && s->shared * 4 >= s->lines * 3;
}

void
tr_shapes_free(struct tr_shapes *s)
{
	free(s->key);
	free(s->n);
	memset(s, 0, sizeof *s);
}
