/*
 * The git reducers (git status, git log, git diff, git show, git merge and
 * its kin, diff -u) and the few
 * helpers they share.  Each reducer is a pure function of its input; see
 * struct aiterm_reducer in aiterm/plugin.h.
 */
#ifndef AITERM_RED_GIT_H
#define AITERM_RED_GIT_H

#include <stdbool.h>
#include <stddef.h>

#include "aiterm/plugin.h"
#include "redlib.h"

/* A diff line that opens a file's section ("diff --git", "diff --cc"). */
bool	gt_diff_start(const struct rl_line *l);
/*
 * Whether line i of t (before last) opens a file's section of a unified
 * diff that has no diff line (diff -u): "--- x", then "+++ y".
 */
bool	gt_unified_start(const struct rl_lines *t, size_t i, size_t last);

/*
 * The diff in lines [first, last) of t, reduced to file headers, hunk
 * headers and changed lines (see diff.c), in at most budget lines.
 * Returns the number of lines it appended; *context gets the number of
 * context lines it left out, and *dropped is set when it left anything
 * out.  Returns -1 when the lines are not a diff it knows.
 */
long	gt_diff(const struct aiterm_host *h, struct aiterm_buf *out,
	    const struct rl_lines *t, size_t first, size_t last, size_t budget,
	    size_t *context, bool *dropped);

int	red_git_status(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_git_log(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_git_diff(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_git_show(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_git_merge(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);
int	red_diff(const struct aiterm_host *,
	    const struct aiterm_reduce_input *, struct aiterm_buf *);

#endif
