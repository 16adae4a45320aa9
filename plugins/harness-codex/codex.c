/*
 * harness-codex: the Codex CLI (0.171.0, recorded in
 * tests/harness/fixtures/codex-cli-0.171.0).  The descriptor, the probe,
 * the launch, the screens and the rollout.
 *
 * Launch: `codex --no-daemon [-m MODEL]` in the real cwd; CODEX_HOME,
 * the user's config.toml and projects are left as they are.  Its npm
 * launcher (node) starts the native `codex`, which is the body.
 * --no-daemon: by default the TUI is a client of one background
 * `codex app-server --managed-daemon` per CODEX_HOME, which writes (and
 * holds open) the rollouts of every TUI of that home; without it the
 * pane's own codex writes its thread and holds that rollout open, which
 * is what binds a launch to its rollout (AGT-JOB, ADR 0033).
 *
 * Screens: the footer does not change while a turn runs, so running is
 * "esc to interrupt" anywhere (the "• Working (…)" line; while answer
 * text streams there may be none: the core's turn mark covers that).
 * The composer is the last line starting with "›" once the footer shows
 * "<model> · <cwd>" (while Codex loads, the composer is already drawn
 * with "? for shortcuts" alone, and a trust screen may still come).
 *
 * Rollout: <CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl,
 * created at the first prompt; its first record (session_meta) holds the
 * cwd and the thread's start time.  Codex 0.171.0 takes no session id of
 * ours (no --session-id; `resume` only opens an old one), so a rollout of
 * the launch's cwd begun after it only fits: the core binds it when the
 * launch's own process holds it open.  A turn is an event_msg task_started;
 * it ends with task_complete (last_agent_message, or error) or
 * turn_aborted, matched by turn_id; an error whose codex_error_info is
 * usage_limit_exceeded (a 429 usage_limit_reached from the model) is the
 * vendor's usage limit, rate_limited with its message.  Text typed while
 * it runs (Enter) joins the same turn; Tab queues a new one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codex.h"
#include "hlib.h"

static const char *const binaries[] = { "codex", NULL };
static const char *const version_args[] = { "--version", NULL };
static const char *const body_names[] = { "codex", NULL };

static int
codex_parse_version(const char *out, size_t len, char *buf, size_t size)
{
	return hl_version(out, len, buf, size);
}

static int
codex_launch(const struct aiterm_host *host,
    const struct aiterm_launch_request *req, struct aiterm_launch_plan *plan,
    struct aiterm_error *err)
{
	size_t i;

	for (i = 0; req->model != NULL && req->model[i] != '\0'; i++) {
		if (!isalnum((unsigned char)req->model[i]) &&
		    strchr("-._:/", req->model[i]) == NULL)
			return host->error(err, "model '%.80s': Codex model "
			    "names are letters, digits and - . _ : / (e.g. "
			    "gpt-5-codex)", req->model);
	}
	hl_arg(host, plan->argv, req->binary);
	hl_arg(host, plan->argv, "--no-daemon");
	if (req->model != NULL) {
		hl_arg(host, plan->argv, "-m");
		hl_arg(host, plan->argv, req->model);
	}
	return 0;
}

static const struct hl_known known[] = {
	{ "Sign in with ChatGPT", NULL, AITERM_SCREEN_ONBOARDING,
	    "login_choice", NULL },
	{ "Trust this folder?", "Trust and continue",
	    AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder", "trust_folder" },
	{ "Agent command center", NULL, AITERM_SCREEN_BLOCKING_DIALOG,
	    "agent_command_center", NULL },
	{ "Would you like to run the following command?", NULL,
	    AITERM_SCREEN_APPROVAL, "command_approval", NULL },
	{ "Would you like to ", "Yes, proceed", AITERM_SCREEN_APPROVAL,
	    "approval", NULL },
	{ "Error loading configuration:", NULL, AITERM_SCREEN_EXITED,
	    "config_error", NULL },
};

/*
 * The conversation's blocks (prompt, answer, error) and the error a turn
 * ended on the usage limit writes last (AGT-LIMIT; ADR 0011).
 */
#define COMPOSER	"\xe2\x80\xba"
static const char *const blocks[] = { COMPOSER " ", "\xe2\x80\xa2 ",
    "\xe2\x96\xa0 ", NULL };
static const char *const limits[] = {
	"You\xe2\x80\x99ve hit your usage limit",
	NULL,
};

