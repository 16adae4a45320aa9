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

/* A line of in: its index and where it starts. */
struct mark {
	size_t	k;
	size_t	pos;
};

/* The lines of in that are left out. */
struct omission {
	size_t		 from;		/* output lines [from, to) */
	size_t		 to;
	size_t		 to_pos;	/* where line to starts */
	struct mark	*flagged;	/* the lines shown anyway, ascending */
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
keep_ends(struct mark *v, size_t n, size_t budget)
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
push(struct mark **v, size_t *n, size_t *cap, size_t k, size_t pos)
{
	if (*n == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[*n].k = k;
	(*v)[(*n)++].pos = pos;
}

/*
 * Find the lines of the omitted range that must not be hidden, in three
 * tiers: lines a person navigates by, outliers of the whole text, each
 * with the line after it (what the outlier led to: the exit, the restart,
 * the next frame), and rare lines with a failure word (reduce/shape.h),
 * then the first line of each shape that carries a failure word, then the
 * other lines with failure words.  Keep up to
 * budget of them, tier by tier, each tier by its first and last lines.
 */
static void
omission_flag(struct omission *o, const char *in, size_t len, size_t budget)
{
	struct red_shapes shapes = RED_SHAPES_INIT, seen = RED_SHAPES_INIT;
	struct red_alarm alarms;
	struct red_line l;
	struct mark *tier[3] = { NULL, NULL, NULL }, *v;
	size_t n[3] = { 0, 0, 0 }, cap[3] = { 0, 0, 0 }, at[3] = { 0, 0, 0 };
	size_t k = 0, pos = 0, start, t, m, left, best, *rare = NULL;
	size_t nrare, r = 0;
	bool alarm, outlier, follows = false;
	uint64_t h;

	red_alarm_init(&alarms);
	red_shapes_count(&shapes, in, len);
	/* The outliers come from the table: the text is not hashed twice. */
	nrare = red_shapes_patterned(&shapes) ?
	    red_shapes_rare_lines(&shapes, o->from, o->to, &rare) : 0;
	for (start = pos; k < o->to && red_line_next(in, len, &pos, &l);
	    start = pos) {
		if (k >= o->from) {
			while (r < nrare && rare[r] < k)
				r++;
			alarm = red_alarm_match(&alarms, l.p, l.len);
			outlier = r < nrare && rare[r] == k;
			if (outlier || follows || red_shape_navigation(l.p,
			    l.len) || (alarm && red_shapes_rare(&shapes, l.p,
			    l.len))) {
				push(&tier[0], &n[0], &cap[0], k, start);
			} else if (alarm) {
				h = red_shape_hash(l.p, l.len);
				t = red_shapes_get(&seen, h) == 0 ? 1 : 2;
				red_shapes_add(&seen, h);
				push(&tier[t], &n[t], &cap[t], k, start);
			}
			/* The line after an outlier stays with it. */
			follows = outlier;
		}
		k++;
	}
	o->to_pos = start;
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
