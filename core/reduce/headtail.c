/*
 * RED-HEADTAIL: a count of the lines, a pass over the range to omit that
 * finds the lines with failure words, and a pass that writes the head, the
 * marker, the chosen failure lines and the tail, cutting long lines as
 * they go by.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/headtail.h"
#include "reduce/lines.h"
#include "reduce/repeat.h"
#include "reduce/shape.h"
#include "reduce/u8.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* Of the omitted lines, at most this fraction of max_lines is flagged. */
#define FLAGGED_SHARE	4

/* The lines of in that are left out. */
struct omission {
	size_t		 from;		/* output lines [from, to) */
	size_t		 to;
	size_t		 to_pos;	/* where line to starts */
	struct red_line_at	*flagged;	/* the lines shown anyway, ascending */
	size_t		 nflagged;
	size_t		 alarming;	/* distinct or failure lines of the range */
};

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

/* Keep budget of the n ascending lines of v: all, or the first and last. */
static size_t
keep_ends(struct red_line_at *v, size_t n, size_t budget)
{
	size_t head, i;

	if (n <= budget)
		return n;
	head = (budget + 1) / 2;
	for (i = head; i < budget; i++)
		v[i] = v[n - (budget - i)];
	return budget;
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

/*
 * The first tier, ascending and each line once: the outliers, the line
 * after each (what the outlier led to: the exit, the restart, the next
 * frame), and the candidates of tier 0.
 */
static void
first_tier(struct red_line_at **v, size_t *n, size_t *cap,
    const struct red_line_at *rare, size_t nrare, const struct red_line_at *c0,
    size_t n0, const char *in, size_t len, size_t to)
{
	struct red_line_at next, pick;
	const char *nl;
	size_t r = 0, j = 0, f = 0, last = SIZE_MAX;

	while (r < nrare || f < nrare || j < n0) {
		/* The line after rare[f], when it is in the range. */
		next.k = SIZE_MAX;
		next.pos = 0;
		while (f < nrare && next.k == SIZE_MAX) {
			nl = memchr(in + rare[f].pos, '\n', len - rare[f].pos);
			if (nl != NULL && rare[f].k + 1 < to) {
				next.k = rare[f].k + 1;
				next.pos = (size_t)(nl - in) + 1;
			} else
				f++;
		}
		pick = next;
		if (r < nrare && rare[r].k < pick.k)
			pick = rare[r];
		if (j < n0 && c0[j].k < pick.k)
			pick = c0[j];
		if (pick.k == SIZE_MAX)
			break;	/* only outliers whose next line is not there */
		if (r < nrare && rare[r].k == pick.k)
			r++;
		if (next.k == pick.k)
			f++;
		if (j < n0 && c0[j].k == pick.k)
			j++;
		if (pick.k != last)
			push(v, n, cap, pick.k, pick.pos);
		last = pick.k;
	}
}

/*
 * Find the lines of the omitted range that must not be hidden, in three
 * tiers: lines a person navigates by, outliers of the whole text, each
 * with the line after it, and rare lines with a failure word
 * (reduce/shape.h), then the first line of each shape that carries a
 * failure word, then the other lines with failure words.  Keep up to
 * budget of them, tier by tier, each tier by its first and last lines.
 * One pass over the text counts the shapes and finds the candidates; the
 * tiers come from those and the table.
 */
static void
omission_flag(struct omission *o, const char *in, size_t len, size_t budget)
{
	struct red_shapes shapes = RED_SHAPES_INIT, seen = RED_SHAPES_INIT;
	struct red_alarm alarms;
	struct red_line l;
	struct red_line_at *tier[3] = { NULL, NULL, NULL }, *v, *rare = NULL;
	struct red_line_at *c0 = NULL;
	struct candidate *c = NULL;
	size_t n[3] = { 0, 0, 0 }, cap[3] = { 0, 0, 0 }, at[3] = { 0, 0, 0 };
	size_t k = 0, pos = 0, start = 0, t, m, left, best, nrare, i;
	size_t nc = 0, capc = 0, n0 = 0, cap0 = 0;
	bool alarm, nav;
	uint64_t h;

	red_alarm_init(&alarms);
	o->to_pos = len;
	for (; red_line_next(in, len, &pos, &l); start = pos, k++) {
		if (k == o->to)
			o->to_pos = start;
		h = red_shapes_line(&shapes, l.p, l.len, start);
		if (k < o->from || k >= o->to)
			continue;
		alarm = red_alarm_match(&alarms, l.p, l.len);
		nav = red_shape_navigation(l.p, l.len);
		if (!alarm && !nav)
			continue;
		if (nc == capc) {
			capc = capc == 0 ? 16 : capc * 2;
			c = xrealloc(c, capc * sizeof *c);
		}
		c[nc].at.k = k;
		c[nc].at.pos = start;
		c[nc].h = h;
		c[nc].alarm = alarm;
		c[nc++].nav = nav;
	}
	/* The outliers come from the table: the text is not hashed twice. */
	nrare = red_shapes_patterned(&shapes) ?
	    red_shapes_rare_lines(&shapes, o->from, o->to, &rare) : 0;
	for (i = 0; i < nc; i++) {
		k = c[i].at.k;
		if (c[i].nav || among(rare, nrare, k) || (k > 0 &&
		    among(rare, nrare, k - 1)) || (c[i].h != 0 &&
		    red_shapes_get(&shapes, c[i].h) == 1)) {
			push(&c0, &n0, &cap0, k, c[i].at.pos);
		} else if (c[i].alarm) {
			h = c[i].h;
			if (h == 0) {
				pos = c[i].at.pos;
				(void)red_line_next(in, len, &pos, &l);
				h = red_shape_hash(l.p, l.len);
			}
			t = red_shapes_get(&seen, h) == 0 ? 1 : 2;
			red_shapes_add(&seen, h);
			push(&tier[t], &n[t], &cap[t], k, c[i].at.pos);
		}
	}
	first_tier(&tier[0], &n[0], &cap[0], rare, nrare, c0, n0, in, len,
	    o->to);
	free(c);
	free(c0);
	free(rare);
	o->alarming = n[0] + n[1] + n[2];
	left = budget;
	for (t = 0; t < 3; t++) {
		n[t] = keep_ends(tier[t], n[t], left);
		left -= n[t];
	}
	/* The kept lines in ascending order: a merge of the three. */
	v = xmalloc((n[0] + n[1] + n[2] + 1) * sizeof *v);
	for (m = 0; m < n[0] + n[1] + n[2]; m++) {
		best = 3;
		for (t = 0; t < 3; t++) {
			if (at[t] < n[t] && (best == 3 ||
			    tier[t][at[t]].k < tier[best][at[best]].k))
				best = t;
		}
		v[m] = tier[best][at[best]++];
	}
	o->flagged = v;
	o->nflagged = m;
	for (t = 0; t < 3; t++)
		free(tier[t]);
	red_shapes_free(&shapes);
	red_shapes_free(&seen);
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
	struct red_line l;
	size_t k = 0, pos = 0, at, j;
	bool ends_nl = len > 0 && in[len - 1] == '\n';

	if (info == NULL)
		info = &scratch;
	memset(info, 0, sizeof *info);
	red_lineno_init(&ln, opts->base_line, opts->line_of, opts->nline_of,
	    map != NULL ? map->total : n);
	o.from = o.to = n;
	if (opts->max_lines > 0 && n > opts->max_lines &&
	    opts->head_lines + opts->tail_lines + 1 < n) {
		o.from = opts->head_lines;
		o.to = n - opts->tail_lines;
		omission_flag(&o, in, len, opts->max_lines / FLAGGED_SHARE);
	}
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
				emit_line(out, &l, opts->max_line_bytes, info);
				info->lines_out++;
			}
			pos = o.to_pos;
			k = o.to;
			continue;
		}
		emit_line(out, &l, opts->max_line_bytes, info);
		info->lines_out++;
		k++;
	}
	info->cut = info->lines_omitted > 0 || info->lines_cut > 0;
	if (out->data == NULL)
		buf_add(out, "", 0);
	free(o.flagged);
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
