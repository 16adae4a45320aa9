/*
 * harness-gemini: Gemini CLI's screens (0.61.0; recorded in
 * tests/harness/fixtures/gemini-cli-0.61.0/screens), AGT-GEMINI.
 *
 * The composer (" >   Type your message or @path/to/file" when empty)
 * sits between a rule of "─" and the footer ("workspace (/directory)",
 * "sandbox", "/model"); "? for shortcuts" is drawn above the rule when
 * idle.  Gemini draws the composer ~2 s before it takes input: until the
 * banner ("Gemini CLI v...") or a conversation is drawn above it, typed
 * text is lost, so that screen is STARTING.  A turn runs while
 * "(esc to cancel, <n>s)" is drawn; text sent then waits under
 * "Queued (press ↑ to edit):", and runs when the turn ends: while it is
 * drawn the screen is running too (no spinner between the two turns).  An approval is a box with "Allow once",
 * answered at once by its digit.  The sign-in chooser ("How would you
 * like to authenticate") is the user's; the folder-trust question ("Do
 * you trust the files in this folder?") is left to a person: the launch
 * passes --skip-trust (this session only) when trust_project allows it.
 * Shell mode ("!" at an empty box: "shell mode enabled (esc to
 * disable)" above a box that starts with "!") is the user's too: a
 * prompt typed there would run as a shell command.
 */
#include <string.h>

#include "gemini.h"

struct lines {
	const char	*p, *end;
};

/* The next line of l into *s, *n (without its newline). */
static bool
next_line(struct lines *l, const char **s, size_t *n)
{
	const char *nl;

	if (l->p >= l->end)
		return false;
	if ((nl = memchr(l->p, '\n', (size_t)(l->end - l->p))) == NULL)
		nl = l->end;
	*s = l->p;
	*n = (size_t)(nl - l->p);
	l->p = nl + 1;
	return true;
}

static bool
line_has(const char *s, size_t n, const char *what)
{
	return memmem(s, n, what, strlen(what)) != NULL;
}

static bool
has(const struct aiterm_screen *s, const char *what)
{
	return line_has(s->text, s->len, what);
}

/* s without the spaces at both ends. */
static void
trim(const char **s, size_t *n)
{
	while (*n > 0 && **s == ' ') {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && (*s)[*n - 1] == ' ')
		(*n)--;
}

static bool
starts(const char *s, size_t n, const char *what)
{
	size_t w = strlen(what);

	return n >= w && memcmp(s, what, w) == 0;
}

/* A rule: "─" only (at least 8 of them). */
static bool
rule(const char *s, size_t n)
{
	trim(&s, &n);
	if (n < 8 * 3)
		return false;
	for (; n >= 3; s += 3, n -= 3)
		if (memcmp(s, "─", 3) != 0)
			return false;
	return n == 0;
}

/* Lines drawn above the composer before anything is: not a start. */
static bool
noise(const char *s, size_t n)
{
	trim(&s, &n);
	return n == 0 || starts(s, n, "? for shortcuts") ||
	    starts(s, n, "⚠") || starts(s, n, "visual experience.");
}

/*
 * The composer: its line (after its prompt sign: ">", or "*" in YOLO
 * mode) into *c, *cn, and whether something was drawn above its rule;
 * false when there is none.  The last one on the screen: a rule and a
 * quote in an answer above are no composer.
 */
static bool
composer(const struct aiterm_screen *s, const char **c, size_t *cn,
    bool *above)
{
	struct lines l = { s->text, s->text + s->len };
	const char *ln;
	size_t n;
	bool drawn = false, found = false, box = false, ruled = false;

	while (next_line(&l, &ln, &n)) {
		if (rule(ln, n)) {
			ruled = drawn;
			found = true;
			continue;
		}
		if (found) {
			trim(&ln, &n);
			if (starts(ln, n, ">") || starts(ln, n, "*")) {
				*c = ln + 1;
				*cn = n - 1;
				trim(c, cn);
				*above = ruled;
				box = true;
				found = false;
				drawn = true;
				continue;
			}
			if (n > 0 && !starts(ln, n, "Shift+Tab") &&
			    !line_has(ln, n, "accept edits") &&
			    !line_has(ln, n, "YOLO"))
				found = false;
			continue;
		}
		if (!noise(ln, n))
			drawn = true;
	}
	return box;
}

/*
 * What Gemini draws in its empty box (0.61's InputPrompt; recorded in
 * screens/composer-vim-*.txt): the usual hint, and vim mode's in INSERT
 * and NORMAL.  Never typed text: read as such, every new turn would be
 * refused (ADR 0048).  Shell mode's box starts with "!", not ">".
 */
static const char *const placeholders[] = {
	"Type your message or @path/to/file",
	"Press 'Esc' for NORMAL mode.",
	"Press 'i' for INSERT mode.",
	NULL
};

#define SHELL_MODE	"shell mode enabled (esc to disable)"

/* A line of the screen is what, spaces at both ends aside. */
static bool
line_is(const struct aiterm_screen *s, const char *what)
{
	struct lines l = { s->text, s->text + s->len };
	const char *ln;
	size_t n;

	while (next_line(&l, &ln, &n)) {
		trim(&ln, &n);
		if (n == strlen(what) && memcmp(ln, what, n) == 0)
			return true;
	}
	return false;
}

