/*
 * The diff reduction shared by git diff, git show, git log -p and diff -u.
 *
 * Each file's header block ("diff --git", "index", "---", "+++", mode and
 * rename lines) becomes one line: its "diff --git a/x b/x" or "diff --cc
 * x" line as it is, which a person navigates by (RED-FAITHFUL), with "(new
 * file)", "(deleted)", "(binary)" or a mode change after it when git said
 * so, and a rename's or copy's own lines ("similarity index", "rename
 * from", "rename to") under it.  A block without a diff line, a plain
 * unified diff's (diff -u: "--- x", "+++ y"), is the header itself and
 * stays as it is: it names both files.  Hunk headers stay as they are, and
 * so does every changed line.  Context lines before the first and after
 * the last change of a hunk go; a run of context between two changes stays
 * when it is one or two lines, and becomes "  … N unchanged lines" when
 * longer.  When the changed lines do not fit the budget, each hunk shows
 * its first rows and "… N more changed lines (+a -b)"; when not even that
 * line fits for every hunk, the headers stay alone, each hunk's header
 * with "(+a -b)" after it.  A line outside any file's section is kept as
 * it is (a warning, a stat line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "git.h"

enum df_kind {
	DF_KEEP,	/* a line kept as it is */
	DF_FILE,	/* a file's header block, as one line */
	DF_HUNK,	/* a hunk header */
	DF_ROW,		/* a changed line, or context kept between changes */
	DF_GAP,		/* a run of context between changes, as a count */
};

struct df_row {
	enum df_kind	 kind;
	size_t		 line;	/* first line in t */
	size_t		 end;	/* DF_FILE: end of the header block */
	size_t		 n;	/* DF_GAP: lines in the run */
	size_t		 hunk;	/* DF_ROW, DF_GAP: the hunk's index */
	bool		 add, del; /* DF_ROW: which change it is */
};

struct df_hunk {
	size_t		 rows;	/* body rows (changes, context, gaps) */
};

struct df_parse {
	struct df_row	*rows;
	size_t		 nrows, cap;
	struct df_hunk	*hunks;
	size_t		 nhunks, hcap;
	size_t		 dropped;	/* context lines left out */
	size_t		 files;
	bool		 nomem;
};

