/* The JSON-RPC methods the server answers: a table, looked up by name. */
#include <string.h>

#include "mcp/server-int.h"

static const struct method methods[] = {
	{ "initialize", true, lifecycle_initialize, NULL },
	{ "ping", true, lifecycle_ping, NULL },
	{ "logging/setLevel", false, lifecycle_set_level, NULL },
	{ "tools/list", false, calls_list_tools, NULL },
	{ "tools/call", false, calls_call_tool, NULL },
	{ "notifications/initialized", true, NULL, lifecycle_initialized },
	{ "notifications/cancelled", true, NULL, calls_cancelled },
	/*
	 * server/discover (the stateless 2026-07-28 probe) is deliberately
	 * absent: -32601 at once lets dual-era clients fall back.
	 */
};

const struct method *
method_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
		if (strcmp(methods[i].name, name) == 0)
			return &methods[i];
	}
	return NULL;
}
