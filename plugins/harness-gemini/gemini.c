/*
 * harness-gemini: the Gemini CLI (@google/gemini-cli 0.61.0, recorded in
 * tests/harness/fixtures/gemini-cli-0.61.0), AGT-GEMINI.  Written the way
 * a third party writes a harness: against the installed <aiterm/plugin.h>
 * alone (no helper library, no JSON library; json.c reads the little it
 * needs).  The descriptor, the probe, the launch and the chat files.
 *
 * Launch: `gemini --session-id <uuid> [--skip-trust] [-m MODEL]` in the
 * real cwd.  The session id is made of the launch id, so the chat file
 * is known by it (AGT-JOB).  --skip-trust (trust_project) trusts the
 * folder for this session only; nothing is written to the user's
 * ~/.gemini.  The user's sign-in ("security.auth.selectedType", or
 * GEMINI_API_KEY) and settings are left as they are.
 *
 * Chat files: $GEMINI_CLI_HOME/.gemini (else ~/.gemini)/tmp/<project
 * id>/chats/session-<time>-<first 8 of the session id>.jsonl.  The
 * project id comes from Gemini's registry (~/.gemini/projects.json: the
 * folder's name, made unique), a file a pure op cannot read: so the
 * search starts at tmp/ two levels up and the file is claimed by the
 * session id in its first line (ADR 0039).  Turns: chat.c; screens:
 * screen.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gemini.h"

static const char *const binaries[] = { "gemini", NULL };
static const char *const version_args[] = { "--version", NULL };
/*
 * The npm package is a node program (its process is "node", relaunched
 * once with a larger heap); "node" would claim every node program, so
 * only a "gemini" executable is named.
 */
static const char *const body_names[] = { "gemini", NULL };

static void
arg(const struct aiterm_host *host, struct aiterm_buf *b, const char *s)
{
	host->buf_add(b, s, strlen(s) + 1);
}

/* The first dotted number of the output ("0.61.0"). */
static int
gemini_parse_version(const char *out, size_t len, char *buf, size_t size)
{
	size_t i, j;

	for (i = 0; i < len && !isdigit((unsigned char)out[i]); i++)
		;
	for (j = i; j < len && (isdigit((unsigned char)out[j]) ||
	    out[j] == '.'); j++)
		;
	if (j == i || memchr(out + i, '.', j - i) == NULL || j - i >= size)
		return -1;
	memcpy(buf, out + i, j - i);
	buf[j - i] = '\0';
	return 0;
}

/* A UUID made of the launch id's hex digits (version 4 form). */
static void
session_uuid(const char *launch_id, char out[37])
{
	char hex[33];
	size_t i, n = 0;

	for (i = 0; launch_id != NULL && launch_id[i] != '\0' && n < 32; i++)
		if (isxdigit((unsigned char)launch_id[i]))
			hex[n++] = (char)tolower((unsigned char)launch_id[i]);
	while (n < 32)
		hex[n++] = '0';
	hex[32] = '\0';
	hex[12] = '4';
	hex[16] = "89ab"[(hex[16] - (isdigit((unsigned char)hex[16]) ? '0' :
	    'a' - 10)) & 3];
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
	    hex + 16, hex + 20);
}

/* A model name passed as one argument: letters, digits, "-._:/". */
static int
model_ok(const char *m)
{
	if (*m == '\0' || *m == '-' || strlen(m) > 100)
		return 0;
	for (; *m != '\0'; m++)
		if (!isalnum((unsigned char)*m) && strchr("-._:/", *m) == NULL)
			return 0;
	return 1;
}

static int
gemini_launch(const struct aiterm_host *host,
    const struct aiterm_launch_request *req, struct aiterm_launch_plan *plan,
    struct aiterm_error *err)
{
	char uuid[37];

	if (req->model != NULL && !model_ok(req->model))
		return host->error(err, "model '%s' cannot be a Gemini model "
		    "name (letters, digits and -._:/ only, e.g. "
		    "gemini-2.5-flash)", req->model);
	session_uuid(req->launch_id, uuid);
	/*
	 * Gemini 0.61.0 runs headless, reading a prompt from stdin and
	 * exiting 42 without one, when CI or GITHUB_ACTIONS is "true"
	 * (isHeadlessMode): a server started in a CI job launched a TUI
	 * that was never there.  The pane is a terminal a person can watch,
	 * so the agent gets both as "false".
	 */
	arg(host, plan->env, "CI=false");
	arg(host, plan->env, "GITHUB_ACTIONS=false");
	arg(host, plan->argv, req->binary);
	arg(host, plan->argv, "--session-id");
	arg(host, plan->argv, uuid);
	if (req->trust_project)
		arg(host, plan->argv, "--skip-trust");
	if (req->model != NULL) {
		arg(host, plan->argv, "--model");
		arg(host, plan->argv, req->model);
	}
	return 0;
}