static void
codex_classify(const struct aiterm_screen *s, struct aiterm_screen_verdict *v)
{
	const char *rest, *said;
	size_t n, slen;

	if (hl_match_known(s, known, sizeof known / sizeof known[0], v))
		return;
	if (hl_has(s, "esc to interrupt")) {
		v->state = AITERM_SCREEN_RUNNING;
		v->reason = "esc_to_interrupt";
	} else if (hl_has(s, "model:") && hl_has(s, "loading")) {
		v->state = AITERM_SCREEN_STARTING;
		v->reason = "loading";
	} else if (hl_line_starting(s, "\xe2\x80\xba", &rest, &n) &&
	    !hl_has(s, " \xc2\xb7 /")) {
		/*
		 * The composer is drawn while Codex still loads (a trust
		 * screen may follow): ready has "<model> · <cwd>" below it.
		 */
		v->state = AITERM_SCREEN_STARTING;
		v->reason = "loading";
	} else if (hl_line_starting(s, COMPOSER, &rest, &n) &&
	    hl_last_block(s, COMPOSER, blocks, limits, &said, &slen)) {
		/* A notice, not a card: the composer under it takes a prompt. */
		v->state = AITERM_SCREEN_RATE_LIMITED;
		v->reason = "usage_limit_notice";
	} else if (hl_line_starting(s, COMPOSER, &rest, &n)) {
		v->state = AITERM_SCREEN_INPUT_READY;
		v->reason = n == 0 || (n == strlen("Ask Codex to do anything") &&
		    memcmp(rest, "Ask Codex to do anything", n) == 0) ?
		    "composer_empty" : "composer_has_text";
	} else {
		v->state = s->len == 0 ? AITERM_SCREEN_STARTING :
		    AITERM_SCREEN_UNKNOWN;
		v->reason = s->len == 0 ? "blank" : "no_known_screen";
	}
}

HL_KEYS(yes_keys, { AITERM_INPUT_KEY, "y" });

/*
 * An Enter within ~30 ms of the text is taken as part of a paste (a
 * newline): the pause makes it a submit.  While a turn runs the same keys
 * steer (the text joins that turn).
 */
static const struct aiterm_input_step submit[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};

/*
 * AGT-IMAGE (seen on 0.171.0): the image's path pasted on its own is
 * attached ("[Image #N]"; an input_image of the next request), as
 * `codex -i FILE` does at start; a launch's prompt is typed after start,
 * so both go in the same way.
 */
static const struct aiterm_input_step attach_image[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_END, NULL },
};

static const struct aiterm_input_step *
codex_startup_keys(const char *dialog, int trust_project)
{
	if (trust_project && strcmp(dialog, "trust_folder") == 0)
		return hl_enter_keys;
	return NULL;
}

static const char *const choices[] = { "approve_once", "deny", NULL };

/* "Reason: …" and "$ <command>" lines below the question. */
static int
codex_approval(const struct aiterm_host *host, const struct aiterm_screen *s,
    struct aiterm_approval *a)
{
	const char *rest;
	size_t n;

	if (!hl_has(s, "Would you like to ") || !hl_has(s, "Yes, proceed"))
		return 0;
	a->kind = hl_has(s, "run the following command") ? "command" : "tool";
	if (hl_line_starting(s, "Reason:", &rest, &n)) {
		host->buf_add(a->subject, "Reason: ", 8);
		host->buf_add(a->subject, rest, n);
	}
	if (hl_line_starting(s, "$ ", &rest, &n)) {
		if (host->buf_len(a->subject) > 0)
			host->buf_add(a->subject, "\n", 1);
		host->buf_add(a->subject, "$ ", 2);
		host->buf_add(a->subject, rest, n);
	}
	a->choices = choices;
	return 1;
}

static const struct aiterm_input_step *
codex_approval_keys(const char *choice)
{
	if (strcmp(choice, "approve_once") == 0)
		return yes_keys;
	if (strcmp(choice, "deny") == 0)
		return hl_escape_keys;
	return NULL;
}

static int
codex_transcript_dir(const struct aiterm_host *host,
    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
    int *depth, struct aiterm_error *err)
{
	const char *home = hl_env(q->env, "CODEX_HOME");

	if (home != NULL && *home != '\0')
		host->buf_printf(dir, "%s/sessions", home);
	else if (q->home != NULL && *q->home != '\0')
		host->buf_printf(dir, "%s/.codex/sessions", q->home);
	else
		return host->error(err, "neither CODEX_HOME nor HOME is set: "
		    "the Codex rollouts cannot be found");
	*depth = 3;	/* YYYY/MM/DD */
	return 0;
}

/* An ISO time "2026-12-04T03:42:21.878Z" as Unix ms (-1 when not one). */
static int64_t
iso_ms(const char *t)
{
	struct tm tm;
	int ms = 0;

	memset(&tm, 0, sizeof tm);
	if (t == NULL || sscanf(t, "%d-%d-%dT%d:%d:%d.%3d", &tm.tm_year,
	    &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
	    &ms) < 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm) * 1000 + ms;
}

static int
first_record(json_t *o, size_t index, void *arg)
{
	(void)index;
	*(json_t **)arg = json_incref(o);
	return 1;
}

/*
 * A TUI thread of the user (not a sub-agent's) in this cwd, started after
 * the launch: it fits, and is this launch's only if the launch's own
 * process holds it open (several TUIs in one folder all fit).
 */
