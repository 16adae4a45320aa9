/*
 * grep, egrep, fgrep, rg and git grep.
 *
 * Output that fits the budget keeps every line, with the blanks at the
 * start of each matched text gone and runs of blanks made one space
 * ("path:12:text" stays "path:12:text"), and the result is lossless.
 *
 * Larger output with file names ("path:12:text", "path:text", or rg's
 * heading layout) is grouped by file.  When every file can have a line,
 * each shows its first matches (as many as fit, at least one) and then
 * "  +N more: 182,196,..." with the line numbers of the rest.  When there
 * are more files than that, the first and the last matches are shown
 * whole and the files between them are listed by name with their match
 * counts, so that every file name stays.  Error lines ("grep: x:
 * Permission denied") and "Binary file x matches" are always kept.
 * Larger output without file names (one file, or a pipe) is declined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

/* The longest text of a match shown when grouped, and when not. */
#define GR_TEXT_MAX	160
#define GR_TEXT_ALL	400
/* The line numbers listed in a "+N more" line. */
#define GR_NUMS_MAX	8
/* Whole matches shown before and after the file list. */
#define GR_HEAD		6
#define GR_TAIL		4
/* The width a line of the file list grows to. */
#define GR_LIST_COLS	160

enum gr_kind {
	GR_MATCH,	/* path, number and text */
	GR_CONTEXT,	/* -A/-B/-C context line */
	GR_SEP,		/* "--" between context groups */
	GR_OTHER,	/* an error line, "Binary file x matches", ... */
	GR_HEADING,	/* rg's heading layout: the path line */
	GR_BLANK,
};

struct gr_rec {
	enum gr_kind	 kind;
	struct rl_line	 path, num, text;
	size_t		 group;
};

struct gr_group {
	struct rl_line	 path;
	size_t		 first;		/* its first record */
	size_t		 matches;
};

/* Lines grep and rg print besides matches, kept whatever happens. */
static const char *const gr_other[] = {
	"grep: ", "rg: ", "egrep: ", "fgrep: ", "Binary file ",
	"binary file ", "warning: ", "fatal: ", "error: ", NULL,
};

static bool
other_line(const struct rl_line *l)
{
	size_t i;

	for (i = 0; gr_other[i] != NULL; i++) {
		if (rl_starts(l, gr_other[i]))
			return true;
	}
	return false;
}

/*
 * "path<sep>digits<sep>text" with sep ':' (a match) or '-' (context):
 * the first such place, so that a path holding neither still parses.
 */
static bool
split_num(const struct rl_line *l, char sep, struct gr_rec *r)
{
	size_t i, j;

	for (i = 1; i + 2 < l->len; i++) {
		if (l->p[i] != sep)
			continue;
		for (j = i + 1; j < l->len && l->p[j] >= '0' &&
		    l->p[j] <= '9'; j++)
			;
		if (j > i + 1 && j < l->len && l->p[j] == sep) {
			r->path.p = l->p;
			r->path.len = i;
			r->num.p = l->p + i + 1;
			r->num.len = j - i - 1;
			r->text = rl_from(*l, j + 1);
			return true;
		}
	}
	return false;
}

/* "path:text" with a path that has no blank in it. */
static bool
split_path(const struct rl_line *l, struct gr_rec *r)
{
	size_t i;

	for (i = 0; i < l->len && l->p[i] != ':'; i++) {
		if (l->p[i] == ' ' || l->p[i] == '\t')
			return false;
	}
	if (i == 0 || i == l->len)
		return false;
	r->path.p = l->p;
	r->path.len = i;
	r->num.p = NULL;
	r->num.len = 0;
	r->text = rl_from(*l, i + 1);
	return true;
}