static void
add_row(struct df_parse *p, enum df_kind kind, size_t line)
{
	struct df_row *r;

	if (p->nomem)
		return;
	if (p->nrows == p->cap) {
		size_t cap = p->cap > 0 ? p->cap * 2 : 64;

		r = realloc(p->rows, cap * sizeof *r);
		if (r == NULL) {
			p->nomem = true;
			return;
		}
		p->rows = r;
		p->cap = cap;
	}
	r = &p->rows[p->nrows++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->line = line;
	r->hunk = p->nhunks > 0 ? p->nhunks - 1 : 0;
	if (kind == DF_ROW || kind == DF_GAP)
		p->hunks[r->hunk].rows++;
}

static void
add_hunk(struct df_parse *p)
{
	struct df_hunk *v;

	if (p->nomem)
		return;
	if (p->nhunks == p->hcap) {
		size_t cap = p->hcap > 0 ? p->hcap * 2 : 16;

		v = realloc(p->hunks, cap * sizeof *v);
		if (v == NULL) {
			p->nomem = true;
			return;
		}
		p->hunks = v;
		p->hcap = cap;
	}
	memset(&p->hunks[p->nhunks++], 0, sizeof *v);
}

/* The unsigned number at *s, advancing it; 1 when there is none. */
static size_t
hunk_number(const char **s, const char *end, bool *ok)
{
	size_t v = 0;

	if (*s >= end || **s < '0' || **s > '9') {
		*ok = false;
		return 0;
	}
	while (*s < end && **s >= '0' && **s <= '9')
		v = v * 10 + (size_t)(*(*s)++ - '0');
	return v;
}

/*
 * Parse a hunk header: the number of parents (1, or more for a combined
 * diff) and the line counts of the old (first parent) and new sides.
 */
static bool
hunk_header(const struct rl_line *l, size_t *parents, size_t *old,
    size_t *new)
{
	const char *s = l->p, *end = l->p + l->len;
	size_t ats = 0, i, n;
	bool ok = true;

	while (s < end && *s == '@')
		s++, ats++;
	if (ats < 2 || s >= end || *s != ' ')
		return false;
	*parents = ats - 1;
	for (i = 0; i <= *parents && ok; i++) {
		while (s < end && *s == ' ')
			s++;
		if (s >= end || *s != (i < *parents ? '-' : '+'))
			return false;
		s++;
		hunk_number(&s, end, &ok);
		n = 1;
		if (s < end && *s == ',') {
			s++;
			n = hunk_number(&s, end, &ok);
		}
		if (i == 0)
			*old = n;
		*new = n;
	}
	return ok;
}

/* Whether l belongs to the header block of a file (before its hunks). */
static bool
file_meta(const struct rl_line *l)
{
	static const char *const meta[] = {
		"index ", "--- ", "+++ ", "new file mode ", "deleted file mode ",
		"old mode ", "new mode ", "similarity index ",
		"dissimilarity index ", "rename from ", "rename to ",
		"copy from ", "copy to ", "Binary files ", "GIT binary patch",
		"mode ", NULL,
	};
	size_t i;

	for (i = 0; meta[i] != NULL; i++) {
		if (rl_starts(l, meta[i]))
			return true;
	}
	return false;
}

static void
parse(const struct rl_lines *t, size_t first, size_t last,
    struct df_parse *p)
{
	size_t i, parents = 1, old = 0, new = 0, ctx = 0, ctx_at = 0, k;
	bool in_hunk = false, changed = false, in_file = false;
	struct df_row *file = NULL;

	for (i = first; i < last && !p->nomem; i++) {
		const struct rl_line *l = &t->v[i];
		char c = l->len > 0 ? l->p[0] : ' ';
		bool add = false, del = false;

		if (in_hunk && (old > 0 || new > 0 || c == '\\') &&
		    !(gt_diff_start(l) && old == 0 && new == 0)) {
			if (c == '\\') {
				if (changed)
					add_row(p, DF_ROW, i);
				continue;
			}
			for (k = 0; k < parents && k < l->len; k++) {
				if (l->p[k] == '+')
					add = true;
				else if (l->p[k] == '-')
					del = true;
				else if (l->p[k] != ' ')
					break;
			}
			if (l->len > 0 && k < parents && k < l->len) {
				/* Not a body line: the hunk was shorter. */
				in_hunk = false;
			} else {
				if (del && !add) {
					if (old > 0)
						old--;
				} else if (add) {
					if (new > 0)
						new--;
				} else {
					if (old > 0)
						old--;
					if (new > 0)
						new--;
				}
				if (parents > 1 && !del)
					old = new;
				if (!add && !del) {
					if (ctx++ == 0)
						ctx_at = i;
					continue;
				}
				if (changed && ctx > 0 && ctx <= 2) {
					for (k = 0; k < ctx; k++)
						add_row(p, DF_ROW, ctx_at + k);
				} else if (changed && ctx > 0) {
					add_row(p, DF_GAP, ctx_at);
					if (!p->nomem)
						p->rows[p->nrows - 1].n = ctx;
					p->dropped += ctx;
				} else
					p->dropped += ctx;
				ctx = 0;
				changed = true;
				add_row(p, DF_ROW, i);
				if (!p->nomem) {
					p->rows[p->nrows - 1].add = add;
					p->rows[p->nrows - 1].del = del;
				}
				continue;
			}
		}
		if (in_hunk) {
			p->dropped += ctx;
			ctx = 0;
			in_hunk = false;
		}
		if (gt_diff_start(l) ||
		    (file == NULL && gt_unified_start(t, i, last))) {
			add_row(p, DF_FILE, i);
			file = p->nomem ? NULL : &p->rows[p->nrows - 1];
			if (file != NULL)
				file->end = i + 1;
			in_file = true;
			p->files++;
		} else if (l->p != NULL && rl_starts(l, "@@") && in_file &&
		    hunk_header(l, &parents, &old, &new)) {
			add_hunk(p);
			add_row(p, DF_HUNK, i);
			in_hunk = true;
			changed = false;
			ctx = 0;
			file = NULL;
		} else if (file != NULL && file_meta(l)) {
			file->end = i + 1;
		} else if (!rl_blank(l)) {
			add_row(p, DF_KEEP, i);
			file = NULL;
			in_file = false;
		}
	}
	if (in_hunk)
		p->dropped += ctx;
}

/*
 * Append a file's header block [start, end).  It opens with a line that
 * gt_diff_start or gt_unified_start took (parse).
 */
static void
put_file(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, size_t start, size_t end)
{
	/* What a git header line says, in a few words after "diff --git". */
	static const struct {
		const char	*line;
		const char	*what;
	} kinds[] = {
		{ "new file mode ", " (new file)" },
		{ "deleted file mode ", " (deleted)" },
	};
	const struct rl_line d = t->v[start];
	struct rl_line omode = { NULL, 0 }, nmode = { NULL, 0 };
	const char *what = NULL;
	bool binary = false;
	size_t i, k;

	/*
	 * A combined diff (a merge, a conflict) keeps its header as it is: a
	 * person navigates by "diff --cc <file>" (RED-FAITHFUL).
	 */
	if (rl_starts(&d, "diff --cc ") || rl_starts(&d, "diff --combined ")) {
		h->buf_add(out, d.p, d.len);
		h->buf_add(out, "\n", 1);
		return;
	}
	/* So does a plain unified diff's: "--- x" and "+++ y" name both. */
	if (rl_starts(&d, "--- ")) {
		for (i = start; i < end; i++)
			rl_put(h, out, &t->v[i]);
		return;
	}
	/*
	 * "diff --git a/x b/x" stays as it is too, with what the block said
	 * after it in a few words.
	 */
	for (i = start + 1; i < end; i++) {
		const struct rl_line *l = &t->v[i];

		for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
			if (rl_starts(l, kinds[k].line))
				what = kinds[k].what;
		}
		if (rl_starts(l, "old mode "))
			omode = rl_from(*l, 9);
		else if (rl_starts(l, "new mode "))
			nmode = rl_from(*l, 9);
		else if (rl_starts(l, "Binary files ") ||
		    rl_starts(l, "GIT binary patch"))
			binary = true;
	}
	h->buf_add(out, d.p, d.len);
	if (what != NULL)
		h->buf_printf(out, "%s", what);
	if (omode.len > 0 && nmode.len > 0)
		h->buf_printf(out, " (mode %.*s -> %.*s)", (int)omode.len,
		    omode.p, (int)nmode.len, nmode.p);
	if (binary)
		h->buf_add(out, " (binary)", 9);
	/* A rename or a copy keeps git's own lines. */
	for (i = start + 1; i < end; i++) {
		const struct rl_line *l = &t->v[i];

		if (rl_starts(l, "similarity index ") ||
		    rl_starts(l, "rename from ") || rl_starts(l, "rename to ") ||
		    rl_starts(l, "copy from ") || rl_starts(l, "copy to ")) {
			h->buf_add(out, "\n", 1);
			h->buf_add(out, l->p, l->len);
		}
	}
	h->buf_add(out, "\n", 1);
}

