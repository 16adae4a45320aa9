/* Text helpers for command reducers (see redlib.h). */
#include <stdlib.h>
#include <string.h>

#include "redlib.h"

bool
rl_next(const char *text, size_t len, size_t *pos, struct rl_line *l)
{
	const char *nl;

	if (*pos >= len)
		return false;
	l->p = text + *pos;
	nl = memchr(l->p, '\n', len - *pos);
	l->len = nl != NULL ? (size_t)(nl - l->p) : len - *pos;
	*pos += l->len + (nl != NULL ? 1 : 0);
	return true;
}

size_t
rl_count(const char *text, size_t len)
{
	struct rl_line l;
	size_t pos = 0, n = 0;

	while (rl_next(text, len, &pos, &l))
		n++;
	return n;
}

bool
rl_starts(const struct rl_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && memcmp(l->p, prefix, n) == 0;
}

bool
rl_ends(const struct rl_line *l, const char *suffix)
{
	size_t n = strlen(suffix);

	return l->len >= n && memcmp(l->p + l->len - n, suffix, n) == 0;
}

bool
rl_has(const struct rl_line *l, const char *needle)
{
	size_t n = strlen(needle);

	return n == 0 || (l->len >= n && memmem(l->p, l->len, needle, n) !=
	    NULL);
}

bool
rl_eq(const struct rl_line *l, const char *s)
{
	return strlen(s) == l->len && memcmp(l->p, s, l->len) == 0;
}

static bool
blank_char(char c)
{
	return c == ' ' || c == '\t';
}

struct rl_line
rl_trim(struct rl_line l)
{
	while (l.len > 0 && blank_char(l.p[0])) {
		l.p++;
		l.len--;
	}
	while (l.len > 0 && blank_char(l.p[l.len - 1]))
		l.len--;
	return l;
}

bool
rl_blank(const struct rl_line *l)
{
	return rl_trim(*l).len == 0;
}

void
rl_put(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_line *l)
{
	h->buf_add(out, l->p, l->len);
	h->buf_add(out, "\n", 1);
}

void
rl_put_squeezed(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_line *l)
{
	size_t i = 0, start, run;

	while (i < l->len) {
		start = i;
		while (i < l->len && !blank_char(l->p[i]))
			i++;
		h->buf_add(out, l->p + start, i - start);
		for (run = 0; i < l->len && blank_char(l->p[i]); i++)
			run++;
		if (run > 0 && i < l->len)
			h->buf_add(out, "  ", run >= 2 ? 2 : 1);
	}
	h->buf_add(out, "\n", 1);
}

void
rl_pack_add(struct rl_pack *pk, const char *p, size_t len,
    const char *suffix)
{
	const char *sep = pk->sep != NULL ? pk->sep : "  ";
	size_t n = len + strlen(suffix), s = strlen(sep);

	if (pk->col > 0 && pk->col + s + n > pk->width)
		rl_pack_end(pk);
	if (pk->col > 0) {
		pk->h->buf_add(pk->out, sep, s);
		pk->col += s;
	}
	pk->h->buf_add(pk->out, p, len);
	pk->h->buf_add(pk->out, suffix, strlen(suffix));
	pk->col += n;
}

void
rl_pack_end(struct rl_pack *pk)
{
	if (pk->col == 0)
		return;
	pk->h->buf_add(pk->out, "\n", 1);
	pk->col = 0;
	pk->lines++;
}

bool
rl_has_opt(const char *const *argv, const char *opt)
{
	size_t i, n = strlen(opt);
	bool prefix = n > 0 && opt[n - 1] == '=';

	if (argv == NULL)
		return false;
	for (i = 1; argv[i] != NULL; i++) {
		if (prefix ? strncmp(argv[i], opt, n) == 0 :
		    strcmp(argv[i], opt) == 0)
			return true;
	}
	return false;
}

bool
rl_split(const struct aiterm_reduce_input *in, struct rl_lines *t)
{
	struct rl_line l;
	size_t pos = 0, n;

	t->n = 0;
	n = rl_count(in->text, in->len);
	t->v = calloc(n > 0 ? n : 1, sizeof *t->v);
	if (t->v == NULL)
		return false;
	while (t->n < n && rl_next(in->text, in->len, &pos, &l))
		t->v[t->n++] = l;
	return true;
}

void
rl_lines_free(struct rl_lines *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

bool
rl_number(const char **p, const char *end, size_t *n)
{
	const char *s = *p;
	size_t v = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9') {
		if (v > ((size_t)-1 - 9) / 10)
			return false;
		v = v * 10 + (size_t)(*s - '0');
		s++;
	}
	*p = s;
	*n = v;
	return true;
}

size_t
rl_budget(const struct aiterm_reduce_input *in)
{
	return in->max_lines > 0 ? in->max_lines : 120;
}

struct rl_line
rl_from(struct rl_line l, size_t skip)
{
	if (skip > l.len)
		skip = l.len;
	l.p += skip;
	l.len -= skip;
	return l;
}
