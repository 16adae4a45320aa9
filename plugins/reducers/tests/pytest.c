/*
 * pytest: the counts, the expected-failure outcomes and the failures, in
 * the layout of rtk 0.42.0 ("Pytest: 2 passed, 3 failed ...", a rule,
 * "Failures:" with numbered entries of at most three relevant lines).
 *
 * Where RED-FAITHFUL asks for more than rtk prints, this reducer prints
 * more, and nothing else differs:
 *
 * - A FAILED or ERROR summary line is shown as pytest printed it,
 *   "4. FAILED a.py::test_x - reason", where rtk prints "4. [FAIL]
 *   a.py::test_x" and the reason on a line of its own: the line a person
 *   greps for stays whole (RED-FAITHFUL).  No line is cut at 100 or 120
 *   characters.
 * - The ERRORS section (collection errors, setup and teardown errors) is
 *   read like FAILURES; its blocks appear as "N. ERROR collecting x.py"
 *   or "N. ERROR at setup of test_x".  Its ERROR summary line is listed
 *   too, as a FAILED one is.
 * - When the summary counts something rtk's header cannot say (errors,
 *   warnings, deselected ...), the header is pytest's own summary line,
 *   "Pytest: 6 failed, 17 passed, 1 warning, 1 error in 0.14s", and
 *   "Errors:" replaces "Failures:" when nothing failed but something
 *   erred.  "Interrupted: ..." banners are kept.  A run whose collection
 *   failed is therefore never "No tests collected".
 * - Of a failure block the first "E" line and the last one that names
 *   an exception ("E   SyntaxError: ...") are always among the three
 *   lines shown; the other lines shown are rtk's relevant lines that are
 *   not "E" lines, and the lines left out are counted ("… +9 lines").
 * - When more than ten entries would be listed, FAILED and ERROR summary
 *   lines that repeat a block of the same test are dropped first, so
 *   that a failing test's name is not pushed behind "… +N more
 *   failures" by duplicates.
 * - The warnings summary, which rtk leaves out, follows as "Warnings:":
 *   each distinct line once, at most PY_MAX_WARN.
 * - An output without a summary line that this reducer knows is declined,
 *   and so is "no tests ran" when the exit status or an error says that
 *   something went wrong.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tests.h"

#define PY_MAX_FAILURES	10	/* entries listed before "… +N more" */
#define PY_MAX_WARN	12	/* distinct warnings summary lines shown */
#define PY_MAX_XFAIL	10	/* XFAIL/XPASS lines listed */
#define PY_BODY_LINES	3	/* lines shown of a failure block */
#define PY_RULE		"═══════════════════════════════════════"

enum py_state {
	PY_HEADER,
	PY_FAILURES,
	PY_ERRORS,
	PY_SUMMARY,
	PY_WARNINGS,
	PY_OTHER,
};

enum py_kind {
	PY_FAIL_BLOCK,		/* a "___ name ___" block under FAILURES */
	PY_ERROR_BLOCK,		/* a block under ERRORS */
	PY_FAILED_LINE,		/* "FAILED node - reason" */
	PY_ERROR_LINE,		/* "ERROR node - reason" */
};

struct py_entry {
	enum py_kind	 kind;
	struct rl_line	 name;		/* block title, or the node id */
	struct rl_line	 reason;	/* summary lines: after " - " */
	struct rl_line	 line;		/* summary lines: the whole line */
	size_t		 first;		/* blocks: body lines [first, end) */
	size_t		 end;
	bool		 hidden;	/* repeats a block */
	struct rl_line	 node;		/* blocks: a hidden summary's node id */
};

struct py_counts {
	size_t		 passed, failed, skipped, xfailed, xpassed, errors;
	bool		 found;		/* a summary line was seen */
	bool		 other;		/* it counts words rtk does not show */
	struct rl_line	 text;		/* the line without its '=' rules */
};

