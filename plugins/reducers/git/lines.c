/* Helpers shared by the git reducers (see git.h). */
#include "git.h"

bool
gt_diff_start(const struct rl_line *l)
{
	return rl_starts(l, "diff --git ") || rl_starts(l, "diff --cc ") ||
	    rl_starts(l, "diff --combined ");
}

bool
gt_unified_start(const struct rl_lines *t, size_t i, size_t last)
{
	return i + 1 < last && rl_starts(&t->v[i], "--- ") &&
	    rl_starts(&t->v[i + 1], "+++ ");
}
