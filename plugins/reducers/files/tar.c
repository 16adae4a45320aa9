/*
 * tar's listing (-t, --list; and the names -v prints as it creates or
 * extracts): a listing like ls -l (RED-FAITHFUL: every entry's name
 * within the listing budget).  A verbose row is "perms owner/group size
 * date time name"; the owner and the date that every row shares are said
 * once on a first line and left out of the rows, and so are the
 * permissions when they are all alike.  Beyond the budget every name is
 * kept whole (the path a person copies into the next command), packed
 * several to a line (a folder's entry only when no path after it holds
 * it), with a line saying which fields went and the three largest files'
 * rows from their size to their name; when those are over the budget's
 * lines or bytes (ADR 0044), the first and last names that fit stay, and
 * a line counts those between and names whole the ones alone of their
 * kind (the one *.txt among a thousand *.png).  Only when even that is
 * over the budget are the first and last entries kept and those between
 * counted by type.  "tar: " lines (errors, warnings) stay where they
 * were.  A line that is neither a row nor tar's own is declined, and so
 * is a plain (non-verbose) run that is not a listing; plain names within
 * the budget go whole through the generic stages.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

#define TAR_HEAD	25
#define TAR_TAIL	12
#define TAR_WIDTH	160
#define TAR_LARGEST	3
#define TAR_VALUES	4	/* a column's values said with counts */

struct tar_row {
	struct rl_line	 perms, owner, size, when, name;
	bool		 row;	/* a verbose row; else a name or tar's line */
	bool		 own;	/* tar's own line ("tar: ...") */
};

/* The next blank-separated field of l from *i. */
static struct rl_line
field(const struct rl_line *l, size_t *i)
{
	struct rl_line f;

	while (*i < l->len && l->p[*i] == ' ')
		(*i)++;
	f.p = l->p + *i;
	while (*i < l->len && l->p[*i] != ' ')
		(*i)++;
	f.len = (size_t)(l->p + *i - f.p);
	return f;
}

static bool
only(const struct rl_line *f, const char *set)
{
	size_t i;

	for (i = 0; i < f->len; i++) {
		if (strchr(set, f->p[i]) == NULL || f->p[i] == '\0')
			return false;
	}
	return f->len > 0;
}

/* "drwxr-xr-x root/root 0 2026-12-06 17:35 assets/" (GNU tar). */
static bool
verbose_row(const struct rl_line *l, struct tar_row *r)
{
	struct rl_line date, time;
	size_t i = 0;

	r->perms = field(l, &i);
	if (r->perms.len != 10 || strchr("-dlhcbpsC", r->perms.p[0]) == NULL ||
	    !only(&r->perms, "-rwxsStTdlhcbpC"))
		return false;
	r->owner = field(l, &i);
	if (memchr(r->owner.p, '/', r->owner.len) == NULL)
		return false;
	r->size = field(l, &i);
	if (!only(&r->size, "0123456789,"))
		return false;
	date = field(l, &i);
	time = field(l, &i);
	if (date.len != 10 || date.p[4] != '-' || date.p[7] != '-' ||
	    !only(&time, "0123456789:") || i >= l->len)
		return false;
	r->when.p = date.p;
	r->when.len = (size_t)(time.p + time.len - date.p);
	r->name = rl_from(*l, i + 1);
	return r->name.len > 0;
}

/* Whether argv asks for a listing (-t, --list) or names (-v). */
static bool
lists(const char *const *argv, bool *verbose)
{
	size_t i;
	bool list = false;

	*verbose = false;
	for (i = 1; argv[i] != NULL; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--list") == 0)
			list = true;
		else if (strcmp(a, "--verbose") == 0)
			*verbose = true;
		else if ((a[0] == '-' && a[1] != '-') || (i == 1 &&
		    a[0] != '-')) {
			if (strchr(a, 't') != NULL)
				list = true;
			if (strchr(a, 'v') != NULL)
				*verbose = true;
		}
	}
	return list || *verbose;
}

