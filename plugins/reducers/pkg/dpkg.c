/*
 * dpkg -l: a listing that fits the budget keeps every line (RED-FAITHFUL:
 * every row), squeezed (runs of blanks to two), but the "+++-===" rule.
 * A longer one: the three legend lines and the rule go (they are the
 * same on every system); the "||/ Name Version ..." header and the rows
 * are squeezed, and "un" rows (known but not installed) are counted.
 * Rows whose state is not "ii" (rc, iU, iF, hi, an error flag ...) are
 * all kept.  Of more than DP_ROWS "ii" rows the first and last
 * DP_ROWS / 2 stay, and of those between only the names, packed
 * DP_WIDTH wide after a line that says so: a listing keeps every name
 * (RED-FAITHFUL).  When that is over the budget (its lines, and for a
 * listing far beyond it its bytes, ADR 0044), the names of every row, a
 * state at a time ("rc (300):"); when even that is, the first of those
 * two within the lines, which the core cuts to the bytes, or the rows
 * between only counted ("… 458 more installed (ii) rows").  Output without
 * dpkg's header (an error, "no packages found matching") is declined.
 */
#include <stdint.h>
#include <string.h>

#include "pkg.h"

#define DP_ROWS		40
#define DP_WIDTH	160	/* names packed this wide */

/* A long listing: where its parts are. */
struct dp_list {
	const struct rl_lines	*t;
	size_t			 head;	/* the "||/ Name" line */
	size_t			 ii, un, other;	/* rows in each kind of state */
	size_t			 from, to; /* the ii rows between: [from, to] */
	size_t			 between;
};

static bool
is_legend(const struct rl_line *l)
{
	return rl_starts(l, "Desired=") || rl_starts(l, "| Status=") ||
	    rl_starts(l, "|/ Err?=") || rl_starts(l, "+++-");
}

/* The state word of a row ("ii", "un", "rc"), or an empty line. */
static struct rl_line
state(const struct rl_line *l)
{
	struct rl_line s = { l->p, 0 };

	while (s.len < l->len && l->p[s.len] != ' ')
		s.len++;
	return s;
}

static bool
in_state(const struct rl_line *l, const struct rl_line *st)
{
	struct rl_line s = state(l);

	return s.len == st->len && memcmp(s.p, st->p, s.len) == 0;
}

/* The name of a row, its second field ("libc6:amd64"). */
static struct rl_line
name(const struct rl_line *l)
{
	struct rl_line n;
	size_t i = 0;

	while (i < l->len && l->p[i] != ' ')
		i++;
	while (i < l->len && l->p[i] == ' ')
		i++;
	n.p = l->p + i;
	n.len = 0;
	while (i + n.len < l->len && l->p[i + n.len] != ' ')
		n.len++;
	return n;
}

/* The names of the rows [from, to) in state st, packed; the lines. */
static size_t
put_state(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, size_t from, size_t to,
    const struct rl_line *st)
{
	/* A package's name holds no blank: one is enough between two. */
	struct rl_pack pk = { h, out, DP_WIDTH, 0, 0, " " };
	struct rl_line n;
	size_t i;

	for (i = from; i < to; i++) {
		if (!in_state(&t->v[i], st))
			continue;
		n = name(&t->v[i]);
		rl_pack_add(&pk, n.p, n.len, "");
	}
	rl_pack_end(&pk);
	return pk.lines;
}

/*
 * The rows but the legend and the un rows, squeezed, with the ii rows
 * between by their names (names) or counted; the lines.
 */
static size_t
put_rows(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct dp_list *d, bool names)
{
	static const struct rl_line ii = { "ii", 2 }, un = { "un", 2 };
	const struct rl_lines *t = d->t;
	size_t i, lines = 0;

	for (i = 0; i < t->n; i++) {
		const struct rl_line *l = &t->v[i];

		if (is_legend(l) || (i > d->head && in_state(l, &un)))
			continue;
		if (i < d->from || i > d->to || !in_state(l, &ii)) {
			rl_put_squeezed(h, out, l);
			lines++;
			continue;
		}
		if (i != d->from)
			continue;
		h->buf_printf(out, "… %zu more installed (ii) rows%s\n",
		    d->between, names ? ", names only (version, "
		    "architecture and description left out):" : "");
		lines++;
		if (names)
			lines += put_state(h, out, t, d->from, d->to + 1, &ii);
	}
	return lines;
}

/* The names of every row but un, a state at a time; the lines. */
static size_t
put_by_state(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct dp_list *d)
{
	const struct rl_lines *t = d->t;
	struct rl_line st;
	size_t i, j, n, lines = 1;

	h->buf_printf(out, "(%zu packages, more than fit: names only, by "
	    "state; version, architecture and description left out)\n",
	    d->ii + d->other);
	for (i = d->head + 1; i < t->n; i++) {
		st = state(&t->v[i]);
		if (st.len == 0 || rl_eq(&st, "un") || is_legend(&t->v[i]))
			continue;
		/* A state's group comes where its first row is. */
		for (j = d->head + 1; j < i && !in_state(&t->v[j], &st); j++)
			;
		if (j < i)
			continue;
		for (n = 0, j = i; j < t->n; j++)
			n += in_state(&t->v[j], &st);
		h->buf_printf(out, "%.*s (%zu):\n", (int)st.len, st.p, n);
		lines += 1 + put_state(h, out, t, i, t->n, &st);
	}
	return lines;
}

