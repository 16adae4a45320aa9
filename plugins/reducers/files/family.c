/* The file-listing reducers' plugin descriptor (reducers-files.yaml). */
#include "files.h"

static const struct aiterm_reducer reducers[] = {
	{ "grep", "0.1.0", red_grep },
	{ "find", "0.1.0", red_find },
	{ "ls-long", "0.1.0", red_ls },
	{ "tree", "0.1.0", red_tree },
	{ "du", "0.1.0", red_du },
	{ "json", "0.1.0", red_json },
	{ "tar", "0.1.0", red_tar },
	{ NULL, NULL, NULL },
};

RL_PLUGIN("reducers-files", "0.1.0", reducers)
