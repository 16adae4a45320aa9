/*
 * harness-cursor: Cursor's CLI agent (`cursor-agent`, also installed as
 * `agent`), AGT-SEND, AGT-LAUNCH cursor-cli.  Written against a stand-in
 * (tests/harness/cursor-standin), not the real CLI: no package ships it.
 *
 * DOCUMENTED (cursor.com/docs/cli): the binary names, `--version`,
 * `--model`; transcripts under
 * ~/.cursor/projects/<project-id>/agent-transcripts/<uuid>/<uuid>.jsonl,
 * lines {role, message: {content: [{type: "text", text}]}}.
 *
 * ASSUMED (the stand-in's; replace with a capture of the real CLI):
 *   - every screen: the sign-in screen ("You are not signed in."), the
 *     workspace-trust prompt ("Do you trust the contents of this
 *     directory?", "a" trusts), the composer ("│ → text │" in a box, its
 *     placeholder "Plan, search, build anything"), the running line
 *     ("ctrl+c to stop") and the follow-up queue ("Follow-ups (n)",
 *     "enter steer");
 *   - submit is an extended-keyboard-protocol Enter, CSI 13 u; a plain
 *     Enter is a newline in the composer;
 *   - a turn ends with a {"type":"turn_ended","status":...} line; text
 *     steered into a running turn is a user line inside that turn;
 *   - the project id is the real cwd with every byte but A-Z a-z 0-9 as
 *     "-" and the leading "-" dropped;
 *   - the agent process holds its session's transcript open while it
 *     runs (as Codex --no-daemon, Claude Code and Grok Build do);
 *   - a turn ended on the usage limit draws a limit screen in place of
 *     the composer ("┌─ Usage limit reached", the words, "u upgrade ·
 *     esc dismiss"), which Esc dismisses (AGT-LIMIT; ADR 0011);
 *   - a prompt the user's beforeSubmitPrompt hook refused is shown with
 *     "! Hook blocked with message: <words>" under it, the composer
 *     empty, nothing in the transcript (ADR 0017).
 *
 * Launch: `cursor-agent [--model MODEL]` in the real cwd; the trust prompt
 * is answered only when the launch says trust_project.  The session's
 * uuid is Cursor's own (no documented flag names a new one), so a
 * <uuid>.jsonl of the project written since the launch only fits: the
 * core binds it when the launch's own process holds it open (AGT-JOB,
 * ADR 0033), never as "the newest file".
 */
#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "hlib.h"

static const char *const binaries[] = { "cursor-agent", "agent", NULL };
static const char *const version_args[] = { "--version", NULL };
static const char *const body_names[] = { "cursor-agent", "agent", NULL };

static int
cursor_parse_version(const char *out, size_t len, char *buf, size_t size)
{
	return hl_version(out, len, buf, size);
}

static int
cursor_launch(const struct aiterm_host *host,
    const struct aiterm_launch_request *req, struct aiterm_launch_plan *plan,
    struct aiterm_error *err)
{
	if (hl_check_model(host, req->model, "Cursor", "sonnet-4", err) != 0)
		return -1;
	hl_arg(host, plan->argv, req->binary);
	if (req->model != NULL) {
		hl_arg(host, plan->argv, "--model");
		hl_arg(host, plan->argv, req->model);
	}
	return 0;
}

/*
 * `cursor-agent models` (DOCUMENTED; the stand-in models it): a heading,
 * then "<id> - <label>" lines ("(current)" after the one in use); signed
 * out it exits 1 with "Authentication required".
 */
static const char *const catalog_args[] = { "models", NULL };

static size_t
cursor_catalog_id(const char *line, size_t n, const char **id)
{
	size_t i = 0, k;

	while (i < n && line[i] == ' ')
		i++;
	for (k = 0; i + k < n && strchr(" \t\r", line[i + k]) == NULL; k++)
		;
	if (k == 0 || n - i - k < 3 || memcmp(line + i + k, " - ", 3) != 0)
		return 0;
	*id = line + i;
	return k;
}

static int
cursor_model_check(const struct aiterm_host *host, const char *out,
    size_t len, const char *model, struct aiterm_error *err)
{
	return hl_catalog(host, out, len, model, "Cursor", cursor_catalog_id,
	    err);
}

/* Screens drawn instead of the composer (ASSUMED), first match wins. */
static const struct hl_known known[] = {
	{ "You are not signed in.", NULL, AITERM_SCREEN_ONBOARDING,
	    "login_required", NULL },
	{ "Do you trust the contents of this directory?", "Trust this "
	    "workspace", AITERM_SCREEN_BLOCKING_DIALOG, "workspace_trust",
	    "workspace_trust" },
};

#define COMPOSER	"\xe2\x94\x82 \xe2\x86\x92"	/* "│ →" */
#define PLACEHOLDER	"Plan, search, build anything"

/* Text in the composer that was not submitted. */
static bool
typed(const struct aiterm_screen *s, bool *box)
{
	const char *text;
	size_t n;

	*box = hl_box_text(s, COMPOSER, &text, &n);
	return *box && n > 0 && !(n == strlen(PLACEHOLDER) &&
	    memcmp(text, PLACEHOLDER, n) == 0);
}

