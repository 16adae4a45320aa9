/*
 * systemctl status: nothing is left out, the layout is tighter.
 *
 * - The unit block ("× nginx.service - ...", "Loaded:", "Active:" ...)
 *   is squeezed: its right-aligned labels lose their padding.
 * - The journal lines after it that share a timestamp and host are
 *   grouped under one "Jun 14 09:12:44 web-02:" line, each line keeping
 *   the rest ("  systemd[1]: Failed to start ...").  The blank line
 *   before the journal goes.
 * Output without a "Loaded:" line (an unknown unit, an error) is
 * declined.
 */
#include <string.h>

#include "sys.h"

/* The length of "Jun 14 09:12:44 host " at the start of l, or 0. */
static size_t
journal_prefix(struct rl_line l)
{
	size_t i;

	if (l.len < 17 || l.p[3] != ' ' || l.p[6] != ' ' || l.p[9] != ':' ||
	    l.p[12] != ':' || l.p[15] != ' ')
		return 0;
	for (i = 16; i < l.len && l.p[i] != ' '; i++)
		;
	return i < l.len ? i + 1 : 0;
}

static bool
same_prefix(struct rl_line a, struct rl_line b, size_t n)
{
	return n > 0 && journal_prefix(b) == n && memcmp(a.p, b.p, n) == 0;
}

int
red_systemctl_status(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line rest;
	size_t i, n, start;
	bool loaded = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n && !loaded; i++) {
		rest = rl_trim(t.v[i]);
		loaded = rl_starts(&rest, "Loaded:");
	}
	if (!loaded)
		goto out;
	for (i = 0; i < t.n; i++) {
		n = journal_prefix(t.v[i]);
		if (rl_blank(&t.v[i]) && i + 1 < t.n &&
		    journal_prefix(t.v[i + 1]) > 0)
			continue;
		if (n == 0 || i + 1 >= t.n || !same_prefix(t.v[i], t.v[i + 1],
		    n)) {
			rl_put_squeezed(h, out, &t.v[i]);
			continue;
		}
		h->buf_printf(out, "%.*s:\n", (int)(n - 1), t.v[i].p);
		for (start = i; i < t.n && same_prefix(t.v[start], t.v[i], n);
		    i++) {
			rest = rl_from(t.v[i], n);
			h->buf_add(out, "  ", 2);
			rl_put(h, out, &rest);
		}
		i--;
	}
	rc = 1;
out:
	rl_lines_free(&t);
	return rc;
}
