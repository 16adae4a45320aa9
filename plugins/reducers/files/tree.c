/*
 * tree: a drawn tree ending in tree's report ("N directories, M files").
 * Within the listing budget every line stays; only the drawing goes:
 * each level's rail or fork ("│   ", "├── ") becomes two blanks, so
 * the indentation still says where each name is (lossless).  Beyond the
 * budget every name stays: a one-line note, each depth-1 entry on its
 * own line as tree drew it ("├── apt"), then the names below it packed
 * TR_WIDTH wide, two blanks apart: its own entries first, then one line
 * per folder below it that has entries, led by the folder's path from
 * the depth-1 entry ("net/:  tcp.c  udp.c").  A folder's
 * name gets a '/' when tree gave one (-F) or entries follow it; below
 * depth 1 a link keeps its name, its target goes (the note says so).
 * The report stays verbatim.  Declined: output with no report, JSON,
 * XML or HTML (-J, -X, -H), no indentation (-i), sizes or permissions
 * beyond the budget ("[4.0K]  apt"), and trees whose packed names are
 * still over the budget.
 */
#include <stdlib.h>
#include <string.h>

#include "files.h"

#define TR_WIDTH	160	/* names packed this wide beyond the budget */

/* What tree draws above an entry, one per level, and before its name. */
static const char *const tr_rails[] = {
	"\xe2\x94\x82\xc2\xa0\xc2\xa0 ", "\xe2\x94\x82   ", "    ", "|   ",
	NULL,
};
static const char *const tr_forks[] = {
	"\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 ",
	"\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 ", "|-- ", "`-- ", NULL,
};

/* Options whose output is no drawn tree: JSON, XML, HTML, no indent. */
static const char tr_not_drawn[] = "JXHi";

struct tr_entry {
	struct rl_line	 name;	/* after the fork: the name, " -> target" */
	size_t		 depth;	/* 0: no entry (a root, the report, blank) */
};

/* The length of the word of table at p that it starts with, or 0. */
static size_t
tr_match(const char *const *table, const char *p, size_t len)
{
	size_t i, n;

	for (i = 0; table[i] != NULL; i++) {
		n = strlen(table[i]);
		if (n <= len && memcmp(p, table[i], n) == 0)
			return n;
	}
	return 0;
}

/* Read a line: rails, then a fork, then the name. */
static void
tr_read(const struct rl_line *l, struct tr_entry *e)
{
	size_t at = 0, n, depth = 1;

	e->depth = 0;
	e->name = *l;
	while ((n = tr_match(tr_rails, l->p + at, l->len - at)) > 0) {
		at += n;
		depth++;
	}
	if ((n = tr_match(tr_forks, l->p + at, l->len - at)) == 0)
		return;
	e->depth = depth;
	e->name = rl_from(*l, at + n);
}

/* Whether p..end starts with s; moves p past it. */
static bool
tr_eat(const char **p, const char *end, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(end - *p) < n || memcmp(*p, s, n) != 0)
		return false;
	*p += n;
	return true;
}

/*
 * tree's report: "N directories, M files", "1 directory, 1 file",
 * "N directories" (-d).
 */
static bool
tr_report(const struct rl_line *l)
{
	const char *p = l->p, *end = l->p + l->len;
	size_t n;

	if (!rl_number(&p, end, &n) || !tr_eat(&p, end, " director") ||
	    !(tr_eat(&p, end, "y") || tr_eat(&p, end, "ies")))
		return false;
	if (p == end)
		return true;
	return tr_eat(&p, end, ", ") && rl_number(&p, end, &n) &&
	    tr_eat(&p, end, " file") && (p == end || (tr_eat(&p, end, "s") &&
	    p == end));
}

/* Within the budget: each level's drawing as two blanks. */
static void
tr_put_plain(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct tr_entry *e)
{
	size_t i, d;

	for (i = 0; i < t->n; i++) {
		for (d = 0; d < e[i].depth; d++)
			h->buf_add(out, "  ", 2);
		rl_put(h, out, &e[i].name);
	}
}

/* Names packed TR_WIDTH wide, and whether a link's target went. */
struct tr_pack {
	struct rl_pack	 pk;
	bool		 links;
};

/* An entry's name without a link's target. */
static struct rl_line
tr_name(struct tr_pack *pk, struct rl_line n)
{
	size_t i;

	for (i = 0; i + 4 <= n.len; i++) {
		if (memcmp(n.p + i, " -> ", 4) == 0) {
			n.len = i;
			pk->links = true;
			break;
		}
	}
	return n;
}

/* Entry i is a folder whose entries follow. */
static bool
tr_has_kids(const struct tr_entry *e, size_t n, size_t i)
{
	return i + 1 < n && e[i + 1].depth > e[i].depth;
}

/* The entries right below entry i (to the end of its subtree), packed. */
static void
tr_pack_kids(struct tr_pack *pk, const struct tr_entry *e, size_t n,
    size_t i)
{
	struct rl_line name;
	size_t j;
	bool slash;

	for (j = i + 1; j < n && e[j].depth > e[i].depth; j++) {
		if (e[j].depth != e[i].depth + 1)
			continue;
		name = tr_name(pk, e[j].name);
		slash = tr_has_kids(e, n, j) && !rl_ends(&name, "/");
		rl_pack_add(&pk->pk, name.p, name.len, slash ? "/" : "");
	}
	rl_pack_end(&pk->pk);
}

