/*
 * Tables: free, docker ps, kubectl get.
 *
 * The columns are found from the header (its words are separated by two
 * blanks or more, and every row leaves a blank before each column
 * start).  Cells are joined by one blank, or by two next to a column
 * whose cells hold blanks ("12 minutes ago"), an empty cell is written
 * as "-"; the padding goes.  A row that does not fit the header's
 * columns is squeezed as it is.
 *
 * - free: every line's words joined by one blank (lossless).
 * - kubectl get: lossless; with --all-namespaces, when the rows come
 *   grouped by namespace, the NAMESPACE column becomes a "kube-system:"
 *   line before each namespace's rows (the header keeps its NAMESPACE).
 * - docker ps: up to TBL_SMALL containers, lossless.  More are listed as
 *   NAMES, STATUS, IMAGE, COMMAND and PORTS, and the last line names the
 *   columns left out: "(left out: CONTAINER ID, CREATED)".
 * Rows beyond the line budget are counted: "… 40 more rows".  Output
 * without the header these commands print (a --format or -o layout, an
 * error message) is declined.
 */
#include <stdlib.h>
#include <string.h>

#include "sys.h"

#define TBL_MAX_COLS	32
#define TBL_SMALL	5

struct tbl_cols {
	size_t		start[TBL_MAX_COLS];
	size_t		n;
	bool		multi[TBL_MAX_COLS];	/* a cell holds a blank */
};

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Column starts of a header line; false when it has fewer than two. */
static bool
header_cols(struct rl_line l, struct tbl_cols *c)
{
	size_t i = 0, run;

	memset(c, 0, sizeof *c);
	while (i < l.len) {
		for (run = 0; i < l.len && blank(l.p[i]); i++)
			run++;
		if (i >= l.len)
			break;
		if (c->n == 0 || run >= 2) {
			if (c->n == TBL_MAX_COLS)
				return false;
			c->start[c->n++] = i;
		}
		while (i < l.len && !blank(l.p[i]))
			i++;
	}
	return c->n >= 2 && c->start[0] == 0;
}

/* Whether row has a blank (or its end) before every column start. */
static bool
row_fits(struct rl_line l, const struct tbl_cols *c)
{
	size_t j;

	for (j = 1; j < c->n; j++) {
		if (c->start[j] < l.len && !blank(l.p[c->start[j] - 1]))
			return false;
	}
	return true;
}

/* Cell j of row l, trimmed. */
static struct rl_line
cell(struct rl_line l, const struct tbl_cols *c, size_t j)
{
	struct rl_line f;
	size_t from, to;

	from = c->start[j] < l.len ? c->start[j] : l.len;
	to = j + 1 < c->n && c->start[j + 1] < l.len ? c->start[j + 1] : l.len;
	f.p = l.p + from;
	f.len = to - from;
	return rl_trim(f);
}

/* Find which columns hold blanks inside a cell (the header's included). */
static void
scan_multi(const struct rl_lines *t, struct tbl_cols *c)
{
	struct rl_line f;
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		if (rl_blank(&t->v[i]) || !row_fits(t->v[i], c))
			continue;
		for (j = 0; j < c->n; j++) {
			f = cell(t->v[i], c, j);
			if (memchr(f.p, ' ', f.len) != NULL)
				c->multi[j] = true;
		}
	}
}

/* Write cells cols[0..n) of row l (a row that fits). */
static void
put_cells(const struct aiterm_host *h, struct aiterm_buf *out,
    struct rl_line l, const struct tbl_cols *c, const size_t *cols,
    size_t n)
{
	struct rl_line f;
	size_t k;

	for (k = 0; k < n; k++) {
		if (k > 0)
			h->buf_add(out, "  ", c->multi[cols[k - 1]] ||
			    c->multi[cols[k]] ? 2 : 1);
		f = cell(l, c, cols[k]);
		if (f.len == 0)
			h->buf_add(out, "-", 1);
		else
			h->buf_add(out, f.p, f.len);
	}
	h->buf_add(out, "\n", 1);
}

/* The column whose header is name, or SIZE_MAX. */
static size_t
find_col(struct rl_line head, const struct tbl_cols *c, const char *name)
{
	struct rl_line f;
	size_t j;

	for (j = 0; j < c->n; j++) {
		f = cell(head, c, j);
		if (rl_eq(&f, name))
			return j;
	}
	return SIZE_MAX;
}

/*
 * Write the table t (header first) with the columns cols[0..n); with
 * group set, the rows' column cols[0] becomes a "value:" line whenever it
 * changes (the header keeps it).  Returns 1, or 0 when rows beyond the
 * budget were counted.
 */