/*
 * The text pasted, a pause, Enter.  Gemini takes an Enter as a newline
 * while a paste is "recent": a flag its paste handler sets and a 40 ms
 * timer clears, on its own event loop; while that loop is busy (drawing
 * a turn, starting up on a loaded machine) the timer fires late, and an
 * Enter 300 ms after the paste became a newline in the box (the text was
 * not sent).  So the pause is 800 ms.  While a turn runs Gemini queues
 * the text and submits it when the turn ends, as a turn of its own: the
 * steer is the same keys, and the screen says "Queued", so the core
 * reports it unconfirmed (ADR 0012, 0039).
 */
static const struct aiterm_input_step submit[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "800" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};

static const char *
env_get(const char *const *env, const char *key)
{
	size_t n = strlen(key);

	for (; env != NULL && *env != NULL; env++)
		if (strncmp(*env, key, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* tmp/ of Gemini's home; depth 2 reaches <project id>/chats/. */
static int
gemini_transcript_dir(const struct aiterm_host *host,
    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
    int *depth, struct aiterm_error *err)
{
	const char *home = env_get(q->env, "GEMINI_CLI_HOME");

	if (home == NULL || *home == '\0')
		home = q->home;
	if (home == NULL || *home == '\0')
		return host->error(err, "neither GEMINI_CLI_HOME nor HOME is "
		    "set: Gemini's chat files cannot be found");
	host->buf_printf(dir, "%s/.gemini/tmp", home);
	*depth = 2;
	return 0;
}

/*
 * session-<time>-<id8>.jsonl whose first line names the session id; or
 * of that name with no header line at all.  Gemini 0.61.0 cleans up at
 * start-up ("sessionRetention", on by default): it deletes every other
 * chat file of the folder that holds no prompt yet.  A Gemini started a
 * moment after this launch deleted its new file, header and all, and
 * this launch's next record made the file anew without it (found by the
 * fan-out test, AGT-JOB).  The name's eight digits are of the launch's
 * random id, so a file of that name starting with a message is this
 * launch's; one whose header names another session is not.
 */
static int
gemini_transcript_claim(const struct aiterm_transcript_query *q,
    const char *name, const char *head, size_t len, int64_t modified_ms)
{
	char uuid[37], tail[32], want[64];
	size_t n = strlen(name);
	const char *nl;

	(void)modified_ms;
	session_uuid(q->launch_id, uuid);
	snprintf(tail, sizeof tail, "-%.8s.jsonl", uuid);
	if (strncmp(name, "session-", 8) != 0 || n < strlen(tail) ||
	    strcmp(name + n - strlen(tail), tail) != 0)
		return AITERM_CLAIM_NO;
	if ((nl = memchr(head, '\n', len)) == NULL)
		return AITERM_CLAIM_UNKNOWN;
	if ((size_t)(nl - head) < strlen(GEMINI_HEADER) ||
	    strncmp(head, GEMINI_HEADER, strlen(GEMINI_HEADER)) != 0)
		return AITERM_CLAIM_YES;	/* its header deleted */
	snprintf(want, sizeof want, GEMINI_HEADER "%s\"", uuid);
	return strncmp(head, want, strlen(want)) == 0 ? AITERM_CLAIM_YES :
	    AITERM_CLAIM_NO;
}

static const struct aiterm_harness_ops ops = {
	.binaries = binaries,
	.version_args = version_args,
	.min_version = "0.61.0",
	.body_names = body_names,
	.parse_version = gemini_parse_version,
	.launch = gemini_launch,
	.classify = gemini_classify,
	.startup_keys = gemini_startup_keys,
	.submit = submit,
	.steer = submit,
	.transcript_dir = gemini_transcript_dir,
	.transcript_claim = gemini_transcript_claim,
	.count_turns = gemini_count_turns,
	.read_turn = gemini_read_turn,
	.approval = gemini_approval,
	.approval_keys = gemini_approval_keys,
	.turn_rules = AITERM_TURN_ENDS_IDLE,
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.kind = AITERM_KIND_HARNESS,
	.name = "harness-gemini",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
