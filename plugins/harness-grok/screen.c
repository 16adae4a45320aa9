/*
 * Grok Build's screens (1.0.41, recorded in tests/harness/fixtures/
 * grok-1.0.41), AGT-GROK.  The composer ("│ ❯" in a rounded box whose
 * bottom border carries the model name) is drawn the whole time, also
 * while a turn runs and under the login splash, so what is looked at
 * first is what is drawn over or beside it: the splash ("Login with
 * Grok"), the permission prompt ("Yes, proceed" with numbered choices),
 * the weekly-limit card, then "[stop]" / "Ctrl+c:cancel" (a turn runs:
 * "Waiting for response…", "Responding…", a tool), and only then the
 * composer.  After a turn the composer may hold a ghost prompt suggestion
 * ("Tab/→:accept suggestion"): that is an empty composer.
 *
 * The composer takes input only when it is whole and the last box on the
 * screen: its top border, its "│ ❯" line and its bottom border with the
 * model name.  The privacy notice ("Help improve Grok … [Opt out] [Opt
 * in]") is drawn above it and leaves it whole: typed text goes to the
 * composer.  A modal drawn over it (the settings it leads to, /privacy;
 * the shortcuts, Ctrl+x) cuts its borders and takes the keys: that screen
 * is composer_covered, and nothing is typed.
 *
 * A card is its heading and its footer together: the heading a "┃" line,
 * the footer the screen's last line, and only the card's own "┃" lines
 * between them.  The same words in the conversation, or a card with later
 * UI under it, are no card.
 */
#include <ctype.h>
#include <string.h>

#include "grok.h"
#include "hlib.h"

#define COMPOSER	"\xe2\x94\x82 \xe2\x9d\xaf"	/* "│ ❯" */
#define BAR		"\xe2\x94\x83"			/* "┃" */
#define VBAR		"\xe2\x94\x82"			/* "│" */
#define DASH		"\xe2\x94\x80"			/* "─" */
#define TOP_LEFT	"\xe2\x95\xad"			/* "╭" */
#define TOP_RIGHT	"\xe2\x95\xae"			/* "╮" */
#define BOTTOM_LEFT	"\xe2\x95\xb0"			/* "╰" */
#define BOTTOM_RIGHT	"\xe2\x95\xaf"			/* "╯" */

/* Screens drawn over the composer, words that are nowhere else. */
static const struct hl_known known[] = {
	{ "Login with Grok", NULL, AITERM_SCREEN_ONBOARDING, "login_splash",
	    NULL },
	{ "Yes, proceed", "No, reject", AITERM_SCREEN_APPROVAL,
	    "permission_prompt", NULL },
};

/* A usage-limit card: its heading ("┃" line) and its footer (last line). */
struct card {
	const char	*heading, *footer, *reason, *dialog;
};

/*
 * The weekly-limit card Grok draws over a turn that ended on a 402
 * (recorded on 1.0.41): "You hit your weekly limit." with Upgrade / Buy
 * more credits / Try Again, the footer "… Shift+x:dismiss".
 */
static const struct card cards[] = {
	{ "You hit your weekly limit.", "Shift+x:dismiss",
	    "weekly_limit_card", "grok_rate_limit_dialog" },
};

static bool
starts(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(p, prefix, k) == 0;
}

static bool
ends(const char *p, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(p + n - k, suffix, k) == 0;
}

/* A box-drawing character (U+2500-U+257F) at p. */
static bool
box_char(const char *p, size_t n)
{
	return n >= 3 && (unsigned char)p[0] == 0xe2 &&
	    ((unsigned char)p[1] == 0x94 || (unsigned char)p[1] == 0x95);
}

/* How many bytes of "─" p starts with. */
static size_t
dashes(const char *p, size_t n)
{
	size_t i = 0;

	while (n - i >= 3 && memcmp(p + i, DASH, 3) == 0)
		i += 3;
	return i;
}

/*
 * The line above *at (the start of the line below it, or the end of the
 * text), without its leading and trailing blanks; *at moves to its start.
 */
static bool
up(const struct aiterm_screen *s, const char **at, const char **p,
    size_t *n)
{
	const char *b, *e = *at;

	if (e <= s->text)
		return false;
	if (e[-1] == '\n')
		e--;
	for (b = e; b > s->text && b[-1] != '\n'; b--)
		;
	*at = b;
	while (b < e && *b == ' ')
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\r'))
		e--;
	*p = b;
	*n = (size_t)(e - b);
	return true;
}

