/* The build reducers' plugin descriptor (manifest reducers-build.yaml). */
#include "build.h"

static const struct aiterm_reducer reducers[] = {
	{ "make", "0.1.0", red_cc_diag },
	{ "cc", "0.1.0", red_cc_diag },
	{ "tsc", "0.1.0", red_tsc },
	{ "rustc", "0.1.0", red_rustc },
	{ NULL, NULL, NULL },
};

RL_PLUGIN("reducers-build", "0.1.0", reducers)
