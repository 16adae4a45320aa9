/*
 * RED-HEADTAIL: a count of the lines (none when RED-REPEAT's map has it),
 * a pass that counts the shapes of the lines and finds those of the range
 * to omit that must be shown anyway, and the output: the head, the
 * marker, the chosen lines (read where they start) and the tail, long
 * lines cut as they go by.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "reduce/headtail.h"
#include "reduce/lines.h"
#include "reduce/repeat.h"
#include "reduce/shape.h"
#include "reduce/u8.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* Of the omitted lines, at most this fraction of max_lines is flagged. */
#define FLAGGED_SHARE	4
/* Tiers of flagged lines (omission_flag). */
#define TIERS		4
/* Lines after an outlier that go on it, beyond the one right after it. */
#define FOLLOW_MORE	4
/*
 * The head and the tail keep at most this many bytes a line they may
 * keep (a wide terminal's line): the model reads tokens, which go with
 * bytes, so 40 log lines of 400 bytes are not kept where 40 of 60 would
 * be.  Never fewer than the MIN lines.
 */
#define LINE_BYTES	120
#define HEAD_MIN	4
#define TAIL_MIN	6
/*
 * For opts->max_bytes: what the marker line takes at most, the "N: " of a
 * flagged line, and the "[… N bytes omitted]" of a line cut in the middle.
 */
#define MARKER_BYTES	256
#define PREFIX_BYTES	12
#define CUT_MARK	32

/* The lines of in that are left out. */
struct omission {
	size_t		 from;		/* output lines [from, to) */
	size_t		 to;
	size_t		 to_pos;	/* where line to starts */
	struct red_line_at	*flagged;	/* the lines shown anyway, ascending */
	size_t		 nflagged;
	size_t		 alarming;	/* distinct or failure lines of the range */
};

/* A line's bytes as emit_line writes it (the cut marker left out). */
static size_t
shown_bytes(size_t len, size_t max)
{
	return max > 0 && len > max ? max : len;
}

/* Write a line, cut in the middle when it is longer than max bytes. */
static void
emit_line(struct aiterm_buf *out, const struct red_line *l, size_t max,
    struct red_headtail_info *info)
{
	char text[64];
	size_t head, tail, omitted;
	int mlen;

	if (max == 0 || l->len <= max) {
		buf_add(out, l->p, l->len);
	} else {
		head = red_u8_floor(l->p, max / 2);
		tail = red_u8_ceil(l->p, l->len, l->len - (max - max / 2));
		omitted = tail - head;
		mlen = snprintf(text, sizeof text, "[… %zu bytes omitted]",
		    omitted);
		if (mlen > 0 && head + (size_t)mlen + (l->len - tail) < l->len) {
			buf_add(out, l->p, head);
			buf_add(out, text, (size_t)mlen);
			buf_add(out, l->p + tail, l->len - tail);
			info->lines_cut++;
			info->bytes_cut += omitted;
		} else {
			buf_add(out, l->p, l->len);
		}
	}
	if (l->nl)
		buf_addc(out, '\n');
}

/*
 * What a line kept costs of a budget: a unit for each LINE_BYTES it shows
 * or part of them (a line of LINE_BYTES or less, one).
 */
static size_t
units(const char *in, size_t len, size_t pos, size_t max)
{
	const char *nl = memchr(in + pos, '\n', len - pos);
	size_t n = nl != NULL ? (size_t)(nl - (in + pos)) : len - pos;

	n = shown_bytes(n, max);
	return n <= LINE_BYTES ? 1 : (n + LINE_BYTES - 1) / LINE_BYTES;
}

/*
 * Keep what *left allows of the n ascending lines of v: all, or the first
 * and the last, taken in turn from the two ends; *left loses their cost.
 */