/* "╭───…───╮": a top border no other box cuts. */
static bool
top_border(const char *p, size_t n)
{
	return starts(p, n, TOP_LEFT) && ends(p, n, TOP_RIGHT) && n >= 6 &&
	    dashes(p + 3, n - 6) == n - 6;
}

/* "╰───… model ─╯": the bottom border with the model name, uncut. */
static bool
model_footer(const char *p, size_t n)
{
	size_t i, lead, label = 0;

	if (!starts(p, n, BOTTOM_LEFT) || !ends(p, n, BOTTOM_RIGHT) || n < 6)
		return false;
	p += 3;
	n -= 6;
	if ((lead = dashes(p, n)) == 0)
		return false;
	p += lead;
	n -= lead;
	while (n >= 3 && memcmp(p + n - 3, DASH, 3) == 0)
		n -= 3;
	if (n < 3 || p[0] != ' ' || p[n - 1] != ' ')
		return false;
	for (i = 0; i < n; i++) {
		if (box_char(p + i, n - i))
			return false;
		label += !isspace((unsigned char)p[i]);
	}
	return label > 0;
}

/*
 * The composer, whole and the last box on the screen: the text of its
 * "│ ❯" line in *text, *len (without the border and padding).
 */
static bool
composer(const struct aiterm_screen *s, const char **text, size_t *len)
{
	const char *at = s->text + s->len, *p, *first = NULL;
	size_t n, fn = 0;

	do {
		if (!up(s, &at, &p, &n))
			return false;
	} while (!starts(p, n, BOTTOM_LEFT));
	if (!model_footer(p, n))
		return false;
	while (up(s, &at, &p, &n) && starts(p, n, VBAR) && ends(p, n, VBAR)) {
		first = p;
		fn = n;
	}
	if (first == NULL || !top_border(p, n) || !starts(first, fn, COMPOSER) ||
	    fn < strlen(COMPOSER) + strlen(VBAR))
		return false;
	first += strlen(COMPOSER);
	fn -= strlen(COMPOSER) + strlen(VBAR);
	while (fn > 0 && *first == ' ')
		first++, fn--;
	while (fn > 0 && first[fn - 1] == ' ')
		fn--;
	*text = first;
	*len = fn;
	return true;
}

/* The card of c is the current screen: heading, its lines, footer. */
static bool
card_shown(const struct aiterm_screen *s, const struct card *c)
{
	const char *at = s->text + s->len, *p;
	size_t n;

	do {
		if (!up(s, &at, &p, &n))
			return false;
	} while (n == 0);
	if (!hl_line_has(p, n, c->footer))
		return false;
	while (up(s, &at, &p, &n)) {
		if (n == 0)
			continue;
		if (!starts(p, n, BAR))
			return false;	/* later UI under the heading */
		p += 3;
		n -= 3;
		while (n > 0 && *p == ' ')
			p++, n--;
		if (n == strlen(c->heading) && memcmp(p, c->heading, n) == 0)
			return true;
	}
	return false;
}