static bool
same(const struct rl_line *a, const struct rl_line *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

/*
 * Read every line as a record with a path.  Returns false when the
 * output is not one of the layouts with file names.
 */
static bool
parse(const struct rl_lines *t, struct gr_rec *r, bool context)
{
	size_t i, with_num = 0, paths = 0, changes = 0;
	bool heading = false, numbered = true;
	struct rl_line path = { NULL, 0 };

	/* rg's heading layout: a path line, then "N:text" lines. */
	if (t->n > 1 && !other_line(&t->v[0]) && split_num(&t->v[0], ':',
	    &r[0]) == false && t->v[1].len > 0 && t->v[1].p[0] >= '0' &&
	    t->v[1].p[0] <= '9')
		heading = true;
	for (i = 0; i < t->n; i++) {
		const struct rl_line *l = &t->v[i];
		struct gr_rec *x = &r[i];
		size_t j;

		memset(x, 0, sizeof *x);
		if (l->len == 0 || rl_blank(l)) {
			x->kind = GR_BLANK;
			if (heading)
				path.len = 0, path.p = NULL;
			continue;
		}
		if (other_line(l)) {
			x->kind = GR_OTHER;
			continue;
		}
		if (rl_eq(l, "--") && context) {
			x->kind = GR_SEP;
			continue;
		}
		if (heading) {
			for (j = 0; j < l->len && l->p[j] >= '0' &&
			    l->p[j] <= '9'; j++)
				;
			if (path.p != NULL && j > 0 && j < l->len &&
			    (l->p[j] == ':' || (context && l->p[j] == '-'))) {
				x->kind = l->p[j] == ':' ? GR_MATCH :
				    GR_CONTEXT;
				x->path = path;
				x->num.p = l->p;
				x->num.len = j;
				x->text = rl_from(*l, j + 1);
				continue;
			}
			if (path.p != NULL)
				return false;
			x->kind = GR_HEADING;
			x->path = path = *l;
			paths++;
			continue;
		}
		if (numbered && split_num(l, ':', x)) {
			x->kind = GR_MATCH;
			with_num++;
		} else if (numbered && context && split_num(l, '-', x)) {
			x->kind = GR_CONTEXT;
		} else if (with_num == 0 && split_path(l, x)) {
			numbered = false;
			x->kind = GR_MATCH;
		} else
			return false;
		if (path.p == NULL || !same(&path, &x->path)) {
			path = x->path;
			changes++;
		}
	}
	/* Paths that change on (nearly) every line are not paths. */
	if (!heading && !numbered && changes * 2 > t->n)
		return false;
	return heading ? paths > 0 : changes > 0;
}

/* Number the groups (runs of records with one path). */
static size_t
group(const struct rl_lines *t, struct gr_rec *r, struct gr_group **out)
{
	struct gr_group *g = calloc(t->n > 0 ? t->n : 1, sizeof *g);
	size_t i, n = 0;

	if (g == NULL)
		return 0;
	for (i = 0; i < t->n; i++) {
		if (r[i].path.p == NULL)
			continue;
		if (n == 0 || !same(&g[n - 1].path, &r[i].path)) {
			g[n].path = r[i].path;
			g[n].first = i;
			n++;
		}
		r[i].group = n - 1;
		if (r[i].kind == GR_MATCH)
			g[n - 1].matches++;
	}
	*out = g;
	return n;
}

/* Append a match: "path:num:text", the text tight and cut if long. */
static void
put_match(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct gr_rec *r, bool heading, size_t max, bool *dropped)
{
	struct rl_line text = rl_trim(r->text);
	size_t more = 0;

	if (text.len > max) {
		size_t n = max;

		while (n > 0 && ((unsigned char)text.p[n] & 0xc0) == 0x80)
			n--;
		more = text.len - n;
		text.len = n;
		*dropped = true;
	}
	if (!heading) {
		h->buf_add(out, r->path.p, r->path.len);
		h->buf_add(out, ":", 1);
	}
	if (r->num.len > 0) {
		h->buf_add(out, r->num.p, r->num.len);
		h->buf_add(out, r->kind == GR_CONTEXT ? "-" : ":", 1);
	}
	fl_put_tight(h, out, text);
	if (more > 0)
		h->buf_printf(out, "…(+%zu chars)", more);
	h->buf_add(out, "\n", 1);
}

/* Every line, tight: the lossless layout.  Returns 1, or 0 if cut. */
static int
put_all(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct gr_rec *r)
{
	bool dropped = false;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (r != NULL && (r[i].kind == GR_MATCH ||
		    r[i].kind == GR_CONTEXT)) {
			put_match(h, out, &r[i], r[i].path.p != t->v[i].p &&
			    r[i].num.p == t->v[i].p, GR_TEXT_ALL, &dropped);
			continue;
		}
		if (r == NULL) {
			struct rl_line l = t->v[i];
			struct gr_rec x = { GR_MATCH, { NULL, 0 }, { NULL, 0 },
			    l, 0 };

			if (l.len > GR_TEXT_ALL) {
				put_match(h, out, &x, true, GR_TEXT_ALL,
				    &dropped);
				continue;
			}
			fl_put_tight(h, out, l);
			h->buf_add(out, "\n", 1);
		} else
			rl_put(h, out, &t->v[i]);
	}
	return dropped ? 0 : 1;
}

