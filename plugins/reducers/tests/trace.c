/*
 * Scripts run by node and python, and python's unittest: the program's
 * own output and its stack traces, without the runtime's insides.
 *
 * - A run of node stack frames inside node itself ("    at ModuleJob.run
 *   (node:internal/modules/esm/module_job:325:25)", "at Object.openSync
 *   (node:fs:573:18)") becomes one line "    at … (+3 frames in node)".
 *   The program's own frames, the message and the source line with its
 *   caret are kept.
 * - Python's position markers under a traceback's source line ("    ^^^^",
 *   "    ~~~~^^^") are left out, except in the last frame of a traceback,
 *   where the exception was raised; a last line counts them.
 * Output with none of these is declined (the generic stages keep it).
 */
#include <string.h>

#include "tests.h"

/* "    at f (node:fs:573:18)" or "    at node:internal/x:1:2". */
static bool
node_frame(struct rl_line l)
{
	struct rl_line t = rl_trim(l);

	return rl_starts(&t, "at ") && (rl_has(&t, "(node:") ||
	    rl_starts(&t, "at node:") || rl_starts(&t, "at async node:"));
}

/* A line of only blanks, '~' and at least one '^'. */
static bool
py_carets(struct rl_line l)
{
	size_t i;
	bool caret = false;

	if (l.len == 0 || l.p[0] != ' ')
		return false;
	for (i = 0; i < l.len; i++) {
		if (l.p[i] == '^')
			caret = true;
		else if (l.p[i] != ' ' && l.p[i] != '~')
			return false;
	}
	return caret;
}

static bool
py_frame(struct rl_line l)
{
	return rl_starts(&l, "  File \"");
}

int
red_trace(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct aiterm_buf *tmp;
	size_t i, j, carets = 0, frames = 0;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if ((tmp = h->buf_new()) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		if (node_frame(t.v[i])) {
			for (j = i; j < t.n && node_frame(t.v[j]); j++)
				;
			h->buf_add(tmp, t.v[i].p, (size_t)(rl_trim(t.v[i]).p -
			    t.v[i].p));
			h->buf_printf(tmp, "at \xe2\x80\xa6 (+%zu frame%s in node)\n",
			    j - i, j - i == 1 ? "" : "s");
			frames += j - i;
			i = j - 1;
			continue;
		}
		/* Under a source line, and not the traceback's last frame. */
		if (i >= 2 && py_carets(t.v[i]) && py_frame(t.v[i - 2]) &&
		    i + 1 < t.n && py_frame(t.v[i + 1])) {
			carets++;
			continue;
		}
		rl_put(h, tmp, &t.v[i]);
	}
	if (frames + carets > 0) {
		if (carets > 0)
			h->buf_printf(tmp, "(+%zu caret line%s)\n", carets,
			    carets == 1 ? "" : "s");
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = 0;
	}
	h->buf_free(tmp);
out:
	rl_lines_free(&t);
	return rc;
}