static bool
same(const struct rl_line *a, const struct rl_line *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

static double
row_size(const struct tar_row *r)
{
	double v;

	if (!r->row || r->perms.p[0] != '-' ||
	    !fl_size(r->size.p, r->size.len, &v))
		return -1;
	return v;
}

/*
 * The few largest files, each from its size to its name as tar printed
 * it, on one line; the lines written.
 */
static size_t
put_largest(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct tar_row *r, size_t n)
{
	size_t top[TAR_LARGEST + 1], ntop = 0, i, k;
	double size[TAR_LARGEST + 1], v;

	for (i = 0; i < n; i++) {
		if ((v = row_size(&r[i])) > 0)
			ntop = fl_top_add(size, top, ntop, TAR_LARGEST, v, i);
	}
	if (ntop < 2)
		return 0;
	h->buf_add(out, "(largest:", strlen("(largest:"));
	for (k = 0; k < ntop; k++) {
		const struct tar_row *t = &r[top[k]];

		h->buf_printf(out, "%s %.*s", k > 0 ? ";" : "",
		    (int)(t->name.p + t->name.len - t->size.p), t->size.p);
	}
	h->buf_add(out, ")\n", 2);
	return 1;
}

/*
 * The values a column left out takes, with their counts, when they are
 * few ("permissions -rw-r--r-- 1368, drwxr-xr-x 42"), else its name.
 */
static void
put_column(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct tar_row *r, size_t n, const char *what, size_t off)
{
	const struct rl_line *v[TAR_VALUES];
	size_t count[TAR_VALUES], nv = 0, i, k;
	const struct rl_line *f;

	for (i = 0; i < n; i++) {
		if (!r[i].row)
			continue;
		f = (const struct rl_line *)((const char *)&r[i] + off);
		for (k = 0; k < nv && !same(v[k], f); k++)
			;
		if (k == nv && nv == TAR_VALUES) {
			h->buf_printf(out, "%s", what);
			return;
		}
		if (k == nv) {
			v[nv] = f;
			count[nv++] = 0;
		}
		count[k]++;
	}
	h->buf_printf(out, "%s", what);
	for (k = 0; k < nv; k++)
		h->buf_printf(out, "%s %.*s %zu", k > 0 ? "," : "",
		    (int)v[k]->len, v[k]->p, count[k]);
}

/*
 * A folder's entry that the next entry's path holds ("assets/img/"
 * before "assets/img/a.png") says nothing more among names only.
 */
static bool
implied(const struct tar_row *r, size_t n, size_t i)
{
	const struct rl_line *d = &r[i].name, *next;

	if (i + 1 >= n || r[i + 1].own || d->len == 0 ||
	    d->p[d->len - 1] != '/')
		return false;
	next = &r[i + 1].name;
	return next->len > d->len && memcmp(next->p, d->p, d->len) == 0;
}

/* The names a listing beyond its budget shows, and which are alone. */
struct tar_names {
	const struct tar_row	**v;
	const struct rl_line	 *names;	/* tar's own lines: none */
	size_t			  n;
	const bool		 *alone;	/* an extension no other has */
};

static void
tar_items(const struct aiterm_host *h, struct aiterm_buf *out, size_t lo,
    size_t hi, void *arg)
{
	const struct tar_names *l = arg;
	struct rl_pack pk = { h, out, TAR_WIDTH, 0, 0, NULL };
	size_t i;

	for (i = lo; i < hi; i++) {
		if (l->v[i]->own) {
			rl_pack_end(&pk);
			rl_put(h, out, &l->v[i]->name);
		} else
			rl_pack_add(&pk, l->v[i]->name.p, l->v[i]->name.len,
			    "");
	}
	rl_pack_end(&pk);
}

/*
 * The entries [lo, hi) left out: how many, tar's own lines among them
 * (never left out), and whole those alone of their kind.
 */
static void
tar_mid(const struct aiterm_host *h, struct aiterm_buf *out, size_t lo,
    size_t hi, void *arg)
{
	const struct tar_names *l = arg;
	size_t i;

	for (i = lo; i < hi; i++) {
		if (l->v[i]->own)
			rl_put(h, out, &l->v[i]->name);
	}
	h->buf_printf(out, "… %zu more entries\n", hi - lo);
	rl_put_alone(h, out, l->names, l->alone, lo, hi);
}

/*
 * The names packed (a folder's own entry left out when the next path
 * holds it), as many from the start and the end as fit max bytes and
 * the budget, the rest said in a line (ADR 0044); 0 when not even that
 * fits, else 1.
 */
static int
put_names(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct tar_row *r, size_t n, size_t entries, bool verbose,
    size_t budget, size_t max)
{
	struct tar_names l = { NULL, NULL, 0, NULL };
	struct rl_line *names = NULL;
	size_t i, lines = 1, start = h->buf_len(out);
	int rc = 0;

	h->buf_printf(out, "(%zu entries, more than fit: names only", entries);
	if (verbose) {
		h->buf_add(out, "; left out: ", strlen("; left out: "));
		put_column(h, out, r, n, "permissions",
		    offsetof(struct tar_row, perms));
		put_column(h, out, r, n, "; owner",
		    offsetof(struct tar_row, owner));
		h->buf_add(out, "; size", strlen("; size"));
		put_column(h, out, r, n, "; date",
		    offsetof(struct tar_row, when));
	}
	h->buf_add(out, ")\n", 2);
	if (verbose)
		lines += put_largest(h, out, r, n);
	l.v = calloc(n > 0 ? n : 1, sizeof *l.v);
	names = calloc(n > 0 ? n : 1, sizeof *names);
	if (l.v == NULL || names == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		if (r[i].own || !implied(r, n, i)) {
			if (!r[i].own)
				names[l.n] = r[i].name;
			l.v[l.n++] = &r[i];
		}
	}
	l.names = names;
	if ((l.alone = rl_alone(names, l.n)) == NULL)
		goto out;
	if (h->buf_len(out) - start < max && lines < budget)
		rc = rl_fit_ends(h, out, l.n, max - (h->buf_len(out) - start),
		    budget - lines, TAR_HEAD, TAR_TAIL, tar_items, tar_mid,
		    &l) >= 0;
out:
	free(l.v);
	free(names);
	free((void *)l.alone);
	return rc;
}

/* A row with the fields that are not said once. */
static void
put_row(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct tar_row *r, bool perms, bool owner, bool when)
{
	if (perms)
		h->buf_printf(out, "%.*s ", (int)r->perms.len, r->perms.p);
	if (owner)
		h->buf_printf(out, "%.*s ", (int)r->owner.len, r->owner.p);
	h->buf_printf(out, "%.*s ", (int)r->size.len, r->size.p);
	if (when) {
		fl_put_tight(h, out, r->when);
		h->buf_add(out, " ", 1);
	}
	h->buf_add(out, r->name.p, r->name.len);
	h->buf_add(out, "\n", 1);
}

int
red_tar(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct tar_row *r = NULL;
	const struct tar_row *first = NULL;
	bool verbose, one_perms = true, one_owner = true, one_when = true;
	size_t i, n = 0, rows = 0, own = 0, budget, dirs = 0, files = 0;
	size_t others = 0, seen = 0;
	struct aiterm_buf *tmp = NULL;
	int rc = -1;

	if (!lists(in->argv, &verbose) || !rl_split(in, &t))
		return -1;
	if ((r = calloc(t.n > 0 ? t.n : 1, sizeof *r)) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		struct tar_row *x = &r[n];

		if (rl_blank(&t.v[i]))
			continue;
		if (rl_starts(&t.v[i], "tar: ")) {
			x->own = true;
			x->name = t.v[i];
			own++;
		} else if (verbose_row(&t.v[i], x)) {
			x->row = true;
			if (first == NULL)
				first = x;
			one_perms = one_perms && same(&x->perms, &first->perms);
			one_owner = one_owner && same(&x->owner, &first->owner);
			one_when = one_when && same(&x->when, &first->when);
			rows++;
		} else if (rows > 0)
			goto out;	/* neither a row nor a name */
		else
			x->name = t.v[i];
		n++;
	}
	if (n - own < 4 || (rows > 0 && rows + own != n))
		goto out;
	budget = rl_budget(in);
	one_perms = one_perms && rows > 0;
	one_owner = one_owner && rows > 0;
	one_when = one_when && rows > 0;
	if (n + 1 > budget) {
		if ((tmp = h->buf_new()) == NULL)
			goto out;
		if (put_names(h, tmp, r, n, n - own, rows > 0, budget,
		    rl_max_bytes(in)) > 0) {
			h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
			rc = 0;
			goto out;
		}
		if (TAR_HEAD + TAR_TAIL + own + 2 > budget)
			goto out;
	} else if (rows == 0 || !(one_perms || one_owner || one_when))
		goto out;	/* whole, as the generic stages show it */
	if (one_perms || one_owner || one_when) {
		h->buf_add(out, "(every entry:", strlen("(every entry:"));
		if (one_perms)
			h->buf_printf(out, " %.*s", (int)first->perms.len,
			    first->perms.p);
		if (one_owner)
			h->buf_printf(out, " %.*s", (int)first->owner.len,
			    first->owner.p);
		if (one_when) {
			h->buf_add(out, " ", 1);
			fl_put_tight(h, out, first->when);
		}
		h->buf_add(out, ")\n", 2);
	}
	rc = n + 1 > budget ? 0 : 1;
	for (i = 0; i < n; i++) {
		if (r[i].own) {
			rl_put(h, out, &r[i].name);
			continue;
		}
		seen++;
		if (rc == 1 || seen <= TAR_HEAD || seen > n - own - TAR_TAIL) {
			if (r[i].row)
				put_row(h, out, &r[i], !one_perms, !one_owner,
				    !one_when);
			else
				rl_put(h, out, &r[i].name);
			continue;
		}
		if (r[i].row && r[i].perms.p[0] == 'd')
			dirs++;
		else if (!r[i].row || r[i].perms.p[0] == '-')
			files++;
		else
			others++;
		if (seen == n - own - TAR_TAIL)
			h->buf_printf(out, "… %zu more entries: %zu files, "
			    "%zu directories, %zu others\n", dirs + files +
			    others, files, dirs, others);
	}
out:
	if (tmp != NULL)
		h->buf_free(tmp);
	free(r);
	rl_lines_free(&t);
	return rc;
}