/* The words of pytest's final line and where each one's count goes. */
static const struct py_word {
	const char	*word;
	size_t		 offset;
} py_words[] = {
	{ "passed", offsetof(struct py_counts, passed) },
	{ "failed", offsetof(struct py_counts, failed) },
	{ "skipped", offsetof(struct py_counts, skipped) },
	{ "xfailed", offsetof(struct py_counts, xfailed) },
	{ "xpassed", offsetof(struct py_counts, xpassed) },
	{ "error", offsetof(struct py_counts, errors) },
	{ "errors", offsetof(struct py_counts, errors) },
	{ NULL, 0 },
};

struct py_run {
	struct py_entry	*e;
	size_t		 ne;
	size_t		*xfail;		/* line indices of XFAIL/XPASS lines */
	size_t		 nxfail;
	size_t		*intr;		/* line indices of "!!! ... !!!" */
	size_t		 nintr;
	size_t		*warn;		/* lines of the warnings summary */
	size_t		 nwarn;
	struct py_counts c;
};

static bool
starts(struct rl_line l, const char *prefix)
{
	return rl_starts(&l, prefix);
}

static struct rl_line
strip_chars(struct rl_line l, const char *set)
{
	while (l.len > 0 && strchr(set, l.p[0]) != NULL) {
		l.p++;
		l.len--;
	}
	while (l.len > 0 && strchr(set, l.p[l.len - 1]) != NULL)
		l.len--;
	return l;
}

/*
 * Parse a final line such as "3 failed, 2 passed in 0.01s" or "no tests
 * ran in 0.00s", bare or between '=' rules, into c.  False when the line
 * is something else.
 */
static bool
parse_summary(struct rl_line l, struct py_counts *c)
{
	struct py_counts n;
	const struct py_word *w;
	const char *p, *end, *word;
	size_t count, wlen;

	memset(&n, 0, sizeof n);
	n.text = strip_chars(l, "= \t");
	p = n.text.p;
	end = p + n.text.len;
	if (starts(n.text, "no tests ran"))
		goto found;
	for (;;) {
		if (!rl_number(&p, end, &count) || p >= end || *p != ' ')
			return false;
		word = ++p;
		while (p < end && *p >= 'a' && *p <= 'z')
			p++;
		wlen = (size_t)(p - word);
		if (wlen == 0)
			return false;
		for (w = py_words; w->word != NULL; w++) {
			if (strlen(w->word) == wlen &&
			    memcmp(w->word, word, wlen) == 0)
				break;
		}
		if (w->word != NULL)
			*(size_t *)(void *)((char *)&n + w->offset) += count;
		if (w->word == NULL || w->offset ==
		    offsetof(struct py_counts, errors))
			n.other = true;
		if ((size_t)(end - p) >= 2 && memcmp(p, ", ", 2) == 0) {
			p += 2;
			continue;
		}
		if ((size_t)(end - p) >= 4 && memcmp(p, " in ", 4) == 0)
			goto found;
		return false;
	}
found:
	n.found = true;
	*c = n;
	return true;
}

static bool
push_index(size_t **v, size_t *n, size_t i)
{
	size_t *nv;

	nv = realloc(*v, (*n + 1) * sizeof **v);
	if (nv == NULL)
		return false;
	nv[(*n)++] = i;
	*v = nv;
	return true;
}

static struct py_entry *
push_entry(struct py_run *r, enum py_kind kind)
{
	struct py_entry *ne;

	ne = realloc(r->e, (r->ne + 1) * sizeof *r->e);
	if (ne == NULL)
		return NULL;
	r->e = ne;
	ne = &r->e[r->ne++];
	memset(ne, 0, sizeof *ne);
	ne->kind = kind;
	return ne;
}