/*
 * A way of showing d (by state, or rows and names) into out, if it fits
 * budget lines and max_bytes.
 */
static bool
put_fitting(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct dp_list *d, size_t budget, size_t max_bytes, bool by_state)
{
	struct aiterm_buf *tmp = h->buf_new();
	bool fits;

	if (tmp == NULL)
		return false;
	fits = (by_state ? put_by_state(h, tmp, d) :
	    put_rows(h, tmp, d, true)) <= budget &&
	    h->buf_len(tmp) <= max_bytes;
	if (fits)
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
	h->buf_free(tmp);
	return fits;
}

/*
 * Of the ii rows, keep the first and last keep / 2 whole: the rows
 * between them, [from, to], and how many.
 */
static void
set_between(struct dp_list *d, size_t keep)
{
	const struct rl_lines *t = d->t;
	struct rl_line s;
	size_t i, seen = 0;

	d->between = 0;
	d->from = d->to = SIZE_MAX;
	if (d->ii <= keep)
		return;
	d->between = d->ii - keep / 2 * 2;
	for (i = d->head + 1; i < t->n; i++) {
		s = state(&t->v[i]);
		if (!rl_eq(&s, "ii"))
			continue;
		seen++;
		if (seen == keep / 2 + 1)
			d->from = i;
		if (seen == d->ii - keep / 2)
			d->to = i;
	}
}

/*
 * The ways of showing a long listing, in the order put_long tries them:
 * rows and names with this many whole ii rows at the ends (0: names by
 * state instead), within max_bytes or within the lines alone.
 */
static const struct dp_way {
	size_t	keep;
	bool	bytes;
} dp_ways[] = {
	{ DP_ROWS, true }, { DP_ROWS / 4, true }, { 2, true }, { 0, true },
	{ DP_ROWS, false }, { 0, false },
};

/*
 * The long listing d, the first way that fits budget lines and max_bytes
 * (ADR 0044); else the first that fits the lines, which the core cuts to
 * the bytes; with no max_bytes, the ways within the lines alone, as they
 * always were.  Whether a row or a field was left out.
 */
static bool
put_long(const struct aiterm_host *h, struct aiterm_buf *out,
    struct dp_list *d, size_t budget, size_t max_bytes)
{
	const struct dp_way *w;
	size_t i, most = DP_ROWS < budget / 2 ? DP_ROWS : budget / 2;

	for (i = 0; i < sizeof dp_ways / sizeof dp_ways[0]; i++) {
		w = &dp_ways[i];
		if (w->bytes && max_bytes == SIZE_MAX)
			continue;
		if (w->keep > 0) {
			set_between(d, w->keep < most ? w->keep : most);
			if (d->between == 0)
				continue;
		}
		if (put_fitting(h, out, d, budget, w->bytes ? max_bytes :
		    SIZE_MAX, w->keep == 0))
			return true;
	}
	set_between(d, most);
	put_rows(h, out, d, false);
	return d->between > 0;
}

int
red_dpkg_list(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	struct dp_list d;
	struct rl_line s;
	size_t i, budget;
	bool left_out;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	memset(&d, 0, sizeof d);
	d.t = &t;
	d.head = SIZE_MAX;
	d.from = SIZE_MAX;
	for (i = 0; i < t.n && d.head == SIZE_MAX; i++) {
		if (rl_starts(&t.v[i], "||/ "))
			d.head = i;
	}
	if (d.head == SIZE_MAX)
		goto out;
	for (i = d.head + 1; i < t.n; i++) {
		s = state(&t.v[i]);
		d.ii += rl_eq(&s, "ii");
		d.un += rl_eq(&s, "un");
		d.other += !rl_eq(&s, "ii") && !rl_eq(&s, "un") &&
		    !is_legend(&t.v[i]) && !rl_blank(&t.v[i]);
	}
	budget = rl_budget(in);
	if (t.n <= budget) {
		for (i = 0; i < t.n; i++) {
			if (!rl_starts(&t.v[i], "+++-"))
				rl_put_squeezed(h, out, &t.v[i]);
		}
		rc = 1;
		goto out;
	}
	left_out = put_long(h, out, &d, budget - (d.un > 0), rl_max_bytes(in));
	if (d.un > 0)
		h->buf_printf(out, "(+%zu 'un' rows: known, not installed)\n",
		    d.un);
	rc = left_out || d.un > 0 ? 0 : 1;
out:
	rl_lines_free(&t);
	return rc;
}
