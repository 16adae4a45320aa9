/*
 * The harness plugins (AGT-START, AGT-TURN, AGT-APPROVAL) on recorded
 * screens and transcripts of the real CLIs (tests/harness/fixtures, each
 * folder named for the version it was recorded from): every screen gets
 * its state and reason, every transcript its turns and answers.  The
 * plugins are loaded through the registry from the build tree.  Cursor's
 * are the stand-in's (no recording of the real CLI exists).
 */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/harness.h"
#include "plugin/host.h"
#include "plugin/registry.h"
#include "state/atomic.h"
#include "util/buf.h"

#ifndef HARNESS_FIXTURES
#error HARNESS_FIXTURES is not set
#endif

static char *
slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	char *data = NULL;
	struct aiterm_error err = ERROR_INIT;

	snprintf(path, sizeof path, "%s/%s/%s", HARNESS_FIXTURES, dir, name);
	ck_assert_msg(file_read(path, &data, len, &err) == 0, "%s: %s", path,
	    error_msg(&err));
	return data;
}

static void
load(const char *id, struct harness *h)
{
	struct aiterm_error err = ERROR_INIT;

	registry_load_default();
	ck_assert_msg(harness_find(id, h, &err) == 0, "%s", error_msg(&err));
}

struct screen_case {
	const char			*file;
	enum aiterm_screen_state	 state;
	const char			*reason;
	const char			*dialog;
};

static void
check_screens(const char *id, const char *dir,
    const struct screen_case *cases)
{
	struct aiterm_screen_verdict v;
	struct aiterm_screen s;
	struct harness h;
	char name[256];
	size_t i, len;
	char *text;

	load(id, &h);
	for (i = 0; cases[i].file != NULL; i++) {
		snprintf(name, sizeof name, "screens/%s.txt", cases[i].file);
		text = slurp(dir, name, &len);
		memset(&s, 0, sizeof s);
		s.text = text;
		s.len = len;
		s.cols = 120;
		s.rows = 40;
		memset(&v, 0, sizeof v);
		h.ops->classify(&s, &v);
		ck_assert_msg(v.state == cases[i].state && v.reason != NULL &&
		    strcmp(v.reason, cases[i].reason) == 0, "%s: state %d/%s, "
		    "want %d/%s", cases[i].file, v.state, v.reason,
		    cases[i].state, cases[i].reason);
		if (cases[i].dialog == NULL)
			ck_assert_msg(v.dialog == NULL, "%s: dialog %s",
			    cases[i].file, v.dialog);
		else
			ck_assert_msg(v.dialog != NULL && strcmp(v.dialog,
			    cases[i].dialog) == 0, "%s: dialog %s, want %s",
			    cases[i].file, v.dialog, cases[i].dialog);
		free(text);
	}
}

struct turn_case {
	const char		*file;
	unsigned		 count;		/* turns in the file */
	unsigned		 index;		/* the turn checked */
	enum aiterm_turn_state	 state;
	const char		*reason;
	const char		*answer;	/* exact, or NULL: not checked */
	const char		*contains;	/* in the answer, or NULL */
};

static void
check_turns(const char *id, const char *dir, const char *sub,
    const struct turn_case *cases)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	struct aiterm_turn t;
	struct harness h;
	char name[256];
	size_t i, len;
	char *text;

	load(id, &h);
	for (i = 0; cases[i].file != NULL; i++) {
		snprintf(name, sizeof name, "%s/%s.jsonl", sub, cases[i].file);
		text = slurp(dir, name, &len);
		ck_assert_msg(h.ops->count_turns(text, len) == cases[i].count,
		    "%s: %u turns, want %u", cases[i].file,
		    h.ops->count_turns(text, len), cases[i].count);
		memset(&t, 0, sizeof t);
		t.answer = &answer;
		ck_assert_int_eq(h.ops->read_turn(host_get(), text, len,
		    cases[i].index, &t, &err), 0);
		ck_assert_msg(t.state == cases[i].state &&
		    strcmp(t.reason, cases[i].reason) == 0,
		    "%s turn %u: %d/%s, want %d/%s", cases[i].file,
		    cases[i].index, t.state, t.reason, cases[i].state,
		    cases[i].reason);
		if (cases[i].answer != NULL)
			ck_assert_str_eq(buf_str(&answer), cases[i].answer);
		if (cases[i].contains != NULL)
			ck_assert_msg(strstr(buf_str(&answer),
			    cases[i].contains) != NULL, "%s: answer '%s'",
			    cases[i].file, buf_str(&answer));
		/* One past the last turn: nothing recorded for it yet. */
		buf_reset(&answer);
		ck_assert_int_eq(h.ops->read_turn(host_get(), text, len,
		    cases[i].count, &t, &err), 0);
		ck_assert_int_eq(t.state, AITERM_TURN_NONE);
		buf_reset(&answer);
		free(text);
	}
	buf_free(&answer);
}

/* The approval on a recorded screen: found, its kind and subject. */
static void
check_approval(const char *id, const char *dir, const char *file, int found,
    const char *kind, const char *subject)
{
	struct aiterm_buf sub = BUF_INIT;
	struct aiterm_approval a;
	struct aiterm_screen s;
	struct harness h;
	char name[256];
	size_t len;
	char *text;

	load(id, &h);
	snprintf(name, sizeof name, "screens/%s.txt", file);
	text = slurp(dir, name, &len);
	memset(&s, 0, sizeof s);
	s.text = text;
	s.len = len;
	memset(&a, 0, sizeof a);
	a.subject = &sub;
	ck_assert_int_eq(h.ops->approval(host_get(), &s, &a), found);
	if (found) {
		ck_assert_str_eq(a.kind, kind);
		ck_assert_str_eq(buf_str(&sub), subject);
		ck_assert_str_eq(a.choices[0], "approve_once");
		ck_assert_ptr_nonnull(h.ops->approval_keys("approve_once"));
		ck_assert_ptr_nonnull(h.ops->approval_keys("deny"));
		ck_assert_ptr_null(h.ops->approval_keys("approve_always"));
	}
	free(text);
	buf_free(&sub);
}

/*
 * agent_configure (issue 33, ABI 2.3): model_step on a recorded screen,
 * with a goal and the state the core kept: what it does next, its first
 * key, what it confirmed or why it refused.
 */
struct model_case {
	const char		*file;
	const char		*model, *effort;
	unsigned		 state;
	enum aiterm_model_next	 next;
	const char		*key;	/* KEYS, REFUSED: the first key, or NULL */
	const char		*got;	/* SET: the model; REFUSED: the code */
	const char		*said;	/* in move.said, or NULL */
	const char		*effort_got;	/* SET: the effort, or NULL */
};

static const char *
first_key(const struct aiterm_input_step *k)
{
	for (; k != NULL && k->kind != AITERM_INPUT_END; k++) {
		if (k->kind == AITERM_INPUT_KEY || k->kind == AITERM_INPUT_TEXT)
			return k->arg;
	}
	return NULL;
}

