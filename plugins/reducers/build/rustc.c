/*
 * cargo build / check / clippy / run (rustc's diagnostics).  Re-laid out,
 * nothing lost: the gutter lines that hold only a "|" go (they frame a
 * source line and carry nothing), and cargo's progress bar drawn in front
 * of a diagnostic ("    Building [====>   ] 3/7: x(bin)   error[E0308]:
 * ...") goes from that line.  Every diagnostic, source line, caret line,
 * note, help and summary stays as it is.  Returns 1; declines output with
 * no diagnostic (a clean build is short already) and when nothing would
 * change.
 */
#include <string.h>

#include "build.h"

/* A line that is only a gutter: blanks, one '|', blanks. */
static bool
gutter(const struct rl_line *l)
{
	size_t i = 0;

	while (i < l->len && l->p[i] == ' ')
		i++;
	if (i == 0 || i >= l->len || l->p[i] != '|')
		return false;
	for (i++; i < l->len; i++) {
		if (l->p[i] != ' ')
			return false;
	}
	return true;
}

/* Where a diagnostic starts after cargo's progress bar, else 0. */
static size_t
after_bar(const struct rl_line *l)
{
	static const char *const heads[] = { "error", "warning" };
	struct rl_line t = rl_trim(*l);
	size_t i, k, n;

	if (!rl_starts(&t, "Building ["))
		return 0;
	for (i = 0; i < l->len; i++) {
		for (k = 0; k < sizeof heads / sizeof heads[0]; k++) {
			n = strlen(heads[k]);
			if (i > 0 && l->p[i - 1] == ' ' && l->len - i > n &&
			    memcmp(l->p + i, heads[k], n) == 0 &&
			    (l->p[i + n] == ':' || l->p[i + n] == '['))
				return i;
		}
	}
	return 0;
}

int
red_rustc(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line rest;
	size_t i, at, changed = 0, diags = 0;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n; i++) {
		rest = rl_trim(t.v[i]);
		if (rl_starts(&rest, "error") || rl_starts(&rest, "warning") ||
		    after_bar(&t.v[i]) > 0)
			diags++;
	}
	if (diags == 0)
		goto out;
	for (i = 0; i < t.n; i++) {
		if (gutter(&t.v[i])) {
			changed++;
		} else if ((at = after_bar(&t.v[i])) > 0) {
			rest = rl_from(t.v[i], at);
			rl_put(h, out, &rest);
			changed++;
		} else {
			rl_put(h, out, &t.v[i]);
		}
	}
	rc = changed > 0 ? 1 : -1;
out:
	rl_lines_free(&t);
	return rc;
}
