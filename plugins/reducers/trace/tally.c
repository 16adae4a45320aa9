/* Counts of names in a folded run, most frequent first. */
#include <string.h>

#include "trace.h"

void
tr_tally_add(struct tr_tally *t, const char *p, size_t len)
{
	tr_tally_add_key(t, p, len, 0);
}

void
tr_tally_add_key(struct tr_tally *t, const char *p, size_t len,
    unsigned long long key)
{
	size_t i;

	t->total++;
	for (i = 0; i < t->nv; i++) {
		if (key != 0 ? t->v[i].key == key : (t->v[i].len == len &&
		    memcmp(t->v[i].p, p, len) == 0)) {
			t->v[i].n++;
			return;
		}
	}
	if (t->nv == TR_TALLY_MAX || len == 0) {
		t->other++;
		return;
	}
	t->v[t->nv].p = p;
	t->v[t->nv].len = len;
	t->v[t->nv].key = key;
	t->v[t->nv++].n = 1;
}

void
tr_tally_list(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct tr_tally *t)
{
	size_t i, j, best, shown = 0;
	bool used[TR_TALLY_MAX] = { false };

	for (i = 0; i < t->nv; i++) {
		best = t->nv;
		for (j = 0; j < t->nv; j++)
			if (!used[j] && (best == t->nv ||
			    t->v[j].n > t->v[best].n))
				best = j;
		used[best] = true;
		h->buf_printf(out, "%s %.*s %zu", shown++ > 0 ? "," : "",
		    (int)t->v[best].len, t->v[best].p, t->v[best].n);
	}
	if (t->other > 0)
		h->buf_printf(out, "%s %zu other", shown > 0 ? "," : "",
		    t->other);
}

void
tr_tally_put(const struct aiterm_host *h, struct aiterm_buf *out,
    struct tr_tally *t, const char *prefix, const char *what)
{
	if (t->total == 0)
		return;
	h->buf_printf(out, "%s[… %zu %s:", prefix, t->total, what);
	tr_tally_list(h, out, t);
	h->buf_add(out, "]\n", 2);
	memset(t, 0, sizeof *t);
}
