/*
 * ls -l (and -la, -lh, ll ...): each entry keeps its fields with the
 * column padding squeezed to one space; when every entry has the same
 * owner and group, they are said once on the first line and left out of
 * the rows.  "total N", folder headings and error lines stay.  Nothing
 * else is left out when the listing fits the budget.  A longer listing
 * keeps every name, packed several to a line ("x  dir/  y -> z"), says
 * which fields went and keeps the three largest files' rows from their
 * size to their name; when that is over the budget's lines or bytes (ADR
 * 0044), the first and last names that fit stay, and a line counts those
 * between by type ("… 780 more: 730 directories, 50 links") and names
 * whole the ones alone of their kind.  Only when even that does not fit
 * does a listing of one folder keep its first and last entries whole.
 * Output that is not a long listing (plain ls, another locale's dates)
 * is declined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

#define LS_HEAD		25
#define LS_TAIL		12
#define LS_FIELDS	12
#define LS_WIDTH	160	/* names packed this wide beyond the budget */
#define LS_LARGEST	3	/* files that keep their size in names only */

static const char *const ls_months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
	"Nov", "Dec", NULL,
};

/* The types of the first perms letter, as the summary counts them. */
static const struct {
	char		 c;
	const char	*one, *many;
} ls_types[] = {
	{ 'd', "directory", "directories" },
	{ '-', "file", "files" },
	{ 'l', "link", "links" },
	{ 'c', "character device", "character devices" },
	{ 'b', "block device", "block devices" },
	{ 'p', "fifo", "fifos" },
	{ 's', "socket", "sockets" },
	{ 'D', "door", "doors" },
};
#define LS_NTYPES (sizeof ls_types / sizeof ls_types[0])

struct ls_entry {
	struct rl_line	 lead;	/* fields before the owner (perms, links) */
	struct rl_line	 owner;	/* owner and group, squeezed apart */
	struct rl_line	 rest;	/* size, date and name */
	char		 type;
};

struct ls_field {
	size_t	start, len;
};

static size_t
fields(const struct rl_line *l, struct ls_field *f, size_t max)
{
	size_t i = 0, n = 0;

	while (i < l->len && n < max) {
		while (i < l->len && l->p[i] == ' ')
			i++;
		if (i >= l->len)
			break;
		f[n].start = i;
		while (i < l->len && l->p[i] != ' ')
			i++;
		f[n].len = i - f[n].start;
		n++;
	}
	return n;
}

static bool
is_perms(const char *p, size_t n)
{
	size_t i;

	if ((n != 10 && n != 11) || strchr("-dlcbpsD", p[0]) == NULL)
		return false;
	for (i = 1; i < 10; i++) {
		if (strchr("rwxsStTl-", p[i]) == NULL)
			return false;
	}
	return n == 10 || strchr(".+@", p[10]) != NULL;
}

static bool
all_digits(const char *p, size_t n, const char *also)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((p[i] < '0' || p[i] > '9') && strchr(also, p[i]) == NULL)
			return false;
	}
	return n > 0;
}

/* The number of fields of a date starting at f[0], or 0. */
static size_t
date_fields(const char *s, const struct ls_field *f, size_t n)
{
	size_t i;

	if (n >= 3 && f[0].len == 3) {
		for (i = 0; ls_months[i] != NULL; i++) {
			if (memcmp(s + f[0].start, ls_months[i], 3) == 0)
				break;
		}
		if (ls_months[i] != NULL && f[1].len <= 2 &&
		    all_digits(s + f[1].start, f[1].len, "") &&
		    all_digits(s + f[2].start, f[2].len, ":"))
			return 3;
	}
	if (n >= 2 && f[0].len == 10 && all_digits(s + f[0].start, 10, "-") &&
	    s[f[0].start + 4] == '-' && all_digits(s + f[1].start, f[1].len,
	    ":.")) {
		if (n >= 3 && f[2].len == 5 && (s[f[2].start] == '+' ||
		    s[f[2].start] == '-'))
			return 3;
		return 2;
	}
	return 0;
}