/* "FAILED node - reason": the node id and the whole reason. */
static void
split_summary_line(struct rl_line l, size_t skip, struct py_entry *e)
{
	const char *dash;

	e->line = rl_trim(l);
	l.p += skip;
	l.len -= skip;
	l = rl_trim(l);
	dash = memmem(l.p, l.len, " - ", 3);
	e->name = l;
	if (dash != NULL) {
		e->name.len = (size_t)(dash - l.p);
		e->reason.p = dash + 3;
		e->reason.len = l.len - e->name.len - 3;
	}
}

static void
close_block(struct py_run *r, bool *open, size_t end)
{
	if (*open)
		r->e[r->ne - 1].end = end;
	*open = false;
}

/* A "===" line: a section title, or the final summary. */
static enum py_state
section(struct rl_line l, enum py_state state, struct py_counts *c)
{
	if (rl_has(&l, "test session starts"))
		return PY_HEADER;
	if (rl_has(&l, "FAILURES"))
		return PY_FAILURES;
	if (rl_has(&l, "ERRORS"))
		return PY_ERRORS;
	if (rl_has(&l, "short test summary"))
		return PY_SUMMARY;
	if (rl_has(&l, "warnings summary"))
		return PY_WARNINGS;
	if (parse_summary(l, c))
		return state;
	return PY_OTHER;
}

static bool
parse(const struct rl_lines *t, struct py_run *r)
{
	enum py_state state = PY_HEADER;
	struct py_entry *e;
	struct rl_line l;
	bool open = false;
	size_t i;

	for (i = 0; i < t->n; i++) {
		l = rl_trim(t->v[i]);
		if (starts(l, "===")) {
			close_block(r, &open, i);
			state = section(l, state, &r->c);
			continue;
		}
		if (starts(l, "!!!")) {
			if (strip_chars(l, "! \t").len > 0 &&
			    !push_index(&r->intr, &r->nintr, i))
				return false;
			continue;
		}
		if (!starts(l, "FAILED") && !starts(l, "ERROR") &&
		    parse_summary(l, &r->c))
			continue;
		switch (state) {
		case PY_FAILURES:
		case PY_ERRORS:
			if (starts(l, "___")) {
				close_block(r, &open, i);
				e = push_entry(r, state == PY_FAILURES ?
				    PY_FAIL_BLOCK : PY_ERROR_BLOCK);
				if (e == NULL)
					return false;
				e->name = rl_trim(strip_chars(l, "_"));
				e->first = i + 1;
				open = true;
			}
			break;
		case PY_WARNINGS:
			if (l.len > 0 && !starts(l, "-- Docs:") &&
			    !push_index(&r->warn, &r->nwarn, i))
				return false;
			break;
		case PY_SUMMARY:
			if (starts(l, "FAILED") || starts(l, "ERROR")) {
				e = push_entry(r, starts(l, "FAILED") ?
				    PY_FAILED_LINE : PY_ERROR_LINE);
				if (e == NULL)
					return false;
				split_summary_line(l, starts(l, "FAILED") ?
				    strlen("FAILED") : strlen("ERROR"), e);
			} else if (starts(l, "XFAIL") || starts(l, "XPASS")) {
				if (!push_index(&r->xfail, &r->nxfail, i))
					return false;
			}
			break;
		default:
			break;
		}
	}
	close_block(r, &open, t->n);
	return true;
}

/* The test a block is about: its title without "ERROR collecting" etc. */
static struct rl_line
block_key(struct rl_line name)
{
	static const char *const prefixes[] = {
		"ERROR at setup of ", "ERROR at teardown of ",
		"ERROR collecting ", NULL,
	};
	size_t i, n;

	for (i = 0; prefixes[i] != NULL; i++) {
		n = strlen(prefixes[i]);
		if (rl_starts(&name, prefixes[i])) {
			name.p += n;
			name.len -= n;
			break;
		}
	}
	return name;
}

/*
 * Whether node id "tests/t.py::TestA::test_b[x]" names the test of a
 * block titled "TestA.test_b[x]" (or a collection error of "tests/t.py").
 */