/* The box's line holds nothing typed. */
static bool
box_empty(const char *c, size_t cn)
{
	size_t i;

	for (i = 0; cn > 0 && placeholders[i] != NULL; i++)
		if (starts(c, cn, placeholders[i]))
			return true;
	return cn == 0;
}

void
gemini_classify(const struct aiterm_screen *s, struct aiterm_screen_verdict *v)
{
	const char *c = NULL;
	size_t cn = 0;
	bool above = false, box;

	v->dialog = NULL;
	if (has(s, "How would you like to authenticate") ||
	    has(s, "Waiting for auth")) {
		v->state = AITERM_SCREEN_ONBOARDING;
		v->reason = "vendor_onboarding_required";
		return;
	}
	if (has(s, "Do you trust the files in this folder?")) {
		v->state = AITERM_SCREEN_BLOCKING_DIALOG;
		v->reason = "trust_folder";
		return;
	}
	if (has(s, "Allow once") && (has(s, "No, suggest changes") ||
	    has(s, "Allow execution of"))) {
		v->state = AITERM_SCREEN_APPROVAL;
		v->reason = "tool_approval";
		return;
	}
	box = composer(s, &c, &cn, &above);
	/*
	 * Queued text is submitted when the turn ends: until it is, the
	 * screen is not idle, even between the two (no spinner drawn).
	 */
	if (has(s, "(esc to cancel") || has(s, "Queued (press")) {
		v->state = AITERM_SCREEN_RUNNING;
		v->reason = "esc_to_cancel";
		if (has(s, "Queued (press"))
			v->dialog = AITERM_INPUT_QUEUED;
		else if (box && !box_empty(c, cn))
			v->dialog = AITERM_INPUT_TYPED;
		return;
	}
	/*
	 * Shell mode, the user's ("!" at an empty box): its box starts with
	 * "!", and a prompt typed there would run as a shell command.
	 */
	if (!box && line_is(s, SHELL_MODE)) {
		v->state = AITERM_SCREEN_BLOCKING_DIALOG;
		v->reason = "shell_mode";
		return;
	}
	if (!box) {
		v->state = AITERM_SCREEN_STARTING;
		v->reason = "no_composer";
		return;
	}
	if (!above) {
		v->state = AITERM_SCREEN_STARTING;
		v->reason = "composer_not_ready";
		return;
	}
	v->state = AITERM_SCREEN_INPUT_READY;
	if (box_empty(c, cn)) {
		v->reason = "composer_empty";
	} else {
		v->reason = "composer_has_text";
		v->dialog = AITERM_INPUT_TYPED;
	}
}

const struct aiterm_input_step *
gemini_startup_keys(const char *dialog, int trust_project)
{
	/* The trust question persists its answer: never pressed. */
	(void)dialog;
	(void)trust_project;
	return NULL;
}

static const char *const choices[] = { "approve_once", "approve_session",
	"deny", NULL };

int
gemini_approval(const struct aiterm_host *host, const struct aiterm_screen *s,
    struct aiterm_approval *a)
{
	struct lines l = { s->text, s->text + s->len };
	const char *ln;
	size_t n;
	bool in = false;

	if (!has(s, "Allow once"))
		return 0;
	a->kind = "tool";
	/* "│ ? Shell  touch made.txt │": the tool and what it is given. */
	while (next_line(&l, &ln, &n)) {
		trim(&ln, &n);
		while (starts(ln, n, "│")) {
			ln += 3;
			n -= 3;
			trim(&ln, &n);
		}
		while (n >= 3 && memcmp(ln + n - 3, "│", 3) == 0) {
			n -= 3;
			trim(&ln, &n);
		}
		if (!in && starts(ln, n, "? ")) {
			in = true;
			ln += 2;
			n -= 2;
			trim(&ln, &n);
			if (starts(ln, n, "Shell "))
				a->kind = "command";
			for (; n > 0; ln++, n--) {
				if (*ln == ' ' && n > 1 && ln[1] == ' ')
					continue;	/* one space of a run */
				host->buf_add(a->subject, ln, 1);
			}
			break;
		}
	}
	if (!in)
		return -1;
	a->choices = choices;
	return 1;
}

static const struct aiterm_input_step once_keys[] = {
	{ AITERM_INPUT_TEXT, "1" },
	{ AITERM_INPUT_END, NULL },
};

static const struct aiterm_input_step session_keys[] = {
	{ AITERM_INPUT_TEXT, "2" },
	{ AITERM_INPUT_END, NULL },
};

static const struct aiterm_input_step deny_keys[] = {
	{ AITERM_INPUT_TEXT, "3" },
	{ AITERM_INPUT_END, NULL },
};

const struct aiterm_input_step *
gemini_approval_keys(const char *choice)
{
	if (strcmp(choice, "approve_once") == 0)
		return once_keys;
	if (strcmp(choice, "approve_session") == 0)
		return session_keys;
	if (strcmp(choice, "deny") == 0)
		return deny_keys;
	return NULL;
}