/* Read an entry; false when the line is not one. */
static bool
entry(const struct rl_line *l, struct ls_entry *e)
{
	struct ls_field f[LS_FIELDS];
	size_t n = fields(l, f, LS_FIELDS), pi, di, d = 0, size_at;

	for (pi = 0; pi < 3 && pi < n; pi++) {
		if (is_perms(l->p + f[pi].start, f[pi].len))
			break;
	}
	if (pi >= 3 || pi >= n || pi + 2 >= n ||
	    !all_digits(l->p + f[pi + 1].start, f[pi + 1].len, ""))
		return false;
	for (di = pi + 3; di < n; di++) {
		if ((d = date_fields(l->p, f + di, n - di)) > 0)
			break;
	}
	if (di >= n || di + d >= n + 1)
		return false;
	e->type = l->p[f[pi].start];
	size_at = di - 1;
	if ((e->type == 'c' || e->type == 'b') && size_at > pi + 2 &&
	    l->p[f[size_at - 1].start + f[size_at - 1].len - 1] == ',')
		size_at--;
	e->lead.p = l->p;
	e->lead.len = f[pi + 1].start + f[pi + 1].len;
	e->owner.len = 0;
	e->owner.p = l->p + f[pi + 1].start + f[pi + 1].len;
	if (size_at > pi + 2) {
		e->owner.p = l->p + f[pi + 2].start;
		e->owner.len = f[size_at - 1].start + f[size_at - 1].len -
		    f[pi + 2].start;
	}
	e->rest.p = l->p + f[size_at].start;
	e->rest.len = l->len - f[size_at].start;
	return true;
}

