/*
 * harness-cursor: changing the model in place (agent_configure, ABI 2.3;
 * ADR 0035).  ASSUMED, like every Cursor screen here: the stand-in's
 * (tests/harness/cursor-standin/screens.cjs) picker, "Select a model",
 * the catalog's ids numbered with "→" at the selected row, Enter to take
 * it, and the note "· Model set to <id>".  Cursor names an effort in its
 * model ids (a separate effort is refused).  A person with the real CLI
 * should capture its /model and make this file match.
 */
#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "hlib.h"

#define ROWS_MAX	32
#define COMMITTED	0x1u
#define HEADING		"Select a model"

const struct aiterm_input_step cursor_model_open[] = {
	{ AITERM_INPUT_TEXT, "/model" },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_TEXT, CURSOR_SUBMIT_KEY },
	{ AITERM_INPUT_END, NULL },
};

void
cursor_model_step(const struct aiterm_screen *s,
    const struct aiterm_model_goal *g, struct aiterm_model_move *m)
{
	struct hl_item rows[ROWS_MAX];
	const char *rest;
	char names[320];
	size_t n, len;
	int at;

	m->next = AITERM_MODEL_WAIT;
	if (hl_has(s, HEADING) &&
	    (n = hl_list(s, HEADING, "\xe2\x86\x92", rows, ROWS_MAX)) > 0) {
		at = g->effort == NULL ?
		    hl_list_find(rows, n, g->model, NULL, false) : -1;
		if (at < 0) {
			m->next = AITERM_MODEL_REFUSED;
			m->keys = hl_escape_keys;
			m->code = g->effort != NULL ? "EFFORT_NOT_OFFERED" :
			    "MODEL_NOT_OFFERED";
			hl_list_names(rows, n, names, sizeof names);
			if (g->effort != NULL)
				snprintf(m->said, sizeof m->said, "Cursor names "
				    "an effort in its model ids (it offers %s); "
				    "leave effort out", names);
			else
				snprintf(m->said, sizeof m->said, "Cursor's "
				    "/model offers %s", names);
			return;
		}
		hl_list_take(rows, n, at, COMMITTED, m);
		return;
	}
	if ((m->state & COMMITTED) != 0 &&
	    hl_line_starting(s, "\xc2\xb7 Model set to ", &rest, &len) &&
	    hl_names_model(rest, len, g->model, NULL)) {
		snprintf(m->model, sizeof m->model, "%.*s", (int)len, rest);
		snprintf(m->said, sizeof m->said, "Model set to %.*s",
		    (int)len, rest);
		m->next = AITERM_MODEL_SET;
	}
}