/* The matches of group g shown with at most k a group. */
static size_t
shown_lines(const struct gr_group *g, size_t ng, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < ng; i++)
		n += g[i].matches > k ? k + 1 : g[i].matches;
	return n;
}

/* "  +N more: 182,196,..." for the matches of a group after the first k. */
static void
put_more(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct gr_rec *r, size_t nr, const struct gr_group *g, size_t k)
{
	size_t i, seen = 0, listed = 0;

	h->buf_printf(out, "  +%zu more", g->matches - k);
	for (i = g->first; i < nr && listed < GR_NUMS_MAX; i++) {
		if (r[i].group != r[g->first].group || r[i].path.p == NULL)
			break;
		if (r[i].kind != GR_MATCH || seen++ < k || r[i].num.len == 0)
			continue;
		h->buf_printf(out, "%s%.*s", listed++ == 0 ? ": " : ",",
		    (int)r[i].num.len, r[i].num.p);
	}
	if (listed > 0 && g->matches - k > listed)
		h->buf_add(out, ",…", 4);
	h->buf_add(out, "\n", 1);
}

/* Each group's first k matches and a count of the rest. */
static void
put_groups(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct gr_rec *r,
    const struct gr_group *g, size_t ng, size_t k, bool heading)
{
	size_t gi, i, seen;
	bool dropped = false;

	for (i = 0; i < t->n; i++) {
		if (r[i].kind == GR_OTHER)
			rl_put(h, out, &t->v[i]);
	}
	for (gi = 0; gi < ng; gi++) {
		if (heading)
			rl_put(h, out, &g[gi].path);
		seen = 0;
		for (i = g[gi].first; i < t->n && seen < k; i++) {
			if (r[i].path.p == NULL || r[i].group != gi)
				break;
			if (r[i].kind != GR_MATCH)
				continue;
			put_match(h, out, &r[i], heading, GR_TEXT_MAX, &dropped);
			seen++;
		}
		if (g[gi].matches > k)
			put_more(h, out, r, t->n, &g[gi], k);
	}
}

/* The record index just after the n-th match from the start (or end). */
static size_t
nth_match(const struct gr_rec *r, size_t nr, size_t n, bool from_end)
{
	size_t i, seen = 0;

	if (!from_end) {
		for (i = 0; i < nr && seen < n; i++)
			seen += r[i].kind == GR_MATCH ? 1 : 0;
		return i;
	}
	for (i = nr; i > 0 && seen < n; i--)
		seen += r[i - 1].kind == GR_MATCH ? 1 : 0;
	return i;
}

/*
 * More files than lines: the first and last matches whole, the files in
 * between by name with their counts.  With print false, only the lines
 * it would take are counted.
 */
