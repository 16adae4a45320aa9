/*
 * harness-grok: changing the model in place (agent_configure, ABI 2.3;
 * ADR 0035), seen on Grok Build 1.0.41.  `/model` and Enter list the
 * models (the models endpoint's ids and config.toml's) between two rules
 * above the composer, which shows "/model <model> [effort]"; ❯ marks the
 * row, "(current)" the one in use.  Enter switches and Grok confirms
 * "✓ Default model: <id>": Grok makes it config.toml's default as well,
 * its own behaviour (1.0.41 has no session-only choice).  The effort
 * Grok takes as typed text is not driven: asked for, it is refused.
 */
#include <stdio.h>
#include <string.h>

#include "grok.h"
#include "hlib.h"

#define ROWS_MAX	24
#define COMMITTED	0x1u
#define RULE		"\xe2\x94\x80\xe2\x94\x80"	/* ── */
#define MARKER		"\xe2\x9d\xaf "			/* ❯ */

const struct aiterm_input_step grok_model_open[] = {
	{ AITERM_INPUT_TEXT, "/model" },
	{ AITERM_INPUT_PAUSE, "200" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};
/* Close the list and clear the "/model " it leaves in the composer. */
HL_KEYS(close_keys, { AITERM_INPUT_KEY, "Escape" },
    { AITERM_INPUT_PAUSE, "150" }, { AITERM_INPUT_KEY, "C-u" });

struct line {
	const char	*p;
	size_t		 len;
};

/* The screen's lines, at most max; how many. */
static size_t
lines(const struct aiterm_screen *s, struct line *v, size_t max)
{
	const char *p = s->text, *end = s->text + s->len, *nl;
	size_t n = 0;

	while (p < end && n < max) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		v[n].p = p;
		v[n++].len = (size_t)(nl - p);
		p = nl + 1;
	}
	return n;
}

static const char *
trim(const char *p, size_t *len)
{
	while (*len > 0 && *p == ' ') {
		p++;
		(*len)--;
	}
	while (*len > 0 && p[*len - 1] == ' ')
		(*len)--;
	return p;
}

/* The rows between the last two rules, when the composer asks for a model. */
static size_t
rows(const struct aiterm_screen *s, struct hl_item *items, size_t max)
{
	struct line v[256];
	size_t n = lines(s, v, 256), i, k, len, from = 0, to = 0, got = 0;
	const char *p, *q;
	bool sel;

	if (!hl_has(s, "/model <model>"))
		return 0;
	for (i = n; i-- > 0 && from == 0;) {
		len = v[i].len;
		p = trim(v[i].p, &len);
		if (len >= 6 && memcmp(p, RULE, 6) == 0) {
			if (to == 0)
				to = i;
			else
				from = i + 1;
		}
	}
	for (k = from; from > 0 && k < to && got < max; k++) {
		len = v[k].len;
		p = trim(v[k].p, &len);
		if (len == 0)
			continue;
		sel = len > strlen(MARKER) && memcmp(p, MARKER,
		    strlen(MARKER)) == 0;
		if (sel) {
			p += strlen(MARKER);
			len -= strlen(MARKER);
		}
		/* The name, before its remark and the list's scroll bar. */
		items[got].label = p;
		items[got].label_len = len;
		if ((q = memmem(p, len, "  ", 2)) != NULL)
			items[got].label_len = (size_t)(q - p);
		if ((q = memmem(p, items[got].label_len, " (", 2)) != NULL)
			items[got].label_len = (size_t)(q - p);
		items[got].desc = "";
		items[got].desc_len = 0;
		items[got++].selected = sel;
	}
	return got;
}

void
grok_model_step(const struct aiterm_screen *s,
    const struct aiterm_model_goal *g, struct aiterm_model_move *m)
{
	struct hl_item items[ROWS_MAX];
	const char *rest, *q;
	size_t n, len;
	char names[320];
	int at;

	m->next = AITERM_MODEL_WAIT;
	if ((n = rows(s, items, ROWS_MAX)) > 0) {
		if (g->effort != NULL) {
			m->next = AITERM_MODEL_REFUSED;
			m->code = "EFFORT_NOT_OFFERED";
			m->keys = close_keys;
			snprintf(m->said, sizeof m->said, "Grok's /model list "
			    "sets no effort (agent_configure drives the list "
			    "only; leave effort out)");
			return;
		}
		if ((at = hl_list_find(items, n, g->model, NULL, false)) < 0) {
			hl_list_names(items, n, names, sizeof names);
			m->next = AITERM_MODEL_REFUSED;
			m->code = "MODEL_NOT_OFFERED";
			m->keys = close_keys;
			snprintf(m->said, sizeof m->said, "Grok's /model lists "
			    "%s", names);
			return;
		}
		hl_list_take(items, n, at, COMMITTED, m);
		return;
	}
	if ((m->state & COMMITTED) == 0 ||
	    !hl_line_starting(s, "\xe2\x9c\x93 Default model:", &rest, &len))
		return;
	/* Up to the scroll bar at the right edge. */
	if ((q = memmem(rest, len, "  ", 2)) != NULL)
		len = (size_t)(q - rest);
	if (hl_names_model(rest, len, g->model, NULL)) {
		snprintf(m->model, sizeof m->model, "%.*s", (int)len, rest);
		snprintf(m->said, sizeof m->said, "\xe2\x9c\x93 Default model: "
		    "%.*s", (int)len, rest);
		m->next = AITERM_MODEL_SET;
	}
}
