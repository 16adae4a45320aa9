/*
 * apt list (--installed, --upgradable, ...): a listing within its budget
 * is declined, so that it goes whole (RED-FAITHFUL: every row).  Of a
 * longer one the first and last AL_ROWS / 2 package rows stay, and of
 * those between only the names (RED-FAITHFUL: a listing keeps every
 * name): a line saying which fields went, then, for each status apt
 * printed ("[installed,automatic]", "[installed,upgradable to: …]", or
 * none), in the order they first appear, the status with its count and
 * the names packed AL_WIDTH wide.  Lines that are no package row
 * ("Listing... Done", "N: Ignoring file ...", apt's warning about its
 * CLI) stay as they are.  Declined when even the names do not fit the
 * budget.
 */
#include <stdlib.h>
#include <string.h>

#include "pkg.h"

#define AL_ROWS		40	/* package rows kept whole */
#define AL_WIDTH	160	/* names packed this wide */

struct al_row {
	bool		 is;	/* a package row */
	bool		 between; /* shown by its name only */
	struct rl_line	 name;
	struct rl_line	 status;	/* "[installed,automatic]", or empty */
	size_t		 group;	/* between: the first row between of its status */
};

/*
 * A package row, "name/suite version arch [status]": its name and the
 * status as a group's label (what follows a ':' in it is left out, the
 * version an upgrade would bring).  False for any other line.
 */
static bool
row(const struct rl_line *l, struct al_row *r)
{
	size_t i, open;

	for (i = 0; i < l->len && l->p[i] != '/' && l->p[i] != ' '; i++)
		;
	if (i == 0 || i >= l->len || l->p[i] != '/')
		return false;
	r->name.p = l->p;
	r->name.len = i;
	r->status.p = NULL;
	r->status.len = 0;
	if (l->p[l->len - 1] != ']')
		return true;
	for (open = l->len; open > i && l->p[open - 1] != '['; open--)
		;
	if (open == i)
		return true;
	r->status.p = l->p + open - 1;
	r->status.len = l->len - open + 1;
	for (i = 0; i < r->status.len; i++) {
		if (r->status.p[i] == ':') {
			r->status.len = i + 1;
			break;
		}
	}
	return true;
}

static bool
same(const struct rl_line *a, const struct rl_line *b)
{
	return a->len == b->len && (a->len == 0 ||
	    memcmp(a->p, b->p, a->len) == 0);
}

/*
 * The rows between, by their names: the line saying what went, then each
 * status's group.  The lines it took.
 */
static size_t
put_between(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct al_row *r, size_t n, size_t between)
{
	/* A package's name holds no blank: one is enough between two. */
	struct rl_pack pk = { h, out, AL_WIDTH, 0, 0, " " };
	size_t g, i, count, lines = 1;

	h->buf_printf(out, "… %zu more packages, names only, by status "
	    "(suite, version and architecture left out):\n", between);
	for (g = 0; g < n; g++) {
		if (!r[g].between || r[g].group != g)
			continue;
		for (count = 0, i = g; i < n; i++)
			count += r[i].between && r[i].group == g;
		if (r[g].status.len == 0)
			h->buf_printf(out, "no status (%zu):\n", count);
		else
			h->buf_printf(out, "%.*s%s (%zu):\n",
			    (int)r[g].status.len, r[g].status.p,
			    r[g].status.p[r[g].status.len - 1] == ':' ?
			    " …]" : "", count);
		lines++;
		for (i = g; i < n; i++) {
			if (r[i].between && r[i].group == g)
				rl_pack_add(&pk, r[i].name.p, r[i].name.len,
				    "");
		}
		rl_pack_end(&pk);
	}
	return lines + pk.lines;
}

int
red_apt_list(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	struct al_row *r = NULL;
	size_t i, g, n = 0, k = 0, lines = 0;
	bool put = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if (t.n <= rl_budget(in) || (r = calloc(t.n, sizeof *r)) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		r[i].is = row(&t.v[i], &r[i]);
		n += r[i].is;
	}
	if (n <= AL_ROWS)
		goto out;
	for (i = 0; i < t.n; i++) {
		if (r[i].is && k++ >= AL_ROWS / 2 && k <= n - AL_ROWS / 2)
			r[i].between = true;
	}
	/* A status's group is named by the first row between in it. */
	for (i = 0; i < t.n; i++) {
		if (!r[i].between)
			continue;
		for (g = 0; g < i && !(r[g].between &&
		    same(&r[g].status, &r[i].status)); g++)
			;
		r[i].group = g;
	}
	for (i = 0; i < t.n; i++) {
		if (!r[i].between) {
			if (!rl_blank(&t.v[i])) {
				rl_put(h, out, &t.v[i]);
				lines++;
			}
		} else if (!put) {
			lines += put_between(h, out, r, t.n, n - AL_ROWS);
			put = true;
		}
	}
	rc = lines <= rl_budget(in) ? 0 : -1;
out:
	free(r);
	rl_lines_free(&t);
	return rc;
}
