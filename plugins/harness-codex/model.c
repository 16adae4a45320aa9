/*
 * harness-codex: changing the model in place (agent_configure, ABI 2.3;
 * ADR 0035), seen on Codex 0.171.0.  `/model` opens "Select Model and
 * Effort", a numbered list of its catalog's display names (› marks the
 * row; "↑"/"↓" when it scrolls); Enter on a model opens "Select Reasoning
 * Level for <model>" (Low, Medium, High, Extra high, "More reasoning…"
 * which opens "Advanced Reasoning" with Max); `s` takes it for this
 * session only (Enter would make it the user's default).  Codex confirms
 * "• Model changed to gpt-6-luna high for this session only".
 */
#include <stdio.h>
#include <string.h>

#include "codex.h"
#include "hlib.h"

#define ROWS_MAX	24
/* move->state bits. */
#define COMMITTED	0x1u	/* s pressed on an effort */
#define DOWNPASS	0x2u	/* at the list's top: now looking downward */

#define MARKER		"\xe2\x80\xba"		/* › */
#define MODELS		"Select Model and Effort"
#define LEVELS		"Select Reasoning Level"
#define ADVANCED	"Advanced Reasoning"

const struct aiterm_input_step codex_model_open[] = {
	{ AITERM_INPUT_TEXT, "/model" },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};
HL_KEYS(session_keys, { AITERM_INPUT_KEY, "s" });
/* Back out of one, two or three levels of the picker. */
HL_KEYS(back1_keys, { AITERM_INPUT_KEY, "Escape" });
HL_KEYS(back2_keys, { AITERM_INPUT_KEY, "Escape" },
    { AITERM_INPUT_PAUSE, "150" }, { AITERM_INPUT_KEY, "Escape" });
HL_KEYS(back3_keys, { AITERM_INPUT_KEY, "Escape" },
    { AITERM_INPUT_PAUSE, "150" }, { AITERM_INPUT_KEY, "Escape" },
    { AITERM_INPUT_PAUSE, "150" }, { AITERM_INPUT_KEY, "Escape" });

/* The efforts Codex names, and the rows that show them. */
static const struct {
	const char	*id, *label;
} efforts[] = {
	{ "low", "Low" }, { "medium", "Medium" }, { "high", "High" },
	{ "xhigh", "Extra high" }, { "max", "Max" }, { "ultra", "Ultra" },
};

static const char *
effort_label(const char *id)
{
	char k[32];
	size_t i;

	hl_norm(id, strlen(id), k, sizeof k);
	for (i = 0; i < sizeof efforts / sizeof efforts[0]; i++) {
		if (strcmp(efforts[i].id, k) == 0 ||
		    hl_names_model(efforts[i].label, strlen(efforts[i].label),
		    id, NULL))
			return efforts[i].label;
	}
	return NULL;
}

/* A line that is only the arrow (the list scrolls that way). */
static bool
arrow(const struct aiterm_screen *s, const char *a)
{
	const char *rest;
	size_t len;

	return hl_line_starting(s, a, &rest, &len) && len == 0;
}

static void
refuse(struct aiterm_model_move *m, const char *code,
    const struct aiterm_input_step *keys)
{
	m->next = AITERM_MODEL_REFUSED;
	m->code = code;
	m->keys = keys;
}

static void
keys(struct aiterm_model_move *m, const struct aiterm_input_step *k)
{
	m->next = AITERM_MODEL_KEYS;
	m->keys = k;
}

static void
models(const struct aiterm_screen *s, const struct aiterm_model_goal *g,
    struct aiterm_model_move *m, const struct hl_item *rows, size_t n)
{
	const struct aiterm_input_step *k;
	char names[320];
	int at;

