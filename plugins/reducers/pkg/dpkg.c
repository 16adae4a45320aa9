/*
 * dpkg -l: a listing that fits the budget keeps every line (RED-FAITHFUL:
 * every row), squeezed (runs of blanks to two), but the "+++-===" rule.
 * A longer one: the three legend lines and the rule go (they are the
 * same on every system); the "||/ Name Version ..." header and the rows
 * are squeezed.  Rows whose state is not
 * "ii" (rc, iU, iF, hi, an error flag ...) are all kept; "un" rows (known
 * but not installed) are counted; when there are more than DP_ROWS "ii"
 * rows, the first and last DP_ROWS / 2 stay and the middle is counted:
 * "… 458 more installed (ii) rows".  Output without dpkg's header (an
 * error, "no packages found matching") is declined.
 */
#include <string.h>

#include "pkg.h"

#define DP_ROWS		40

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

int
red_dpkg_list(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line s;
	size_t i, head = SIZE_MAX, ii = 0, un = 0, seen = 0, keep, budget;
	bool folded = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n && head == SIZE_MAX; i++) {
		if (rl_starts(&t.v[i], "||/ "))
			head = i;
	}
	if (head == SIZE_MAX)
		goto out;
	for (i = head + 1; i < t.n; i++) {
		s = state(&t.v[i]);
		ii += rl_eq(&s, "ii");
		un += rl_eq(&s, "un");
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
	keep = DP_ROWS < budget / 2 ? DP_ROWS : budget / 2;
	for (i = 0; i < t.n; i++) {
		const struct rl_line *l = &t.v[i];

		if (is_legend(l))
			continue;
		s = state(l);
		if (i > head && rl_eq(&s, "un"))
			continue;
		if (i > head && rl_eq(&s, "ii") && ii > keep) {
			seen++;
			if (seen > keep / 2 && seen <= ii - keep / 2) {
				if (seen == keep / 2 + 1)
					h->buf_printf(out, "… %zu more "
					    "installed (ii) rows\n",
					    ii - keep / 2 * 2);
				folded = true;
				continue;
			}
		}
		rl_put_squeezed(h, out, l);
	}
	if (un > 0) {
		h->buf_printf(out, "(+%zu 'un' rows: known, not installed)\n",
		    un);
		folded = true;
	}
	rc = folded ? 0 : 1;
out:
	rl_lines_free(&t);
	return rc;
}
