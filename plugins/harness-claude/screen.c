/*
 * Claude Code's screens (2.1.197 and 2.1.332, recorded in
 * tests/harness/fixtures/claude-code-<version>): a table of what a screen
 * shows, first match wins, then the footer and the composer.  The footer
 * (the last line) is the best key: "esc to interrupt" while a turn runs,
 * "? for shortcuts" when idle.  The spinner's word and glyph are random
 * and the welcome box changes with the project: neither is looked at.
 */
#include <stdbool.h>
#include <string.h>

#include "claude.h"
#include "hlib.h"

#define CURSOR		"\xe2\x9d\xaf "	/* U+276F and a space */
#define TRUST_QUESTION	"Is this a project you created or one you trust?"

/* Dialogs and cards, before the footer is looked at. */
static const struct hl_known known[] = {
	{ "Detected a custom API key in your environment", NULL,
	    AITERM_SCREEN_ONBOARDING, "api_key_choice", NULL },
	{ "Select login method", NULL,
	    AITERM_SCREEN_ONBOARDING, "login_method", NULL },
	{ "Unable to connect to Anthropic services", NULL,
	    AITERM_SCREEN_ONBOARDING, "login_preflight_failed", NULL },
	/*
	 * The trust screen: Enter takes the option under the cursor.  2.1.197
	 * lists "1. Yes, I trust this folder" first, under it; 2.1.332 lists
	 * "No, exit" first, under it, without numbers (a digit does
	 * nothing): Down moves to Yes, then it is the first case.  With the
	 * cursor anywhere else the screen is the user's.
	 */
	{ TRUST_QUESTION, CURSOR "1. Yes, I trust this folder",
	    AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder", "trust_folder" },
	{ TRUST_QUESTION, CURSOR "Yes, I trust this folder",
	    AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder", "trust_folder" },
	{ TRUST_QUESTION, CURSOR "No, ", AITERM_SCREEN_BLOCKING_DIALOG,
	    "trust_folder", "trust_folder:to_yes" },
	{ TRUST_QUESTION, NULL, AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder",
	    NULL },
	{ "Choose the text style that looks best with your terminal", NULL,
	    AITERM_SCREEN_BLOCKING_DIALOG, "theme_picker", "theme_picker" },
	{ "Security notes:", "Press Enter to continue",
	    AITERM_SCREEN_BLOCKING_DIALOG, "security_notes",
	    "security_notes" },
	{ "New MCP server found in this project", NULL,
	    AITERM_SCREEN_BLOCKING_DIALOG, "mcp_server_consent",
	    "mcp_server_consent" },
	/*
	 * 2.1.332 offers a user in manual mode to make auto mode the default,
	 * once, ~100 ms after the composer first shows: the user's choice.
	 */
	{ "Make auto mode your default permission mode?", NULL,
	    AITERM_SCREEN_BLOCKING_DIALOG, "auto_mode_offer", NULL },
	{ "Settings Error", "Exit and fix manually",
	    AITERM_SCREEN_BLOCKING_DIALOG, "settings_error", NULL },
	{ "Do you want to proceed?", " 1. Yes",
	    AITERM_SCREEN_APPROVAL, "permission_dialog", NULL },
	{ "Do you want to make this edit to", " 1. Yes",
	    AITERM_SCREEN_APPROVAL, "edit_permission_dialog", NULL },
	{ "Do you want to create ", " 1. Yes",
	    AITERM_SCREEN_APPROVAL, "create_permission_dialog", NULL },
};

/* Grey hints an empty composer shows (2.1.332 after an API error). */
static const char *const placeholders[] = {
	"Resend your message to try again",
	NULL,
};

/*
 * The conversation's blocks (the prompt, an answer or error) and what a
 * turn ended on the usage limit writes as its last block (AGT-LIMIT; ADR
 * 0011): 2.1.332's words for a 429 (an API key) and for a claude.ai
 * login's limit ("You've hit your session limit · resets 3pm"; its line
 * must hold " limit" too, so an answer that merely starts with "You've
 * hit your" is no notice).
 */
static const char *const blocks[] = { CURSOR, "\xe2\x97\x8f ", NULL };
static const char *const limits[] = {
	"API Error: Request rejected (429)",
	"You've hit your ",
	NULL,
};

static bool
placeholder(const char *text, size_t len)
{
	const char *const *p;

	for (p = placeholders; *p != NULL; p++) {
		if (len == strlen(*p) && memcmp(text, *p, len) == 0)
			return true;
	}
	return false;
}

void
claude_classify(const struct aiterm_screen *s, struct aiterm_screen_verdict *v)
{
	const char *footer, *rest, *said;
	size_t flen, rlen, slen;

	if (hl_match_known(s, known, sizeof known / sizeof known[0], v))
		return;
	if (!hl_last_line(s, &footer, &flen)) {
		v->state = AITERM_SCREEN_STARTING;
		v->reason = "blank";
		return;
	}
	if (hl_line_has(footer, flen, "esc to interrupt")) {
		v->state = AITERM_SCREEN_RUNNING;
		v->reason = hl_has(s, "Press up to edit queued messages") ?
		    "running_with_queued_input" : "esc_to_interrupt";
		return;
	}
	/* The composer: its line starts with the prompt glyph. */
	if (hl_line_starting(s, "\xe2\x9d\xaf", &rest, &rlen)) {
		/* A notice, not a card: the composer under it takes a prompt. */
		if (hl_last_block(s, "\xe2\x9d\xaf", blocks, limits, &said,
		    &slen) && (hl_line_has(said, slen, "(429)") ||
		    hl_line_has(said, slen, " limit"))) {
			v->state = AITERM_SCREEN_RATE_LIMITED;
			v->reason = "usage_limit_notice";
			return;
		}
		v->state = AITERM_SCREEN_INPUT_READY;
		v->reason = rlen == 0 || placeholder(rest, rlen) ?
		    "composer_empty" : "composer_has_text";
		return;
	}
	if (hl_has(s, "Welcome to Claude Code")) {
		v->state = AITERM_SCREEN_STARTING;
		v->reason = "welcome";
		return;
	}
	v->state = AITERM_SCREEN_UNKNOWN;
	v->reason = "no_known_screen";
}

/*
 * 2.1.332's dialogs (trust, permission) drop the keys that come within
 * 500 ms of their opening, against a stray key: every answer first waits
 * that long (the dialog may have opened just now).  A digit selects and
 * confirms in Claude's numbered lists; Enter takes the selected; the
 * trust screen's list has no numbers: Down to Yes.
 */
#define ARM_MS	"600"
HL_KEYS(yes_keys, { AITERM_INPUT_PAUSE, ARM_MS }, { AITERM_INPUT_KEY, "1" });
HL_KEYS(deny_keys, { AITERM_INPUT_PAUSE, ARM_MS },
    { AITERM_INPUT_KEY, "Escape" });
HL_KEYS(to_yes_keys, { AITERM_INPUT_PAUSE, ARM_MS },
    { AITERM_INPUT_KEY, "Down" });

/*
 * A pasted prompt does not submit; Enter after it sends the whole text as
 * one prompt (a long one shows as "[Pasted text #1 +N lines]").  The same
 * keys add text to a running turn: Claude queues it, takes it at the next
 * tool boundary, or runs it right after a turn without tools.
 */
const struct aiterm_input_step claude_submit[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "150" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};

const struct aiterm_input_step *
claude_startup_keys(const char *dialog, int trust_project)
{
	/* The theme and the security notes: confirm what is selected. */
	if (strcmp(dialog, "theme_picker") == 0 ||
	    strcmp(dialog, "security_notes") == 0)
		return hl_enter_keys;
	/* Trust and project MCP consent: the launch's own decision. */
	if (!trust_project)
		return NULL;
	if (strcmp(dialog, "trust_folder") == 0 ||
	    strcmp(dialog, "mcp_server_consent") == 0)
		return hl_enter_keys;
	if (strcmp(dialog, "trust_folder:to_yes") == 0)
		return to_yes_keys;
	return NULL;
}

static const char *const choices[] = { "approve_once", "deny", NULL };

/* How far above the question the dialog's subject may start. */
#define SUBJECT_LINES	12

/*
 * Not the subject: 2.1.332 fences the command with dashed rules (U+254C)
 * and may show a "Tip:" about auto mode under the title.
 */
static bool
decoration(const char *p, size_t n)
{
	size_t i;

	if (n >= 5 && memcmp(p, "Tip: ", 5) == 0)
		return true;
	for (i = 0; i + 3 <= n; i += 3) {
		if (memcmp(p + i, "\xe2\x95\x8c", 3) != 0)
			return false;
	}
	return i == n;
}

/*
 * The permission dialog: the tool's title line (" Bash command"), then
 * the subject lines up to "Do you want to proceed?" (2.1.197: command,
 * description; 2.1.332: description, command).
 */
int
claude_approval(const struct aiterm_host *host, const struct aiterm_screen *s,
    struct aiterm_approval *a)
{
	const char *ask = memmem(s->text, s->len, "Do you want to",
	    strlen("Do you want to")), *p, *start, *nl;
	size_t n, lines;

	if (ask == NULL || !hl_has(s, " 1. Yes"))
		return 0;
	/*
	 * Back from the question to the dialog's rule line (U+2500), at most
	 * SUBJECT_LINES lines; without one, the question alone.
	 */
	lines = 0;
	for (start = ask; start > s->text && lines <= SUBJECT_LINES;
	    start--) {
		if (start[-1] == '\n')
			lines++;
		if (start - s->text >= 4 && memcmp(start - 4,
		    "\xe2\x94\x80\n", 4) == 0)
			break;
	}
	if (start == s->text || lines > SUBJECT_LINES)
		start = ask;
	a->kind = hl_has(s, " Bash command") ? "command" : "tool";
	for (p = start; p < ask; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(ask - p));
		if (nl == NULL)
			nl = ask;
		while (p < nl && *p == ' ')
			p++;
		n = (size_t)(nl - p);
		while (n > 0 && p[n - 1] == ' ')
			n--;
		if (n > 0 && !decoration(p, n)) {
			if (host->buf_len(a->subject) > 0)
				host->buf_add(a->subject, "\n", 1);
			host->buf_add(a->subject, p, n);
		}
	}
	/* The question itself, as shown. */
	nl = memchr(ask, '\n', s->len - (size_t)(ask - s->text));
	if (host->buf_len(a->subject) > 0)
		host->buf_add(a->subject, "\n", 1);
	host->buf_add(a->subject, ask, nl != NULL ? (size_t)(nl - ask) :
	    strlen(ask));
	a->choices = choices;
	return 1;
}

const struct aiterm_input_step *
claude_approval_keys(const char *choice)
{
	if (strcmp(choice, "approve_once") == 0)
		return yes_keys;
	if (strcmp(choice, "deny") == 0)
		return deny_keys;
	return NULL;
}
