/*
 * tsc: every error line stays as tsc printed it ("src/a.ts(9,24): error
 * TS7006: ..."), with its explanation lines; what repeats is folded.
 *
 * - Of an error's "Overload N of M, '...', gave the following error."
 *   groups, those whose explanation equals the first overload's are left
 *   out and counted: "  (+2 more overloads, same error)".
 * - In --pretty output, the squiggle lines ("   ~~~~~") and blank lines
 *   are left out; the source line stays.
 * - The last line counts the errors and files: "(13 errors in 4 files)",
 *   unless tsc printed its own "Found ..." line.
 * Output with nothing to fold is declined (the generic stages keep it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

/* "file(1,2): error TS1: " or, pretty, "file:1:2 - error TS1: ". */
static const char *const ts_markers[] = {
	"): error TS", "): warning TS", " - error TS", " - warning TS", NULL,
};

/* The length of the file part of an error line, or 0. */
static size_t
error_line(struct rl_line l)
{
	const char *m;
	size_t i;

	if (l.len == 0 || l.p[0] == ' ')
		return 0;
	for (i = 0; ts_markers[i] != NULL; i++) {
		m = memmem(l.p, l.len, ts_markers[i], strlen(ts_markers[i]));
		if (m == NULL)
			continue;
		if (ts_markers[i][0] == ')')
			m = memchr(l.p, '(', (size_t)(m - l.p));
		else
			m = memchr(l.p, ':', (size_t)(m - l.p));
		return m != NULL && m > l.p ? (size_t)(m - l.p) : 0;
	}
	return 0;
}

static size_t
indent(struct rl_line l)
{
	size_t i;

	for (i = 0; i < l.len && l.p[i] == ' '; i++)
		;
	return i;
}

static bool
squiggle(struct rl_line l)
{
	size_t i;
	bool tilde = false;

	for (i = 0; i < l.len; i++) {
		if (l.p[i] == '~')
			tilde = true;
		else if (l.p[i] != ' ')
			return false;
	}
	return tilde;
}

/* Lines [from, to) and [from2, ...) hold the same text. */
static bool
same_lines(const struct rl_lines *t, size_t from, size_t to, size_t from2,
    size_t to2)
{
	size_t i;

	if (to - from != to2 - from2)
		return false;
	for (i = 0; i < to - from; i++) {
		if (t->v[from + i].len != t->v[from2 + i].len ||
		    memcmp(t->v[from + i].p, t->v[from2 + i].p,
		    t->v[from + i].len) != 0)
			return false;
	}
	return true;
}

/*
 * The explanation lines [from, to) of one error: groups headed by a line
 * at the smallest indent.  Overload groups repeating the first are
 * counted in *folded, the rest written out.
 */
static void
put_explanation(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, size_t from, size_t to, size_t *folded)
{
	struct rl_line tr;
	size_t i, j, base = SIZE_MAX, first = SIZE_MAX, first_end = 0, n = 0;

	for (i = from; i < to; i++) {
		if (indent(t->v[i]) < base)
			base = indent(t->v[i]);
	}
	for (i = from; i < to; i = j) {
		for (j = i + 1; j < to && indent(t->v[j]) > base; j++)
			;
		tr = rl_trim(t->v[i]);
		if (rl_starts(&tr, "Overload ")) {
			if (first == SIZE_MAX) {
				first = i + 1;
				first_end = j;
			} else if (same_lines(t, first, first_end, i + 1, j)) {
				n++;
				continue;
			}
		}
		for (; i < j; i++)
			rl_put(h, out, &t->v[i]);
	}
	if (n > 0)
		h->buf_printf(out, "%*s(+%zu more overloads, same error)\n",
		    (int)base, "", n);
	*folded += n;
}

/* Whether file (len n) is among the files of the error lines before i. */
static bool
seen_file(const struct rl_lines *t, size_t i, struct rl_line file)
{
	size_t k;

	for (k = 0; k < i; k++) {
		if (error_line(t->v[k]) == file.len &&
		    memcmp(t->v[k].p, file.p, file.len) == 0)
			return true;
	}
	return false;
}

int
red_tsc(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct aiterm_buf *tmp;
	struct rl_line l, file;
	size_t i, j, n, errors = 0, files = 0, folded = 0, dropped = 0;
	bool found = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if ((tmp = h->buf_new()) == NULL)
		goto out;
	for (i = 0; i < t.n; i = j) {
		l = t.v[i];
		j = i + 1;
		if (rl_starts(&l, "Found "))
			found = true;
		if ((n = error_line(l)) == 0) {
			if (rl_blank(&l) || squiggle(l))
				dropped++;
			else
				rl_put(h, tmp, &l);
			continue;
		}
		errors++;
		file.p = l.p;
		file.len = n;
		files += seen_file(&t, i, file) ? 0 : 1;
		rl_put(h, tmp, &l);
		while (j < t.n && t.v[j].len > 0 && t.v[j].p[0] == ' ' &&
		    !squiggle(t.v[j]))
			j++;
		put_explanation(h, tmp, &t, i + 1, j, &folded);
	}
	if (errors > 0 && folded + dropped > 0) {
		if (!found)
			h->buf_printf(tmp, "(%zu error%s in %zu file%s)\n",
			    errors, errors == 1 ? "" : "s", files,
			    files == 1 ? "" : "s");
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = 0;
	}
	h->buf_free(tmp);
out:
	rl_lines_free(&t);
	return rc;
}