static bool
node_matches(struct rl_line node, struct rl_line key)
{
	const char *sep;
	size_t i = 0, j = 0;

	if (node.len == key.len && memcmp(node.p, key.p, key.len) == 0)
		return true;
	sep = memmem(node.p, node.len, "::", 2);
	if (sep == NULL)
		return false;
	node.len -= (size_t)(sep + 2 - node.p);
	node.p = sep + 2;
	while (i < node.len && j < key.len) {
		if (node.len - i >= 2 && memcmp(node.p + i, "::", 2) == 0 &&
		    key.p[j] == '.') {
			i += 2;
			j++;
		} else if (node.p[i] == key.p[j]) {
			i++;
			j++;
		} else {
			return false;
		}
	}
	return i == node.len && j == key.len;
}

/* Hide the summary lines of kind that repeat a block of kind block. */
static void
hide_repeats(struct py_run *r, enum py_kind kind, enum py_kind block)
{
	size_t i, j;

	for (i = 0; i < r->ne; i++) {
		if (r->e[i].kind != kind || r->e[i].hidden)
			continue;
		for (j = 0; j < r->ne; j++) {
			if (r->e[j].kind == block && node_matches(r->e[i].name,
			    block_key(r->e[j].name))) {
				r->e[i].hidden = true;
				r->e[j].node = r->e[i].name;
				break;
			}
		}
	}
}

static size_t
visible(const struct py_run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->ne; i++)
		n += r->e[i].hidden ? 0 : 1;
	return n;
}

/* rtk's test for a line worth showing of a failure block. */
static bool
relevant(struct rl_line l)
{
	static const char *const words[] = { "assert", "error", NULL };
	size_t i, k, n;

	if (starts(l, ">") || starts(l, "E") || rl_has(&l, ".py:"))
		return true;
	for (k = 0; words[k] != NULL; k++) {
		n = strlen(words[k]);
		for (i = 0; i + n <= l.len; i++) {
			if (strncasecmp(l.p + i, words[k], n) == 0)
				return true;
		}
	}
	return false;
}

/* pytest's "E   message" lines. */
static bool
e_line(struct rl_line l)
{
	return l.len > 0 && l.p[0] == 'E' && (l.len == 1 || l.p[1] == ' ');
}

/* An E line naming an exception: "E   pkg.SomeError: message". */
static bool
exception_line(struct rl_line l)
{
	size_t i = 1, start;

	while (i < l.len && (l.p[i] == ' ' || l.p[i] == '\t'))
		i++;
	start = i;
	while (i < l.len && (l.p[i] == '_' || l.p[i] == '.' ||
	    (l.p[i] >= 'a' && l.p[i] <= 'z') ||
	    (l.p[i] >= 'A' && l.p[i] <= 'Z') ||
	    (l.p[i] >= '0' && l.p[i] <= '9')))
		i++;
	return i > start && i < l.len && l.p[i] == ':' &&
	    l.p[start] >= 'A' && l.p[start] <= 'Z';
}

/* A line of a block as parse() took it: not blank, banner or summary. */
static bool
body_line(struct rl_line l)
{
	struct py_counts c;

	return l.len > 0 && !starts(l, "!!!") && (starts(l, "FAILED") ||
	    starts(l, "ERROR") || !parse_summary(l, &c));
}

static void
put_body_line(const struct aiterm_host *h, struct aiterm_buf *out,
    struct rl_line l)
{
	h->buf_add(out, "     ", 5);
	rl_put(h, out, &l);
}