static void
check_models(const char *id, const char *dir, const struct model_case *cases)
{
	const struct model_case *c;
	struct aiterm_model_move m;
	struct aiterm_screen s;
	struct harness h;
	char name[256];
	const char *k;
	size_t len;
	char *text;

	load(id, &h);
	ck_assert_ptr_nonnull(h.ops->model_open);
	ck_assert_ptr_nonnull(h.ops->model_step);
	for (c = cases; c->file != NULL; c++) {
		snprintf(name, sizeof name, "screens/%s.txt", c->file);
		text = slurp(dir, name, &len);
		memset(&s, 0, sizeof s);
		s.text = text;
		s.len = len;
		s.cols = 120;
		s.rows = 40;
		memset(&m, 0, sizeof m);
		m.state = c->state;
		h.ops->model_step(&s, &(struct aiterm_model_goal){ c->model,
		    c->effort }, &m);
		k = first_key(m.keys);
		ck_assert_msg(m.next == c->next, "%s %s/%s: next %d, want %d "
		    "(%s)", c->file, c->model, c->effort, m.next, c->next,
		    m.said);
		if (c->key != NULL)
			ck_assert_msg(k != NULL && strcmp(k, c->key) == 0,
			    "%s %s/%s: key %s, want %s", c->file, c->model,
			    c->effort, k, c->key);
		if (c->next == AITERM_MODEL_SET)
			ck_assert_str_eq(m.model, c->got);
		if (c->next == AITERM_MODEL_REFUSED)
			ck_assert_str_eq(m.code, c->got);
		if (c->said != NULL)
			ck_assert_msg(strstr(m.said, c->said) != NULL,
			    "%s: said '%s', want '%s' in it", c->file, m.said,
			    c->said);
		if (c->effort_got != NULL)
			ck_assert_str_eq(m.effort, c->effort_got);
		free(text);
	}
}

#define W	AITERM_MODEL_WAIT
#define K	AITERM_MODEL_KEYS
#define SET	AITERM_MODEL_SET
#define NO	AITERM_MODEL_REFUSED

