/* The trace reducers' plugin descriptor (manifest reducers-trace.yaml). */
#include "trace.h"

static const struct aiterm_reducer reducers[] = {
	{ "valgrind", "0.1.0", red_valgrind },
	{ "strace", "0.2.0", red_strace },
	{ "ltrace", "0.1.0", red_ltrace },
	{ "tcpdump", "0.1.0", red_tcpdump },
	{ NULL, NULL, NULL },
};

RL_PLUGIN("reducers-trace", "0.1.0", reducers)
