/*
 * find (printing paths): a listing of at most FD_PLAIN lines (a read's
 * budget) is declined, as the generic stages show it whole.  One whose
 * grouped lines fit the budget (its lines, and its bytes: ADR 0044) keeps
 * every path (RED-FAITHFUL: a listing keeps every name), the names of a
 * run of paths in one folder on one line after the folder: "./src/: a.c
 * b.c net.c" (a name with a blank or a quote, and a line that is no path,
 * stays on its own line as it was).  A longer one keeps its first and
 * last paths whole, as many as fit, and sums up those in between: how
 * many, the subfolders of the folder they share that hold most of them,
 * the commonest kinds of name ("*.gz (2400)", "copyright (780)"), whole
 * each path whose extension no other path has (the one *.txt among a
 * thousand *.png), and whole up to FD_NEAR of them nearest the top of
 * that folder (its own package.json before a dependency's).  Error lines
 * ("find: 'x': Permission denied") are all kept, before the paths.
 * Output of -ls, -printf, -exec and the like is declined.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

#define FD_HEAD		20
#define FD_TAIL		10
#define FD_TOP_DIRS	8
#define FD_TOP_NAMES	6
#define FD_PLAIN	120
#define FD_NEAR		60	/* paths nearest the top, at most */
#define FD_SUMMARY	6	/* the summary's own lines, at most */
#define FD_WIDTH	160	/* a folder's line goes on after this */

/* Actions whose output is not one path a line. */
static const char *const fd_actions[] = {
	"-ls", "-fls", "-printf", "-fprintf", "-print0", "-fprint",
	"-fprint0", "-exec", "-execdir", "-ok", "-okdir", NULL,
};

struct fd_count {
	struct rl_line	 key;
	size_t		 n;
	bool		 dir;	/* a path went on below it */
};

static int
key_cmp(const void *a, const void *b)
{
	const struct fd_count *x = a, *y = b;

	return rl_cmp(&x->key, &y->key);
}

static int
count_cmp(const void *a, const void *b)
{
	const struct fd_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return key_cmp(a, b);
}

/*
 * Sort keys, merge equal ones into counts, and order by count; returns
 * the number of distinct keys.
 */
static size_t
tally(struct fd_count *v, size_t n)
{
	size_t i, m = 0;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, key_cmp);
	for (i = 1; i < n; i++) {
		if (key_cmp(&v[m], &v[i]) == 0) {
			v[m].n += v[i].n;
			v[m].dir = v[m].dir || v[i].dir;
		} else
			v[++m] = v[i];
	}
	m++;
	qsort(v, m, sizeof *v, count_cmp);
	return m;
}

/* The kind of a path's name: "*.ext" as its extension, else the name. */
static struct rl_line
name_kind(struct rl_line p, bool *ext)
{
	size_t i;

	for (i = p.len; i > 0 && p.p[i - 1] != '/'; i--)
		;
	p = rl_from(p, i);
	*ext = false;
	for (i = p.len; i > 1; i--) {
		if (p.p[i - 1] == '.') {
			*ext = true;
			return rl_from(p, i - 1);
		}
	}
	return p;
}

static void
put_top(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct fd_count *v, size_t n, size_t top, const char *star,
    bool *exts)
{
	size_t i;

	for (i = 0; i < n && i < top; i++) {
		h->buf_printf(out, "%s%s%.*s%s (%zu)", i > 0 ? ", " : "",
		    exts != NULL && exts[i] ? star : "", (int)v[i].key.len,
		    v[i].key.p, v[i].dir ? "/" : "", v[i].n);
	}
	if (n > top)
		h->buf_printf(out, ", +%zu more", n - top);
	h->buf_add(out, "\n", 1);
}

/* Whether a name can stand among others on a line. */
static bool
plain_name(const struct rl_line *n)
{
	size_t i;

	for (i = 0; i < n->len; i++) {
		if (n->p[i] == ' ' || n->p[i] == '\t' || n->p[i] == '\'' ||
		    n->p[i] == '"')
			return false;
	}
	return n->len > 0;
}

/*
 * Paths v[0..n), the names of a run of paths in one folder on one line
 * after the folder ("./src/: a.c b.c net.c"), a line going on to the
 * next once it passes width; a line that is no path, or whose name holds
 * a blank or a quote, stays on its own line as it was.
 */
