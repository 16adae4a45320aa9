/*
 * harness-claude: changing the model in place (agent_configure, ABI 2.3;
 * ADR 0035), seen on Claude Code 2.1.332.  `/model` opens "Select model",
 * a numbered list (❯ marks the row) with the effort row "◐ Medium effort
 * ←/→ to adjust" below it; `s` uses the pick for this session only (Enter
 * would save it as the user's default, which Aiterm never does).  With a
 * conversation under way Claude asks "Switch model?" first (1. Yes is
 * selected).  It confirms "Set model to Sonnet 5.5 for this session only
 * with high effort" (the transcript records the same line).
 */
#include <stdio.h>
#include <string.h>

#include "claude.h"
#include "hlib.h"

#define ROWS_MAX	16
/* move->state: the picked row's keys were pressed; the effort last pressed from. */
#define COMMITTED	0x100u
#define EFFORT_SEEN(s)	((s) & 0xffu)

const struct aiterm_input_step claude_model_open[] = {
	{ AITERM_INPUT_TEXT, "/model" },
	{ AITERM_INPUT_PAUSE, "200" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};
HL_KEYS(session_keys, { AITERM_INPUT_KEY, "s" });

/* The effort levels of the picker's row, in the order ←/→ step through. */
static const char *const efforts[] = { "low", "medium", "high", "xhigh", "max",
    NULL };

static int
effort_index(const char *word, size_t n)
{
	char k[32];
	int i;

	hl_norm(word, n, k, sizeof k);
	for (i = 0; efforts[i] != NULL; i++) {
		if (strcmp(efforts[i], k) == 0)
			return i;
	}
	return -1;
}

/* The effort row's level ("Medium" of "◐ Medium effort (default)"), or -1. */
static int
effort_shown(const struct aiterm_screen *s)
{
	const char *p = s->text, *end = s->text + s->len, *nl, *e, *w;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (hl_line_has(p, (size_t)(nl - p), "to adjust") &&
		    (e = memmem(p, (size_t)(nl - p), " effort", 7)) != NULL) {
			for (w = e; w > p && w[-1] != ' '; w--)
				;
			return effort_index(w, (size_t)(e - w));
		}
		if (nl == end)
			break;
	}
	return -1;
}

/* REFUSED with code; the caller writes m->said.  Esc closes the picker. */
static void
refuse(struct aiterm_model_move *m, const char *code)
{
	m->next = AITERM_MODEL_REFUSED;
	m->code = code;
	m->keys = hl_escape_keys;
}

static void
picker(const struct aiterm_screen *s, const struct aiterm_model_goal *g,
    struct aiterm_model_move *m, const struct hl_item *rows, size_t n)
{
	char names[256];
	int at, want = -1, have;

	at = hl_list_find(rows, n, g->model, "claude", true);
	if (at < 0) {
		hl_list_names(rows, n, names, sizeof names);
		refuse(m, "MODEL_NOT_OFFERED");
		snprintf(m->said, sizeof m->said, "Claude Code's /model offers "
		    "%s (or their names, e.g. claude-sonnet-5-5)", names);
		return;
	}
	if ((m->keys = hl_list_toward(rows, n, at)) != NULL) {
		m->next = AITERM_MODEL_KEYS;
		return;
	}
	if (g->effort != NULL) {
		have = effort_shown(s);
		want = effort_index(g->effort, strlen(g->effort));
		if (have < 0 || want < 0) {
			refuse(m, "EFFORT_NOT_OFFERED");
			if (have < 0)
				snprintf(m->said, sizeof m->said, "Claude Code's "
				    "/model has no effort setting for %s",
				    g->model);
			else
				snprintf(m->said, sizeof m->said, "Claude Code's "
				    "/model offers the efforts low, medium, high, "
				    "xhigh, max");
			return;
		}
		if (have != want) {
			/* The level did not move at the last press: its end. */
			if (EFFORT_SEEN(m->state) == (unsigned)have + 1) {
				refuse(m, "EFFORT_NOT_OFFERED");
				snprintf(m->said, sizeof m->said, "Claude Code's "
				    "/model does not offer effort %s for %s",
				    g->effort, g->model);
				return;
			}
			m->state = (m->state & ~0xffu) | ((unsigned)have + 1);
			m->next = AITERM_MODEL_KEYS;
			m->keys = have < want ? hl_right_keys : hl_left_keys;
			return;
		}
	}
	m->state |= COMMITTED;
	m->next = AITERM_MODEL_KEYS;
	m->keys = session_keys;
}

/* "Set model to <model> for this session only with <effort> effort". */
static void
confirmed(const struct aiterm_model_goal *g, struct aiterm_model_move *m,
    const char *rest, size_t len)
{
	const char *end = rest + len, *cut, *w, *e;
	size_t n;

	cut = memmem(rest, len, " for this session", 17);
	if (cut == NULL)
		cut = memmem(rest, len, " with ", 6);
	n = (size_t)((cut != NULL ? cut : end) - rest);
	/* Another model's line is an earlier change's: the new one is coming. */
	if (strcmp(g->model, "default") != 0 &&
	    !hl_names_model(rest, n, g->model, "claude") &&
	    !hl_names_family(rest, n, g->model))
		return;
	snprintf(m->said, sizeof m->said, "Set model to %.*s", (int)len, rest);
	snprintf(m->model, sizeof m->model, "%.*s", (int)n, rest);
	if ((w = memmem(rest, len, " with ", 6)) != NULL &&
	    (e = memmem(w, (size_t)(end - w), " effort", 7)) != NULL)
		snprintf(m->effort, sizeof m->effort, "%.*s", (int)(e - w - 6),
		    w + 6);
	m->next = AITERM_MODEL_SET;
}

void
claude_model_step(const struct aiterm_screen *s,
    const struct aiterm_model_goal *g, struct aiterm_model_move *m)
{
	struct hl_item rows[ROWS_MAX];
	const char *rest;
	size_t n, len;

	m->next = AITERM_MODEL_WAIT;
	if (hl_has(s, "Switch model?") && hl_has(s, "Yes, switch to")) {
		m->next = AITERM_MODEL_KEYS;
		m->keys = hl_enter_keys;
		return;
	}
	if (hl_has(s, "Select model") &&
	    (n = hl_list(s, "Select model", "\xe2\x9d\xaf", rows,
	    ROWS_MAX)) > 0) {
		picker(s, g, m, rows, n);
		return;
	}
	if ((m->state & COMMITTED) != 0 &&
	    hl_line_starting(s, "\xe2\x8e\xbf", &rest, &len) && len > 13 &&
	    memcmp(rest, "Set model to ", 13) == 0)
		confirmed(g, m, rest + 13, len - 13);
}
