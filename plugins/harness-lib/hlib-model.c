/*
 * Helpers for the model pickers of agent CLIs (agent_configure, ABI 2.3):
 * reading a list off the screen, comparing the names a person types with
 * the names a picker shows, and the keys that move through a list.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "hlib.h"

const struct aiterm_input_step hl_up_keys[] = {
	{ AITERM_INPUT_KEY, "Up" }, { AITERM_INPUT_END, NULL } };
const struct aiterm_input_step hl_down_keys[] = {
	{ AITERM_INPUT_KEY, "Down" }, { AITERM_INPUT_END, NULL } };
const struct aiterm_input_step hl_left_keys[] = {
	{ AITERM_INPUT_KEY, "Left" }, { AITERM_INPUT_END, NULL } };
const struct aiterm_input_step hl_right_keys[] = {
	{ AITERM_INPUT_KEY, "Right" }, { AITERM_INPUT_END, NULL } };

void
hl_norm(const char *s, size_t n, char *out, size_t size)
{
	size_t i, o = 0;
	int dash = 0;

	for (i = 0; i < n && o + 1 < size; i++) {
		if (isalnum((unsigned char)s[i])) {
			if (dash && o > 0 && o + 2 < size)
				out[o++] = '-';
			dash = 0;
			out[o++] = (char)tolower((unsigned char)s[i]);
		} else if ((unsigned char)s[i] < 0x80)
			dash = 1;
	}
	out[o] = '\0';
}

bool
hl_names_model(const char *shown, size_t n, const char *model,
    const char *prefix)
{
	char a[160], b[160], c[192];

	hl_norm(shown, n, a, sizeof a);
	hl_norm(model, strlen(model), b, sizeof b);
	if (a[0] == '\0' || b[0] == '\0')
		return false;
	if (strcmp(a, b) == 0)
		return true;
	if (prefix == NULL)
		return false;
	snprintf(c, sizeof c, "%s-%s", prefix, a);
	return strcmp(c, b) == 0;
}

bool
hl_names_family(const char *shown, size_t n, const char *model)
{
	char a[160], b[160];
	size_t k;

	hl_norm(shown, n, a, sizeof a);
	hl_norm(model, strlen(model), b, sizeof b);
	k = strlen(b);
	return k > 0 && strncmp(a, b, k) == 0 && (a[k] == '\0' || a[k] == '-');
}

/* Leading spaces (and no-break spaces) of [p, end). */
static const char *
skip_blank(const char *p, const char *end)
{
	for (;;) {
		if (p < end && *p == ' ')
			p++;
		else if (end - p >= 2 && memcmp(p, "\xc2\xa0", 2) == 0)
			p += 2;
		else
			return p;
	}
}

/*
 * Bytes up to stop (two spaces in a row for a column, " (" for a name's
 * remark, " · " for a description's first part) or the end, without
 * trailing spaces.
 */
static size_t
upto(const char *p, const char *end, const char *stop)
{
	const char *q;
	size_t n = strlen(stop);

	for (q = p; q < end; q++) {
		if ((size_t)(end - q) >= n && memcmp(q, stop, n) == 0)
			break;
	}
	while (q > p && q[-1] == ' ')
		q--;
	return (size_t)(q - p);
}

/* Characters (UTF-8 lead bytes) in [p, q). */
static size_t
columns(const char *p, const char *q)
{
	size_t n = 0;

	for (; p < q; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80)
			n++;
	}
	return n;
}

/* One row at q (after the indentation and marker) into it. */
static void
row(struct hl_item *it, const char *q, const char *nl, bool sel)
{
	size_t d = upto(q, nl, "  ");

	it->label = q;
	it->label_len = upto(q, q + d, " (");
	q = skip_blank(q + d, nl);
	it->desc = q;
	it->desc_len = upto(q, nl, "  ");
	it->selected = sel;
}

size_t
hl_list(const struct aiterm_screen *s, const char *heading,
    const char *marker, struct hl_item *items, size_t max)
{
	const char *p, *end = s->text + s->len, *nl, *q, *from = NULL;
	size_t n = 0, ml = strlen(marker), d, col = 0, at;
	bool sel;

	/* From the line after the last heading. */
	for (p = s->text; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (hl_line_has(p, (size_t)(nl - p), heading))
			from = nl + 1;
		if (nl == end)
			break;
	}
	/*
	 * Numbered rows, and rows without a number (Codex numbers the first
	 * nine only) whose text starts in the labels' column; the list ends
	 * at a blank line after its first row.
	 */
	for (p = from; p != NULL && p < end && n < max; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		q = skip_blank(p, nl);
		if (q == nl && n > 0)
			break;
		sel = (size_t)(nl - q) >= ml && memcmp(q, marker, ml) == 0;
		if (sel)
			q = skip_blank(q + ml, nl);
		for (d = 0; q + d < nl && isdigit((unsigned char)q[d]); d++)
			;
		if (d > 0 && q + d + 1 < nl && q[d] == '.' && q[d + 1] == ' ') {
			q = skip_blank(q + d + 1, nl);
			col = columns(p, q);
			row(&items[n++], q, nl, sel);
		} else if (n > 0 && q < nl) {
			at = columns(p, q);
			if (at + 2 >= col && at <= col + 2)
				row(&items[n++], q, nl, sel);
		}
		if (nl == end)
			break;
	}
	return n;
}

int
hl_list_find(const struct hl_item *items, size_t n, const char *model,
    const char *prefix, bool by_desc)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (hl_names_model(items[i].label, items[i].label_len, model,
		    prefix))
			return (int)i;
	}
	for (i = 0; by_desc && i < n; i++) {
		if (hl_names_model(items[i].desc, upto(items[i].desc,
		    items[i].desc + items[i].desc_len, " \xc2\xb7 "), model,
		    prefix))
			return (int)i;
	}
	return -1;
}

int
hl_list_selected(const struct hl_item *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (items[i].selected)
			return (int)i;
	}
	return -1;
}

const struct aiterm_input_step *
hl_list_toward(const struct hl_item *items, size_t n, int target)
{
	int at = hl_list_selected(items, n);

	if (at < 0 || at == target)
		return NULL;
	return at < target ? hl_down_keys : hl_up_keys;
}

void
hl_list_take(const struct hl_item *items, size_t n, int target,
    unsigned taken, struct aiterm_model_move *m)
{
	m->next = AITERM_MODEL_KEYS;
	if ((m->keys = hl_list_toward(items, n, target)) == NULL) {
		m->keys = hl_enter_keys;
		m->state |= taken;
	}
}

void
hl_list_names(const struct hl_item *items, size_t n, char *out, size_t size)
{
	size_t i, o = 0;
	int w;

	out[0] = '\0';
	for (i = 0; i < n && o < size; i++) {
		w = snprintf(out + o, size - o, "%s%.*s", i > 0 ? ", " : "",
		    (int)items[i].label_len, items[i].label);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}