static void
put_grouped(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_line *v, size_t n, size_t width)
{
	struct rl_line dir = { NULL, 0 }, l, name;
	size_t i, slash, col = 0;

	for (i = 0; i < n; i++) {
		l = v[i];
		for (slash = l.len; slash > 0 && l.p[slash - 1] != '/'; slash--)
			;
		name = rl_from(l, slash);
		if (slash == 0 || !plain_name(&name)) {
			if (dir.p != NULL)
				h->buf_add(out, "\n", 1);
			dir.p = NULL;
			rl_put(h, out, &l);
			continue;
		}
		if (dir.p != NULL && dir.len == slash &&
		    memcmp(dir.p, l.p, slash) == 0 && col < width) {
			h->buf_printf(out, " %.*s", (int)name.len, name.p);
			col += name.len + 1;
			continue;
		}
		if (dir.p != NULL)
			h->buf_add(out, "\n", 1);
		dir.p = l.p;
		dir.len = slash;
		h->buf_printf(out, "%.*s: %.*s", (int)slash, l.p,
		    (int)name.len, name.p);
		col = slash + 2 + name.len;
	}
	if (dir.p != NULL)
		h->buf_add(out, "\n", 1);
}

/* The paths of a listing beyond its budget, for its items and summary. */
struct fd_list {
	const struct rl_line	*v;
	size_t			 n;
	const bool		*alone;	/* an extension no other path has */
	size_t			 near_lines;	/* put_nearest's bounds */
	size_t			 near_bytes;
};

static void
fd_items(const struct aiterm_host *h, struct aiterm_buf *out, size_t lo,
    size_t hi, void *arg)
{
	const struct fd_list *l = arg;
	size_t i;

	for (i = lo; i < hi; i++)
		rl_put(h, out, &l->v[i]);
}

/* A path of the summed-up part, for choosing those nearest the top. */
struct fd_near {
	struct rl_line	 dir;	/* up to its last '/' */
	size_t		 depth;	/* folders below the shared one */
	size_t		 rank;	/* how many before it in its folder */
	size_t		 i;
};

static int
near_dir_cmp(const void *a, const void *b)
{
	const struct fd_near *x = a, *y = b;
	int c = rl_cmp(&x->dir, &y->dir);

	return c != 0 ? c : x->i < y->i ? -1 : x->i > y->i;
}