/* The limit screen: its heading and its keys, no composer (ASSUMED). */
#define LIMIT_HEADING	"\xe2\x94\x8c\xe2\x94\x80 Usage limit reached"
#define LIMIT_KEYS	"\xe2\x94\x82 u upgrade \xc2\xb7 esc dismiss"

/* The conversation's blocks: a prompt, a notice (ASSUMED). */
static const char *const blocks[] = { "> ", "! ", NULL };
static const char *const refusals[] = { AITERM_HOOK_BLOCKED_WORDS, NULL };

static void
cursor_classify(const struct aiterm_screen *s, struct aiterm_screen_verdict *v)
{
	bool box, has = typed(s, &box);
	bool queued = hl_has(s, "Follow-ups (");
	const char *rest, *said;
	size_t n, slen;

	if (hl_match_known(s, known, sizeof known / sizeof known[0], v))
		return;
	if (!box && hl_line_starting(s, LIMIT_HEADING, &rest, &n) &&
	    hl_has(s, LIMIT_KEYS)) {
		v->state = AITERM_SCREEN_RATE_LIMITED;
		v->reason = "usage_limit_card";
		v->dialog = "cursor_usage_limit";
		return;
	}
	v->dialog = has ? AITERM_INPUT_TYPED : queued ? AITERM_INPUT_QUEUED :
	    NULL;
	if (hl_has(s, "ctrl+c to stop")) {
		v->state = AITERM_SCREEN_RUNNING;
		v->reason = queued ? "follow_up_queued" : "generating";
	} else if (box) {
		v->state = AITERM_SCREEN_INPUT_READY;
		v->reason = has ? "composer_has_text" : "composer_empty";
		/* The prompt just sent was refused by the user's hook. */
		if (!has && hl_last_block(s, COMPOSER, blocks, refusals,
		    &said, &slen))
			v->reason = AITERM_USER_HOOK_BLOCKED;
	} else {
		v->dialog = NULL;
		v->state = s->len == 0 ? AITERM_SCREEN_STARTING :
		    AITERM_SCREEN_UNKNOWN;
		v->reason = s->len == 0 ? "blank" : "no_known_screen";
	}
}

/* "a" picks "Trust this workspace", only when the launch says so. */
HL_KEYS(trust_keys, { AITERM_INPUT_TEXT, "a" });
/* Esc dismisses the limit screen; "u" (upgrade) is never pressed. */
HL_KEYS(dismiss_keys, { AITERM_INPUT_KEY, "Escape" });

static const struct aiterm_input_step *
cursor_startup_keys(const char *dialog, int trust_project)
{
	if (dialog != NULL && strcmp(dialog, "cursor_usage_limit") == 0)
		return dismiss_keys;
	if (dialog != NULL && strcmp(dialog, "workspace_trust") == 0 &&
	    trust_project)
		return trust_keys;
	return NULL;
}

#define SUBMIT_KEY	CURSOR_SUBMIT_KEY

/*
 * The text pasted, a pause (so the key is not part of the paste), the
 * submit key.  While a turn runs that queues the text under
 * "Follow-ups"; the steer presses the submit key again on the empty
 * composer ("enter steer"), which moves it into the running turn.
 */
static const struct aiterm_input_step submit[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_TEXT, SUBMIT_KEY },
	{ AITERM_INPUT_END, NULL },
};

/*
 * AGT-IMAGE, ASSUMED (no capture of the real TUI): the image's path
 * pasted on its own is attached ("[Image #N]"), as the other three CLIs
 * do; the stand-in models it.
 */
static const struct aiterm_input_step attach_image[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_END, NULL },
};

static const struct aiterm_input_step steer[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_TEXT, SUBMIT_KEY },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_TEXT, SUBMIT_KEY },
	{ AITERM_INPUT_END, NULL },
};

/* ~/.cursor/projects/<project id>/agent-transcripts, depth 1. */
static int
cursor_transcript_dir(const struct aiterm_host *host,
    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
    int *depth, struct aiterm_error *err)
{
	const char *p;
	bool lead = true;

	if (q->home == NULL || *q->home == '\0')
		return host->error(err, "HOME is not set: Cursor's transcripts "
		    "cannot be found");
	host->buf_printf(dir, "%s/.cursor/projects/", q->home);
	for (p = q->cwd; *p != '\0'; p++) {
		bool keep = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' &&
		    *p <= 'z') || (*p >= '0' && *p <= '9');

		if (lead && !keep)
			continue;
		lead = false;
		host->buf_add(dir, keep ? p : "-", 1);
	}
	host->buf_add(dir, "/agent-transcripts", 18);
	*depth = 1;
	return 0;
}

/*
 * "<uuid>.jsonl" with a whole first line, written since the launch: the
 * CLI writes it at the first prompt, which comes after its start-up, so
 * a file last written before the launch (another session of the same
 * project, a -p run) is not this one.  Another session of the same
 * project writing after the launch fits as well, so it only fits.
 */