/* The lines put_file writes for a file's header block [start, end). */
static size_t
file_lines(const struct rl_lines *t, size_t start, size_t end)
{
	const struct rl_line *d = &t->v[start];
	size_t i, n = 1;

	if (rl_starts(d, "--- "))
		return end - start;
	if (rl_starts(d, "diff --cc ") || rl_starts(d, "diff --combined "))
		return 1;
	for (i = start + 1; i < end; i++) {
		const struct rl_line *l = &t->v[i];

		n += rl_starts(l, "similarity index ") ||
		    rl_starts(l, "rename from ") || rl_starts(l, "rename to ") ||
		    rl_starts(l, "copy from ") || rl_starts(l, "copy to ");
	}
	return n;
}

/* The lines the rows take besides the hunks' bodies. */
static size_t
head_lines(const struct rl_lines *t, const struct df_parse *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nrows; i++) {
		const struct df_row *r = &p->rows[i];

		if (r->kind == DF_FILE)
			n += file_lines(t, r->line, r->end);
		else if (r->kind != DF_ROW && r->kind != DF_GAP)
			n++;
	}
	return n;
}

/* The lines the rows take with at most cap body rows a hunk. */
static size_t
lines_with(const struct rl_lines *t, const struct df_parse *p, size_t cap)
{
	size_t i, n = head_lines(t, p);

	for (i = 0; i < p->nhunks; i++)
		n += p->hunks[i].rows > cap ? cap + 1 : p->hunks[i].rows;
	return n;
}

