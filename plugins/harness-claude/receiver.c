/*
 * receiver-claude: a Claude Code parent (DLV-CLAUDE, ADR 0015).  Aiterm's
 * user-settings hooks (aiterm-hook, installed by aiterm-setup) and this
 * receiver meet under the state root, in claude-parent-hooks/:
 *
 *   <tool_use_id>.pre.json   PreToolUse saw the call: session_id, and
 *                            agent_id when a sub-agent made it
 *   <tool_use_id>.delivery   linked: the delivery that call made
 *
 * The PostToolUse hook (asyncRewake) waits for that delivery, prints the
 * answer on stderr and exits 2, which wakes the parent; so this receiver
 * has no ready op.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "hlib.h"
#include "parent-hooks.h"

static int
claude_detect(const char *client_name, const char *meta_json,
    struct aiterm_parent *p)
{
	static const char *const tool_use[] = { "claudecode/toolUseId", NULL };

	return hl_client_is(client_name, "claude-code") &&
	    hl_meta_ref(meta_json, tool_use, p->ref, sizeof p->ref);
}

static int
claude_prepare(const struct aiterm_host *host, struct aiterm_parent *p,
    struct aiterm_error *err)
{
	char path[4096];
	json_t *j;
	const char *conv;
	int rc = 0;

	snprintf(path, sizeof path, "%s/" CLAUDE_HOOKS_DIR "/%s.pre.json",
	    host->state_root(), p->ref);
	j = json_load_file(path, 0, NULL);
	conv = json_string_value(json_object_get(j, "session_id"));
	if (!hl_ref_valid(conv))
		rc = host->error(err, "CLAUDE_PARENT_HOOK_UNAVAILABLE: "
		    "Aiterm's Claude Code hooks did not see this call "
		    "(aiterm-setup installs them; pty_send wait=true reads "
		    "the answer without them); nothing was sent to the child");
	else if (json_string_value(json_object_get(j, "agent_id")) != NULL)
		rc = host->error(err, "CLAUDE_PARENT_SUBAGENT_UNSUPPORTED: a "
		    "sub-agent's call cannot be woken by its answer "
		    "(pty_send wait=true reads it); nothing was sent to the "
		    "child");
	else
		snprintf(p->conversation, sizeof p->conversation, "%s", conv);
	json_decref(j);
	return rc;
}

static int
claude_linked(const struct aiterm_host *host, const char *id,
    const struct aiterm_parent *p, struct aiterm_error *err)
{
	char rel[160];

	snprintf(rel, sizeof rel, CLAUDE_HOOKS_DIR "/%s.delivery", p->ref);
	return host->write_state(rel, id, strlen(id), err);
}

static const struct aiterm_receiver_ops ops = {
	.kind = "claude",
	.detect = claude_detect,
	.prepare = claude_prepare,
	.linked = claude_linked,
	.how = "Claude Code hook",
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = 1,
	.kind = AITERM_KIND_RECEIVER,
	.name = "receiver-claude",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
