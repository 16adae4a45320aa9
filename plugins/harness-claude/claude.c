/*
 * harness-claude: the descriptor, the probe and the launch.  Claude Code
 * runs as `claude --session-id <uuid>` in the real cwd: the session id is
 * made of the launch id, so the transcript of this launch is exactly
 * <uuid>.jsonl (AGT-JOB: it binds to this run, never to an older one).
 * The user's HOME, ~/.claude and project settings are left as they are.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "claude.h"
#include "hlib.h"

static const char *const binaries[] = { "claude", NULL };
static const char *const version_args[] = { "--version", NULL };
static const char *const body_names[] = { "claude", NULL };

void
claude_session_uuid(const char *launch_id, char out[37])
{
	hl_session_uuid(launch_id, out);
}

static int
claude_parse_version(const char *out, size_t len, char *buf, size_t size)
{
	return hl_version(out, len, buf, size);
}

static int
claude_launch(const struct aiterm_host *host,
    const struct aiterm_launch_request *req, struct aiterm_launch_plan *plan,
    struct aiterm_error *err)
{
	char uuid[37];
	size_t i;

	if (req->model != NULL) {
		for (i = 0; req->model[i] != '\0'; i++) {
			if (!isalnum((unsigned char)req->model[i]) &&
			    strchr("-._[]:", req->model[i]) == NULL)
				return host->error(err, "model '%.80s': Claude "
				    "Code model names are letters, digits and "
				    "- . _ [ ] : (e.g. sonnet, opus, "
				    "claude-sonnet-4-5)", req->model);
		}
	}
	claude_session_uuid(req->launch_id, uuid);
	hl_arg(host, plan->argv, req->binary);
	hl_arg(host, plan->argv, "--session-id");
	hl_arg(host, plan->argv, uuid);
	if (req->model != NULL) {
		hl_arg(host, plan->argv, "--model");
		hl_arg(host, plan->argv, req->model);
	}
	return 0;
}

/*
 * AGT-IMAGE (seen on 2.1.332): the image's path pasted on its own becomes
 * "[Image #N]" in the composer and an image block of the next request;
 * the pause lets Claude read the file before the text and Enter come.
 */
static const struct aiterm_input_step attach_image[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "500" },
	{ AITERM_INPUT_END, NULL },
};

static const struct aiterm_harness_ops ops = {
	.binaries = binaries,
	.version_args = version_args,
	.min_version = "2.1.0",
	.body_names = body_names,
	.parse_version = claude_parse_version,
	.launch = claude_launch,
	.classify = claude_classify,
	.startup_keys = claude_startup_keys,
	.submit = claude_submit,
	.steer = claude_submit,
	.transcript_dir = claude_transcript_dir,
	.transcript_claim = claude_transcript_claim,
	.count_turns = claude_count_turns,
	.read_turn = claude_read_turn,
	.approval = claude_approval,
	.approval_keys = claude_approval_keys,
	.model_open = claude_model_open,
	.model_step = claude_model_step,
	.attach_image = attach_image,
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.kind = AITERM_KIND_HARNESS,
	.name = "harness-claude",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
