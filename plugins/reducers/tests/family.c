/* The test-runner reducers' descriptor (manifest reducers-tests.yaml). */
#include "tests.h"

static const struct aiterm_reducer reducers[] = {
	{ "pytest", "0.1.0", red_pytest },
	{ "cargo-test", "0.1.0", red_cargo_test },
	{ "jest", "0.1.0", red_jest },
	{ "vitest", "0.1.0", red_vitest },
	{ "node-test", "0.1.0", red_node_test },
	{ "trace", "0.1.0", red_trace },
	{ NULL, NULL, NULL },
};

RL_PLUGIN("reducers-tests", "0.1.0", reducers)
