/*
 * tests/pkg/oot-reducer.c: a plugin built outside Aiterm's tree against
 * the header and .pc that libaiterm-plugin-dev installs (tests/pkg/check.sh).
 * One reducer that declines every output, so the core runs its generic
 * stages: what is tested is that the packaged server loads it.
 */
#include <aiterm/plugin.h>

static int
oot_reduce(const struct aiterm_host *host, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	(void)host;
	(void)in;
	(void)out;
	return -1;
}

static const struct aiterm_reducer oot_reducers[] = {
	{ "oot-decline", "0.1.0", oot_reduce },
	{ NULL, NULL, NULL },
};

static const struct aiterm_reducer_ops oot_ops = { oot_reducers };

static const struct aiterm_plugin oot_plugin = {
	AITERM_ABI_MAJOR, AITERM_ABI_MINOR, AITERM_KIND_REDUCER,
	"oot-reducer", "0.1.0", 0, &oot_ops, NULL,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &oot_plugin;
}