static bool
same(const struct rl_line *a, const struct rl_line *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

/* Append the fields of l squeezed (blank runs made one space). */
static void
put_squeezed(const struct aiterm_host *h, struct aiterm_buf *out,
    struct rl_line l)
{
	fl_put_tight(h, out, l);
}

/* The name of an entry ("x", "x -> target"), and its head before it. */
static struct rl_line
entry_name(const struct ls_entry *e, struct rl_line *head)
{
	struct ls_field f[LS_FIELDS];
	size_t n, i, d = 0, at;

	/* rest: size (one or two fields), date, then the name. */
	n = fields(&e->rest, f, LS_FIELDS);
	for (i = 1; i < n; i++) {
		if ((d = date_fields(e->rest.p, f + i, n - i)) > 0)
			break;
	}
	at = f[i + d - 1].start + f[i + d - 1].len + 1;
	head->p = e->rest.p;
	head->len = at - 1;
	return rl_from(e->rest, at);
}

/* Append an entry: its fields squeezed, the name as it is. */
static void
put_entry(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct ls_entry *e, bool owner)
{
	struct rl_line head, name = entry_name(e, &head);

	put_squeezed(h, out, e->lead);
	if (owner && e->owner.len > 0) {
		h->buf_add(out, " ", 1);
		put_squeezed(h, out, e->owner);
	}
	h->buf_add(out, " ", 1);
	put_squeezed(h, out, head);
	h->buf_add(out, " ", 1);
	h->buf_add(out, name.p, name.len);
	h->buf_add(out, "\n", 1);
}

/*
 * The size of a file entry in bytes ("4509715660", or ls -h's "4.2G"),
 * or -1 for other entries and sizes that are not a number.
 */
static double
entry_size(const struct ls_entry *e)
{
	struct ls_field f[1];
	double v;

	if (e->type != '-' || fields(&e->rest, f, 1) != 1 ||
	    !fl_size(e->rest.p + f[0].start, f[0].len, &v))
		return -1;
	return v;
}

/*
 * Names only leaves sizes out; the LS_LARGEST largest files keep theirs
 * (the one a person scans a folder for), on one line after the header,
 * each from its size to its name as ls printed it ("117308864 Jan  3
 * 2023 libLLVM-15.so.1"), "; " between.  The lines written: 0 or 1.
 */
static size_t
put_largest(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct ls_entry *e, const bool *is, size_t n)
{
	size_t top[LS_LARGEST + 1], ntop = 0, i, k;
	double size[LS_LARGEST + 1], v;
	struct ls_field f[1] = { { 0, 0 } };
	const struct rl_line *r;

	/* An insertion into the sorted few; the one past the end falls off. */
	for (i = 0; i < n; i++) {
		if (is[i] && (v = entry_size(&e[i])) > 0)
			ntop = fl_top_add(size, top, ntop, LS_LARGEST, v, i);
	}
	if (ntop < 2)
		return 0;
	h->buf_add(out, "(largest:", strlen("(largest:"));
	for (k = 0; k < ntop; k++) {
		r = &e[top[k]].rest;
		fields(r, f, 1);
		h->buf_printf(out, "%s %.*s", k > 0 ? ";" : "",
		    (int)(r->len - f[0].start), r->p + f[0].start);
	}
	h->buf_add(out, ")\n", 2);
	return 1;
}

/* A listing beyond the budget, for its items and what is left out. */
struct ls_list {
	const struct rl_lines	*t;
	const struct ls_entry	*e;
	const bool		*is;	/* the line is an entry */
	const struct rl_line	*names;	/* an entry's name, else none */
	const bool		*alone;	/* an extension no other name has */
};

/* An entry's name as listed, without the blank ls pads quoted ones by. */
static struct rl_line
listed_name(const struct ls_entry *e)
{
	struct rl_line head, name = entry_name(e, &head);

	if (name.len > 1 && name.p[0] == ' ')
		name = rl_from(name, 1);
	return name;
}

/*
 * Lines [lo, hi): the entries' names packed LS_WIDTH wide, two blanks
 * apart, a directory's with a '/' after it, a link's with its target;
 * headings, "total" and error lines on their own.
 */
static void
ls_items(const struct aiterm_host *h, struct aiterm_buf *out, size_t lo,
    size_t hi, void *arg)
{
	const struct ls_list *l = arg;
	struct rl_pack pk = { h, out, LS_WIDTH, 0, 0, NULL };
	struct rl_line name;
	size_t i;

	for (i = lo; i < hi; i++) {
		if (!l->is[i]) {
			if (rl_blank(&l->t->v[i]))
				continue;
			rl_pack_end(&pk);
			rl_put(h, out, &l->t->v[i]);
			continue;
		}
		name = listed_name(&l->e[i]);
		rl_pack_add(&pk, name.p, name.len, l->e[i].type == 'd' ?
		    "/" : "");
	}
	rl_pack_end(&pk);
}

/*
 * The lines [lo, hi) left out: the headings, "total" and error lines
 * among them (never left out), the entries counted by type, and whole
 * the names alone of their kind.
 */
static void
ls_mid(const struct aiterm_host *h, struct aiterm_buf *out, size_t lo,
    size_t hi, void *arg)
{
	const struct ls_list *l = arg;
	size_t types[LS_NTYPES], i, j, k, n = 0;

	memset(types, 0, sizeof types);
	for (i = lo; i < hi; i++) {
		if (!l->is[i]) {
			if (!rl_blank(&l->t->v[i]))
				rl_put(h, out, &l->t->v[i]);
			continue;
		}
		n++;
		for (j = 0; j < LS_NTYPES; j++) {
			if (ls_types[j].c == l->e[i].type)
				types[j]++;
		}
	}
	h->buf_printf(out, "… %zu more:", n);
	for (j = 0, k = 0; j < LS_NTYPES; j++) {
		if (types[j] > 0)
			h->buf_printf(out, "%s %zu %s", k++ > 0 ? "," : "",
			    types[j], types[j] == 1 ? ls_types[j].one :
			    ls_types[j].many);
	}
	h->buf_add(out, "\n", 1);
	rl_put_alone(h, out, l->names, l->alone, lo, hi);
}

/*
 * A listing beyond the budget keeps every name (RED-FAITHFUL) when they
 * fit packed: a line saying which fields went, the largest files with
 * their sizes, then the names of each folder (ls_items).  Beyond the
 * budget's lines or bytes even so (ADR 0044), the first and last names
 * that fit, the rest said by ls_mid.  1 when it wrote, 0 when not even
 * that fits.
 */
static int
put_names(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct ls_entry *e, const bool *is,
    size_t n, size_t budget, size_t max)
{
	struct ls_list l = { t, e, is, NULL, NULL };
	struct rl_line *names;
	size_t i, lines = 1, start = h->buf_len(out);
	int rc = 0;

	h->buf_printf(out, "(%zu entries, more than fit: names only; "
	    "permissions, links, owner, size and date left out)\n", n);
	lines += put_largest(h, out, e, is, t->n);
	if ((names = calloc(t->n > 0 ? t->n : 1, sizeof *names)) == NULL)
		return 0;
	/* A line that is no entry has no extension to be alone by. */
	for (i = 0; i < t->n; i++) {
		if (is[i])
			names[i] = listed_name(&e[i]);
	}
	l.names = names;
	if ((l.alone = rl_alone(names, t->n)) != NULL &&
	    h->buf_len(out) - start < max && lines < budget)
		rc = rl_fit_ends(h, out, t->n, max - (h->buf_len(out) - start),
		    budget - lines, LS_HEAD, LS_TAIL, ls_items, ls_mid,
		    &l) >= 0;
	free(names);
	free((void *)l.alone);
	return rc;
}

int
red_ls(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct ls_entry *e = NULL;
	bool *is = NULL, one_owner = true, lossy = false;
	size_t i, j, k, n = 0, fixed = 0, sections = 0, budget, seen = 0;
	size_t types[LS_NTYPES], mid;
	struct rl_line owner = { NULL, 0 };
	struct aiterm_buf *tmp = NULL;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	e = calloc(t.n > 0 ? t.n : 1, sizeof *e);
	is = calloc(t.n > 0 ? t.n : 1, sizeof *is);
	if (e == NULL || is == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		const struct rl_line *l = &t.v[i];

		if (entry(l, &e[i])) {
			is[i] = true;
			if (n++ == 0)
				owner = e[i].owner;
			else if (!same(&owner, &e[i].owner))
				one_owner = false;
		} else if (rl_blank(l))
			continue;
		else if (rl_starts(l, "total ") || rl_starts(l, "ls: ") ||
		    rl_ends(l, ":")) {
			fixed++;
			sections += rl_ends(l, ":") ? 1 : 0;
		} else
			goto out;	/* not a long listing */
	}
	if (n == 0)
		goto out;
	one_owner = one_owner && owner.len > 0 && n > 3;
	budget = rl_budget(in);
	if (one_owner) {
		h->buf_add(out, "(every entry: ", 14);
		put_squeezed(h, out, owner);
		h->buf_add(out, ")\n", 2);
		fixed++;
	}
	if (n + fixed > budget) {
		/* Every name when they fit packed; else head and tail. */
		if ((tmp = h->buf_new()) == NULL)
			goto out;
		if (put_names(h, tmp, &t, e, is, n, budget,
		    rl_max_bytes(in)) > 0) {
			h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
			rc = 0;
			goto out;
		}
		if (sections > 0 || LS_HEAD + LS_TAIL + 1 + fixed > budget)
			goto out;
	}
	lossy = n + fixed > budget;
	memset(types, 0, sizeof types);
	mid = lossy ? n - LS_HEAD - LS_TAIL : 0;
	for (i = 0; i < t.n; i++) {
		if (!is[i]) {
			if (!rl_blank(&t.v[i]))
				rl_put(h, out, &t.v[i]);
			continue;
		}
		seen++;
		if (!lossy || seen <= LS_HEAD || seen > n - LS_TAIL) {
			put_entry(h, out, &e[i], !one_owner);
			continue;
		}
		for (j = 0; j < LS_NTYPES; j++) {
			if (ls_types[j].c == e[i].type)
				types[j]++;
		}
		if (seen < n - LS_TAIL)
			continue;
		h->buf_printf(out, "… %zu more:", mid);
		for (j = 0, k = 0; j < LS_NTYPES; j++) {
			if (types[j] == 0)
				continue;
			h->buf_printf(out, "%s %zu %s", k++ > 0 ? "," : "",
			    types[j], types[j] == 1 ? ls_types[j].one :
			    ls_types[j].many);
		}
		h->buf_add(out, "\n", 1);
	}
	rc = lossy ? 0 : 1;
out:
	if (tmp != NULL)
		h->buf_free(tmp);
	free(e);
	free(is);
	rl_lines_free(&t);
	return rc;
}