static int
near_cmp(const void *a, const void *b)
{
	const struct fd_near *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Whole, in the listing's order, the paths of [lo, hi) nearest the top
 * of the folder they share (root bytes): the fewest folders below it
 * first, then the first in each folder before the second, as many as
 * fit l->near_lines and l->near_bytes.  Those rl_put_alone named are not
 * named again.  What a person reads first in a tree (a package's own
 * package.json and README, the headers right in /usr/include), where
 * the first and last paths are only those find met first and last.
 */
static void
put_nearest(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct fd_list *l, size_t lo, size_t hi, size_t root)
{
	struct fd_near *v;
	bool *take;
	size_t i, k, n = 0, alone = 0, lines = 0, bytes = 0;

	if (l->near_lines == 0 || (v = calloc(hi - lo, sizeof *v)) == NULL)
		return;
	if ((take = calloc(hi - lo, sizeof *take)) == NULL) {
		free(v);
		return;
	}
	for (i = lo; i < hi; i++) {
		struct rl_line p = rl_from(l->v[i], root);

		if (l->alone != NULL && l->alone[i] && alone++ < RL_ALONE_MAX)
			continue;
		for (k = p.len; k > 0 && p.p[k - 1] != '/'; k--)
			;
		v[n].dir.p = p.p;
		v[n].dir.len = k;
		for (v[n].depth = 0; k > 0; k--)
			v[n].depth += p.p[k - 1] == '/';
		v[n++].i = i;
	}
	qsort(v, n, sizeof *v, near_dir_cmp);
	for (i = 1; i < n; i++) {
		if (rl_cmp(&v[i].dir, &v[i - 1].dir) == 0)
			v[i].rank = v[i - 1].rank + 1;
	}
	qsort(v, n, sizeof *v, near_cmp);
	for (i = 0; i < n && lines < l->near_lines; i++) {
		bytes += l->v[v[i].i].len + 1;
		if (bytes > l->near_bytes)
			break;
		take[v[i].i - lo] = true;
		lines++;
	}
	if (lines > 0)
		h->buf_printf(out, "… %zu of them nearest the top:\n", lines);
	for (i = lo; i < hi; i++) {
		if (take[i - lo])
			rl_put(h, out, &l->v[i]);
	}
	free(take);
	free(v);
}

/*
 * The paths [lo, hi) summed up: how many, the subfolders of the folder
 * they share that hold most of them, the commonest kinds of name, and
 * whole the paths among them alone of their kind (rl_put_alone) and
 * those nearest the top (put_nearest).
 */
static void
fd_mid(const struct aiterm_host *h, struct aiterm_buf *out, size_t lo,
    size_t hi, void *arg)
{
	const struct fd_list *l = arg;
	const struct rl_line *first = &l->v[lo];
	struct fd_count *dirs, *names;
	size_t i, j, k, root, nd = 0, nn = 0;
	bool ext, *exts = NULL;

	dirs = calloc(hi - lo, sizeof *dirs);
	names = calloc(hi - lo, sizeof *names);
	if (dirs == NULL || names == NULL)
		goto out;
	/*
	 * The folder they are in: up to the last '/' they all share.  Not
	 * the first path's alone: find prints the folder it starts from
	 * first ("/usr/share/doc", "."), which is in its parent.
	 */
	root = first->len;
	for (i = lo + 1; i < hi; i++) {
		const struct rl_line *b = &l->v[i];

		for (j = 0; j < root && j < b->len && first->p[j] == b->p[j];
		    j++)
			;
		root = j;
	}
	while (root > 0 && first->p[root - 1] != '/')
		root--;
	for (i = lo; i < hi; i++) {
		struct rl_line p = rl_from(l->v[i], root);

		for (k = 0; k < p.len && p.p[k] != '/'; k++)
			;
		dirs[nd].key.p = p.p;
		dirs[nd].key.len = k;
		dirs[nd].dir = k < p.len;
		dirs[nd++].n = 1;
		names[nn].key = name_kind(p, &ext);
		names[nn].dir = false;
		names[nn++].n = 1;
	}
	nd = tally(dirs, nd);
	nn = tally(names, nn);
	if ((exts = calloc(nn > 0 ? nn : 1, sizeof *exts)) == NULL)
		goto out;
	for (i = 0; i < nn; i++)
		exts[i] = names[i].key.len > 0 && names[i].key.p[0] == '.';
	h->buf_printf(out, "… %zu more paths; %s%.*s most are in: ", hi - lo,
	    root > 0 ? "in " : "", (int)root, first->p);
	put_top(h, out, dirs, nd, FD_TOP_DIRS, "", NULL);
	h->buf_add(out, "… by name: ", strlen("… by name: "));
	put_top(h, out, names, nn, FD_TOP_NAMES, "*", exts);
	rl_put_alone(h, out, l->v, l->alone, lo, hi);
	put_nearest(h, out, l, lo, hi, root);
out:
	free(dirs);
	free(names);
	free(exts);
}

int
red_find(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct rl_line *paths = NULL;
	struct fd_list list = { NULL, 0, NULL, 0, 0 };
	size_t i, np = 0, errors = 0, errbytes = 0, budget, max;
	struct aiterm_buf *tmp = NULL;
	int rc = -1;

	for (i = 0; fd_actions[i] != NULL; i++) {
		if (rl_has_opt(in->argv, fd_actions[i]))
			return -1;
	}
	if (!rl_split(in, &t))
		return -1;
	budget = rl_budget(in);
	max = rl_max_bytes(in);
	if (t.n <= FD_PLAIN)
		goto out;
	/* Every path, grouped, when the groups fit the budget. */
	if ((tmp = h->buf_new()) == NULL)
		goto out;
	put_grouped(h, tmp, t.v, t.n, FD_WIDTH);
	if (rl_count(h->buf_data(tmp), h->buf_len(tmp)) <= budget &&
	    h->buf_len(tmp) <= max) {
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = 1;
		goto out;
	}
	if ((paths = calloc(t.n, sizeof *paths)) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		if (rl_starts(&t.v[i], "find: ")) {
			errors++;
			errbytes += t.v[i].len + 1;
		} else if (!rl_blank(&t.v[i]))
			paths[np++] = t.v[i];
	}
	if (np <= FD_HEAD + FD_TAIL || errors + FD_HEAD + FD_TAIL + 2 >
	    budget || errbytes >= max / 2)
		goto out;
	list.v = paths;
	list.n = np;
	if (budget > errors + FD_HEAD + FD_TAIL + FD_SUMMARY)
		list.near_lines = budget - errors - FD_HEAD - FD_TAIL -
		    FD_SUMMARY;
	if (list.near_lines > FD_NEAR)
		list.near_lines = FD_NEAR;
	list.near_bytes = max == SIZE_MAX ? max : (max - errbytes) / 2;
	if ((list.alone = rl_alone(paths, np)) == NULL)
		goto out;
	/* Its errors all, then the first and last paths that fit. */
	h->buf_free(tmp);
	if ((tmp = h->buf_new()) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		if (rl_starts(&t.v[i], "find: "))
			rl_put(h, tmp, &t.v[i]);
	}
	if ((rc = rl_fit_ends(h, tmp, np, max - errbytes, budget - errors,
	    FD_HEAD, FD_TAIL, fd_items, fd_mid, &list)) < 0)
		goto out;
	h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
out:
	if (tmp != NULL)
		h->buf_free(tmp);
	free(paths);
	free((void *)list.alone);
	rl_lines_free(&t);
	return rc;
}
