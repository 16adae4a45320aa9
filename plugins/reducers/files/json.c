/*
 * jq: a JSON array of objects (or a stream of them, jq '.[]', -c) is a
 * listing, and like ls it keeps every row's identity (issue 35, RED-CMD).
 *
 * - Each object is shown by its identity, as jq wrote it: its id-like
 *   member ("id", "uuid", "key", "sha", "number", "x_id") and its
 *   name-like one ("name", "login", "title", "slug", ...), or its first
 *   member when it has neither.
 * - A member whose value is shared by few objects (at most one in twenty)
 *   of a field with few values (a branch, a status, a role, a flag) sets
 *   its object apart: that object gets a line of its own with those
 *   members after its identity ("id": "dep_41694", "branch":
 *   "hotfix/ledger-double-post").  Objects are packed several to a line,
 *   two blanks apart, in their order.
 * - Such fields are summed up first, each value with its count; the
 *   other fields (of many values, or objects and arrays) are named as
 *   left out, with how many values they have.
 * Anything else (a scalar, an array of scalars, text after the JSON, more
 * rows than the budget holds) is declined.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

#define PACK_WIDTH	160
#define RARE_SHARE	20	/* a value of at most 1 in 20 objects is rare */
#define FEW_VALUES	16	/* a field of so many values or fewer is listed */
#define MAX_FIELDS	64

struct jm {
	const char	*key;	/* the key's characters, without quotes */
	size_t		 klen;
	const char	*p;	/* the member as written: "key": value */
	size_t		 len;
	const char	*v;	/* the value */
	size_t		 vlen;
	int		 field;	/* index into the fields, or -1 */
};

struct jrow {
	size_t		 first, n;	/* members [first, first + n) */
};

struct jfield {
	const char	*key;
	size_t		 klen;
	size_t		 rows;		/* objects that have it */
	size_t		 values;	/* distinct values */
	bool		 scalar;	/* every value a scalar */
	bool		 ident;
	bool		 listed;	/* few values: summed up, rare ones shown */
};

struct jdoc {
	struct jm	*m;
	size_t		 nm, cap;
	struct jrow	*r;
	size_t		 nr, rcap;
	struct jfield	 f[MAX_FIELDS];
	size_t		 nf;
	bool		 compact;	/* an object on one line */
};

static const char *const id_keys[] = {
	"id", "uuid", "guid", "key", "sha", "number", "_id", NULL,
};
static const char *const name_keys[] = {
	"name", "login", "username", "title", "slug", "hostname", "email",
	"path", NULL,
};

static const char *
ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

