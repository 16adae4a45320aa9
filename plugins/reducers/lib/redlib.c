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

size_t
rl_max_bytes(const struct aiterm_reduce_input *in)
{
	return in->max_bytes > 0 ? in->max_bytes : (size_t)-1;
}

struct rl_line
rl_ext(struct rl_line path)
{
	size_t i;

	for (i = path.len; i > 0 && path.p[i - 1] != '/'; i--)
		;
	path = rl_from(path, i);
	/* Not a leading dot (".bashrc"), nor a trailing one. */
	for (i = path.len; i > 1 && path.p[i - 1] != '.'; i--)
		;
	if (i <= 1 || i == path.len)
		return rl_from(path, path.len);
	return rl_from(path, i - 1);
}

struct rl_kind {
	struct rl_line	 ext;
	size_t		 i;
};

int
rl_cmp(const struct rl_line *a, const struct rl_line *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = n > 0 ? memcmp(a->p, b->p, n) : 0;

	if (c != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int
kind_cmp(const void *a, const void *b)
{
	const struct rl_kind *x = a, *y = b;
	int c = rl_cmp(&x->ext, &y->ext);

	if (c != 0)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

static bool
same_ext(const struct rl_kind *x, const struct rl_kind *y)
{
	return rl_cmp(&x->ext, &y->ext) == 0;
}

bool *
rl_alone(const struct rl_line *v, size_t n)
{
	struct rl_kind *k;
	bool *alone;
	size_t i, m = 0;

	alone = calloc(n > 0 ? n : 1, sizeof *alone);
	k = calloc(n > 0 ? n : 1, sizeof *k);
	if (alone == NULL || k == NULL) {
		free(alone);
		free(k);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		k[m].ext = rl_ext(v[i]);
		k[m].i = i;
		if (k[m].ext.len > 0)
			m++;
	}
	if (m > 1)
		qsort(k, m, sizeof *k, kind_cmp);
	for (i = 0; i < m; i++) {
		alone[k[i].i] = (i == 0 || !same_ext(&k[i - 1], &k[i])) &&
		    (i + 1 == m || !same_ext(&k[i], &k[i + 1]));
	}
	free(k);
	return alone;
}

void
rl_put_alone(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_line *v, const bool *alone, size_t lo, size_t hi)
{
	size_t i, shown = 0;

	for (i = lo; i < hi && alone != NULL && shown < RL_ALONE_MAX; i++) {
		if (alone[i])
			h->buf_printf(out, "%s%.*s", shown++ == 0 ?
			    "… alone of its kind among them: " : "  ",
			    (int)v[i].len, v[i].p);
	}
	if (shown > 0)
		h->buf_add(out, "\n", 1);
}

/* The size of a render, or of nothing when lo == hi. */
struct rl_size {
	size_t	bytes;
	size_t	lines;
};

static bool
render(const struct aiterm_host *h, rl_render_fn *f, size_t lo, size_t hi,
    void *arg, struct aiterm_buf *keep, struct rl_size *sz)
{
	struct aiterm_buf *b = keep != NULL ? keep : h->buf_new();
	size_t start;

	if (b == NULL)
		return false;
	start = h->buf_len(b);
	if (lo < hi)
		f(h, b, lo, hi, arg);
	sz->bytes = h->buf_len(b) - start;
	sz->lines = rl_count(h->buf_data(b) + start, sz->bytes);
	if (keep == NULL)
		h->buf_free(b);
	return true;
}

static bool
within(const struct rl_size *s, size_t bytes, size_t lines)
{
	return s->bytes <= bytes && s->lines <= lines;
}

int
rl_fit_ends(const struct aiterm_host *h, struct aiterm_buf *out, size_t n,
    size_t max_bytes, size_t max_lines, size_t few_head, size_t few_tail,
    rl_render_fn *items, rl_render_fn *mid, void *arg)
{
	struct aiterm_buf *b = NULL;
	struct rl_size all, m, s, head;
	size_t slack = 64, lslack = 0, lines, lo, hi, a, z, room, tries;
	int rc = -1;

	if ((b = h->buf_new()) == NULL || !render(h, items, 0, n, arg, b, &all))
		goto out;
	if (within(&all, max_bytes, max_lines)) {
		h->buf_add(out, h->buf_data(b), all.bytes);
		rc = 1;
		goto out;
	}
	if (!render(h, mid, 0, n, arg, NULL, &m))
		goto out;
	for (tries = 0; tries < 3; tries++) {
		if (m.bytes + slack >= max_bytes ||
		    m.lines + lslack + 2 > max_lines)
			goto out;
		room = max_bytes - m.bytes - slack;
		lines = max_lines - m.lines - lslack;
		/* The most items from the start within three fifths. */
		for (lo = 0, hi = n; lo < hi;) {
			a = lo + (hi - lo + 1) / 2;
			if (!render(h, items, 0, a, arg, NULL, &s))
				goto out;
			if (within(&s, room / 5 * 3, lines / 2))
				lo = a;
			else
				hi = a - 1;
		}
		a = lo;
		if (!render(h, items, 0, a, arg, NULL, &head))
			goto out;
		/* The fewest from the end that fill the rest. */
		for (lo = a, hi = n; lo < hi;) {
			z = lo + (hi - lo) / 2;
			if (!render(h, items, z, n, arg, NULL, &s))
				goto out;
			if (within(&s, room - head.bytes, lines - head.lines))
				hi = z;
			else
				lo = z + 1;
		}
		z = lo;
		if (z <= a || (a == 0 && z == n))
			goto out;
		if ((a + n - z) * RL_FIT_SHARE < n && few_head <= a &&
		    few_tail <= n - z) {
			a = few_head;
			z = n - few_tail;
		}
		h->buf_free(b);
		if ((b = h->buf_new()) == NULL)
			goto out;
		if (!render(h, items, 0, a, arg, b, &s) ||
		    !render(h, mid, a, z, arg, b, &s) ||
		    !render(h, items, z, n, arg, b, &s))
			goto out;
		all.bytes = h->buf_len(b);
		all.lines = rl_count(h->buf_data(b), all.bytes);
		if (within(&all, max_bytes, max_lines)) {
			h->buf_add(out, h->buf_data(b), all.bytes);
			rc = 0;
			goto out;
		}
		/*
		 * What mid wrote of [a, z) can be longer than of them all: the
		 * next try leaves that much more room, and a little more, so
		 * that it changes what fits.
		 */
		slack += (all.bytes > max_bytes ? all.bytes - max_bytes : 0) +
		    64;
		lslack += all.lines > max_lines ? all.lines - max_lines : 0;
	}
out:
	if (b != NULL)
		h->buf_free(b);
	return rc;
}
