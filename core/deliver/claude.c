#include <stdlib.h>
#include <string.h>

#include "deliver/claude.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

bool
claude_ref_valid(const char *ref)
{
	size_t i, n = ref != NULL ? strlen(ref) : 0;

	if (n == 0 || n > 64)
		return false;
	for (i = 0; i < n; i++) {
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_-", ref[i]) == NULL)
			return false;
	}
	return true;
}

bool
claude_parent_of(struct tool_call *call, char *ref, size_t size)
{
	const char *name = json_string_value(json_object_get(
	    tool_call_client_info(call), "name"));
	const char *id = json_string_value(json_object_get(
	    tool_call_meta(call), "claudecode/toolUseId"));

	if (name == NULL || strncmp(name, "claude-code", 11) != 0 ||
	    (name[11] != '\0' && name[11] != ' ') || !claude_ref_valid(id))
		return false;
	snprintf(ref, size, "%s", id);
	return true;
}

int
claude_parent_prepare(const char *ref, struct delivery *d,
    struct aiterm_error *err)
{
	char *path = state_path(CLAUDE_HOOKS_DIR "/%s.pre.json", ref);
	json_t *j = json_load_file(path, 0, NULL);
	const char *conv = json_string_value(json_object_get(j,
	    "session_id"));
	int rc = 0;

	free(path);
	if (conv == NULL || *conv == '\0')
		rc = error_set(err, "CLAUDE_PARENT_HOOK_UNAVAILABLE: Aiterm's "
		    "Claude Code hooks did not see this call (aiterm-setup "
		    "installs them; pty_send wait=true reads the answer "
		    "without them); nothing was sent to the child");
	else if (json_string_value(json_object_get(j, "agent_id")) != NULL)
		rc = error_set(err, "CLAUDE_PARENT_SUBAGENT_UNSUPPORTED: a "
		    "sub-agent's call cannot be woken by its answer "
		    "(pty_send wait=true reads it); nothing was sent to the "
		    "child");
	else {
		snprintf(d->ref, sizeof d->ref, "%s", ref);
		snprintf(d->conversation, sizeof d->conversation, "%s", conv);
	}
	json_decref(j);
	return rc;
}

int
claude_parent_link(const struct delivery *d, struct aiterm_error *err)
{
	char *path = state_path(CLAUDE_HOOKS_DIR "/%s.delivery", d->ref);
	int rc = atomic_write(path, d->id, strlen(d->id), err);

	free(path);
	return rc;
}