static void
put_block(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct py_entry *e)
{
	struct rl_line l;
	size_t i, first_e = SIZE_MAX, last_e = SIZE_MAX, room, body = 0;
	size_t shown = 0;

	for (i = e->first; i < e->end; i++) {
		l = rl_trim(t->v[i]);
		if (!body_line(l))
			continue;
		body++;
		if (e_line(l) && first_e == SIZE_MAX)
			first_e = last_e = i;
		if (e_line(l) && exception_line(l))
			last_e = i;
	}
	room = PY_BODY_LINES - (first_e == SIZE_MAX ? 0 :
	    first_e == last_e ? 1 : 2);
	for (i = e->first; i < e->end; i++) {
		l = rl_trim(t->v[i]);
		if (!body_line(l))
			continue;
		if (i != first_e && i != last_e) {
			if (room == 0 || (first_e != SIZE_MAX && e_line(l)) ||
			    !relevant(l))
				continue;
			room--;
		}
		put_body_line(h, out, l);
		shown++;
	}
	if (body > shown)
		h->buf_printf(out, "     … +%zu lines\n", body - shown);
}

/*
 * "2. ERROR at setup of test_x", with the node id of the summary line it
 * stands for when there is one ("tests/a.py::test_x"): the test's file
 * stays in the text (RED-FAITHFUL).
 */
static void
put_title(const struct aiterm_host *h, struct aiterm_buf *out, size_t k,
    const struct py_entry *e)
{
	struct rl_line key = block_key(e->name);
	size_t pre = (size_t)(key.p - e->name.p);

	h->buf_printf(out, e->kind == PY_FAIL_BLOCK ? "%zu. [FAIL] " :
	    "%zu. ", k);
	if (e->node.len > key.len && e->node.p != NULL)
		h->buf_printf(out, "%.*s%.*s\n", (int)pre, e->name.p,
		    (int)e->node.len, e->node.p);
	else
		rl_put(h, out, &e->name);
}

static void
put_entries(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct py_run *r)
{
	const struct py_entry *e;
	size_t i, k = 0, n = visible(r);

	for (i = 0; i < r->ne && k < PY_MAX_FAILURES; i++) {
		e = &r->e[i];
		if (e->hidden)
			continue;
		k++;
		switch (e->kind) {
		case PY_FAIL_BLOCK:
		case PY_ERROR_BLOCK:
			put_title(h, out, k, e);
			put_block(h, out, t, e);
			if (k < n)
				h->buf_add(out, "\n", 1);
			break;
		case PY_FAILED_LINE:
		case PY_ERROR_LINE:
			h->buf_printf(out, "%zu. %.*s\n", k,
			    (int)e->line.len, e->line.p);
			break;
		}
	}
	if (n > PY_MAX_FAILURES)
		h->buf_printf(out, "\n… +%zu more failures\n",
		    n - PY_MAX_FAILURES);
}

/*
 * The warnings summary, which rtk leaves out: each distinct line once
 * (the test that raised it, the warning and its message), at most
 * PY_MAX_WARN of them.
 */
static void
put_warnings(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct py_run *r)
{
	struct rl_line l, m;
	size_t i, j, shown = 0, more = 0;
	bool seen;

	if (r->nwarn == 0)
		return;
	h->buf_add(out, "\nWarnings:\n", strlen("\nWarnings:\n"));
	for (i = 0; i < r->nwarn; i++) {
		l = rl_trim(t->v[r->warn[i]]);
		for (j = 0, seen = false; j < i && !seen; j++) {
			m = rl_trim(t->v[r->warn[j]]);
			seen = m.len == l.len && memcmp(m.p, l.p, l.len) == 0;
		}
		if (seen)
			continue;
		if (shown == PY_MAX_WARN) {
			more++;
			continue;
		}
		h->buf_add(out, "  ", 2);
		rl_put(h, out, &l);
		shown++;
	}
	if (more > 0)
		h->buf_printf(out, "  … +%zu more warning lines\n", more);
}

