/*
 * git merge, rebase, cherry-pick, pull, revert and stash pop/apply: the
 * output as git wrote it, but for an "Auto-merging X" line that git's
 * "CONFLICT (...): Merge conflict in X" for the same X follows.  That
 * conflict says that the merge of X was tried, so the line before it
 * tells nothing more and goes (lossless).  Every other line stays: the
 * files that merged cleanly, git's hints (they name the command that
 * continues), errors.  Output with no such pair is declined.
 */
#include <string.h>

#include "git.h"

static const char auto_merging[] = "Auto-merging ";
static const char conflict_in[] = ": Merge conflict in ";

/* Whether c is git's content conflict for the file a merges. */
static bool
conflict_of(const struct rl_line *a, const struct rl_line *c)
{
	struct rl_line file;
	size_t n = sizeof conflict_in - 1;

	if (!rl_starts(a, auto_merging) || !rl_starts(c, "CONFLICT ("))
		return false;
	file = rl_from(*a, sizeof auto_merging - 1);
	return file.len > 0 && c->len >= file.len + n &&
	    memcmp(c->p + c->len - file.len - n, conflict_in, n) == 0 &&
	    memcmp(c->p + c->len - file.len, file.p, file.len) == 0;
}

int
red_git_merge(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	size_t i, folded = 0;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i + 1 < t.n; i++)
		folded += conflict_of(&t.v[i], &t.v[i + 1]);
	if (folded > 0) {
		for (i = 0; i < t.n; i++) {
			if (i + 1 < t.n && conflict_of(&t.v[i], &t.v[i + 1]))
				continue;
			rl_put(h, out, &t.v[i]);
		}
	}
	rl_lines_free(&t);
	return folded > 0 ? 1 : -1;
}