static size_t
keep_ends(struct red_line_at *v, size_t n, size_t *left, const char *in,
    size_t len, size_t max)
{
	size_t h = 0, t = 0, cost, i;

	while (h + t < n) {
		cost = units(in, len, v[h <= t ? h : n - 1 - t].pos, max);
		if (cost > *left)
			break;
		*left -= cost;
		if (h <= t)
			h++;
		else
			t++;
	}
	for (i = 0; i < t; i++)
		v[h + i] = v[n - t + i];
	return h + t;
}

static void
push(struct red_line_at **v, size_t *n, size_t *cap, size_t k, size_t pos)
{
	if (*n == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[*n].k = k;
	(*v)[(*n)++].pos = pos;
}

/* A line of the range that carries a failure word or that one navigates by. */
struct candidate {
	struct red_line_at	 at;
	uint64_t		 h;	/* its shape, 0 when not counted */
	bool			 alarm;
	bool			 nav;
};

/* Whether k is one of the n ascending lines of v. */
static bool
among(const struct red_line_at *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].k == k)
			return true;
		if (v[mid].k < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int
at_cmp(const void *a, const void *b)
{
	const struct red_line_at *x = a, *y = b;

	return x->k < y->k ? -1 : x->k > y->k;
}

/* The ascending a and b as one ascending list, each line once, in *v. */
static size_t
merge_once(const struct red_line_at *a, size_t na, const struct red_line_at *b,
    size_t nb, struct red_line_at **v)
{
	size_t i = 0, j = 0, m = 0;
	struct red_line_at pick;

	*v = xmalloc((na + nb + 1) * sizeof **v);
	while (i < na || j < nb) {
		if (j >= nb || (i < na && a[i].k <= b[j].k))
			pick = a[i++];
		else
			pick = b[j++];
		if (m == 0 || (*v)[m - 1].k != pick.k)
			(*v)[m++] = pick;
	}
	return m;
}

/* Sort v by line and drop repeats; the number left. */
static size_t
sorted_once(struct red_line_at *v, size_t n)
{
	size_t i, m = 0;

	if (n > 1)
		qsort(v, n, sizeof *v, at_cmp);
	for (i = 0; i < n; i++) {
		if (m == 0 || v[m - 1].k != v[i].k)
			v[m++] = v[i];
	}
	return m;
}

/* Lines that go on the one before them: indented, or a cause or location. */
static const char *const goes_on[] = { " ", "\t", "Caused by", "-->" };

static bool
continues(const char *p, size_t len)
{
	size_t i, n;

	for (i = 0; i < len && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	if (i == len)
		return false;	/* blank */
	for (i = 0; i < sizeof goes_on / sizeof goes_on[0]; i++) {
		n = strlen(goes_on[i]);
		if (len >= n && memcmp(p, goes_on[i], n) == 0)
			return true;
	}
	return false;
}

/*
 * The lines after each outlier, within the range: the next one (what it
 * led to: the exit, the restart, its first frame) to fl[0], and up to
 * FOLLOW_MORE more while they go on it (indented, "Caused by", "-->") to
 * fl[1].
 */
static void
follow_lines(struct red_line_at **fl, size_t *n, size_t *cap,
    const struct red_line_at *rare, size_t nrare, const char *in, size_t len,
    size_t to)
{
	struct red_line l;
	size_t i, m, k, pos, start;

	for (i = 0; i < nrare; i++) {
		k = rare[i].k;
		pos = rare[i].pos;
		(void)red_line_next(in, len, &pos, &l);
		for (m = 0; m <= FOLLOW_MORE && k + 1 < to; m++) {
			start = pos;
			if (!red_line_next(in, len, &pos, &l) || (m > 0 &&
			    !continues(l.p, l.len)))
				break;
			k++;
			push(&fl[m > 0], &n[m > 0], &cap[m > 0], k, start);
		}
	}
}

/*
 * The candidates for showing, found in one pass over the text: the shape
 * of every line counted, and the lines of [lo, hi) that carry a failure
 * word or that one navigates by.  The range finally omitted lies within
 * [lo, hi); choosing from it (omission_flag) reads the text no more.
 */
struct flag_scan {
	struct red_shapes	 shapes;
	struct candidate	*c;
	size_t			 nc;
};

/* A candidate for showing: line k at byte start. */
static void
flag_push(struct flag_scan *fs, size_t *capc, size_t k, size_t start,
    uint64_t h, bool alarm, bool nav)
{
	if (fs->nc == *capc) {
		*capc = *capc == 0 ? 16 : *capc * 2;
		fs->c = xrealloc(fs->c, *capc * sizeof *fs->c);
	}
	fs->c[fs->nc].at.k = k;
	fs->c[fs->nc].at.pos = start;
	fs->c[fs->nc].h = h;
	fs->c[fs->nc].alarm = alarm;
	fs->c[fs->nc++].nav = nav;
}

/*
 * A text of at least split bytes (opts->split) has the lines of its
 * second half read by a thread of its own while flag_scan reads the
 * first (ADR 0046): their shapes, failure words and navigation, each
 * line's alone, so any thread may; counting them stays in the text's
 * order.
 */
enum { SEEN_ALARM = 1, SEEN_NAV = 2 };

struct scan_half {
	const char	*in;
	size_t		 from, len;	/* the half: in[from, len) */
	uint64_t	*h;		/* each line's shape (red_shape_of) */
	unsigned char	*seen;		/* each line's SEEN_ALARM, SEEN_NAV */
	size_t		 n, cap;
};

static void
scan_half_run(void *arg)
{
	struct scan_half *sh = arg;
	struct red_alarm alarms;
	struct red_line l;
	size_t pos = sh->from;

	red_alarm_init(&alarms);
	while (red_line_next(sh->in, sh->len, &pos, &l)) {
		if (sh->n == sh->cap) {
			sh->cap = sh->cap == 0 ? 4096 : sh->cap * 2;
			sh->h = xrealloc(sh->h, sh->cap * sizeof *sh->h);
			sh->seen = xrealloc(sh->seen, sh->cap);
		}
		sh->h[sh->n] = red_shape_of(l.p, l.len);
		sh->seen[sh->n++] = (red_alarm_match(&alarms, l.p, l.len) ?
		    SEEN_ALARM : 0) | (red_shape_navigation(l.p, l.len) ?
		    SEEN_NAV : 0);
	}
}

static void
flag_scan(struct flag_scan *fs, const char *in, size_t len, size_t lo,
    size_t hi, size_t split)
{
	struct red_alarm alarms;
	struct scan_half half = { in, len, len, NULL, NULL, 0, 0 };
	struct red_line l;
	uv_thread_t thread;
	size_t k = 0, j, pos = 0, start = 0, capc = 0, end = len, cut;
	bool alarm, nav, two = false;
	uint64_t h;

	memset(fs, 0, sizeof *fs);
	red_alarm_init(&alarms);
	cut = len >= red_split_at(split) ? red_line_past_middle(in, len) : 0;
	if (cut > 0) {
		half.from = cut;
		if ((two = uv_thread_create(&thread, scan_half_run,
		    &half) == 0))
			end = cut;
	}
	for (; red_line_next(in, end, &pos, &l); start = pos, k++) {
		h = red_shapes_line(&fs->shapes, l.p, l.len, start);
		if (k < lo || k >= hi)
			continue;
		alarm = red_alarm_match(&alarms, l.p, l.len);
		nav = red_shape_navigation(l.p, l.len);
		if (alarm || nav)
			flag_push(fs, &capc, k, start, h, alarm, nav);
	}
	if (!two)
		return;
	uv_thread_join(&thread);
	for (j = 0; red_line_next(in, len, &pos, &l); start = pos, k++, j++) {
		red_shapes_put(&fs->shapes, half.h[j], start);
		if (k >= lo && k < hi && half.seen[j] != 0)
			flag_push(fs, &capc, k, start, half.h[j],
			    (half.seen[j] & SEEN_ALARM) != 0,
			    (half.seen[j] & SEEN_NAV) != 0);
	}
	free(half.h);
	free(half.seen);
}

static void
flag_scan_free(struct flag_scan *fs)
{
	red_shapes_free(&fs->shapes);
	free(fs->c);
}

/*
 * Find the lines of the omitted range [o->from, o->to) that must not be
 * hidden, in four tiers: lines a person navigates by, outliers of the
 * whole text, each with the line after it, and rare lines with a failure
 * word (reduce/shape.h); then the first line of each shape that carries
 * a failure word; then the lines that go on after an outlier's next one
 * (follow_lines); then the other lines with failure words.  Keep what
 * budget allows of them (a line costs a unit for each LINE_BYTES it
 * shows, max bytes at most), tier by tier, each tier by its first and
 * last lines.  The candidates and the shapes come from flag_scan; the
 * tiers from those and the table.
 */
static void
omission_flag(struct omission *o, const struct flag_scan *fs, const char *in,
    size_t len, size_t budget, size_t max)
{
	struct red_shapes seen = RED_SHAPES_INIT;
	const struct red_shapes *shapes = &fs->shapes;
	const struct candidate *c = fs->c;
	struct red_line l = { NULL, 0, false };
	struct red_line_at *tier[TIERS] = { NULL }, *v, *rare = NULL;
	struct red_line_at *fl[2] = { NULL, NULL }, *c0 = NULL;
	size_t n[TIERS] = { 0 }, cap[TIERS] = { 0 }, at[TIERS] = { 0 };
	size_t k, pos, t, m, left, best, nrare, i, all;
	size_t nfl[2] = { 0, 0 }, capfl[2] = { 0, 0 };
	size_t n0 = 0, cap0 = 0;
	uint64_t h;

	free(o->flagged);
	o->flagged = NULL;
	o->nflagged = 0;
	/* The outliers come from the table: the text is not hashed twice. */
	nrare = red_shapes_patterned(shapes) ?
	    red_shapes_rare_lines(shapes, o->from, o->to, &rare) : 0;
	/*
	 * The lines after the outliers: the next one with them, those that
	 * go on it in a tier of their own unless another tier holds them.
	 */
	follow_lines(fl, nfl, capfl, rare, nrare, in, len, o->to);
	nfl[0] = sorted_once(fl[0], nfl[0]);
	for (i = 0; i < fs->nc; i++) {
		k = c[i].at.k;
		if (k < o->from || k >= o->to || among(fl[0], nfl[0], k))
			continue;
		if (c[i].nav || (c[i].h != 0 &&
		    red_shapes_get(shapes, c[i].h) == 1)) {
			push(&c0, &n0, &cap0, k, c[i].at.pos);
		} else if (c[i].alarm) {
			h = c[i].h;
			if (h == 0) {
				pos = c[i].at.pos;
				(void)red_line_next(in, len, &pos, &l);
				h = red_shape_hash(l.p, l.len);
			}
			t = red_shapes_get(&seen, h) == 0 ? 1 : 3;
			red_shapes_add(&seen, h);
			push(&tier[t], &n[t], &cap[t], k, c[i].at.pos);
		}
	}
	/* The first tier: outliers, the lines after them, candidates. */
	m = merge_once(rare, nrare, fl[0], nfl[0], &v);
	n[0] = merge_once(v, m, c0, n0, &tier[0]);
	free(v);
	free(c0);
	nfl[1] = sorted_once(fl[1], nfl[1]);
	for (i = 0; i < nfl[1]; i++) {
		if (!among(tier[0], n[0], fl[1][i].k) &&
		    !among(tier[1], n[1], fl[1][i].k) &&
		    !among(tier[3], n[3], fl[1][i].k))
			push(&tier[2], &n[2], &cap[2], fl[1][i].k,
			    fl[1][i].pos);
	}
	free(fl[0]);
	free(fl[1]);
	free(rare);
	for (t = 0, all = 0; t < TIERS; t++)
		all += n[t];
	o->alarming = all;
	left = budget;
	for (t = 0, all = 0; t < TIERS; t++) {
		n[t] = keep_ends(tier[t], n[t], &left, in, len, max);
		all += n[t];
	}
	/* The kept lines in ascending order: a merge of the tiers. */
	v = xmalloc((all + 1) * sizeof *v);
	for (m = 0; m < all; m++) {
		best = TIERS;
		for (t = 0; t < TIERS; t++) {
			if (at[t] < n[t] && (best == TIERS ||
			    tier[t][at[t]].k < tier[best][at[best]].k))
				best = t;
		}
		v[m] = tier[best][at[best]++];
	}
	o->flagged = v;
	o->nflagged = m;
	for (t = 0; t < TIERS; t++)
		free(tier[t]);
	red_shapes_free(&seen);
}

/* A line's bytes in the result, as emit_line writes it, with its LF. */
static size_t
line_cost(size_t len, size_t max)
{
	return (max > 0 && len > max ? max + CUT_MARK : len) + 1;
}

/*
 * How many of the first want lines fit in want x LINE_BYTES bytes (their
 * LFs not counted) and, as the result has them, in room bytes (at least
 * min of them); of the last ones when tail.  *used: what they cost of
 * room.
 */
static size_t
fit_bytes(const char *in, size_t len, size_t want, size_t min, size_t max,
    bool tail, size_t room, size_t *used)
{
	size_t budget = want * LINE_BYTES, shown = 0, k = 0, end = len, pos = 0;
	size_t start, cost;
	struct red_line l;

	*used = 0;
	if (tail && end > 0 && in[end - 1] == '\n')
		end--;
	while (k < want) {
		if (tail) {
			if (end == 0 && k > 0)
				break;
			for (start = end; start > 0 && in[start - 1] != '\n';
			    start--)
				;
			l.len = end - start;
			end = start > 0 ? start - 1 : 0;
		} else if (!red_line_next(in, len, &pos, &l)) {
			break;
		}
		shown += shown_bytes(l.len, max);
		cost = line_cost(l.len, max);
		if ((shown > budget || *used + cost > room) && k >= min)
			break;
		*used += cost;
		k++;
	}
	return k;
}

/* Where the last lines lines of in start. */
static size_t
tail_start(const char *in, size_t len, size_t lines)
{
	size_t end = len;

	if (lines == 0)
		return len;
	if (end > 0 && in[end - 1] == '\n')
		end--;
	while (end > 0) {
		if (in[end - 1] == '\n' && --lines == 0)
			break;
		end--;
	}
	return end;
}

/* What the flagged lines cost of the result, their "N: " with them. */
static size_t
flagged_bytes(const struct omission *o, const char *in, size_t len,
    size_t max)
{
	const char *nl;
	size_t j, sum = 0, at;

	for (j = 0; j < o->nflagged; j++) {
		at = o->flagged[j].pos;
		nl = memchr(in + at, '\n', len - at);
		sum += PREFIX_BYTES + line_cost(nl != NULL ?
		    (size_t)(nl - (in + at)) : len - at, max);
	}
	return sum;
}

/*
 * The longest line kept when a line may take share bytes, its cut mark
 * and LF among them (16 at least); max if that is shorter.
 */
static size_t
line_width(size_t share, size_t max)
{
	size_t t = share > CUT_MARK + 1 + 16 ? share - CUT_MARK - 1 : 16;

	return max > 0 && max < t ? max : t;
}

/*
 * The longest line kept when the marker, the most the flagged lines can
 * take (fmax) and the lines the head and the tail keep at least must fit
 * in bytes; max if that is shorter.
 */
static size_t
tight_max(size_t bytes, size_t fmax, size_t max)
{
	size_t room = bytes > MARKER_BYTES + fmax ? bytes - MARKER_BYTES -
	    fmax : 0;

	return line_width(room / (HEAD_MIN + TAIL_MIN), max);
}

/* The longest line kept when each of n lines gets its share of bytes. */
static size_t
few_max(size_t bytes, size_t n, size_t max)
{
	return line_width(n > 0 ? bytes / n : bytes, max);
}

/* What the whole text costs as emit_line would write it with max. */
static size_t
whole_bytes(const char *in, size_t len, size_t max)
{
	struct red_line l;
	size_t pos = 0, sum = 0;

	while (red_line_next(in, len, &pos, &l))
		sum += line_cost(l.len, max);
	return sum;
}

/*
 * The lines to leave out, and the longest line kept (*max).  By lines:
 * the head and the tail by count and by LINE_BYTES a line, the flagged
 * lines by units.  Then, when opts->max_bytes is set and the result would
 * be longer: the flagged lines keep their place and the head and the tail
 * share the rest, two fifths and three; if that is still too long (the
 * range grew and more lines are flagged, or the lines the head and the
 * tail must keep are long), once more, and at last with lines cut to
 * tight_max, where every line kept fits whatever is flagged.
 */
static void
plan(struct omission *o, struct flag_scan *fs, const char *in, size_t len,
    size_t n, const struct red_headtail_opts *opts, size_t *max)
{
	size_t budget = opts->max_lines / FLAGGED_SHARE, bytes = opts->max_bytes;
	size_t hb, tb, room, fmax, tail, attempt, lo, hi;

	o->from = fit_bytes(in, len, opts->head_lines, HEAD_MIN, *max, false,
	    SIZE_MAX, &hb);
	tail = fit_bytes(in, len, opts->tail_lines, TAIL_MIN, *max, true,
	    SIZE_MAX, &tb);
	o->to = o->from + tail < n ? n - tail : o->from;
	lo = bytes > 0 && o->from > HEAD_MIN ? HEAD_MIN : o->from;
	hi = bytes > 0 && o->to < n - TAIL_MIN ? n - TAIL_MIN : o->to;
	flag_scan(fs, in, len, lo, hi, opts->split);
	omission_flag(o, fs, in, len, budget, *max);
	for (attempt = 0; bytes > 0 && attempt < 3 && MARKER_BYTES +
	    flagged_bytes(o, in, len, *max) + hb + tb > bytes; attempt++) {
		fmax = budget * (LINE_BYTES + PREFIX_BYTES + CUT_MARK + 1);
		if (attempt < 2) {
			room = flagged_bytes(o, in, len, *max);
		} else {
			room = fmax;
			*max = tight_max(bytes, fmax, *max);
		}
		room = bytes > MARKER_BYTES + room ? bytes - MARKER_BYTES -
		    room : 0;
		o->from = fit_bytes(in, len, opts->head_lines, HEAD_MIN, *max,
		    false, room * 2 / 5, &hb);
		tail = fit_bytes(in, len, opts->tail_lines, TAIL_MIN, *max,
		    true, room > hb ? room - hb : 0, &tb);
		o->to = o->from + tail < n ? n - tail : o->from;
		omission_flag(o, fs, in, len, budget, *max);
	}
	o->to_pos = tail_start(in, len, n - o->to);
}

/* The marker; it ends with a LF when more text follows it (nl). */
static void
emit_marker(struct aiterm_buf *out, const struct red_lineno *ln,
    const struct red_linemap *map, const struct omission *o, bool nl,
    struct red_headtail_info *info)
{
	size_t first = map != NULL ? red_linemap_first(map, o->from) : o->from;
	size_t last = map != NULL ? red_linemap_last(map, o->to - 1) : o->to - 1;
	const char *them = "them";

	info->lines_omitted = last - first + 1;
	info->omitted_first = red_lineno_at(ln, first);
	info->omitted_last = red_lineno_at(ln, last);
	info->lines_flagged = o->nflagged;
	if (info->lines_omitted == 1) {
		buf_printf(out, "[… 1 line omitted (line %llu)",
		    info->omitted_first);
		them = "it";
	} else {
		buf_printf(out, "[… %zu lines omitted (lines %llu-%llu)",
		    info->lines_omitted, info->omitted_first,
		    info->omitted_last);
	}
	if (o->nflagged == 1 && o->alarming == 1)
		buf_printf(out, ", except 1 distinct or failure line shown "
		    "below with its line number");
	else if (o->nflagged > 0 && o->nflagged == o->alarming)
		buf_printf(out, ", except %zu distinct or failure lines shown "
		    "below with their line numbers", o->nflagged);
	else if (o->nflagged > 0)
		buf_printf(out, ", except %zu of the %zu distinct or failure "
		    "lines, shown below with their line numbers", o->nflagged,
		    o->alarming);
	buf_printf(out, "; read %s with pty_read line_range=[%llu,%llu] or "
	    "full=true]", them, info->omitted_first, info->omitted_last);
	if (nl)
		buf_addc(out, '\n');
	info->lines_out++;
}

/*
 * The head, the marker, the flagged lines (read where they start: the
 * rest of the omitted range is not gone through again) and the tail.
 */
static void
headtail(const char *in, size_t len, size_t n,
    const struct red_headtail_opts *opts, const struct red_linemap *map,
    struct aiterm_buf *out, struct red_headtail_info *info)
{
	struct red_headtail_info scratch;
	struct red_lineno ln;
	struct omission o = { 0 };
	struct flag_scan fs = { RED_SHAPES_INIT, NULL, 0 };
	struct red_line l;
	size_t k = 0, pos = 0, at, j, max = opts->max_line_bytes;
	size_t bytes = opts->max_bytes;
	bool ends_nl = len > 0 && in[len - 1] == '\n', over;

	if (info == NULL)
		info = &scratch;
	memset(info, 0, sizeof *info);
	red_lineno_init(&ln, opts->base_line, opts->line_of, opts->nline_of,
	    map != NULL ? map->total : n);
	o.from = o.to = n;
	/* Cut by lines, or else by bytes (the text walked once more). */
	over = opts->max_lines > 0 && n > opts->max_lines &&
	    opts->head_lines + opts->tail_lines + 1 < n;
	if (!over && bytes > 0 && len > bytes &&
	    whole_bytes(in, len, max) > bytes) {
		if (n > HEAD_MIN + TAIL_MIN)
			over = true;
		else	/* a few long lines: each keeps its share */
			max = few_max(bytes, n, max);
	}
	if (over)
		plan(&o, &fs, in, len, n, opts, &max);
	info->lines_in = n;
	while (red_line_next(in, len, &pos, &l)) {
		if (k == o.from && o.from < o.to) {
			emit_marker(out, &ln, map, &o,
			    o.to < n || ends_nl || o.nflagged > 0, info);
			for (j = 0; j < o.nflagged; j++) {
				at = o.flagged[j].pos;
				(void)red_line_next(in, len, &at, &l);
				buf_printf(out, "%llu: ", red_lineno_at(&ln,
				    map != NULL ? red_linemap_first(map,
				    o.flagged[j].k) : o.flagged[j].k));
				emit_line(out, &l, max, info);
				info->lines_out++;
			}
			pos = o.to_pos;
			k = o.to;
			continue;
		}
		emit_line(out, &l, max, info);
		info->lines_out++;
		k++;
	}
	info->cut = info->lines_omitted > 0 || info->lines_cut > 0;
	if (out->data == NULL)
		buf_add(out, "", 0);
	free(o.flagged);
	flag_scan_free(&fs);
}

void
red_headtail_map(const char *in, size_t len,
    const struct red_headtail_opts *opts, const struct red_linemap *map,
    struct aiterm_buf *out, struct red_headtail_info *info)
{
	size_t n = red_line_count(in, len);

	headtail(in, len, n, opts, map != NULL && map->n == n ? map : NULL,
	    out, info);
}

void
red_headtail_own(const char *in, size_t len,
    const struct red_headtail_opts *opts, const struct red_linemap *map,
    struct aiterm_buf *out, struct red_headtail_info *info)
{
	headtail(in, len, map->n, opts, map, out, info);
}

void
red_headtail(const char *in, size_t len, const struct red_headtail_opts *opts,
    struct aiterm_buf *out, struct red_headtail_info *info)
{
	red_headtail_map(in, len, opts, NULL, out, info);
}
