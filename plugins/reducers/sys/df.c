/*
 * df: rows squeezed (runs of blanks to two), and container mounts folded.
 *
 * - Rows that repeat another row's filesystem, size, used, available and
 *   use% and are mounted under the same directory (the first four path
 *   components: "/var/lib/docker/overlay2/") are folded when there are
 *   DF_FOLD or more: the first stays, followed by
 *   "  (+23 more overlay like it under /var/lib/docker/overlay2/)".
 * - Nothing else is left out; without such rows the result is only
 *   squeezed.
 * Output that does not start with df's "Filesystem" header is declined.
 */
#include <stdlib.h>
#include <string.h>

#include "sys.h"

#define DF_FOLD		3

struct df_row {
	struct rl_line	key;	/* the five figures, as printed */
	struct rl_line	fs;
	struct rl_line	dir;	/* the mount's first four components */
	size_t		group;	/* the first row alike, or SIZE_MAX */
	size_t		count;	/* for a group's first row: rows alike */
};

/* Parse a row; false when it has fewer than six fields. */
static bool
parse_row(struct rl_line l, struct df_row *r)
{
	size_t i = 0, k, slashes = 0, from;

	for (k = 0; k < 5; k++) {
		while (i < l.len && l.p[i] == ' ')
			i++;
		if (k == 0)
			r->key.p = r->fs.p = l.p + i;
		from = i;
		while (i < l.len && l.p[i] != ' ')
			i++;
		if (i == from)
			return false;
		if (k == 0)
			r->fs.len = i - from;
	}
	r->key.len = (size_t)(l.p + i - r->key.p);
	while (i < l.len && l.p[i] == ' ')
		i++;
	if (i >= l.len || l.p[i] != '/')
		return false;
	r->dir.p = l.p + i;
	for (; i < l.len; i++) {
		if (l.p[i] == '/' && ++slashes == 5)
			break;
	}
	if (i >= l.len)
		return false;	/* too short a path to stand for others */
	r->dir.len = (size_t)(l.p + i + 1 - r->dir.p);
	return true;
}

static bool
same(const struct rl_line *a, const struct rl_line *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

int
red_df(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct df_row *r = NULL;
	struct df_row *g;
	size_t i, j;
	bool folded = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if (t.n < 2 || !rl_starts(&t.v[0], "Filesystem"))
		goto out;
	if ((r = calloc(t.n, sizeof *r)) == NULL)
		goto out;
	for (i = 1; i < t.n; i++) {
		r[i].group = SIZE_MAX;
		if (!parse_row(t.v[i], &r[i]))
			continue;
		for (j = 1; j < i; j++) {
			if (r[j].group == j && same(&r[j].key, &r[i].key) &&
			    same(&r[j].dir, &r[i].dir))
				break;
		}
		r[i].group = j < i ? j : i;
		r[r[i].group].count++;
	}
	for (i = 0; i < t.n; i++) {
		g = i > 0 && r[i].group != SIZE_MAX ? &r[r[i].group] : NULL;
		if (g != NULL && g->count >= DF_FOLD && r[i].group != i)
			continue;
		rl_put_squeezed(h, out, &t.v[i]);
		if (g != NULL && g->count >= DF_FOLD) {
			h->buf_printf(out, "  (+%zu more %.*s like it under "
			    "%.*s)\n", g->count - 1, (int)g->fs.len, g->fs.p,
			    (int)g->dir.len, g->dir.p);
			folded = true;
		}
	}
	rc = folded ? 0 : 1;
out:
	free(r);
	rl_lines_free(&t);
	return rc;
}
