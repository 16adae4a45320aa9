/*
 * One source for every test-only plugin; each variant is built with its
 * own -D flags (see tests/plugins/local.mk):
 *   TP_KIND, TP_NAME, TP_ABI_MAJOR, TP_ABI_MINOR, TP_NO_DESCRIBE.
 * The ops do the least that proves the plugin is callable.
 */
#include <string.h>

#include <aiterm/plugin.h>

#ifndef TP_ABI_MAJOR
#define TP_ABI_MAJOR AITERM_ABI_MAJOR
#endif
#ifndef TP_ABI_MINOR
#define TP_ABI_MINOR AITERM_ABI_MINOR
#endif

static int
mux_probe(const struct aiterm_host *host, struct aiterm_mux_info *info,
    struct aiterm_error *err)
{
	(void)host;
	(void)err;
	strcpy(info->binary, "/bin/true");
	strcpy(info->version, "test");
	return 0;
}

static const struct aiterm_mux_ops mux_ops = { .probe = mux_probe };

static int
reducer_reduce(const struct aiterm_host *host,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	if (in->argv != NULL && in->argv[1] != NULL &&
	    strcmp(in->argv[1], "decline") == 0)
		return -1;
	host->buf_printf(out, "%zu bytes", in->len);
	return 0;
}

static const struct aiterm_reducer reducers[] = {
	{ "testcmd", "1.0", reducer_reduce },
	{ NULL, NULL, NULL },
};

static const struct aiterm_reducer_ops reducer_ops = {
	.reducers = reducers,
};

static const char *const harness_binaries[] = { "true", NULL };

static const struct aiterm_harness_ops harness_ops = {
	.binaries = harness_binaries,
	.min_version = "0.0.1",
};

static int
receiver_detect(const char *client_name, const char *meta_json,
    struct aiterm_parent *p)
{
	(void)meta_json;
	strcpy(p->conversation, "test");
	return client_name != NULL && strcmp(client_name, "test-parent") == 0;
}

static const struct aiterm_receiver_ops receiver_ops = {
	.kind = "test",
	.detect = receiver_detect,
	.how = "a test",
};

static const void *const ops_by_kind[] = {
	[AITERM_KIND_MUX] = &mux_ops,
	[AITERM_KIND_HARNESS] = &harness_ops,
	[AITERM_KIND_REDUCER] = &reducer_ops,
	[AITERM_KIND_RECEIVER] = &receiver_ops,
};

#ifndef TP_NO_DESCRIBE
static const struct aiterm_plugin plugin = {
	.abi_major = TP_ABI_MAJOR,
	.abi_minor = TP_ABI_MINOR,
	.kind = TP_KIND,
	.name = TP_NAME,
	.version = "0.0.1",
	.ops = NULL,
};

static struct aiterm_plugin described;

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	described = plugin;
	described.ops = ops_by_kind[TP_KIND];
	return &described;
}
#else
/* Exports something, but not the descriptor. */
int aiterm_plugin_other(void);
int
aiterm_plugin_other(void)
{
	return (int)sizeof ops_by_kind;
}
#endif
