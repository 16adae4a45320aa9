/*
 * Line shapes, as reduce/shape.c makes them or finer (a path's file name
 * is not masked here), so that a reducer keeps at least the lines the
 * core's check calls rare.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define FNV(h, c)	(((h) ^ (unsigned char)(c)) * 1099511628211ULL)

unsigned long long
tr_shape(const char *p, size_t len)
{
	unsigned long long h = 14695981039346656037ULL;
	size_t i = 0, d, r, e;
	bool first = true;

	while (i < len) {
		if (isspace((unsigned char)p[i])) {
			i++;
			continue;
		}
		if (!first)
			h = FNV(h, ' ');
		first = false;
		for (e = i; e < len && !isspace((unsigned char)p[e]); e++)
			;
		/* The word [i, e): each hex run around a digit as '#'. */
		while (i < e) {
			for (d = i; d < e && !isdigit((unsigned char)p[d]); d++)
				;
			if (d == e) {
				for (; i < e; i++)
					h = FNV(h, p[i]);
				break;
			}
			for (r = d; r > i && isxdigit((unsigned char)p[r - 1]);
			    r--)
				;
			for (; i < r; i++)
				h = FNV(h, p[i]);
			h = FNV(h, '#');
			for (i = d; i < e && isxdigit((unsigned char)p[i]); i++)
				;
		}
	}
	return h == 0 ? 1 : h;
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
		if (rl_blank(&t->v[i]))
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