void
grok_classify(const struct aiterm_screen *s, struct aiterm_screen_verdict *v)
{
	const char *text, *rest;
	size_t i, n;

	if (hl_match_known(s, known, sizeof known / sizeof known[0], v))
		return;
	for (i = 0; i < sizeof cards / sizeof cards[0]; i++) {
		if (card_shown(s, &cards[i])) {
			v->state = AITERM_SCREEN_RATE_LIMITED;
			v->reason = cards[i].reason;
			v->dialog = cards[i].dialog;
			return;
		}
	}
	if (hl_has(s, "[stop]") || hl_has(s, "Ctrl+c:cancel")) {
		v->state = AITERM_SCREEN_RUNNING;
		v->reason = hl_has(s, "Queued \xc2\xb7 Enter to send now") ?
		    "queued_follow_up" : hl_has(s, "Responding\xe2\x80\xa6") ?
		    "responding" : hl_has(s, "Waiting for response") ?
		    "waiting_for_response" : "stop_shown";
		/* Text still queued after "send now": not in the turn (ADR 0012). */
		if (strcmp(v->reason, "queued_follow_up") == 0)
			v->dialog = AITERM_INPUT_QUEUED;
		return;
	}
	if (composer(s, &text, &n)) {
		v->state = AITERM_SCREEN_INPUT_READY;
		if (n == 0 || (n == strlen("Type a message...") &&
		    memcmp(text, "Type a message...", n) == 0))
			v->reason = "composer_empty";
		else if (hl_has(s, "accept suggestion"))
			v->reason = "composer_ghost_suggestion";
		else
			v->reason = "composer_has_text";
		return;
	}
	/* A modal over the composer takes the keys: not ready. */
	if (hl_line_starting(s, COMPOSER, &rest, &n)) {
		v->state = AITERM_SCREEN_UNKNOWN;
		v->reason = "composer_covered";
		return;
	}
	/*
	 * A sandbox Grok cannot set up (a read-only profile without
	 * bubblewrap, a symlinked hooks path): it prints why and exits 1.
	 * Aiterm reports it; it never lifts the sandbox or copies hooks.
	 */
	if (hl_has(s, "Refusing to start") && hl_has(s, "sandbox")) {
		v->state = AITERM_SCREEN_EXITED;
		v->reason = "sandbox_startup_failed";
		return;
	}
	v->state = s->len == 0 || !hl_last_line(s, &text, &n) ?
	    AITERM_SCREEN_STARTING : AITERM_SCREEN_UNKNOWN;
	v->reason = v->state == AITERM_SCREEN_STARTING ? "blank" :
	    "no_known_screen";
}

/* Shift+x dismisses the weekly-limit card; nothing is bought or retried. */
HL_KEYS(dismiss_keys, { AITERM_INPUT_KEY, "X" });

const struct aiterm_input_step *
grok_startup_keys(const char *dialog, int trust_project)
{
	size_t i;

	/* --trust passes the cwd's trust; no start-up screen is answered. */
	(void)trust_project;
	for (i = 0; dialog != NULL && i < sizeof cards / sizeof cards[0]; i++)
		if (strcmp(dialog, cards[i].dialog) == 0)
			return dismiss_keys;
	return NULL;
}

/* A digit answers the permission prompt at once. */
HL_KEYS(yes_keys, { AITERM_INPUT_KEY, "2" });
HL_KEYS(no_keys, { AITERM_INPUT_KEY, "3" });

static const char *const choices[] = { "approve_once", "deny", NULL };

/* "2 (○) Yes, proceed": a number, then a radio button (● or ○). */
static bool
choice_line(const char *q, size_t n)
{
	size_t i = 0;

	while (i < n && isdigit((unsigned char)q[i]))
		i++;
	return i > 0 && n - i >= 5 && q[i] == ' ' && q[i + 1] == '(' &&
	    (memcmp(q + i + 2, "\xe2\x97\x8f", 3) == 0 ||
	    memcmp(q + i + 2, "\xe2\x97\x8b", 3) == 0);
}

/*
 * The permission prompt: lines starting with "┃" (U+2503); the subject is
 * their text up to the numbered choices, without the scope hint.
 */
int
grok_approval(const struct aiterm_host *host, const struct aiterm_screen *s,
    struct aiterm_approval *a)
{
	const char *p = s->text, *end = s->text + s->len, *nl, *q;
	size_t n;

	if (!hl_has(s, "Yes, proceed") || !hl_has(s, "No, reject"))
		return 0;
	a->kind = hl_has(s, "Never allow: ") ? "command" : "tool";
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		q = p;
		while (q < nl && *q == ' ')
			q++;
		if ((size_t)(nl - q) < 3 || memcmp(q, BAR, 3) != 0)
			continue;
		q += 3;
		while (q < nl && *q == ' ')
			q++;
		n = (size_t)(nl - q);
		while (n > 0 && q[n - 1] == ' ')
			n--;
		if (choice_line(q, n))
			break;	/* the choices */
		if (n == 0 || hl_line_has(q, n, "narrow scope"))
			continue;
		if (host->buf_len(a->subject) > 0)
			host->buf_add(a->subject, "\n", 1);
		host->buf_add(a->subject, q, n);
		if (nl == end)
			break;
	}
	a->choices = choices;
	return 1;
}

const struct aiterm_input_step *
grok_approval_keys(const char *choice)
{
	if (strcmp(choice, "approve_once") == 0)
		return yes_keys;
	if (strcmp(choice, "deny") == 0)
		return no_keys;
	return NULL;
}
