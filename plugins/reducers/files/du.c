/*
 * du: within the budget it declines, and every row stays (a listing no
 * reducer takes goes whole, core/reduce/cmd.c).  Beyond the budget, the
 * rows a person reads du for: the folders asked about and each folder
 * right below them, and the largest of the rest, all in du's order, then
 * one line saying exactly which rows were left out: "(… 1253 more rows
 * left out, each 36K or smaller)".  Error lines ("du: cannot read
 * directory ...") all stay.  Sizes are du's (blocks, or -h's "4.0K",
 * "1.7M"), compared by value.  A line that is neither a row nor an error
 * makes it decline, as does --time.
 */
#include <stdlib.h>
#include <string.h>

#include "files.h"

#define DU_TOP		100	/* the largest other rows kept */

struct du_row {
	double	 size;		/* in du's units times 1024^unit */
	size_t	 depth;		/* '/' in the path */
	bool	 row;		/* a "size<TAB>path" row, not an error */
	bool	 keep;
};

/* A row "size<TAB>path": its size and depth; false for any other line. */
static bool
du_parse(const struct rl_line *l, struct du_row *r)
{
	const char *tab = memchr(l->p, '\t', l->len);
	size_t i;

	if (tab == NULL || tab + 1 >= l->p + l->len ||
	    !fl_size(l->p, (size_t)(tab - l->p), &r->size))
		return false;
	r->row = true;
	r->depth = 0;
	for (i = (size_t)(tab - l->p) + 1; i < l->len; i++)
		r->depth += l->p[i] == '/';
	/* "dir/" and "dir" are at the same depth. */
	if (l->p[l->len - 1] == '/' && r->depth > 0)
		r->depth--;
	return true;
}

/* A row that may be left out: its size and its line. */
struct du_rank {
	double	 size;
	size_t	 line;
};

/* Largest first; among equals, du's order. */
static int
rank_cmp(const void *a, const void *b)
{
	const struct du_rank *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int
red_du(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct du_row *r = NULL;
	struct du_rank *by = NULL;
	size_t i, n = 0, rows = 0, kept = 0, left = 0, top, budget, least;
	size_t largest_left = SIZE_MAX;
	int rc = -1;

	if (rl_has_opt(in->argv, "--time") || !rl_split(in, &t))
		return -1;
	budget = rl_budget(in);
	r = calloc(t.n > 0 ? t.n : 1, sizeof *r);
	by = calloc(t.n > 0 ? t.n : 1, sizeof *by);
	if (r == NULL || by == NULL || t.n <= budget)
		goto out;
	least = SIZE_MAX;
	for (i = 0; i < t.n; i++) {
		if (du_parse(&t.v[i], &r[i])) {
			rows++;
			least = r[i].depth < least ? r[i].depth : least;
		} else if (rl_starts(&t.v[i], "du: ")) {
			r[i].keep = true;
			kept++;
		} else if (!rl_blank(&t.v[i])) {
			goto out;
		}
	}
	if (rows == 0)
		goto out;
	/* The folders asked about and the ones right below them. */
	for (i = 0; i < t.n; i++) {
		if (r[i].row && r[i].depth <= least + 1 && kept < budget - 1) {
			r[i].keep = true;
			kept++;
		} else if (r[i].row) {
			by[n].size = r[i].size;
			by[n++].line = i;
		}
	}
	/* Then the largest of the others, within the budget (and its line). */
	top = kept + 1 >= budget ? 0 : budget - 1 - kept;
	if (top > DU_TOP)
		top = DU_TOP;
	qsort(by, n, sizeof *by, rank_cmp);
	for (i = 0; i < n && i < top; i++)
		r[by[i].line].keep = true;
	if (i < n)
		largest_left = by[i].line;
	for (i = 0; i < t.n; i++) {
		if (r[i].keep)
			rl_put(h, out, &t.v[i]);
		else if (r[i].row)
			left++;
	}
	/* Every row left out is at most as large as the largest of them. */
	if (left > 0 && largest_left < t.n) {
		h->buf_printf(out, "(… %zu more rows left out, each %.*s or "
		    "smaller)\n", left, (int)((const char *)memchr(
		    t.v[largest_left].p, '\t', t.v[largest_left].len) -
		    t.v[largest_left].p), t.v[largest_left].p);
	}
	rc = 0;
out:
	free(r);
	free(by);
	rl_lines_free(&t);
	return rc;
}
