/*
 * git diff, diff -u and git show.
 *
 * git diff: the diff reduction of diff.c (file headers as one line, hunk
 * headers and changed lines kept, context trimmed), with lines before the
 * first file kept.  Output with no "diff --git" line near its start
 * (--stat, --name-only, an error) is declined.
 *
 * diff: the same for a unified diff (-u, -U N, -ru), its "--- x" and
 * "+++ y" lines kept as they are; diff -r's lines ("diff -ru a/x b/x",
 * "Only in a: y") too.  Other formats (the default, -c, -q, -y) are
 * declined.
 *
 * git show: the commit header stays, squeezed, with the message's
 * indentation and blank lines gone; a message longer than half the
 * budget keeps its first lines and counts the rest.  The patch after it
 * goes through the same diff reduction.  Output that starts with neither
 * "commit", "tag" nor a diff (a blob, a tree, an error) is declined.
 */
#include <stdlib.h>

#include "git.h"

/* The first diff line of t, or t->n. */
static size_t
first_diff(const struct rl_lines *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (gt_diff_start(&t->v[i]))
			break;
	}
	return i;
}

/* The first line of t that opens a unified diff's file, or t->n. */
static size_t
first_unified(const struct rl_lines *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (gt_unified_start(t, i, t->n))
			break;
	}
	return i;
}

/* A diff whose first file opens where first finds it, near the start. */
static int
diff_only(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out, size_t (*first)(const struct rl_lines *))
{
	struct rl_lines t;
	bool dropped = false;
	size_t d, context = 0;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	d = first(&t);
	if (d < t.n && d <= 20 && gt_diff(h, out, &t, 0, t.n,
	    rl_budget(in) - 1, &context, &dropped) >= 0) {
		if (context > 0)
			h->buf_printf(out, "(%zu context line%s left out)\n",
			    context, context == 1 ? "" : "s");
		rc = dropped ? 0 : 1;
	}
	rl_lines_free(&t);
	return rc;
}

int
red_git_diff(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	return diff_only(h, in, out, first_diff);
}

int
red_diff(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	return diff_only(h, in, out, first_unified);
}

int
red_git_show(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line l;
	size_t d, i, budget, head = 0, shown = 0, msg = 0, context = 0;
	bool dropped = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if (t.n == 0 || !(rl_starts(&t.v[0], "commit ") ||
	    rl_starts(&t.v[0], "tag ") || gt_diff_start(&t.v[0])))
		goto out;
	budget = rl_budget(in);
	d = first_diff(&t);
	for (i = 0; i < d; i++)
		head += rl_blank(&t.v[i]) ? 0 : 1;
	for (i = 0; i < d; i++) {
		if (rl_blank(&t.v[i]))
			continue;
		if (rl_starts(&t.v[i], "    ")) {
			if (head > budget / 2 && shown >= budget / 2 - 1) {
				msg++;
				continue;
			}
			l = rl_trim(t.v[i]);
			rl_put(h, out, &l);
		} else
			rl_put_squeezed(h, out, &t.v[i]);
		shown++;
	}
	if (msg > 0) {
		h->buf_printf(out, "… %zu more message lines\n", msg);
		dropped = true;
		shown++;
	}
	if (d < t.n && (shown + 1 >= budget || gt_diff(h, out, &t, d, t.n,
	    budget - shown - 1, &context, &dropped) < 0))
		goto out;
	if (context > 0)
		h->buf_printf(out, "(%zu context line%s left out)\n",
		    context, context == 1 ? "" : "s");
	rc = dropped ? 0 : 1;
out:
	rl_lines_free(&t);
	return rc;
}
