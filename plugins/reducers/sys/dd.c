/*
 * dd status=progress: the progress lines ("521142272 bytes (521 MB, 497
 * MiB) copied, 1 s, 520 MB/s") before the record counts are left out
 * when dd's own final line follows them; they are counted:
 * "(+1 progress)".  Everything else stays.  Output without the
 * "records in" / "records out" lines and a final "copied" line (dd
 * failed or was interrupted before its summary) is declined.
 */
#include <string.h>

#include "sys.h"

static bool
progress(const struct rl_line *l)
{
	return rl_has(l, " bytes ") && rl_has(l, " copied, ");
}

int
red_dd(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	size_t i, records = SIZE_MAX, dropped = 0;
	bool final = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n; i++) {
		if (records == SIZE_MAX && rl_has(&t.v[i], " records in"))
			records = i;
		else if (progress(&t.v[i])) {
			if (records == SIZE_MAX)
				dropped++;
			else
				final = true;
		}
	}
	if (records == SIZE_MAX || !final || dropped == 0)
		goto out;
	for (i = 0; i < t.n; i++) {
		if ((i >= records || !progress(&t.v[i])) && !rl_blank(&t.v[i]))
			rl_put(h, out, &t.v[i]);
	}
	h->buf_printf(out, "(+%zu progress)\n", dropped);
	rc = 0;
out:
	rl_lines_free(&t);
	return rc;
}