	if ((at = hl_list_find(rows, n, g->model, NULL, false)) >= 0) {
		k = hl_list_toward(rows, n, at);
		keys(m, k != NULL ? k : hl_enter_keys);
		return;
	}
	/* Not on this page: to the top first, then down to the end. */
	if ((m->state & DOWNPASS) == 0 && arrow(s, "\xe2\x86\x91")) {
		keys(m, hl_up_keys);
		return;
	}
	m->state |= DOWNPASS;
	if (arrow(s, "\xe2\x86\x93")) {
		keys(m, hl_down_keys);
		return;
	}
	hl_list_names(rows, n, names, sizeof names);
	refuse(m, "MODEL_NOT_OFFERED", back1_keys);
	snprintf(m->said, sizeof m->said, "Codex's /model offers %s (by name "
	    "or slug, e.g. gpt-6-luna)", names);
}

static void
levels(const struct aiterm_model_goal *g, struct aiterm_model_move *m,
    const struct hl_item *rows, size_t n, bool advanced)
{
	const struct aiterm_input_step *k;
	const char *label;
	char names[256];
	int at;

	if (g->effort == NULL) {
		m->state |= COMMITTED;
		keys(m, session_keys);
		return;
	}
	label = effort_label(g->effort);
	if (label != NULL && (at = hl_list_find(rows, n, label, NULL,
	    false)) >= 0) {
		if ((k = hl_list_toward(rows, n, at)) == NULL) {
			m->state |= COMMITTED;
			k = session_keys;
		}
		keys(m, k);
		return;
	}
	if (label != NULL && !advanced &&
	    (at = hl_list_find(rows, n, "More reasoning", NULL, false)) >= 0) {
		k = hl_list_toward(rows, n, at);
		keys(m, k != NULL ? k : hl_enter_keys);
		return;
	}
	hl_list_names(rows, n, names, sizeof names);
	refuse(m, "EFFORT_NOT_OFFERED", advanced ? back3_keys : back2_keys);
	snprintf(m->said, sizeof m->said, "Codex offers %s for %s (as low, "
	    "medium, high, xhigh, max, ultra)", names, g->model);
}

/* "Model changed to <slug> [<effort>] for this session only". */
static void
confirmed(const struct aiterm_model_goal *g, struct aiterm_model_move *m,
    const char *line, size_t len)
{
	const char *p = line, *end = line + len, *sp, *e;
	size_t n;

	sp = memchr(p, ' ', len);
	n = (size_t)((sp != NULL ? sp : end) - p);
	if (!hl_names_model(p, n, g->model, NULL))
		return;		/* an earlier change's line */
	snprintf(m->model, sizeof m->model, "%.*s", (int)n, p);
	if (sp != NULL && (size_t)(end - sp) > 1 &&
	    strncmp(sp + 1, "for ", 4) != 0) {
		e = memchr(sp + 1, ' ', (size_t)(end - sp - 1));
		snprintf(m->effort, sizeof m->effort, "%.*s",
		    (int)((e != NULL ? e : end) - sp - 1), sp + 1);
	}
	snprintf(m->said, sizeof m->said, "Model changed to %.*s", (int)len,
	    line);
	m->next = AITERM_MODEL_SET;
}

void
codex_model_step(const struct aiterm_screen *s,
    const struct aiterm_model_goal *g, struct aiterm_model_move *m)
{
	struct hl_item rows[ROWS_MAX];
	const char *rest;
	size_t n, len;

	m->next = AITERM_MODEL_WAIT;
	if (hl_has(s, ADVANCED) &&
	    (n = hl_list(s, ADVANCED, MARKER, rows, ROWS_MAX)) > 0)
		levels(g, m, rows, n, true);
	else if (hl_has(s, LEVELS) &&
	    (n = hl_list(s, LEVELS, MARKER, rows, ROWS_MAX)) > 0)
		levels(g, m, rows, n, false);
	else if (hl_has(s, MODELS) &&
	    (n = hl_list(s, MODELS, MARKER, rows, ROWS_MAX)) > 0)
		models(s, g, m, rows, n);
	else if ((m->state & COMMITTED) != 0 &&
	    hl_line_starting(s, "\xe2\x80\xa2 Model changed to ", &rest, &len))
		confirmed(g, m, rest, len);
}