static void
put_header(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct py_counts *c)
{
	if (c->other) {
		h->buf_printf(out, "Pytest: %.*s\n", (int)c->text.len,
		    c->text.p);
	} else {
		h->buf_printf(out, "Pytest: %zu passed, %zu failed", c->passed,
		    c->failed);
		if (c->skipped > 0)
			h->buf_printf(out, ", %zu skipped", c->skipped);
		if (c->xfailed > 0)
			h->buf_printf(out, ", %zu xfailed", c->xfailed);
		if (c->xpassed > 0)
			h->buf_printf(out, ", %zu xpassed", c->xpassed);
		h->buf_add(out, "\n", 1);
	}
	h->buf_add(out, PY_RULE "\n", strlen(PY_RULE "\n"));
}

static int
build(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out, const struct rl_lines *t, struct py_run *r)
{
	const struct py_counts *c = &r->c;
	struct rl_line l;
	size_t i;
	bool none, extras;

	if (!c->found)
		return -1;
	/* How many it collected and that collecting failed (RED-FAITHFUL). */
	for (i = 0; i < t->n; i++) {
		l = t->v[i];
		if (rl_starts(&l, "collecting ... "))
			l = rl_from(l, 15);
		if (rl_starts(&l, "collected ") && rl_has(&l, " error")) {
			l = rl_trim(l);
			h->buf_printf(out, "%.*s\n", (int)l.len, l.p);
			break;
		}
	}
	none = c->passed == 0 && c->failed == 0 && c->skipped == 0 &&
	    c->xfailed == 0 && c->xpassed == 0 && !c->other;
	if (none) {
		if (r->ne > 0 || r->nintr > 0 || (in->exit_code > 0 &&
		    in->exit_code != 5))
			return -1;
		h->buf_printf(out, "Pytest: No tests collected\n");
		return 0;
	}
	if (visible(r) > PY_MAX_FAILURES) {
		hide_repeats(r, PY_ERROR_LINE, PY_ERROR_BLOCK);
		hide_repeats(r, PY_FAILED_LINE, PY_FAIL_BLOCK);
	}
	extras = c->skipped > 0 || c->xfailed > 0 || c->xpassed > 0 ||
	    r->nxfail > 0 || r->nintr > 0 || visible(r) > 0 || r->nwarn > 0;
	if (c->failed == 0 && c->errors == 0 && c->passed > 0 && !extras) {
		if (c->other)
			h->buf_printf(out, "Pytest: %.*s\n", (int)c->text.len,
			    c->text.p);
		else
			h->buf_printf(out, "Pytest: %zu passed\n", c->passed);
		return 0;
	}
	put_header(h, out, c);
	for (i = 0; i < r->nintr; i++) {
		l = strip_chars(t->v[r->intr[i]], "! \t");
		rl_put(h, out, &l);
	}
	if (r->nxfail > 0) {
		h->buf_add(out, "\nExpected-failure outcomes:\n",
		    strlen("\nExpected-failure outcomes:\n"));
		for (i = 0; i < r->nxfail && i < PY_MAX_XFAIL; i++) {
			l = rl_trim(t->v[r->xfail[i]]);
			h->buf_add(out, "  ", 2);
			rl_put(h, out, &l);
		}
		if (r->nxfail > PY_MAX_XFAIL)
			h->buf_printf(out, "  … +%zu more\n",
			    r->nxfail - PY_MAX_XFAIL);
	}
	put_warnings(h, out, t, r);
	if (visible(r) == 0)
		return 0;
	h->buf_printf(out, "\n%s:\n", c->failed == 0 && c->errors > 0 ?
	    "Errors" : "Failures");
	put_entries(h, out, t, r);
	return 0;
}

int
red_pytest(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct py_run r;
	int rc = -1;

	memset(&r, 0, sizeof r);
	if (!rl_split(in, &t))
		return -1;
	if (parse(&t, &r))
		rc = build(h, in, out, &t, &r);
	free(r.e);
	free(r.xfail);
	free(r.intr);
	free(r.warn);
	rl_lines_free(&t);
	return rc;
}