static int
cursor_transcript_claim(const struct aiterm_transcript_query *q,
    const char *name, const char *head, size_t len, int64_t modified_ms)
{
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
	size_t i;

	if (modified_ms < q->started_ms || strlen(name) != 36 + 6 ||
	    strcmp(name + 36, ".jsonl") != 0)
		return AITERM_CLAIM_NO;
	for (i = 0; i < 36; i++) {
		if ((shape[i] == '-') != (name[i] == '-'))
			return AITERM_CLAIM_NO;
	}
	return memchr(head, '\n', len) == NULL ? AITERM_CLAIM_UNKNOWN :
	    AITERM_CLAIM_IF_OPEN;
}

/*
 * Walking the transcript: a user line opens a turn when none is open
 * (else it joins the open one: a steer); a turn_ended line closes it.
 * The answer is the last non-empty assistant text of the turn.
 */
struct walk {
	const struct aiterm_host *host;
	unsigned	 want, n;
	bool		 open, in;
	json_t		*last;	/* the last assistant line of the turn */
	struct aiterm_turn *turn;
};

/* An ended turn's state by its status. */
static const struct {
	const char		*status;
	enum aiterm_turn_state	 state;
	const char		*reason;
} ends[] = {
	{ "completed", AITERM_TURN_DONE, "turn_ended" },
	{ "error", AITERM_TURN_ERROR, "api_error" },
	{ "aborted", AITERM_TURN_ERROR, "cancelled" },
};

static void
ended(struct walk *w, json_t *o)
{
	const char *st = hl_str(o, "status"), *e = hl_str(o, "error");
	size_t i;

	w->turn->state = AITERM_TURN_ERROR;
	w->turn->reason = "turn_ended_unknown_status";
	for (i = 0; st != NULL && i < sizeof ends / sizeof ends[0]; i++) {
		if (strcmp(st, ends[i].status) == 0) {
			w->turn->state = ends[i].state;
			w->turn->reason = ends[i].reason;
		}
	}
	if (w->turn->state == AITERM_TURN_DONE && w->last != NULL)
		hl_content_text(w->host, json_object_get(json_object_get(
		    w->last, "message"), "content"), w->turn->answer);
	else if (w->turn->state == AITERM_TURN_ERROR)
		w->host->buf_printf(w->turn->answer, "%s", e != NULL ? e :
		    "The turn ended without an answer.");
}

static int
each_line(json_t *o, size_t index, void *arg)
{
	struct walk *w = arg;
	const char *role = hl_str(o, "role"), *type = hl_str(o, "type");
	struct aiterm_buf *t;

	(void)index;
	if (role != NULL && strcmp(role, "user") == 0 && !w->open) {
		w->open = true;
		if (w->turn != NULL && w->n == w->want) {
			w->in = true;
			w->turn->state = AITERM_TURN_STARTED;
			w->turn->reason = "in_progress";
		}
		w->n++;
	} else if (role != NULL && strcmp(role, "assistant") == 0 && w->in) {
		t = w->host->buf_new();
		hl_content_text(w->host, json_object_get(json_object_get(o,
		    "message"), "content"), t);
		if (w->host->buf_len(t) > 0) {
			json_decref(w->last);
			w->last = json_incref(o);
		}
		w->host->buf_free(t);
	} else if (type != NULL && strcmp(type, "turn_ended") == 0) {
		w->open = false;
		if (w->in) {
			ended(w, o);
			return 1;
		}
	}
	return 0;
}

static unsigned
cursor_count_turns(const char *bytes, size_t len)
{
	struct walk w;

	memset(&w, 0, sizeof w);
	w.want = (unsigned)-1;
	hl_jsonl_each(bytes, len, each_line, &w);
	return w.n;
}

static int
cursor_read_turn(const struct aiterm_host *host, const char *bytes,
    size_t len, unsigned index, struct aiterm_turn *turn,
    struct aiterm_error *err)
{
	struct walk w;

	(void)err;
	memset(&w, 0, sizeof w);
	w.host = host;
	w.want = index;
	w.turn = turn;
	turn->state = AITERM_TURN_NONE;
	turn->reason = "prompt_not_recorded";
	hl_jsonl_each(bytes, len, each_line, &w);
	json_decref(w.last);
	return 0;
}

static const struct aiterm_harness_ops ops = {
	.binaries = binaries,
	.version_args = version_args,
	.min_version = "2025.08.25",
	.body_names = body_names,
	.parse_version = cursor_parse_version,
	.launch = cursor_launch,
	.classify = cursor_classify,
	.startup_keys = cursor_startup_keys,
	.submit = submit,
	.steer = steer,
	.transcript_dir = cursor_transcript_dir,
	.transcript_claim = cursor_transcript_claim,
	.count_turns = cursor_count_turns,
	.read_turn = cursor_read_turn,
	.catalog_args = catalog_args,
	.model_check = cursor_model_check,
	.model_open = cursor_model_open,
	.model_step = cursor_model_step,
	.attach_image = attach_image,
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.kind = AITERM_KIND_HARNESS,
	.name = "harness-cursor",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
