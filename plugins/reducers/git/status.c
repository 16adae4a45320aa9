/*
 * git status (long format): the hints git prints in parentheses and the
 * blank lines go; each section keeps git's heading ("Changes to be
 * committed:", "Untracked files:": a person knows them, RED-FAITHFUL)
 * over one line per path with git's change words, blank runs squeezed
 * ("modified: src/net.c", "renamed: a -> b", "both modified: x": a rare
 * change among many untracked files is an outlier, ADR 0008).  The branch
 * lines and any line not recognised stay as they are.  When the paths do
 * not fit the budget, each section shows its first paths and the count of
 * the rest.
 * Output that is not the English long format (no "On branch" line and no
 * section heading, or a short/porcelain listing) is declined.
 */
#include <stdlib.h>
#include <string.h>

#include "git.h"

/* The sections of the long format, and the headings shown for them. */
static const struct {
	const char	*git;
	const char	*shown;
	bool		 paths;		/* entries are bare paths */
} st_sections[] = {
	{ "Changes to be committed:", "Changes to be committed:", false },
	{ "Changes not staged for commit:", "Changes not staged for commit:",
	    false },
	{ "Unmerged paths:", "Unmerged paths (conflicts):", false },
	{ "Untracked files:", "Untracked files:", true },
	{ "Ignored files:", "Ignored files:", true },
};
#define ST_NSECTIONS (sizeof st_sections / sizeof st_sections[0])

/* The first lines that say which branch (or none) the status is for. */
static const char *const st_heads[] = {
	"On branch ", "HEAD detached at ", "HEAD detached from ",
	"Not currently on any branch.", NULL,
};

enum st_kind {
	ST_DROP,	/* a hint or a blank line */
	ST_KEEP,	/* a line kept as it is */
	ST_SECTION,	/* a section heading */
	ST_ENTRY,	/* a path inside a section */
};

static int
section_of(const struct rl_line *l)
{
	size_t i;

	for (i = 0; i < ST_NSECTIONS; i++) {
		if (rl_eq(l, st_sections[i].git))
			return (int)i;
	}
	return -1;
}

static bool
is_hint(const struct rl_line *l)
{
	struct rl_line t = rl_trim(*l);

	return l->len > t.len && t.len >= 2 && t.p[0] == '(' &&
	    t.p[t.len - 1] == ')';
}

/* Append an entry of section sec without its tab, git's words kept. */
static void
put_entry(const struct aiterm_host *h, struct aiterm_buf *out, int sec,
    const struct rl_line *l)
{
	struct rl_line t = rl_trim(*l), rest;
	size_t n;

	/* "new file:   x" as "new file: x"; a path as it is. */
	for (n = 0; !st_sections[sec].paths && n < t.len && t.p[n] != ':';
	    n++)
		;
	if (!st_sections[sec].paths && n < t.len) {
		rest = rl_trim(rl_from(t, n + 1));
		h->buf_printf(out, "%.*s: ", (int)n, t.p);
		rl_put(h, out, &rest);
	} else
		rl_put(h, out, &t);
}

int
red_git_status(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	enum st_kind *kind = NULL;
	int *sec = NULL, cur = -1;
	size_t count[ST_NSECTIONS], shown[ST_NSECTIONS];
	size_t i, j, fixed = 0, entries = 0, cap, budget, used;
	bool head = false, folded = false;
	int rc = -1;

	if (rl_has_opt(in->argv, "-s") || rl_has_opt(in->argv, "--short") ||
	    rl_has_opt(in->argv, "--porcelain") ||
	    rl_has_opt(in->argv, "--porcelain=") ||
	    rl_has_opt(in->argv, "-z") || !rl_split(in, &t))
		return -1;
	if (t.n == 0)
		goto out;
	kind = calloc(t.n, sizeof *kind);
	sec = calloc(t.n, sizeof *sec);
	if (kind == NULL || sec == NULL)
		goto out;
	memset(count, 0, sizeof count);
	for (i = 0; i < t.n; i++) {
		const struct rl_line *l = &t.v[i];
		int s;

		for (j = 0; st_heads[j] != NULL; j++) {
			if (i < 3 && rl_starts(l, st_heads[j]))
				head = true;
		}
		if (gt_diff_start(l))
			goto out;	/* git status -v: not this shape */
		if ((s = section_of(l)) >= 0) {
			cur = s;
			kind[i] = ST_SECTION;
			sec[i] = s;
			head = true;
			fixed++;
		} else if (rl_blank(l) || is_hint(l)) {
			kind[i] = ST_DROP;
			if (rl_blank(l))
				cur = -1;
		} else if (cur >= 0 && l->p[0] == '\t') {
			kind[i] = ST_ENTRY;
			sec[i] = cur;
			count[cur]++;
			entries++;
		} else {
			kind[i] = ST_KEEP;
			fixed++;
		}
	}
	if (!head)
		goto out;

	/* The most paths per section that fit, and a line per fold. */
	budget = rl_budget(in);
	for (cap = entries; cap > 0; cap--) {
		used = fixed;
		for (j = 0; j < ST_NSECTIONS; j++)
			used += count[j] > cap ? cap + 1 : count[j];
		if (used <= budget)
			break;
	}
	if (cap == 0 && fixed + ST_NSECTIONS > budget)
		goto out;

	memset(shown, 0, sizeof shown);
	for (i = 0; i < t.n; i++) {
		switch (kind[i]) {
		case ST_DROP:
			break;
		case ST_KEEP:
			rl_put(h, out, &t.v[i]);
			break;
		case ST_SECTION:
			h->buf_printf(out, "%s\n", st_sections[sec[i]].shown);
			break;
		case ST_ENTRY:
			if (shown[sec[i]]++ < cap)
				put_entry(h, out, sec[i], &t.v[i]);
			else if (shown[sec[i]] == count[sec[i]]) {
				h->buf_printf(out, "… +%zu more\n",
				    count[sec[i]] - cap);
				folded = true;
			}
			break;
		}
	}
	rc = folded ? 0 : 1;
out:
	free(kind);
	free(sec);
	rl_lines_free(&t);
	return rc;
}