/* The end of the string that starts at p ('"'), or NULL. */
static const char *
string_end(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* The end of the value at p, or NULL when it is not one. */
static const char *
value_end(const char *p, const char *end)
{
	size_t depth = 0;

	if (p >= end)
		return NULL;
	if (*p != '{' && *p != '[') {
		if (*p == '"')
			return string_end(p, end);
		while (p < end && *p != ',' && *p != '}' && *p != ']' &&
		    *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
			p++;
		return p;
	}
	for (; p < end; p++) {
		if (*p == '"') {
			if ((p = string_end(p, end)) == NULL)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return p + 1;
		}
	}
	return NULL;
}

static bool
push_member(struct jdoc *d, const struct jm *m)
{
	struct jm *v;

	if (d->nm == d->cap) {
		d->cap = d->cap == 0 ? 256 : d->cap * 2;
		if ((v = realloc(d->m, d->cap * sizeof *v)) == NULL)
			return false;
		d->m = v;
	}
	d->m[d->nm++] = *m;
	return true;
}

/* An object at p, its members appended; the end, or NULL. */
static const char *
object(struct jdoc *d, const char *p, const char *end)
{
	struct jrow row = { d->nm, 0 }, *r;
	const char *open = p;
	struct jm m;

	p = ws(p + 1, end);
	while (p < end && *p != '}') {
		if (*p != '"' || (m.v = string_end(p, end)) == NULL)
			return NULL;
		m.key = p + 1;
		m.klen = (size_t)(m.v - p) - 2;
		m.p = p;
		p = ws(m.v, end);
		if (p >= end || *p++ != ':')
			return NULL;
		m.v = ws(p, end);
		if ((p = value_end(m.v, end)) == NULL || p == m.v)
			return NULL;
		m.vlen = (size_t)(p - m.v);
		m.len = (size_t)(p - m.p);
		m.field = -1;
		if (!push_member(d, &m))
			return NULL;
		row.n++;
		p = ws(p, end);
		if (p < end && *p == ',')
			p = ws(p + 1, end);
		else if (p < end && *p != '}')
			return NULL;
	}
	if (p >= end)
		return NULL;
	if (memchr(open, '\n', (size_t)(p - open)) == NULL)
		d->compact = true;
	if (d->nr == d->rcap) {
		d->rcap = d->rcap == 0 ? 64 : d->rcap * 2;
		if ((r = realloc(d->r, d->rcap * sizeof *r)) == NULL)
			return NULL;
		d->r = r;
	}
	d->r[d->nr++] = row;
	return p + 1;
}

/* The objects of an array of objects, or of a stream of them. */
static bool
parse(struct jdoc *d, const char *p, const char *end)
{
	bool array;

	p = ws(p, end);
	if (p >= end || (*p != '[' && *p != '{'))
		return false;
	array = *p == '[';
	if (array)
		p = ws(p + 1, end);
	while (p < end && *p == '{') {
		if ((p = object(d, p, end)) == NULL)
			return false;
		p = ws(p, end);
		if (array && p < end && *p == ',')
			p = ws(p + 1, end);
	}
	if (array) {
		if (p >= end || *p != ']')
			return false;
		p = ws(p + 1, end);
	}
	return p == end && d->nr >= 2;
}

static bool
key_in(const struct jm *m, const char *const *list)
{
	size_t i, n;

	for (i = 0; list[i] != NULL; i++) {
		n = strlen(list[i]);
		if (m->klen == n && memcmp(m->key, list[i], n) == 0)
			return true;
	}
	/* "user_id", "orderId" */
	return list == id_keys && m->klen > 3 &&
	    (memcmp(m->key + m->klen - 3, "_id", 3) == 0 ||
	    memcmp(m->key + m->klen - 2, "Id", 2) == 0);
}

static int
field_of(struct jdoc *d, const struct jm *m)
{
	size_t i;

	for (i = 0; i < d->nf; i++) {
		if (d->f[i].klen == m->klen &&
		    memcmp(d->f[i].key, m->key, m->klen) == 0)
			return (int)i;
	}
	if (d->nf == MAX_FIELDS)
		return -1;
	memset(&d->f[d->nf], 0, sizeof d->f[0]);
	d->f[d->nf].key = m->key;
	d->f[d->nf].klen = m->klen;
	d->f[d->nf].scalar = true;
	return (int)d->nf++;
}

static int
value_cmp(const void *a, const void *b)
{
	const struct jm *x = *(const struct jm *const *)a;
	const struct jm *y = *(const struct jm *const *)b;
	size_t n = x->vlen < y->vlen ? x->vlen : y->vlen;
	int c = memcmp(x->v, y->v, n);

	return c != 0 ? c : (x->vlen > y->vlen) - (x->vlen < y->vlen);
}

static bool
same_value(const struct jm *a, const struct jm *b)
{
	return a->vlen == b->vlen && memcmp(a->v, b->v, a->vlen) == 0;
}

/* The members of field f sorted by value, in *v; how many. */
static size_t
by_value(const struct jdoc *d, int f, const struct jm ***v)
{
	size_t i, n = 0;

	*v = malloc((d->f[f].rows + 1) * sizeof **v);
	if (*v == NULL)
		return 0;
	for (i = 0; i < d->nm; i++) {
		if (d->m[i].field == f || d->m[i].field == -2 - f)
			(*v)[n++] = &d->m[i];
	}
	qsort(*v, n, sizeof **v, value_cmp);
	return n;
}

/* Which fields are identities, which are listed; count their values. */
static void
fields(struct jdoc *d)
{
	const struct jm **v;
	const struct jrow *r0 = &d->r[0];
	size_t i, j, n;
	bool id = false, name = false;
	int f;

	for (i = 0; i < d->nm; i++) {
		if ((f = d->m[i].field = field_of(d, &d->m[i])) < 0)
			continue;
		d->f[f].rows++;
		if (d->m[i].v[0] == '{' || d->m[i].v[0] == '[')
			d->f[f].scalar = false;
	}
	for (i = r0->first; i < r0->first + r0->n; i++) {
		if ((f = d->m[i].field) < 0)
			continue;
		if (!id && key_in(&d->m[i], id_keys))
			id = d->f[f].ident = true;
		else if (!name && key_in(&d->m[i], name_keys))
			name = d->f[f].ident = true;
	}
	if (!id && !name && r0->n > 0 && d->m[r0->first].field >= 0)
		d->f[d->m[r0->first].field].ident = true;
	for (f = 0; (size_t)f < d->nf; f++) {
		if ((n = by_value(d, f, &v)) == 0) {
			free(v);
			continue;
		}
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && same_value(v[i], v[j]); j++)
				;
			d->f[f].values++;
		}
		d->f[f].listed = !d->f[f].ident && d->f[f].scalar &&
		    d->f[f].values <= FEW_VALUES && d->f[f].values > 1;
		/* A rare value sets its objects apart. */
		for (i = 0; d->f[f].listed && i < n; i = j) {
			for (j = i + 1; j < n && same_value(v[i], v[j]); j++)
				;
			if ((j - i) * RARE_SHARE <= d->nr)
				for (; i < j; i++)
					((struct jm *)v[i])->field = -2 - f;
		}
		free(v);
	}
}

