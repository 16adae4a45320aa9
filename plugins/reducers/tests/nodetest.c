/*
 * node --test (spec reporter): the failing tests with their error
 * messages, diffs and causes; passing tests, stack frames and the
 * assertion's bookkeeping properties become counts.
 *
 * - Of the tree, suite lines ("▶ parseQuery"), failed tests and suites
 *   ("✖ name (4.7ms)") and the "ℹ tests 15" ... lines are kept; "✔"
 *   and "﹣" lines are counted.  When the reporter repeats the failures
 *   under "✖ failing tests:", the details are shown there only, with
 *   each "test at file:line:col".
 * - Of a failure's details, "at ..." frames, "generatedMessage:",
 *   "code:", "operator:" and lone braces are counted; the message, the
 *   diff, "actual:", "expected:" and "[cause]:" lines stay.
 * Output without an "ℹ tests N" line is declined (TAP and the dot
 * reporter included).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define NT_FAILING	"✖ failing tests:"

/* Details left out of a failure: frames and bookkeeping properties. */
static const char *const nt_noise[] = {
	"at ", "generatedMessage:", "code:", "operator:", NULL,
};

static bool
noise(struct rl_line t)
{
	size_t i;

	if (rl_eq(&t, "}") || rl_eq(&t, "},") || rl_eq(&t, "{"))
		return true;
	for (i = 0; nt_noise[i] != NULL; i++) {
		if (rl_starts(&t, nt_noise[i]))
			return true;
	}
	return false;
}

static bool
mark(struct rl_line t)
{
	return rl_starts(&t, "✔ ") || rl_starts(&t, "✖ ") ||
	    rl_starts(&t, "▶ ") || rl_starts(&t, "﹣ ") || rl_starts(&t, "ℹ ");
}

int
red_node_test(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line l, tr;
	struct aiterm_buf *tmp;
	size_t i, failing = SIZE_MAX, passed = 0, frames = 0, repeated = 0;
	bool summary = false, details;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n && failing == SIZE_MAX; i++) {
		if (rl_eq(&t.v[i], NT_FAILING))
			failing = i;
	}
	if ((tmp = h->buf_new()) == NULL)
		goto out;
	details = false;
	for (i = 0; i < t.n; i++) {
		l = t.v[i];
		tr = rl_trim(l);
		if (i == failing) {
			if (passed > 0 || repeated > 0)
				h->buf_printf(tmp, "(+%zu passing or skipped "
				    "tests, +%zu lines repeated below)\n",
				    passed, repeated);
			passed = 0;
			rl_put(h, tmp, &l);
			details = true;
			continue;
		}
		if (tr.len == 0)
			continue;
		if (rl_starts(&tr, "ℹ tests "))
			summary = true;
		if (rl_starts(&tr, "✔ ") || rl_starts(&tr, "﹣ ")) {
			passed++;
			continue;
		}
		if (mark(tr) || rl_starts(&tr, "test at ")) {
			if (frames > 0)
				h->buf_printf(tmp, "  (+%zu lines)\n", frames);
			frames = 0;
			rl_put(h, tmp, &l);
			if (rl_starts(&tr, "✖ "))
				details = failing == SIZE_MAX || i > failing;
			continue;
		}
		if (!details) {
			repeated++;
			continue;
		}
		if (noise(tr)) {
			frames++;
			continue;
		}
		rl_put(h, tmp, &l);
	}
	if (frames > 0)
		h->buf_printf(tmp, "  (+%zu lines)\n", frames);
	if (passed > 0)
		h->buf_printf(tmp, "(+%zu passing or skipped tests)\n", passed);
	if (summary) {
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = 0;
	}
	h->buf_free(tmp);
out:
	rl_lines_free(&t);
	return rc;
}