/* Claude Code 2.1.332's /model (the state: 0x100 s pressed, low byte the effort last pressed from). */
static const struct model_case claude_models[] = {
	{ "model-picker", "sonnet", NULL, 0, K, "Down", NULL, NULL, NULL },
	{ "model-picker", "claude-sonnet-5-5", NULL, 0, K, "Down", NULL, NULL,
	    NULL },
	{ "model-picker", "Default", NULL, 0, K, "s", NULL, NULL, NULL },
	{ "model-picker", "gpt-9", NULL, 0, NO, "Escape", "MODEL_NOT_OFFERED",
	    "offers Default, Opus, Fable, Sonnet, Haiku", NULL },
	{ "model-picker-sonnet-high", "sonnet", "high", 0, K, "s", NULL, NULL,
	    NULL },
	{ "model-picker-sonnet-high", "sonnet", "low", 0, K, "Left", NULL,
	    NULL, NULL },
	{ "model-picker-sonnet-high", "sonnet", "xhigh", 0, K, "Right", NULL,
	    NULL, NULL },
	/* Right was pressed from high and it is still high: its end. */
	{ "model-picker-sonnet-high", "sonnet", "max", 3, NO, "Escape",
	    "EFFORT_NOT_OFFERED", "does not offer effort max", NULL },
	{ "model-picker-sonnet-high", "sonnet", "turbo", 0, NO, "Escape",
	    "EFFORT_NOT_OFFERED", "low, medium, high, xhigh, max", NULL },
	{ "model-switch-confirm", "sonnet", NULL, 0x100, K, "Enter", NULL, NULL,
	    NULL },
	{ "model-set", "sonnet", "high", 0x100, SET, NULL, "Sonnet 5.5",
	    "Set model to Sonnet 5.5 for this session only", "high" },
	/* Not after its own s, or another model's line: not this change. */
	{ "model-set", "sonnet", NULL, 0, W, NULL, NULL, NULL, NULL },
	{ "model-set", "haiku", NULL, 0x100, W, NULL, NULL, NULL, NULL },
	{ "ready-auto-mode", "sonnet", NULL, 0, W, NULL, NULL, NULL, NULL },
	{ NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

START_TEST(test_claude2_models)
{
	check_models("claude-code", "claude-code-2.1.332", claude_models);
}
END_TEST

/* Codex 0.171.0's /model (the state: 0x1 s pressed, 0x2 scanning down). */
static const struct model_case codex_models[] = {
	{ "model-picker", "gpt-6-luna", NULL, 0, K, "Down", NULL, NULL, NULL },
	{ "model-picker", "GPT-6.2-Sol", NULL, 0, K, "Enter", NULL, NULL,
	    NULL },
	/* Below the page: down (the list scrolls, "↓"). */
	{ "model-picker", "gpt-5.5", NULL, 0, K, "Down", NULL, NULL, NULL },
	/* The last page: unnumbered rows, "↑" above. */
	{ "model-picker-end", "gpt-5.5", NULL, 0, K, "Enter", NULL, NULL,
	    NULL },
	{ "model-picker-end", "gpt-5.6-luna", NULL, 0, K, "Up", NULL, NULL,
	    NULL },
	{ "model-picker-end", "gpt-6.2-sol", NULL, 0, K, "Up", NULL, NULL,
	    NULL },
	{ "model-picker-end", "mock-model", NULL, 0x2, NO, "Escape",
	    "MODEL_NOT_OFFERED", "GPT-5.6-Luna, GPT-5.5", NULL },
	{ "model-levels", "gpt-6.2-astra", NULL, 0, K, "s", NULL, NULL, NULL },
	{ "model-levels", "gpt-6.2-astra", "low", 0, K, "s", NULL, NULL,
	    NULL },
	{ "model-levels", "gpt-6.2-astra", "xhigh", 0, K, "Down", NULL, NULL,
	    NULL },
	{ "model-levels", "gpt-6.2-astra", "max", 0, K, "Down", NULL, NULL,
	    NULL },
	{ "model-levels", "gpt-6.2-astra", "turbo", 0, NO, "Escape",
	    "EFFORT_NOT_OFFERED", "Low, Medium, High, Extra high", NULL },
	{ "model-advanced", "gpt-6.2-astra", "max", 0, K, "s", NULL, NULL,
	    NULL },
	{ "model-advanced", "gpt-6.2-astra", "ultra", 0, K, "Down", NULL, NULL,
	    NULL },
	{ "model-set", "gpt-6.2-astra", "xhigh", 0x1, SET, NULL,
	    "gpt-6.2-astra", "Model changed to gpt-6.2-astra xhigh", "xhigh" },
	{ "model-set", "gpt-6-luna", NULL, 0x1, W, NULL, NULL, NULL, NULL },
	{ "model-set", "gpt-6.2-astra", NULL, 0, W, NULL, NULL, NULL, NULL },
	{ NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

START_TEST(test_codex_models)
{
	check_models("codex-cli", "codex-cli-0.171.0", codex_models);
}
END_TEST

/* Grok Build 1.0.41's /model (the state: 0x1 Enter pressed). */
static const struct model_case grok_models[] = {
	{ "model-list", "mock-model-2", NULL, 0, K, "Down", NULL, NULL, NULL },
	{ "model-list", "mock-model", NULL, 0, K, "Enter", NULL, NULL, NULL },
	{ "model-list", "grok-9", NULL, 0, NO, "Escape", "MODEL_NOT_OFFERED",
	    "lists mock-model, mock-model, mock-model-2", NULL },
	{ "model-list", "mock-model-2", "high", 0, NO, "Escape",
	    "EFFORT_NOT_OFFERED", NULL, NULL },
	{ "model-set", "mock-model-2", NULL, 0x1, SET, NULL, "mock-model-2",
	    "Default model: mock-model-2", NULL },
	{ "model-set", "mock-model-2", NULL, 0, W, NULL, NULL, NULL, NULL },
	{ NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

START_TEST(test_grok_models)
{
	check_models("grok-cli", "grok-1.0.41", grok_models);
}
END_TEST

#undef W
#undef K
#undef SET
#undef NO

#define CC "claude-code-2.1.197"

static const struct screen_case claude_screens[] = {
	{ "trust-dialog", AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder",
	    "trust_folder" },
	{ "theme-picker", AITERM_SCREEN_BLOCKING_DIALOG, "theme_picker",
	    "theme_picker" },
	{ "security-notes", AITERM_SCREEN_BLOCKING_DIALOG, "security_notes",
	    "security_notes" },
	{ "mcp-server-approval", AITERM_SCREEN_BLOCKING_DIALOG,
	    "mcp_server_consent", "mcp_server_consent" },
	{ "settings-invalid-json", AITERM_SCREEN_BLOCKING_DIALOG,
	    "settings_error", NULL },
	{ "api-key-prompt", AITERM_SCREEN_ONBOARDING, "api_key_choice",
	    NULL },
	{ "onboarding-nothing-seeded", AITERM_SCREEN_ONBOARDING,
	    "login_preflight_failed", NULL },
	{ "ready", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "ready-with-mcp-server", AITERM_SCREEN_INPUT_READY,
	    "composer_empty", NULL },
	{ "answered", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "answered-two-turns", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	{ "api-error", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "typed-not-submitted", AITERM_SCREEN_INPUT_READY,
	    "composer_has_text", NULL },
	{ "running", AITERM_SCREEN_RUNNING, "esc_to_interrupt", NULL },
	{ "running-streaming", AITERM_SCREEN_RUNNING, "esc_to_interrupt",
	    NULL },
	{ "running-steer-queued", AITERM_SCREEN_RUNNING,
	    "running_with_queued_input", NULL },
	{ "permission-bash-running-command", AITERM_SCREEN_RUNNING,
	    "esc_to_interrupt", NULL },
	{ "permission-bash", AITERM_SCREEN_APPROVAL, "permission_dialog",
	    NULL },
	{ NULL, 0, NULL, NULL },
};

static const struct turn_case claude_turns[] = {
	{ "plain-turn", 1, 0, AITERM_TURN_DONE, "turn_duration",
	    "The answer is forty-two. This reply was streamed slowly by the "
	    "mock.", NULL },
	{ "two-turns", 2, 1, AITERM_TURN_DONE, "turn_duration",
	    "Second answer: seven.", NULL },
	{ "two-turns", 2, 0, AITERM_TURN_DONE, "turn_duration", NULL,
	    "forty-two" },
	/* A message queued during turn 3 ran after it: one turn, two parts. */
	{ "steer-queued-text-turn", 3, 2, AITERM_TURN_DONE, "turn_duration",
	    "Slow third answer.\n\nAnswer to the queued message.", NULL },
	{ "bash-approved", 1, 0, AITERM_TURN_DONE, "turn_duration",
	    "Wrote hi to the file.", NULL },
	{ "bash-approved-rejected-escaped", 3, 1, AITERM_TURN_ERROR,
	    "interrupted", NULL, "interrupted" },
	/* Rewritten after the error: the records are out of time order. */
	{ "api-error", 1, 0, AITERM_TURN_ERROR, "api_error", NULL,
	    "API Error: 529" },
	{ NULL, 0, 0, 0, NULL, NULL, NULL },
};

START_TEST(test_claude_screens)
{
	check_screens("claude-code", CC, claude_screens);
}
END_TEST

START_TEST(test_claude_turns)
{
	check_turns("claude-code", CC, "transcripts", claude_turns);
}
END_TEST

START_TEST(test_claude_approval)
{
	check_approval("claude-code", CC, "permission-bash", 1, "command",
	    "Bash command\nsleep 2 && echo hi > /tmp/run/x\n"
	    "Write hi to a file\nDo you want to proceed?");
	/* Not an approval: the idle composer. */
	check_approval("claude-code", CC, "ready", 0, NULL, NULL);
}
END_TEST

#define CC2 "claude-code-2.1.332"

static const struct screen_case claude2_screens[] = {
	/* No under the cursor first: Down before Enter; then Enter. */
	{ "trust-dialog", AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder",
	    "trust_folder:to_yes" },
	{ "trust-dialog-yes-selected", AITERM_SCREEN_BLOCKING_DIALOG,
	    "trust_folder", "trust_folder" },
	/* Its "❯ Yes, set auto mode" line is not a composer. */
	{ "auto-mode-offer", AITERM_SCREEN_BLOCKING_DIALOG, "auto_mode_offer",
	    NULL },
	{ "ready-auto-mode", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	{ "running-auto-mode", AITERM_SCREEN_RUNNING, "esc_to_interrupt",
	    NULL },
	/* "❯ Resend your message to try again" is a grey placeholder. */
	{ "api-error", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "permission-bash", AITERM_SCREEN_APPROVAL, "permission_dialog",
	    NULL },
	/*
	 * A 429 rate_limit: the notice is the last block (AGT-LIMIT); after
	 * a later turn it is history in the scrollback.
	 */
	{ "usage-limit", AITERM_SCREEN_RATE_LIMITED, "usage_limit_notice",
	    NULL },
	{ "usage-limit-then-turn", AITERM_SCREEN_INPUT_READY,
	    "composer_empty", NULL },
	{ NULL, 0, NULL, NULL },
};

static const struct turn_case claude2_turns[] = {
	{ "bash-approved", 1, 0, AITERM_TURN_DONE, "turn_duration",
	    "Wrote hi.", NULL },
	{ "turn-then-api-error", 2, 0, AITERM_TURN_DONE, "turn_duration",
	    "Slow answer.", NULL },
	/* No turn_duration after the error: the error is the last record. */
	{ "turn-then-api-error", 2, 1, AITERM_TURN_ERROR, "api_error", NULL,
	    "API Error: 529" },
	/* "error":"rate_limit": the vendor's limit, in its words. */
	{ "usage-limit-then-turn", 2, 0, AITERM_TURN_ERROR, "rate_limited",
	    NULL, "API Error: Request rejected (429)" },
	{ "usage-limit-then-turn", 2, 1, AITERM_TURN_DONE, "turn_duration",
	    "After the limit.", NULL },
	/* A /model between the turns (issue 33): its records are no turn. */
	{ "model-between-turns", 2, 1, AITERM_TURN_DONE, "turn_duration",
	    "ok", NULL },
	/* A pasted image: the prompt is text and image blocks (issue 33). */
	{ "image-prompt", 2, 0, AITERM_TURN_DONE, "turn_duration",
	    "Default answer.", NULL },
	{ "image-prompt", 2, 1, AITERM_TURN_DONE, "turn_duration",
	    "Default answer.", NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL },
};

START_TEST(test_claude2_screens)
{
	const struct aiterm_input_step *k;
	struct harness h;

	check_screens("claude-code", CC2, claude2_screens);
	/* The trust step waits out the 500 ms the screen drops keys. */
	load("claude-code", &h);
	ck_assert_ptr_null(h.ops->startup_keys("trust_folder:to_yes", 0));
	k = h.ops->startup_keys("trust_folder:to_yes", 1);
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(k[0].kind, AITERM_INPUT_PAUSE);
	ck_assert_int_ge(atoi(k[0].arg), 500);
	ck_assert_int_eq(k[1].kind, AITERM_INPUT_KEY);
	ck_assert_str_eq(k[1].arg, "Down");
	ck_assert_int_eq(k[2].kind, AITERM_INPUT_END);
	ck_assert_ptr_null(h.ops->startup_keys("auto_mode_offer", 1));
}
END_TEST

START_TEST(test_claude2_turns)
{
	check_turns("claude-code", CC2, "transcripts", claude2_turns);
}
END_TEST

/* AGT-IMAGE (issue 33): each harness pastes an image's path, then pauses. */
START_TEST(test_attach_image)
{
	static const char *const ids[] = { "claude-code", "codex-cli",
	    "grok-cli", "cursor-cli", NULL };
	const struct aiterm_input_step *k;
	struct harness h;
	size_t i;

	for (i = 0; ids[i] != NULL; i++) {
		load(ids[i], &h);
		ck_assert_uint_ge(h.abi_minor, 3);
		k = h.ops->attach_image;
		ck_assert_ptr_nonnull(k);
		ck_assert_int_eq(k[0].kind, AITERM_INPUT_PASTE);
		ck_assert_ptr_null(k[0].arg);
		ck_assert_int_eq(k[1].kind, AITERM_INPUT_PAUSE);
		ck_assert_int_ge(atoi(k[1].arg), 300);
		ck_assert_int_eq(k[2].kind, AITERM_INPUT_END);
	}
}
END_TEST

START_TEST(test_claude2_approval)
{
	const struct aiterm_input_step *k;
	struct harness h;

	/* The dashed rules and the auto-mode tip are not the subject. */
	check_approval("claude-code", CC2, "permission-bash", 1, "command",
	    "Bash command\nWrite hi to a file\necho hi > x.txt\n"
	    "Do you want to proceed?");
	load("claude-code", &h);
	k = h.ops->approval_keys("approve_once");
	ck_assert_int_eq(k[0].kind, AITERM_INPUT_PAUSE);
	ck_assert_str_eq(k[1].arg, "1");
}
END_TEST

START_TEST(test_claude_launch)
{
	struct aiterm_buf argv = BUF_INIT, env = BUF_INIT;
	struct aiterm_launch_plan plan = { &argv, &env };
	struct aiterm_launch_request req;
	struct aiterm_error err = ERROR_INIT;
	struct harness h;
	char out[64];

	load("claude-code", &h);
	memset(&req, 0, sizeof req);
	req.launch_id = "0123456789abcdef0123456789abcdef";
	req.binary = "/usr/bin/claude";
	req.cwd = "/home/user/project";
	req.model = "sonnet";
	ck_assert_int_eq(h.ops->launch(host_get(), &req, &plan, &err), 0);
	/* The session id is the launch id as a version-4 UUID. */
	ck_assert_int_eq(argv.len, sizeof "/usr/bin/claude\0--session-id\0"
	    "01234567-89ab-4def-8123-456789abcdef\0--model\0sonnet" );
	ck_assert(memcmp(argv.data, "/usr/bin/claude\0--session-id\0"
	    "01234567-89ab-4def-8123-456789abcdef\0--model\0sonnet\0",
	    argv.len) == 0);
	ck_assert_uint_eq(env.len, 0);
	req.model = "a model; rm -rf";
	ck_assert_int_eq(h.ops->launch(host_get(), &req, &plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "model 'a model; rm"));
	ck_assert_int_eq(h.ops->parse_version("2.1.197 (Claude Code)\n", 22,
	    out, sizeof out), 0);
	ck_assert_str_eq(out, "2.1.197");
	buf_free(&argv);
	buf_free(&env);
	error_clear(&err);
}
END_TEST

#define CX "codex-cli-0.171.0"

static const struct screen_case codex_screens[] = {
	{ "onboarding-login", AITERM_SCREEN_ONBOARDING, "login_choice", NULL },
	{ "trust-dialog", AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder",
	    "trust_folder" },
	{ "trust-escaped", AITERM_SCREEN_BLOCKING_DIALOG,
	    "agent_command_center", NULL },
	{ "exited-at-start-untrusted", AITERM_SCREEN_EXITED, "config_error",
	    NULL },
	{ "loading", AITERM_SCREEN_STARTING, "loading", NULL },
	{ "ready", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "trust-accepted", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "answered", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "api-error", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "typed-not-submitted", AITERM_SCREEN_INPUT_READY,
	    "composer_has_text", NULL },
	{ "running", AITERM_SCREEN_RUNNING, "esc_to_interrupt", NULL },
	{ "queued-tab", AITERM_SCREEN_RUNNING, "esc_to_interrupt", NULL },
	{ "approval-exec", AITERM_SCREEN_APPROVAL, "command_approval", NULL },
	/* The usage limit's notice last (AGT-LIMIT); then history. */
	{ "usage-limit", AITERM_SCREEN_RATE_LIMITED, "usage_limit_notice",
	    NULL },
	{ "usage-limit-then-turn", AITERM_SCREEN_INPUT_READY,
	    "composer_empty", NULL },
	{ NULL, 0, NULL, NULL },
};

static const struct turn_case codex_turns[] = {
	{ "plain-turn", 1, 0, AITERM_TURN_DONE, "task_complete", NULL, NULL },
	{ "two-turns", 2, 0, AITERM_TURN_DONE, "task_complete",
	    "Hello, fixture. This is the first answer.", NULL },
	{ "two-turns", 2, 1, AITERM_TURN_DONE, "task_complete",
	    "Second answer, streamed in four chunks.", NULL },
	{ "exec-approved", 1, 0, AITERM_TURN_DONE, "task_complete", NULL,
	    NULL },
	{ "exec-approved-then-denied", 2, 1, AITERM_TURN_ERROR, "interrupted",
	    NULL, "interrupted" },
	{ "error-turn", 1, 0, AITERM_TURN_ERROR, "api_error", NULL,
	    "unexpected status 529" },
	/* task_complete's codex_error_info usage_limit_exceeded. */
	{ "usage-limit-then-turn", 2, 0, AITERM_TURN_ERROR, "rate_limited",
	    NULL, "You\xe2\x80\x99ve hit your usage limit." },
	{ "usage-limit-then-turn", 2, 1, AITERM_TURN_DONE, "task_complete",
	    "Codex after the limit.", NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL },
};

START_TEST(test_codex_screens)
{
	check_screens("codex-cli", CX, codex_screens);
}
END_TEST

START_TEST(test_codex_turns)
{
	check_turns("codex-cli", CX, "rollouts", codex_turns);
}
END_TEST

/* The rollout of a launch: a TUI thread of its cwd started after it. */
START_TEST(test_codex_claim)
{
	struct aiterm_transcript_query q;
	struct harness h;
	size_t len;
	char *text = slurp(CX, "rollouts/plain-turn.jsonl", &len);
	const char *name = "rollout-2026-12-04T03-42-21-01a23f25.jsonl";

	load("codex-cli", &h);
	memset(&q, 0, sizeof q);
	q.cwd = "/home/user/project";
	/* 2026-12-04T03:42:21.878Z is 1796355741878 ms. */
	q.started_ms = 1796355741000;
	ck_assert_int_eq(h.ops->transcript_claim(&q, name, text, len, 0),
	    AITERM_CLAIM_IF_OPEN);
	q.started_ms = 1796355800000;	/* launched after that thread began */
	ck_assert_int_eq(h.ops->transcript_claim(&q, name, text, len, 0), 0);
	q.started_ms = 1796355741000;
	q.cwd = "/home/user/other";
	ck_assert_int_eq(h.ops->transcript_claim(&q, name, text, len, 0), 0);
	q.cwd = "/home/user/project";
	ck_assert_int_eq(h.ops->transcript_claim(&q, "other.jsonl", text, len,
	    0), 0);
	/* The first record not whole yet: cannot tell. */
	ck_assert_int_eq(h.ops->transcript_claim(&q, name, text, 10, 0), -1);
	free(text);
}
END_TEST

START_TEST(test_codex_approval)
{
	check_approval("codex-cli", CX, "approval-exec", 1, "command",
	    "Reason: Create approved.txt for the fixture?\n"
	    "$ touch approved.txt && echo made-it");
	check_approval("codex-cli", CX, "answered", 0, NULL, NULL);
}
END_TEST

#define GK "grok-1.0.41"

static const struct screen_case grok_screens[] = {
	{ "login-splash", AITERM_SCREEN_ONBOARDING, "login_splash", NULL },
	{ "startup-composer", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	{ "composer-typed", AITERM_SCREEN_INPUT_READY, "composer_has_text",
	    NULL },
	/* The composer is drawn while a turn runs: running wins. */
	{ "running-waiting", AITERM_SCREEN_RUNNING, "waiting_for_response",
	    NULL },
	{ "running-responding", AITERM_SCREEN_RUNNING, "responding", NULL },
	/* Recorded on Grok 1.0.41: text still queued is not in the turn. */
	{ "queued-follow-up", AITERM_SCREEN_RUNNING, "queued_follow_up",
	    AITERM_INPUT_QUEUED },
	/* A ghost suggestion after a turn is no typed text. */
	{ "idle-ghost-suggestion", AITERM_SCREEN_INPUT_READY,
	    "composer_ghost_suggestion", NULL },
	{ "idle-after-second-turn", AITERM_SCREEN_INPUT_READY,
	    "composer_ghost_suggestion", NULL },
	{ "idle-after-send-now", AITERM_SCREEN_INPUT_READY,
	    "composer_ghost_suggestion", NULL },
	{ "idle-after-tool", AITERM_SCREEN_INPUT_READY,
	    "composer_ghost_suggestion", NULL },
	{ "error-turn", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "permission-prompt", AITERM_SCREEN_APPROVAL, "permission_prompt",
	    NULL },
	/* GROK_SANDBOX=read-only without bubblewrap: it exits 1. */
	{ "sandbox-refused", AITERM_SCREEN_EXITED, "sandbox_startup_failed",
	    NULL },
	/* A 402: the weekly-limit card, which Shift+x dismisses. */
	{ "weekly-limit-card", AITERM_SCREEN_RATE_LIMITED, "weekly_limit_card",
	    "grok_rate_limit_dialog" },
	{ "weekly-limit-dismissed", AITERM_SCREEN_INPUT_READY,
	    "composer_empty", NULL },
	{ "retries-exhausted", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	/*
	 * Issue 32: the privacy notice above a whole composer (its borders,
	 * the model name) takes nothing: typed text goes to the composer.
	 */
	{ "privacy-notice", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	{ "privacy-notice-after-turn", AITERM_SCREEN_INPUT_READY,
	    "composer_ghost_suggestion", NULL },
	/* A modal over the composer (/privacy, Ctrl+x) takes the keys. */
	{ "privacy-settings-modal", AITERM_SCREEN_UNKNOWN, "composer_covered",
	    NULL },
	{ "shortcuts-overlay", AITERM_SCREEN_UNKNOWN, "composer_covered",
	    NULL },
	/*
	 * The card's words in an answer, and its heading and footer drawn in
	 * the conversation with the composer under them: no card.
	 */
	{ "weekly-limit-words", AITERM_SCREEN_INPUT_READY,
	    "composer_ghost_suggestion", NULL },
	{ "weekly-limit-card-in-log", AITERM_SCREEN_INPUT_READY,
	    "composer_ghost_suggestion", NULL },
	{ NULL, 0, NULL, NULL },
};

/*
 * updates.jsonl of each recorded session; the answers are those that
 * events.jsonl and chat_history.jsonl of the same session give (turn_ended
 * -> its turn_started.turn_number = user.prompt_index -> the last
 * non-empty assistant after it), see the fixture's README.
 */
static const struct turn_case grok_turns[] = {
	{ "turns.updates", 2, 0, AITERM_TURN_DONE, "turn_completed",
	    "First answer, streamed slowly in six parts.", NULL },
	{ "turns.updates", 2, 1, AITERM_TURN_DONE, "turn_completed",
	    "Second answer.", NULL },
	/*
	 * Turn 0 closed cancelled by "send now" and its queued text ran as
	 * Grok's turn 1: one turn here, whose answer is that of the text.
	 */
	{ "sendnow.updates", 3, 0, AITERM_TURN_DONE, "turn_completed",
	    "Answer after send now.", NULL },
	/* A follow-up left in the queue ran as a turn of its own. */
	{ "sendnow.updates", 3, 1, AITERM_TURN_DONE, "turn_completed",
	    "Third answer.", NULL },
	{ "sendnow.updates", 3, 2, AITERM_TURN_DONE, "turn_completed",
	    "Queued turn answer.", NULL },
	{ "tool.updates", 1, 0, AITERM_TURN_DONE, "turn_completed",
	    "The command ran.", NULL },
	{ "error.updates", 1, 0, AITERM_TURN_ERROR, "api_error", NULL,
	    "Bad request (mock 400)" },
	/*
	 * 429s until Grok's retries ran out: stop_reason rate_limit (not a
	 * done turn with no answer), with the last retry's reason.
	 */
	{ "retries.updates", 1, 0, AITERM_TURN_ERROR, "rate_limited", NULL,
	    "API error (status 429 Too Many Requests)" },
	/* The transcript of the weekly-limit card's turn: an error. */
	{ "ratelimit.updates", 1, 0, AITERM_TURN_ERROR, "api_error", NULL,
	    "API error (status 402 Payment Required)" },
	{ NULL, 0, 0, 0, NULL, NULL, NULL },
};

START_TEST(test_grok_screens)
{
	const struct aiterm_input_step *k;
	struct harness h;

	check_screens("grok-cli", GK, grok_screens);
	/* The card is dismissed by Shift+x alone; no start-up screen is. */
	load("grok-cli", &h);
	k = h.ops->startup_keys("grok_rate_limit_dialog", 0);
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(k[0].kind, AITERM_INPUT_KEY);
	ck_assert_str_eq(k[0].arg, "X");
	ck_assert_int_eq(k[1].kind, AITERM_INPUT_END);
	ck_assert_ptr_null(h.ops->startup_keys("trust_folder", 1));
}
END_TEST

START_TEST(test_grok_turns)
{
	check_turns("grok-cli", GK, "sessions", grok_turns);
}
END_TEST

/* Reads turn index of a transcript cut to its first len bytes. */
static enum aiterm_turn_state
grok_turn_at(const struct harness *h, const char *text, size_t len,
    unsigned index, const char **reason, struct aiterm_buf *answer)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_turn t;

	memset(&t, 0, sizeof t);
	buf_reset(answer);
	t.answer = answer;
	ck_assert_int_eq(h->ops->read_turn(host_get(), text, len, index, &t,
	    &err), 0);
	*reason = t.reason;
	return t.state;
}

/*
 * The send-now seam is no completion: cut after the cancelled turn's
 * turn_completed (and after the queued text's prompt), turn 0 still runs.
 * A turn already answered keeps only its own answer when the next has
 * started.
 */
START_TEST(test_grok_seams)
{
	struct aiterm_buf answer = BUF_INIT;
	struct harness h;
	const char *reason, *p;
	size_t len, cut;
	char *text;

	load("grok-cli", &h);
	text = slurp(GK, "sessions/sendnow.updates.jsonl", &len);
	p = strstr(text, "\"cancelTrigger\":\"send_now\"");
	ck_assert_ptr_nonnull(p);
	cut = (size_t)(strchr(p, '\n') - text) + 1;
	ck_assert_int_eq(grok_turn_at(&h, text, cut, 0, &reason, &answer),
	    AITERM_TURN_STARTED);
	ck_assert_str_eq(reason, "send_now");
	ck_assert_uint_eq(h.ops->count_turns(text, cut), 1);
	p = strstr(text, "Do it this way instead");
	cut = (size_t)(strchr(p, '\n') - text) + 1;
	ck_assert_int_eq(grok_turn_at(&h, text, cut, 0, &reason, &answer),
	    AITERM_TURN_STARTED);
	ck_assert_uint_eq(h.ops->count_turns(text, cut), 1);
	free(text);

	text = slurp(GK, "sessions/turns.updates.jsonl", &len);
	p = strstr(text, "Second question");
	cut = (size_t)(strchr(p, '\n') - text) + 1;
	ck_assert_uint_eq(h.ops->count_turns(text, cut), 2);
	ck_assert_int_eq(grok_turn_at(&h, text, cut, 0, &reason, &answer),
	    AITERM_TURN_DONE);
	ck_assert_str_eq(buf_str(&answer),
	    "First answer, streamed slowly in six parts.");
	ck_assert_int_eq(grok_turn_at(&h, text, cut, 1, &reason, &answer),
	    AITERM_TURN_STARTED);
	ck_assert_str_eq(buf_str(&answer), "");
	free(text);
	buf_free(&answer);
}
END_TEST

/* The records of a JSONL fixture, as a JSON array. */
static json_t *
jsonl(const char *case_name, const char *file)
{
	char name[256], *text, *line, *save = NULL;
	json_t *all = json_array(), *o;
	size_t len;

	snprintf(name, sizeof name, "sessions/%s.%s.jsonl", case_name, file);
	text = slurp(GK, name, &len);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if ((o = json_loads(line, 0, NULL)) != NULL)
			json_array_append_new(all, o);
	free(text);
	return all;
}

/* The last non-empty assistant content after chat_history's prompt n. */
static const char *
seed_answer(json_t *chat, json_int_t n)
{
	const char *answer = NULL, *type;
	json_t *r, *pi;
	size_t i;
	bool in = false;

	json_array_foreach(chat, i, r) {
		type = json_string_value(json_object_get(r, "type"));
		pi = json_object_get(r, "prompt_index");
		if (type != NULL && strcmp(type, "user") == 0 &&
		    json_is_integer(pi))
			in = json_integer_value(pi) == n;
		else if (in && type != NULL && strcmp(type, "assistant") == 0 &&
		    json_string_length(json_object_get(r, "content")) > 0)
			answer = json_string_value(json_object_get(r,
			    "content"));
	}
	return answer;
}

/* The integers at key of the records of kind (by type_key) in a. */
static void
ints(json_t *a, const char *type_key, const char *kind, const char *key,
    json_t *out)
{
	json_t *r, *v;
	size_t i;

	json_array_foreach(a, i, r) {
		v = json_object_get(r, key);
		if (kind != NULL && (json_string_value(json_object_get(r,
		    type_key)) == NULL || strcmp(json_string_value(
		    json_object_get(r, type_key)), kind) != 0))
			continue;
		if (json_is_integer(v))
			json_array_append(out, v);
	}
}

/*
 * Issue 32, the seed's rule for a Grok answer: turn_ended -> the
 * turn_started before it -> its turn_number = chat_history's
 * user.prompt_index -> the last non-empty assistant after it.  On every
 * recorded session the plugin's turns, read from updates.jsonl alone, are
 * exactly those (a turn closed by "send now" joins the next, ADR 0012),
 * and updates' promptIndex values are events' turn_number values and
 * chat_history's prompt_index values.
 */
START_TEST(test_grok_seed_rule)
{
	static const char *const cases[] = { "turns", "sendnow", "tool",
	    "error", "ratelimit", "retries", NULL };
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf answer = BUF_INIT;
	json_t *ev, *chat, *up, *open, *e, *a, *b, *c, *prompts;
	const char *type, *outcome, *trig, *want, *k;
	struct aiterm_turn t;
	struct harness h;
	unsigned turn;
	size_t i, j, len;
	char name[256], *text;

	load("grok-cli", &h);
	for (i = 0; cases[i] != NULL; i++) {
		ev = jsonl(cases[i], "events");
		chat = jsonl(cases[i], "chat_history");
		up = jsonl(cases[i], "updates");
		snprintf(name, sizeof name, "sessions/%s.updates.jsonl",
		    cases[i]);
		text = slurp(GK, name, &len);
		turn = 0;
		open = NULL;
		json_array_foreach(ev, j, e) {
			type = json_string_value(json_object_get(e, "type"));
			if (strcmp(type, "turn_started") == 0) {
				open = e;
				continue;
			}
			if (strcmp(type, "turn_ended") != 0 || open == NULL)
				continue;
			outcome = json_string_value(json_object_get(e,
			    "outcome"));
			trig = json_string_value(json_object_get(
			    json_object_get(e, "cancellation_context"),
			    "trigger"));
			want = seed_answer(chat, json_integer_value(
			    json_object_get(open, "turn_number")));
			open = NULL;
			if (strcmp(outcome, "cancelled") == 0 && trig != NULL &&
			    strcmp(trig, "send_now") == 0)
				continue;	/* the seam: the next goes on */
			memset(&t, 0, sizeof t);
			buf_reset(&answer);
			t.answer = &answer;
			ck_assert_int_eq(h.ops->read_turn(host_get(), text, len,
			    turn, &t, &err), 0);
			if (strcmp(outcome, "completed") == 0) {
				ck_assert_msg(t.state == AITERM_TURN_DONE,
				    "%s turn %u: state %d", cases[i], turn,
				    t.state);
				ck_assert_str_eq(buf_str(&answer), want != NULL ?
				    want : "");
			} else
				ck_assert_msg(t.state == AITERM_TURN_ERROR,
				    "%s turn %u (%s): state %d", cases[i], turn,
				    outcome, t.state);
			turn++;
		}
		ck_assert_uint_eq(h.ops->count_turns(text, len), turn);
		/* One numbering: promptIndex = turn_number = prompt_index. */
		a = json_array();
		b = json_array();
		c = json_array();
		ints(ev, "type", "turn_started", "turn_number", a);
		ints(chat, "type", "user", "prompt_index", b);
		json_array_foreach(up, j, e) {
			k = json_string_value(json_object_get(json_object_get(
			    json_object_get(e, "params"), "update"),
			    "sessionUpdate"));
			prompts = json_object_get(json_object_get(
			    json_object_get(json_object_get(e, "params"),
			    "update"), "_meta"), "promptIndex");
			if (k != NULL && strcmp(k, "user_message_chunk") == 0 &&
			    json_is_integer(prompts) && (json_array_size(c) ==
			    0 || !json_equal(json_array_get(c,
			    json_array_size(c) - 1), prompts)))
				json_array_append(c, prompts);
		}
		ck_assert_msg(json_array_size(a) > 0 && json_equal(a, b) &&
		    json_equal(a, c), "%s: turn_number %s, prompt_index %s, "
		    "promptIndex %s", cases[i], json_dumps(a, JSON_COMPACT),
		    json_dumps(b, JSON_COMPACT), json_dumps(c, JSON_COMPACT));
		json_decref(a);
		json_decref(b);
		json_decref(c);
		json_decref(ev);
		json_decref(chat);
		json_decref(up);
		free(text);
	}
	buf_free(&answer);
}
END_TEST

START_TEST(test_grok_approval)
{
	check_approval("grok-cli", GK, "permission-prompt", 1, "command",
	    "Create approved.txt\nrm -f gone.txt && touch approved.txt");
	check_approval("grok-cli", GK, "idle-after-tool", 0, NULL, NULL);
}
END_TEST

START_TEST(test_grok_launch)
{
	struct aiterm_buf argv = BUF_INIT, env = BUF_INIT, dir = BUF_INIT;
	struct aiterm_launch_plan plan = { &argv, &env };
	struct aiterm_transcript_query q;
	struct aiterm_launch_request req;
	struct aiterm_error err = ERROR_INIT;
	static const char want[] = "/usr/bin/grok\0--trust\0-s\0"
	    "01234567-89ab-4def-8123-456789abcdef\0-m\0grok-code-fast-1";
	static const char wantenv[] = "GROK_TELEMETRY_ENABLED=0\0"
	    "GROK_DISABLE_AUTOUPDATER=1";
	const char *envp[] = { NULL, NULL };
	struct harness h;
	char out[64], longcwd[300];
	int depth;
	size_t len;
	char *text;

	load("grok-cli", &h);
	memset(&req, 0, sizeof req);
	req.launch_id = "0123456789abcdef0123456789abcdef";
	req.binary = "/usr/bin/grok";
	req.cwd = "/home/user/project";
	req.model = "grok-code-fast-1";
	ck_assert_int_eq(h.ops->launch(host_get(), &req, &plan, &err), 0);
	/* --trust, and the session id: the launch id as a version-4 UUID. */
	ck_assert_uint_eq(argv.len, sizeof want);
	ck_assert(memcmp(argv.data, want, sizeof want) == 0);
	ck_assert_uint_eq(env.len, sizeof wantenv);
	ck_assert(memcmp(env.data, wantenv, sizeof wantenv) == 0);
	req.model = "a model; rm -rf";
	ck_assert_int_eq(h.ops->launch(host_get(), &req, &plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "model 'a model; rm"));
	ck_assert_int_eq(h.ops->parse_version("grok 1.0.41 (4220f3b224a6)\n",
	    27, out, sizeof out), 0);
	ck_assert_str_eq(out, "1.0.41");

	/* The session folder: the real cwd URL-encoded, then the session id. */
	memset(&q, 0, sizeof q);
	q.launch_id = req.launch_id;
	q.home = "/home/user";
	q.env = envp;
	q.cwd = "/home/user/p q-_.~+@\xc3\xa9";
	ck_assert_int_eq(h.ops->transcript_dir(host_get(), &q, &dir, &depth,
	    &err), 0);
	ck_assert_str_eq(buf_str(&dir), "/home/user/.grok/sessions/"
	    "%2Fhome%2Fuser%2Fp%20q-_.~%2B%40%C3%A9/"
	    "01234567-89ab-4def-8123-456789abcdef");
	ck_assert_int_eq(depth, 0);
	/* Over 255 bytes encoded: slug + hash, found by the session id. */
	memset(longcwd, 'd', sizeof longcwd - 1);
	longcwd[0] = '/';
	longcwd[sizeof longcwd - 1] = '\0';
	q.cwd = longcwd;
	buf_reset(&dir);
	ck_assert_int_eq(h.ops->transcript_dir(host_get(), &q, &dir, &depth,
	    &err), 0);
	ck_assert_str_eq(buf_str(&dir), "/home/user/.grok/sessions");
	ck_assert_int_eq(depth, 2);

	/* The recorded session's id is 0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3. */
	text = slurp(GK, "sessions/turns.updates.jsonl", &len);
	q.launch_id = "0a1b2c3d4e5f4a6b8c7d8e9fa0b1c2d3";
	ck_assert_int_eq(h.ops->transcript_claim(&q, "updates.jsonl", text,
	    len, 0), 1);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "events.jsonl", text,
	    len, 0), 0);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "updates.jsonl", text,
	    10, 0), -1);
	q.launch_id = req.launch_id;
	ck_assert_int_eq(h.ops->transcript_claim(&q, "updates.jsonl", text,
	    len, 0), 0);
	free(text);
	buf_free(&argv);
	buf_free(&env);
	buf_free(&dir);
	error_clear(&err);
}
END_TEST

/*
 * Cursor: screens and transcripts of the stand-in (no recording of the
 * real CLI exists; its screens are assumed, see that folder's README).
 */
#define CU	"cursor-standin-2026.11.20"

static const struct screen_case cursor_screens[] = {
	{ "login", AITERM_SCREEN_ONBOARDING, "login_required", NULL },
	{ "trust", AITERM_SCREEN_BLOCKING_DIALOG, "workspace_trust",
	    "workspace_trust" },
	{ "idle-empty", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "idle-typed", AITERM_SCREEN_INPUT_READY, "composer_has_text",
	    AITERM_INPUT_TYPED },
	{ "running", AITERM_SCREEN_RUNNING, "generating", NULL },
	{ "running-follow-up", AITERM_SCREEN_RUNNING, "follow_up_queued",
	    AITERM_INPUT_QUEUED },
	{ "running-typed", AITERM_SCREEN_RUNNING, "generating",
	    AITERM_INPUT_TYPED },
	/* Issue 33: the limit screen, which Esc dismisses (AGT-LIMIT). */
	{ "usage-limit", AITERM_SCREEN_RATE_LIMITED, "usage_limit_card",
	    "cursor_usage_limit" },
	/* The same box quoted in an answer, the composer under it: no card. */
	{ "usage-limit-words", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	/* A prompt the user's hook refused is the last block (ADR 0017). */
	{ "hook-blocked", AITERM_SCREEN_INPUT_READY, AITERM_USER_HOOK_BLOCKED,
	    NULL },
	{ "hook-blocked-then-turn", AITERM_SCREEN_INPUT_READY,
	    "composer_empty", NULL },
	{ NULL, 0, NULL, NULL },
};

static const struct turn_case cursor_turns[] = {
	{ "two-turns", 2, 0, AITERM_TURN_DONE, "turn_ended",
	    "Cursor first answer.", NULL },
	{ "two-turns", 2, 1, AITERM_TURN_DONE, "turn_ended",
	    "Cursor second answer.", NULL },
	/* The steered text joins turn 0; the prompt after it is turn 1. */
	{ "steered", 2, 0, AITERM_TURN_DONE, "turn_ended",
	    "After the steer.", NULL },
	{ "steered", 2, 1, AITERM_TURN_STARTED, "in_progress", "", NULL },
	{ "error", 1, 0, AITERM_TURN_ERROR, "api_error", NULL,
	    "Bad request (mock 400)" },
	{ NULL, 0, 0, 0, NULL, NULL, NULL },
};

START_TEST(test_cursor_screens)
{
	const struct aiterm_input_step *k;
	struct harness h;

	check_screens("cursor-cli", CU, cursor_screens);
	load("cursor-cli", &h);
	ck_assert_ptr_null(h.ops->startup_keys("workspace_trust", 0));
	k = h.ops->startup_keys("workspace_trust", 1);
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(k[0].kind, AITERM_INPUT_TEXT);
	ck_assert_str_eq(k[0].arg, "a");
	/* The limit screen: Esc, once; never the upgrade key. */
	k = h.ops->startup_keys("cursor_usage_limit", 0);
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(k[0].kind, AITERM_INPUT_KEY);
	ck_assert_str_eq(k[0].arg, "Escape");
	ck_assert_int_eq(k[1].kind, AITERM_INPUT_END);
	/* Submit is CSI 13 u typed after the paste, never a plain Enter. */
	for (k = h.ops->submit; k->kind != AITERM_INPUT_END; k++)
		ck_assert(k->kind != AITERM_INPUT_KEY);
	ck_assert_str_eq(k[-1].arg, "\x1b[13u");
}
END_TEST

START_TEST(test_cursor_turns)
{
	check_turns("cursor-cli", CU, "transcripts", cursor_turns);
}
END_TEST

START_TEST(test_cursor_launch)
{
	struct aiterm_buf argv = BUF_INIT, env = BUF_INIT, dir = BUF_INIT;
	struct aiterm_launch_plan plan = { &argv, &env };
	struct aiterm_transcript_query q;
	struct aiterm_launch_request req;
	struct aiterm_error err = ERROR_INIT;
	static const char want[] = "/opt/cursor-agent\0--model\0sonnet-4";
	const char *envp[] = { NULL };
	struct harness h;
	int depth;

	load("cursor-cli", &h);
	memset(&req, 0, sizeof req);
	req.binary = "/opt/cursor-agent";
	req.cwd = "/home/u/app";
	req.model = "sonnet-4";
	ck_assert_int_eq(h.ops->launch(host_get(), &req, &plan, &err), 0);
	ck_assert_uint_eq(argv.len, sizeof want);
	ck_assert(memcmp(argv.data, want, sizeof want) == 0);
	ck_assert_uint_eq(env.len, 0);
	req.model = "x; rm";
	ck_assert_int_eq(h.ops->launch(host_get(), &req, &plan, &err), -1);
	memset(&q, 0, sizeof q);
	q.home = "/home/u";
	q.env = envp;
	q.cwd = "/home/u/my app.v2";
	q.started_ms = 1000;
	ck_assert_int_eq(h.ops->transcript_dir(host_get(), &q, &dir, &depth,
	    &err), 0);
	ck_assert_str_eq(buf_str(&dir), "/home/u/.cursor/projects/"
	    "home-u-my-app-v2/agent-transcripts");
	ck_assert_int_eq(depth, 1);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "5c658425-e191-41e4-"
	    "adb5-fa437b81448f.jsonl", "{}\n", 3, 2000),
	    AITERM_CLAIM_IF_OPEN);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "5c658425-e191-41e4-"
	    "adb5-fa437b81448f.jsonl", "{}\n", 3, 999), 0);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "5c658425-e191-41e4-"
	    "adb5-fa437b81448f.jsonl", "{", 1, 2000), -1);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "store.db", "{}\n", 3,
	    2000), 0);
	buf_free(&argv);
	buf_free(&env);
	buf_free(&dir);
	error_clear(&err);
}
END_TEST

