/*
 * ps aux (and other BSD-style listings with %CPU and %MEM columns).
 *
 * - The header stays as ps printed it; rows are squeezed (runs of blanks
 *   to two).  A listing of at most PS_SMALL rows is only squeezed.
 * - A listing that fits the budget (a listing's: RED_CMD_LISTING_FACTOR
 *   times a read's) keeps every row (RED-FAITHFUL: every name), with the
 *   columns that only hold numbers a person rarely reads (VSZ, RSS, TIME)
 *   left out of the rows and named: "(left out of the rows: VSZ RSS
 *   TIME)"; the header stays as it was.
 * - Of a longer one, these rows stay, in ps's order: the PS_TOP_CPU
 *   busiest by %CPU and the PS_TOP_MEM largest by %MEM (when above zero),
 *   every process in state D (uninterruptible), Z (zombie) or T
 *   (stopped), and rows that name a known trouble sign ("<defunct>",
 *   "idle in transaction").
 * - The others are counted with the most any of them used:
 *   "… 45 more processes (each at most 0.3% CPU, 0.8% MEM)".
 * Output without a %CPU and %MEM header is declined.
 */
#include <stdlib.h>
#include <string.h>

#include "sys.h"

#define PS_SMALL	20
#define PS_TOP_CPU	8
#define PS_TOP_MEM	5

static const char *const ps_signs[] = {
	"<defunct>", "idle in transaction", NULL,
};

struct ps_row {
	size_t	cpu, mem;	/* tenths of a percent */
	char	state;
	bool	keep;
};

/* The index-th blank-separated field of l, or an empty line. */
static struct rl_line
field(struct rl_line l, size_t index)
{
	struct rl_line f = { l.p, 0 };
	size_t i = 0, k = 0;

	for (;;) {
		while (i < l.len && (l.p[i] == ' ' || l.p[i] == '\t'))
			i++;
		if (i >= l.len)
			return f;
		f.p = l.p + i;
		while (i < l.len && l.p[i] != ' ' && l.p[i] != '\t')
			i++;
		if (k++ == index) {
			f.len = (size_t)(l.p + i - f.p);
			return f;
		}
	}
}

/* The index of the header word w, or SIZE_MAX. */
static size_t
column(struct rl_line head, const char *w)
{
	struct rl_line f;
	size_t k;

	for (k = 0; (f = field(head, k)).len > 0; k++) {
		if (rl_eq(&f, w))
			return k;
	}
	return SIZE_MAX;
}

/* Where the index-th field of l starts (l.len when there is none). */
static size_t
field_at(struct rl_line l, size_t index)
{
	struct rl_line f = field(l, index);

	return f.len > 0 ? (size_t)(f.p - l.p) : l.len;
}

/* Columns left out of a listing that keeps every row. */
static const char *const ps_dropped[] = { "VSZ", "RSS", "TIME", NULL };

static bool
dropped(struct rl_line head, size_t k)
{
	struct rl_line f = field(head, k);
	size_t i;

	for (i = 0; ps_dropped[i] != NULL; i++) {
		if (rl_eq(&f, ps_dropped[i]))
			return true;
	}
	return false;
}

/*
 * The header, then every row with the dropped columns left out; the last
 * column (the command) runs to the end of the line.  -1 when there was
 * nothing to drop.
 */
static int
put_all(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t)
{
	struct rl_line f, rest;
	size_t cols = 0, i, k, any = 0;

	while (field(t->v[0], cols).len > 0)
		cols++;
	for (k = 0; k < cols; k++)
		any += dropped(t->v[0], k);
	if (any == 0 || cols < 2)
		return -1;
	rl_put(h, out, &t->v[0]);
	for (i = 1; i < t->n; i++) {
		for (k = 0; k + 1 < cols; k++) {
			if (dropped(t->v[0], k))
				continue;
			f = field(t->v[i], k);
			h->buf_printf(out, "%.*s ", (int)f.len, f.p);
		}
		rest = rl_from(t->v[i], field_at(t->v[i], cols - 1));
		h->buf_printf(out, "%.*s\n", (int)rest.len, rest.p);
	}
	h->buf_add(out, "(left out of the rows:", 22);
	for (k = 0; k < cols; k++) {
		if (dropped(t->v[0], k)) {
			f = field(t->v[0], k);
			h->buf_printf(out, " %.*s", (int)f.len, f.p);
		}
	}
	h->buf_add(out, ")\n", 2);
	return 0;
}