static int
put_table(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct tbl_cols *c, const size_t *cols,
    size_t n, bool group, size_t budget)
{
	struct rl_line g = { NULL, 0 }, f;
	size_t i, lines = 0;

	for (i = 0; i < t->n; i++) {
		if (rl_blank(&t->v[i]))
			continue;
		if (lines + 2 > budget)
			break;
		if (!row_fits(t->v[i], c)) {
			rl_put_squeezed(h, out, &t->v[i]);
			lines++;
			continue;
		}
		f = cell(t->v[i], c, 0);
		if (group && i > 0 && (f.len != g.len || memcmp(f.p, g.p,
		    f.len) != 0)) {
			h->buf_printf(out, "%.*s:\n", (int)f.len, f.p);
			g = f;
			lines++;
		}
		if (group && i > 0)
			put_cells(h, out, t->v[i], c, cols + 1, n - 1);
		else
			put_cells(h, out, t->v[i], c, cols, n);
		lines++;
	}
	if (i < t->n) {
		h->buf_printf(out, "… %zu more rows\n", t->n - i);
		return 0;
	}
	return 1;
}

/* Split in and find the header's columns; false when it is not one. */
static bool
table(const struct aiterm_reduce_input *in, const char *head,
    struct rl_lines *t, struct tbl_cols *c)
{
	if (!rl_split(in, t))
		return false;
	if (t->n >= 2 && rl_starts(&t->v[0], head) && header_cols(t->v[0], c)) {
		scan_multi(t, c);
		return true;
	}
	rl_lines_free(t);
	return false;
}

int
red_free(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line l;
	size_t i, k;
	bool word;

	if (!rl_split(in, &t))
		return -1;
	if (t.n < 2 || !rl_has(&t.v[0], "total") || !rl_has(&t.v[0], "used")) {
		rl_lines_free(&t);
		return -1;
	}
	for (i = 0; i < t.n; i++) {
		l = rl_trim(t.v[i]);
		for (k = 0, word = false; k < l.len; k++) {
			if (!blank(l.p[k])) {
				h->buf_add(out, l.p + k, 1);
				word = true;
			} else if (word) {
				h->buf_add(out, " ", 1);
				word = false;
			}
		}
		h->buf_add(out, "\n", 1);
	}
	rl_lines_free(&t);
	return 1;
}

int
red_docker_ps(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	static const char *const shown[] = {
		"NAMES", "STATUS", "IMAGE", "COMMAND", "PORTS", NULL,
	};
	struct rl_lines t;
	struct tbl_cols c;
	struct rl_line f;
	size_t cols[TBL_MAX_COLS], n = 0, i, j, k;
	bool first = true;
	int rc = -1;

	if (!table(in, "CONTAINER ID", &t, &c))
		return -1;
	if (t.n - 1 <= TBL_SMALL) {
		for (j = 0; j < c.n; j++)
			cols[j] = j;
		rc = put_table(h, out, &t, &c, cols, c.n, false,
		    rl_budget(in));
		goto out;
	}
	for (k = 0; shown[k] != NULL; k++) {
		if ((j = find_col(t.v[0], &c, shown[k])) != SIZE_MAX)
			cols[n++] = j;
	}
	if (n < 2 || cols[0] != find_col(t.v[0], &c, "NAMES"))
		goto out;
	put_table(h, out, &t, &c, cols, n, false, rl_budget(in) - 1);
	h->buf_add(out, "(left out: ", 11);
	for (j = 0; j < c.n; j++) {
		for (i = 0; i < n && cols[i] != j; i++)
			;
		if (i < n)
			continue;
		f = cell(t.v[0], &c, j);
		h->buf_printf(out, "%s%.*s", first ? "" : ", ", (int)f.len,
		    f.p);
		first = false;
	}
	h->buf_add(out, ")\n", 2);
	rc = 0;
out:
	rl_lines_free(&t);
	return rc;
}

/*
 * Whether the rows come in runs of one value of the first column, so
 * that a "value:" line before each run costs fewer lines than it saves:
 * at most one change in four rows.
 */
static bool
sorted_by_first(const struct rl_lines *t, const struct tbl_cols *c)
{
	struct rl_line a, b;
	size_t i, changes = 0;

	for (i = 2; i < t->n; i++) {
		a = cell(t->v[i - 1], c, 0);
		b = cell(t->v[i], c, 0);
		changes += a.len != b.len || memcmp(a.p, b.p, a.len) != 0;
	}
	return changes * 4 <= t->n;
}

int
red_kubectl_get(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	struct tbl_cols c;
	size_t cols[TBL_MAX_COLS], j;
	bool group;
	int rc;

	if (!table(in, "NAME", &t, &c))
		return -1;
	group = rl_starts(&t.v[0], "NAMESPACE ") && sorted_by_first(&t, &c);
	for (j = 0; j < c.n; j++)
		cols[j] = j;
	rc = put_table(h, out, &t, &c, cols, c.n, group, rl_budget(in));
	rl_lines_free(&t);
	return rc;
}
