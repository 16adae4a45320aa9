/*
 * jest: failing suites and tests with their messages and diffs; passing
 * suites, code frames, library stack frames and console.log blocks become
 * counts; the "Test Suites:" / "Tests:" / "Snapshots:" / "Time:" lines
 * stay (their column padding squeezed).
 *
 * - " PASS  file" lines stay when there are at most JS_MAX_PASS of
 *   them, else they are left out (the "Test Suites:" line counts them);
 *   " FAIL  file" and "● title" lines are kept.
 * - Of a failure, blank lines, the code frame but its "> 34 |" line
 *   ("  32 |  ...", "     |   ^"), "at" frames inside node_modules or
 *   node: internals, and console.log/info/debug blocks are left out; one
 *   line per failure counts them ("(+12 lines)").  The message, the diff
 *   and the test's own "at" frames stay.
 * Output without a "Tests:" line or a PASS/FAIL line is declined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define JS_MAX_PASS	20	/* passing files named, at most */

/* The lines of jest's closing summary, kept with padding squeezed. */
static const char *const js_summary[] = {
	"Test Suites:", "Tests:", "Snapshots:", "Time:", NULL,
};

/* console.* blocks that are left out; console.error and .warn stay. */
static const char *const js_console[] = {
	"console.log", "console.info", "console.debug", NULL,
};

static bool
in_table(struct rl_line l, const char *const *table, bool prefix)
{
	size_t i;

	for (i = 0; table[i] != NULL; i++) {
		if (prefix ? rl_starts(&l, table[i]) : rl_eq(&l, table[i]))
			return true;
	}
	return false;
}

static bool
library_frame(struct rl_line t)
{
	return rl_starts(&t, "at ") && (rl_has(&t, "node_modules/") ||
	    rl_has(&t, "(node:") || rl_has(&t, " node:"));
}

int
red_jest(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line l, tr;
	struct aiterm_buf *tmp;
	size_t i, left = 0, npass = 0;
	bool seen = false, summary = false, console = false, dropped = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if ((tmp = h->buf_new()) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		tr = rl_trim(t.v[i]);
		npass += rl_starts(&tr, "PASS ") ? 1 : 0;
	}
	for (i = 0; i < t.n; i++) {
		l = t.v[i];
		tr = rl_trim(l);
		if (console) {
			if (tr.len > 0) {
				left++;
				continue;
			}
			console = false;
		}
		if (rl_starts(&tr, "PASS ") || rl_starts(&tr, "FAIL ") ||
		    rl_starts(&tr, "● ") || in_table(tr, js_summary, true) ||
		    rl_starts(&tr, "Ran all test suites")) {
			if (left > 0)
				h->buf_printf(tmp, "    (+%zu lines)\n", left);
			left = 0;
		}
		if (rl_starts(&tr, "PASS ")) {
			seen = true;
			if (npass <= JS_MAX_PASS)
				rl_put(h, tmp, &l);
			else
				dropped = true;
			continue;
		}
		if (in_table(tr, js_summary, true)) {
			summary = true;
			rl_put_squeezed(h, tmp, &tr);
			continue;
		}
		if (rl_starts(&tr, "Ran all test suites")) {
			dropped = true;
			continue;
		}
		if (rl_starts(&tr, "FAIL ") || rl_starts(&tr, "● ")) {
			seen = true;
			rl_put(h, tmp, &l);
			continue;
		}
		if (tr.len == 0) {
			dropped = true;
			continue;
		}
		if (in_table(tr, js_console, false)) {
			console = true;
			left++;
			continue;
		}
		if ((tx_code_frame(tr) && tr.p[0] != '>') ||
		    library_frame(tr)) {
			left++;
			continue;
		}
		rl_put(h, tmp, &l);
	}
	if (left > 0)
		h->buf_printf(tmp, "    (+%zu lines)\n", left);
	if (seen || summary) {
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = dropped || left > 0 ? 0 : 1;
	}
	h->buf_free(tmp);
out:
	rl_lines_free(&t);
	return rc;
}