static Suite *
harness_suite(void)
{
	Suite *s = suite_create("harness");
	TCase *tc = tcase_create("claude-code");

	tcase_add_test(tc, test_claude_screens);
	tcase_add_test(tc, test_claude_turns);
	tcase_add_test(tc, test_claude_approval);
	tcase_add_test(tc, test_claude_launch);
	tcase_add_test(tc, test_claude2_screens);
	tcase_add_test(tc, test_claude2_turns);
	tcase_add_test(tc, test_attach_image);
	tcase_add_test(tc, test_claude2_approval);
	tcase_add_test(tc, test_claude2_models);
	suite_add_tcase(s, tc);
	tc = tcase_create("codex-cli");
	tcase_add_test(tc, test_codex_screens);
	tcase_add_test(tc, test_codex_turns);
	tcase_add_test(tc, test_codex_claim);
	tcase_add_test(tc, test_codex_approval);
	tcase_add_test(tc, test_codex_models);
	suite_add_tcase(s, tc);
	tc = tcase_create("grok-cli");
	tcase_add_test(tc, test_grok_screens);
	tcase_add_test(tc, test_grok_turns);
	tcase_add_test(tc, test_grok_seams);
	tcase_add_test(tc, test_grok_seed_rule);
	tcase_add_test(tc, test_grok_approval);
	tcase_add_test(tc, test_grok_models);
	tcase_add_test(tc, test_grok_launch);
	suite_add_tcase(s, tc);
	tc = tcase_create("cursor-cli");
	tcase_add_test(tc, test_cursor_screens);
	tcase_add_test(tc, test_cursor_turns);
	tcase_add_test(tc, test_cursor_launch);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(harness_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
