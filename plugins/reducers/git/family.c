/* The git reducers' plugin descriptor (manifest reducers-git.yaml). */
#include "git.h"

static const struct aiterm_reducer reducers[] = {
	{ "git-status", "0.1.0", red_git_status },
	{ "git-log", "0.1.0", red_git_log },
	{ "git-diff", "0.1.0", red_git_diff },
	{ "git-show", "0.1.0", red_git_show },
	{ "git-merge", "0.1.0", red_git_merge },
	{ "diff", "0.1.0", red_diff },
	{ NULL, NULL, NULL },
};

RL_PLUGIN("reducers-git", "0.1.0", reducers)