static size_t
put_list(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct gr_rec *r,
    const struct gr_group *g, size_t ng, bool print)
{
	size_t i, gi, cnt, col = 0, lines = 0, head_end, tail_from, mid = 0;
	size_t files = 0, width;
	bool dropped = false;
	char num[32];

	head_end = nth_match(r, t->n, GR_HEAD, false);
	tail_from = nth_match(r, t->n, GR_TAIL, true);
	if (tail_from < head_end)
		tail_from = head_end;
	for (i = 0; i < t->n; i++) {
		if (r[i].kind == GR_OTHER) {
			if (print)
				rl_put(h, out, &t->v[i]);
			lines++;
		} else if (r[i].kind == GR_MATCH && (i < head_end ||
		    i >= tail_from))
			;
		else if (r[i].kind == GR_MATCH)
			mid++;
	}
	for (i = 0; i < head_end; i++) {
		if (r[i].kind != GR_MATCH)
			continue;
		if (print)
			put_match(h, out, &r[i], false, GR_TEXT_MAX, &dropped);
		lines++;
	}
	for (gi = 0; gi < ng; gi++) {
		for (cnt = 0, i = g[gi].first; i < t->n; i++) {
			if (r[i].path.p == NULL || r[i].group != gi)
				break;
			if (r[i].kind == GR_MATCH && i >= head_end &&
			    i < tail_from)
				cnt++;
		}
		if (cnt > 0)
			files++;
	}
	if (print)
		h->buf_printf(out, "… %zu more matches in %zu files:\n", mid,
		    files);
	lines++;
	for (gi = 0; gi < ng; gi++) {
		for (cnt = 0, i = g[gi].first; i < t->n; i++) {
			if (r[i].path.p == NULL || r[i].group != gi)
				break;
			if (r[i].kind == GR_MATCH && i >= head_end &&
			    i < tail_from)
				cnt++;
		}
		if (cnt == 0)
			continue;
		num[0] = '\0';
		if (cnt > 1)
			snprintf(num, sizeof num, " (%zu)", cnt);
		width = g[gi].path.len + strlen(num);
		if (col > 0 && col + 2 + width > GR_LIST_COLS) {
			if (print)
				h->buf_add(out, "\n", 1);
			lines++;
			col = 0;
		}
		if (print) {
			if (col > 0)
				h->buf_add(out, "  ", 2);
			h->buf_add(out, g[gi].path.p, g[gi].path.len);
			h->buf_add(out, num, strlen(num));
		}
		col += (col > 0 ? 2 : 0) + width;
	}
	if (col > 0) {
		if (print)
			h->buf_add(out, "\n", 1);
		lines++;
	}
	for (i = tail_from; i < t->n; i++) {
		if (r[i].kind != GR_MATCH)
			continue;
		if (print)
			put_match(h, out, &r[i], false, GR_TEXT_MAX, &dropped);
		lines++;
	}
	return lines;
}

int
red_grep(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct gr_rec *r = NULL;
	struct gr_group *g = NULL;
	size_t budget, ng, k, i, others = 0;
	bool context, heading;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if (t.n == 0)
		goto out;
	budget = rl_budget(in);
	context = fl_has_short(in->argv, 'A') || fl_has_short(in->argv, 'B') ||
	    fl_has_short(in->argv, 'C') || rl_has_opt(in->argv, "--context") ||
	    rl_has_opt(in->argv, "--context=") ||
	    rl_has_opt(in->argv, "--after-context=") ||
	    rl_has_opt(in->argv, "--before-context=");
	r = calloc(t.n, sizeof *r);
	if (r == NULL)
		goto out;
	if (!parse(&t, r, context)) {
		/* No file names: tight lines when they fit, else decline. */
		if (t.n <= budget)
			rc = put_all(h, out, &t, NULL);
		goto out;
	}
	if (t.n <= budget) {
		rc = put_all(h, out, &t, r);
		goto out;
	}
	if (context)
		goto out;	/* grouping would tear context apart */
	if ((ng = group(&t, r, &g)) == 0)
		goto out;
	heading = r[0].kind == GR_HEADING;
	for (i = 0; i < t.n; i++)
		others += r[i].kind == GR_OTHER ? 1 : 0;
	/* The most matches a file that fit in half the budget, else all. */
	for (k = 1; others + shown_lines(g, ng, k + 1) +
	    (heading ? ng : 0) <= budget / 2; k++)
		if (k >= t.n)
			break;
	if (others + shown_lines(g, ng, k) + (heading ? ng : 0) <= budget)
		put_groups(h, out, &t, r, g, ng, k, heading);
	else if (!heading && put_list(h, out, &t, r, g, ng, false) <= budget)
		put_list(h, out, &t, r, g, ng, true);
	else
		goto out;
	rc = 0;
out:
	free(r);
	free(g);
	rl_lines_free(&t);
	return rc;
}