/* "12.4" as 124; 0 when it is not a number. */
static size_t
tenths(struct rl_line f)
{
	const char *p = f.p, *end = f.p + f.len;
	size_t whole = 0, frac = 0;

	if (!rl_number(&p, end, &whole))
		return 0;
	if (p < end && *p == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')
		frac = (size_t)(p[1] - '0');
	return whole * 10 + frac;
}

/* Mark the top rows by cpu (by_mem false) or mem (true). */
static void
mark_top(struct ps_row *r, size_t n, size_t top, bool by_mem)
{
	size_t i, k, best, v;
	bool *taken;

	if ((taken = calloc(n > 0 ? n : 1, sizeof *taken)) == NULL)
		return;
	for (k = 0; k < top; k++) {
		best = SIZE_MAX;
		for (i = 0; i < n; i++) {
			v = by_mem ? r[i].mem : r[i].cpu;
			if (!taken[i] && v > 0 && (best == SIZE_MAX ||
			    v > (by_mem ? r[best].mem : r[best].cpu)))
				best = i;
		}
		if (best == SIZE_MAX)
			break;
		taken[best] = true;
		r[best].keep = true;
	}
	free(taken);
}

static bool
sign(const struct rl_line *l)
{
	size_t i;

	for (i = 0; ps_signs[i] != NULL; i++) {
		if (rl_has(l, ps_signs[i]))
			return true;
	}
	return false;
}

int
red_ps(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct ps_row *r = NULL;
	struct rl_line f;
	size_t i, n, ccpu, cmem, cstat, folded = 0, maxcpu = 0, maxmem = 0;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if (t.n < 2 || (ccpu = column(t.v[0], "%CPU")) == SIZE_MAX ||
	    (cmem = column(t.v[0], "%MEM")) == SIZE_MAX)
		goto out;
	cstat = column(t.v[0], "STAT");
	n = t.n - 1;
	if ((r = calloc(n, sizeof *r)) == NULL)
		goto out;
	if (n > PS_SMALL && t.n + 1 <= rl_budget(in) &&
	    (rc = put_all(h, out, &t)) == 0)
		goto out;
	rl_put(h, out, &t.v[0]);
	if (n <= PS_SMALL) {
		for (i = 1; i < t.n; i++)
			rl_put_squeezed(h, out, &t.v[i]);
		rc = 1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		r[i].cpu = tenths(field(t.v[i + 1], ccpu));
		r[i].mem = tenths(field(t.v[i + 1], cmem));
		f.p = NULL;
		f.len = 0;
		if (cstat != SIZE_MAX)
			f = field(t.v[i + 1], cstat);
		r[i].state = f.len > 0 ? f.p[0] : '?';
		r[i].keep = r[i].state == 'D' || r[i].state == 'Z' ||
		    r[i].state == 'T' || sign(&t.v[i + 1]);
	}
	mark_top(r, n, PS_TOP_CPU, false);
	mark_top(r, n, PS_TOP_MEM, true);
	for (i = 0; i < n; i++) {
		if (r[i].keep) {
			rl_put_squeezed(h, out, &t.v[i + 1]);
			continue;
		}
		folded++;
		maxcpu = r[i].cpu > maxcpu ? r[i].cpu : maxcpu;
		maxmem = r[i].mem > maxmem ? r[i].mem : maxmem;
	}
	rc = 1;
	if (folded > 0) {
		h->buf_printf(out, "… %zu more process%s (each at most "
		    "%zu.%zu%% CPU, %zu.%zu%% MEM)\n", folded,
		    folded == 1 ? "" : "es", maxcpu / 10, maxcpu % 10,
		    maxmem / 10, maxmem % 10);
		rc = 0;
	}
out:
	free(r);
	rl_lines_free(&t);
	return rc;
}
