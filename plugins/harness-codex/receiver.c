/*
 * receiver-codex: a Codex parent (DLV-CODEX, ADR 0016).  The thread comes
 * from the request's _meta (x-codex-turn-metadata.thread_id, else
 * threadId), the Codex home from the server's CODEX_HOME (aiterm-setup
 * registers the server with it), never from anything the model typed.
 * When the answer is ready, `aiterm-hook codex-queue` claims it and puts
 * it on the thread's queue through the official `codex app-server`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlib.h"

static int
codex_detect(const char *client_name, const char *meta_json,
    struct aiterm_parent *p)
{
	static const char *const turn[] = { "x-codex-turn-metadata",
	    "thread_id", NULL };
	static const char *const thread[] = { "threadId", NULL };
	const char *home = getenv("CODEX_HOME"), *h = getenv("HOME");

	/* codex-mcp-client today (ADR 0016); any codex* client. */
	if (client_name == NULL || strncmp(client_name, "codex", 5) != 0)
		return 0;
	if (!hl_meta_ref(meta_json, turn, p->conversation,
	    sizeof p->conversation) && !hl_meta_ref(meta_json, thread,
	    p->conversation, sizeof p->conversation))
		return 0;
	if (home != NULL && *home != '\0')
		snprintf(p->home, sizeof p->home, "%s", home);
	else
		snprintf(p->home, sizeof p->home, "%s/.codex", h ? h : "");
	return 1;
}

static int
codex_ready(const struct aiterm_host *host, const char *id,
    const struct aiterm_parent *p, struct aiterm_error *err)
{
	const char *argv[] = { "aiterm-hook", "codex-queue", "--state-dir",
	    host->state_root(), id, NULL };

	(void)p;
	return host->spawn_program(argv, err);
}

static const struct aiterm_receiver_ops ops = {
	.kind = "codex",
	.detect = codex_detect,
	.ready = codex_ready,
	.how = "Codex thread queue",
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = 1,
	.kind = AITERM_KIND_RECEIVER,
	.name = "receiver-codex",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
