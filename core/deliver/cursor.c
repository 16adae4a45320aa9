#include <stdlib.h>
#include <string.h>

#include "deliver/cursor.h"
#include "util/xmalloc.h"

/* The verbs Aiterm's entries run, each under its event. */
static const struct {
	const char	*event;
	const char	*verb;
} needed[] = {
	{ "afterMCPExecution", " cursor-after" },
	{ "postToolUse", " cursor-post" },
};

bool
cursor_parent_of(struct tool_call *call)
{
	const char *name = json_string_value(json_object_get(
	    tool_call_client_info(call), "name"));

	return name != NULL && strncmp(name, "cursor-vscode", 13) == 0 &&
	    (name[13] == '\0' || name[13] == ' ');
}

static bool
has_verb(json_t *list, const char *verb)
{
	json_t *e;
	size_t i;

	json_array_foreach(list, i, e) {
		const char *cmd = json_string_value(json_object_get(e,
		    "command"));
		const char *at = cmd != NULL ? strstr(cmd, "aiterm-hook") : NULL;

		if (at != NULL && strstr(at, verb) != NULL)
			return true;
	}
	return false;
}

int
cursor_parent_ready(struct aiterm_error *err)
{
	const char *home = getenv("HOME");
	char *path = xasprintf("%s/.cursor/hooks.json", home ? home : "");
	json_t *j = json_load_file(path, 0, NULL), *hooks;
	size_t i;
	int rc = 0;

	hooks = json_object_get(j, "hooks");
	for (i = 0; i < sizeof needed / sizeof needed[0] && rc == 0; i++) {
		if (!has_verb(json_object_get(hooks, needed[i].event),
		    needed[i].verb))
			rc = error_set(err, "CURSOR_PARENT_HOOK_UNAVAILABLE: "
			    "Aiterm's %s hook is not in %s (aiterm-setup "
			    "installs it); nothing was sent to the child",
			    needed[i].event, path);
	}
	json_decref(j);
	free(path);
	return rc;
}