/* "a/b/:", the path of entry j's folder from its depth-1 entry. */
static void
tr_put_path(struct tr_pack *pk, const struct tr_entry *e, const size_t *up,
    size_t j)
{
	struct rl_line name;
	size_t d;

	for (d = 2; d <= e[j].depth; d++) {
		name = tr_name(pk, e[up[d]].name);
		if (rl_ends(&name, "/"))
			name.len--;
		pk->pk.h->buf_add(pk->pk.out, name.p, name.len);
		pk->pk.h->buf_add(pk->pk.out, "/", 1);
		pk->pk.col += name.len + 1;
	}
	pk->pk.h->buf_add(pk->pk.out, ":", 1);
	pk->pk.col++;
}

/*
 * Below the depth-1 entry at i: its entries, then a line for each folder
 * with entries, led by its path from i.  The index after its subtree.
 */
static size_t
tr_put_below(struct tr_pack *pk, const struct tr_entry *e, size_t n,
    size_t i, size_t *up)
{
	size_t j, end;

	tr_pack_kids(pk, e, n, i);
	for (end = i + 1; end < n && e[end].depth > 1; end++)
		;
	for (j = i + 1; j < end; j++) {
		up[e[j].depth] = j;
		if (!tr_has_kids(e, n, j))
			continue;
		tr_put_path(pk, e, up, j);
		tr_pack_kids(pk, e, n, j);
	}
	return end;
}

/*
 * Beyond the budget, after the note: roots and the report as they are,
 * each depth-1 entry as tree drew it, the names below it packed.  Whether
 * a link's target went.
 */
static bool
tr_put_packed(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct tr_entry *e, size_t *up)
{
	struct tr_pack pk = { { h, out, TR_WIDTH, 0, 0, NULL }, false };
	size_t i = 0;

	while (i < t->n) {
		if (e[i].depth == 0) {
			if (!rl_blank(&t->v[i]))
				rl_put(h, out, &t->v[i]);
			i++;
			continue;
		}
		rl_put(h, out, &t->v[i]);
		i = tr_put_below(&pk, e, t->n, i, up);
	}
	return pk.links;
}

/* Read every line; false unless it is a drawn tree ending in the report. */
static bool
tr_parse(const struct rl_lines *t, struct tr_entry *e, size_t *depth)
{
	size_t i, last, prev = 0, entries = 0;

	for (last = t->n; last > 0 && rl_blank(&t->v[last - 1]); last--)
		;
	if (last == 0 || !tr_report(&t->v[last - 1]))
		return false;
	*depth = 0;
	for (i = 0; i < t->n; i++) {
		tr_read(&t->v[i], &e[i]);
		if (e[i].depth > prev + 1)
			return false;	/* a level skipped: not tree's */
		prev = e[i].depth;
		entries += e[i].depth > 0 ? 1 : 0;
		if (e[i].depth > *depth)
			*depth = e[i].depth;
	}
	return entries > 0;
}

/* Whether a name is led by fields in brackets (-p, -s, -h, -u, -D). */
static bool
tr_fields(const struct rl_lines *t, const struct tr_entry *e)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (e[i].depth > 0 && rl_starts(&e[i].name, "["))
			return true;
	}
	return false;
}

/* Beyond the budget: the note and the packed tree, or -1 when over it. */
static int
tr_beyond(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    const struct rl_lines *t, const struct tr_entry *e, size_t depth,
    struct aiterm_buf *out)
{
	struct aiterm_buf *tmp;
	size_t *up;
	bool links;
	int rc = -1;

	if (tr_fields(t, e) || (tmp = h->buf_new()) == NULL)
		return -1;
	if ((up = calloc(depth + 1, sizeof *up)) != NULL) {
		links = tr_put_packed(h, tmp, t, e, up);
		if (rl_count(h->buf_data(tmp), h->buf_len(tmp)) + 1 <=
		    rl_budget(in)) {
			h->buf_printf(out, "(names below depth 1 packed per "
			    "folder%s)\n", links ? "; link targets left out" :
			    "");
			h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
			rc = links ? 0 : 1;
		}
	}
	free(up);
	h->buf_free(tmp);
	return rc;
}

int
red_tree(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct tr_entry *e;
	size_t i, depth;
	int rc = -1;

	for (i = 0; tr_not_drawn[i] != '\0'; i++) {
		if (fl_has_short(in->argv, tr_not_drawn[i]))
			return -1;
	}
	if (!rl_split(in, &t))
		return -1;
	e = calloc(t.n > 0 ? t.n : 1, sizeof *e);
	if (e != NULL && tr_parse(&t, e, &depth)) {
		if (t.n <= rl_budget(in)) {
			tr_put_plain(h, out, &t, e);
			rc = 1;
		} else
			rc = tr_beyond(h, in, &t, e, depth, out);
	}
	free(e);
	rl_lines_free(&t);
	return rc;
}