/* The value counts of a listed field, most first: "status: a 326, b 14". */
static void
put_summary(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct jdoc *d, int f)
{
	const struct jm **v, *best;
	size_t i, j, n, k = 0, most, printed = 0;
	bool *done;

	n = by_value(d, f, &v);
	if (n == 0 || (done = calloc(n, sizeof *done)) == NULL) {
		free(v);
		return;
	}
	h->buf_printf(out, "%.*s:", (int)d->f[f].klen, d->f[f].key);
	while (printed < d->f[f].values) {
		best = NULL;
		most = 0;
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && same_value(v[i], v[j]); j++)
				;
			if (!done[i] && j - i > most) {
				most = j - i;
				best = v[i];
				k = i;
			}
		}
		if (best == NULL)
			break;
		done[k] = true;
		h->buf_printf(out, "%s %.*s %zu", printed > 0 ? "," : "",
		    (int)best->vlen, best->v, most);
		printed++;
	}
	h->buf_add(out, "\n", 1);
	free(done);
	free(v);
}

/* One object: its identity members, then (apart) its rare ones. */
static void
put_row(const struct jdoc *d, const struct jrow *r, struct aiterm_buf *row,
    const struct aiterm_host *h)
{
	const char *sep = d->compact ? "," : ", ";
	size_t i, k = 0;
	int f;

	for (i = r->first; i < r->first + r->n; i++) {
		f = d->m[i].field;
		if ((f >= 0 && d->f[f].ident) || f <= -2) {
			if (k++ > 0)
				h->buf_add(row, sep, strlen(sep));
			h->buf_add(row, d->m[i].p, d->m[i].len);
		}
	}
}

int
red_json(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *res)
{
	struct jdoc d;
	struct rl_pack pk;
	struct aiterm_buf *row = NULL, *out = NULL;
	size_t i, j, lines, left_out = 0;
	int rc = -1, f;

	memset(&d, 0, sizeof d);
	if (!parse(&d, in->text, in->text + in->len))
		goto out;
	fields(&d);
	if ((out = h->buf_new()) == NULL)
		goto out;
	h->buf_printf(out, "[%zu objects; each shown by", d.nr);
	for (f = 0, j = 0; (size_t)f < d.nf; f++) {
		if (d.f[f].ident)
			h->buf_printf(out, "%s \"%.*s\"", j++ > 0 ? " and" : "",
			    (int)d.f[f].klen, d.f[f].key);
	}
	h->buf_printf(out, ", and its members of rare value]\n");
	lines = 1;
	for (f = 0; (size_t)f < d.nf; f++) {
		if (d.f[f].listed) {
			put_summary(h, out, &d, f);
			lines++;
		}
	}
	pk = (struct rl_pack){ h, out, PACK_WIDTH, 0, 0, NULL };
	for (i = 0; i < d.nr; i++) {
		if ((row = h->buf_new()) == NULL)
			goto out;
		put_row(&d, &d.r[i], row, h);
		rl_pack_add(&pk, h->buf_data(row), h->buf_len(row), "");
		h->buf_free(row);
		row = NULL;
	}
	rl_pack_end(&pk);
	lines += pk.lines;
	h->buf_add(out, "(left out:", 10);
	for (f = 0; (size_t)f < d.nf; f++) {
		if (d.f[f].ident || d.f[f].listed)
			continue;
		h->buf_printf(out, "%s \"%.*s\" (%s)", left_out++ > 0 ? "," :
		    "", (int)d.f[f].klen, d.f[f].key, !d.f[f].scalar ?
		    "objects or arrays" : d.f[f].values == 1 ? "one value" :
		    "many values");
	}
	if (left_out == 0)
		h->buf_add(out, " nothing else", 13);
	h->buf_add(out, ")\n", 2);
	if (lines + 1 <= in->max_lines) {
		h->buf_add(res, h->buf_data(out), h->buf_len(out));
		rc = 0;
	}
out:
	if (row != NULL)
		h->buf_free(row);
	if (out != NULL)
		h->buf_free(out);
	free(d.m);
	free(d.r);
	return rc;
}