static int
codex_transcript_claim(const struct aiterm_transcript_query *q,
    const char *name, const char *head, size_t len, int64_t modified_ms)
{
	const char *nl = memchr(head, '\n', len), *cwd, *orig, *src;
	json_t *first = NULL;
	int64_t started;
	int yes;

	(void)modified_ms;
	if (strncmp(name, "rollout-", 8) != 0)
		return AITERM_CLAIM_NO;
	if (nl == NULL)
		return AITERM_CLAIM_UNKNOWN;
	hl_jsonl_each(head, (size_t)(nl - head) + 1, first_record, &first);
	cwd = hl_str(first, "payload.cwd");
	orig = hl_str(first, "payload.originator");
	src = hl_str(first, "payload.thread_source");
	started = iso_ms(hl_str(first, "payload.timestamp"));
	yes = first != NULL && strcmp(hl_str(first, "type") ?
	    hl_str(first, "type") : "", "session_meta") == 0 &&
	    cwd != NULL && strcmp(cwd, q->cwd) == 0 &&
	    (orig == NULL || strcmp(orig, "codex-tui") == 0) &&
	    (src == NULL || strcmp(src, "user") == 0) &&
	    started >= q->started_ms - 2000;
	json_decref(first);
	return yes ? AITERM_CLAIM_IF_OPEN : AITERM_CLAIM_NO;
}

struct turns {
	const struct aiterm_host *host;
	unsigned		 want, n;	/* the turn asked for; seen */
	char			 id[128];	/* its turn_id */
	struct aiterm_turn	*turn;
};

static int
each_event(json_t *o, size_t index, void *arg)
{
	struct turns *t = arg;
	const char *type = hl_str(o, "payload.type"), *tid, *msg, *info;
	json_t *p = json_object_get(o, "payload");

	(void)index;
	if (strcmp(hl_str(o, "type") ? hl_str(o, "type") : "", "event_msg") !=
	    0 || type == NULL)
		return 0;
	tid = hl_str(p, "turn_id");
	if (strcmp(type, "task_started") == 0) {
		if (t->n++ == t->want && t->turn != NULL) {
			snprintf(t->id, sizeof t->id, "%s", tid ? tid : "");
			t->turn->state = AITERM_TURN_STARTED;
			t->turn->reason = "in_progress";
		}
		return 0;
	}
	if (t->turn == NULL || t->turn->state != AITERM_TURN_STARTED ||
	    tid == NULL || strcmp(tid, t->id) != 0)
		return 0;
	if (strcmp(type, "task_complete") == 0) {
		msg = hl_str(p, "last_agent_message");
		if (msg != NULL) {
			t->turn->state = AITERM_TURN_DONE;
			t->turn->reason = "task_complete";
			t->host->buf_add(t->turn->answer, msg, strlen(msg));
		} else {
			msg = hl_str(p, "error.message");
			info = hl_str(p, "error.codex_error_info");
			t->turn->state = AITERM_TURN_ERROR;
			/* The vendor's usage limit (AGT-LIMIT; ADR 0011). */
			t->turn->reason = info != NULL && strcmp(info,
			    "usage_limit_exceeded") == 0 ? "rate_limited" :
			    msg != NULL ? "api_error" : "no_answer";
			if (msg != NULL)
				t->host->buf_add(t->turn->answer, msg,
				    strlen(msg));
		}
		return 1;
	}
	if (strcmp(type, "turn_aborted") == 0) {
		t->turn->state = AITERM_TURN_ERROR;
		t->turn->reason = "interrupted";
		t->host->buf_printf(t->turn->answer, "The turn was interrupted "
		    "(%s).", hl_str(p, "reason") ? hl_str(p, "reason") :
		    "no reason given");
		return 1;
	}
	return 0;
}

static unsigned
codex_count_turns(const char *bytes, size_t len)
{
	struct turns t;

	memset(&t, 0, sizeof t);
	t.want = (unsigned)-1;
	hl_jsonl_each(bytes, len, each_event, &t);
	return t.n;
}

static int
codex_read_turn(const struct aiterm_host *host, const char *bytes, size_t len,
    unsigned index, struct aiterm_turn *turn, struct aiterm_error *err)
{
	struct turns t;

	(void)err;
	memset(&t, 0, sizeof t);
	t.host = host;
	t.want = index;
	t.turn = turn;
	turn->state = AITERM_TURN_NONE;
	turn->reason = "prompt_not_recorded";
	hl_jsonl_each(bytes, len, each_event, &t);
	return 0;
}

static const struct aiterm_harness_ops ops = {
	.binaries = binaries,
	.version_args = version_args,
	.min_version = "0.171.0",
	.body_names = body_names,
	.parse_version = codex_parse_version,
	.launch = codex_launch,
	.classify = codex_classify,
	.startup_keys = codex_startup_keys,
	.submit = submit,
	.steer = submit,
	.transcript_dir = codex_transcript_dir,
	.transcript_claim = codex_transcript_claim,
	.count_turns = codex_count_turns,
	.read_turn = codex_read_turn,
	.approval = codex_approval,
	.approval_keys = codex_approval_keys,
	.model_open = codex_model_open,
	.model_step = codex_model_step,
	.attach_image = attach_image,
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.kind = AITERM_KIND_HARNESS,
	.name = "harness-codex",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
