/*
 * vitest: failing files, tests and their errors; passing files, code
 * frames and rules become counts; the "Test Files" / "Tests" lines and
 * "Duration" stay (padding squeezed).
 *
 * - " ✓ file (3 tests) 2ms" lines are left out ("Test Files" counts
 *   them); " ❯ file (2 tests | 1 failed)", "× test" and "→ message"
 *   lines and everything of a " FAIL  file > test" block stay, but for
 *   blank lines and the code frame ("  4|  ...", "   |   ^"), which one
 *   line per block counts.  A "⎯⎯ Failed Tests 1 ⎯⎯" rule keeps its words.
 * - "RUN  v1.6.0 /path" and "Start at" are left out.
 * Output without a "Tests" summary line is declined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define VT_RULE	"⎯"

/* Summary lines kept (trimmed, squeezed), and those left out. */
static const char *const vt_keep[] = {
	"Test Files ", "Tests ", "Duration ", "Errors ", "Type Errors ",
	NULL,
};
static const char *const vt_drop[] = {
	"RUN ", "Start at ", "✓ ", NULL,
};

static bool
in_table(struct rl_line l, const char *const *table)
{
	size_t i;

	for (i = 0; table[i] != NULL; i++) {
		if (rl_starts(&l, table[i]))
			return true;
	}
	return false;
}

/* A rule of '⎯' with or without words: the words, maybe empty. */
static bool
rule(struct rl_line t, struct rl_line *words)
{
	size_t n = strlen(VT_RULE);

	if (!rl_starts(&t, VT_RULE))
		return false;
	while (t.len >= n && memcmp(t.p, VT_RULE, n) == 0) {
		t.p += n;
		t.len -= n;
	}
	while (t.len >= n && memcmp(t.p + t.len - n, VT_RULE, n) == 0)
		t.len -= n;
	*words = rl_trim(t);
	if (words->len > 0 && words->p[0] == '[')
		words->len = 0;		/* "[1/2]" */
	return true;
}

int
red_vitest(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line l, tr, words;
	struct aiterm_buf *tmp;
	size_t i, left = 0;
	bool summary = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if ((tmp = h->buf_new()) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		l = t.v[i];
		tr = rl_trim(l);
		if (tr.len == 0 || in_table(tr, vt_drop)) {
			left += tr.len > 0 ? 1 : 0;
			continue;
		}
		if (tx_code_frame(tr) && !rl_starts(&tr, ">")) {
			left++;
			continue;
		}
		if (rule(tr, &words)) {
			if (words.len > 0)
				rl_put(h, tmp, &words);
			continue;
		}
		if (in_table(tr, vt_keep)) {
			summary = true;
			rl_put_squeezed(h, tmp, &tr);
			continue;
		}
		rl_put(h, tmp, &l);
	}
	if (summary) {
		if (left > 0)
			h->buf_printf(tmp, "(+%zu lines: passing files, code "
			    "frames)\n", left);
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = 0;
	}
	h->buf_free(tmp);
out:
	rl_lines_free(&t);
	return rc;
}