/* The changes of the hunk whose header is row i, on that header's line. */
static void
put_counted(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct df_parse *p, size_t i)
{
	const struct rl_line *l = &t->v[p->rows[i].line];
	size_t adds = 0, dels = 0;

	for (i++; i < p->nrows && (p->rows[i].kind == DF_ROW ||
	    p->rows[i].kind == DF_GAP); i++) {
		adds += p->rows[i].add;
		dels += p->rows[i].del;
	}
	h->buf_add(out, l->p, l->len);
	h->buf_printf(out, "  (+%zu -%zu)\n", adds, dels);
}

long
gt_diff(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, size_t first, size_t last, size_t budget,
    size_t *context, bool *dropped)
{
	struct df_parse p;
	size_t i, j, cap = 0, shown = 0, adds, dels, lines;
	bool bare = false;
	long rc = -1;

	memset(&p, 0, sizeof p);
	parse(t, first, last, &p);
	if (p.nomem || p.files == 0)
		goto out;
	for (i = 0; i < p.nhunks; i++) {
		if (p.hunks[i].rows > cap)
			cap = p.hunks[i].rows;
	}
	while (cap > 0 && lines_with(t, &p, cap) > budget)
		cap--;
	/*
	 * Not even a line for each hunk's count: the headers alone, which
	 * RED-FAITHFUL keeps, each hunk's count on its header's line.
	 */
	if ((lines = lines_with(t, &p, cap)) > budget) {
		bare = true;
		if ((lines = head_lines(t, &p)) > budget)
			goto out;
		*dropped = true;
	}
	for (i = 0; i < p.nrows; i++) {
		const struct df_row *r = &p.rows[i];

		switch (r->kind) {
		case DF_KEEP:
			rl_put(h, out, &t->v[r->line]);
			break;
		case DF_FILE:
			put_file(h, out, t, r->line, r->end);
			break;
		case DF_HUNK:
			if (bare)
				put_counted(h, out, t, &p, i);
			else
				rl_put(h, out, &t->v[r->line]);
			shown = 0;
			break;
		case DF_ROW:
		case DF_GAP:
			if (bare)
				break;
			if (shown++ < cap) {
				if (r->kind == DF_ROW)
					rl_put(h, out, &t->v[r->line]);
				else
					h->buf_printf(out, "  … %zu unchanged "
					    "lines\n", r->n);
				break;
			}
			if (shown != p.hunks[r->hunk].rows)
				break;
			/* The last row of a cut hunk: count what was cut. */
			adds = dels = 0;
			for (j = i + 1; j-- > 0 && shown-- > cap;) {
				if (p.rows[j].add)
					adds++;
				if (p.rows[j].del)
					dels++;
			}
			h->buf_printf(out, "… %zu more changed lines (+%zu "
			    "-%zu)\n", adds + dels, adds, dels);
			*dropped = true;
			break;
		}
	}
	if (p.dropped > 0)
		*dropped = true;
	*context = p.dropped;
	rc = (long)lines;
out:
	free(p.rows);
	free(p.hunks);
	return rc;
}
