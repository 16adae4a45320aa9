/*
 * receiver-cursor: a Cursor parent (DLV-CURSOR, ADR 0017), known only by
 * clientInfo.name "cursor-vscode" (or that, a space and a suffix).  The
 * answer goes back through Aiterm's entries in ~/.cursor/hooks.json
 * (aiterm-hook cursor-after, cursor-post: postToolUse adds it as
 * additional_context), or, when the parent ended its turn first, through
 * the waiter the receipt offers.  Without the hooks nothing is sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hlib.h"

/* The verbs Aiterm's entries run, each under its event. */
static const struct {
	const char	*event;
	const char	*verb;
} needed[] = {
	{ "afterMCPExecution", " cursor-after" },
	{ "postToolUse", " cursor-post" },
};

static int
cursor_detect(const char *client_name, const char *meta_json,
    struct aiterm_parent *p)
{
	(void)meta_json;
	(void)p;
	return hl_client_is(client_name, "cursor-vscode");
}

static int
has_verb(json_t *list, const char *verb)
{
	json_t *e;
	size_t i;

	json_array_foreach(list, i, e) {
		const char *cmd = json_string_value(json_object_get(e,
		    "command"));
		const char *at = cmd != NULL ? strstr(cmd, "aiterm-hook") : NULL;

		if (at != NULL && strstr(at, verb) != NULL)
			return 1;
	}
	return 0;
}

static int
cursor_prepare(const struct aiterm_host *host, struct aiterm_parent *p,
    struct aiterm_error *err)
{
	const char *home = getenv("HOME");
	char path[4096];
	json_t *j, *hooks;
	size_t i;
	int rc = 0;

	(void)p;
	snprintf(path, sizeof path, "%s/.cursor/hooks.json", home ? home : "");
	j = json_load_file(path, 0, NULL);
	hooks = json_object_get(j, "hooks");
	for (i = 0; i < sizeof needed / sizeof needed[0] && rc == 0; i++) {
		if (!has_verb(json_object_get(hooks, needed[i].event),
		    needed[i].verb))
			rc = host->error(err, "CURSOR_PARENT_HOOK_UNAVAILABLE: "
			    "Aiterm's %s hook is not in %s (aiterm-setup "
			    "installs it); nothing was sent to the child",
			    needed[i].event, path);
	}
	json_decref(j);
	return rc;
}

static const struct aiterm_receiver_ops ops = {
	.kind = "cursor",
	.detect = cursor_detect,
	.prepare = cursor_prepare,
	.how = "Cursor hook",
	.offer_waiter = 1,
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = 1,
	.kind = AITERM_KIND_RECEIVER,
	.name = "receiver-cursor",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
