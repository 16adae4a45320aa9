/*
 * RED-HEADTAIL: a count of the lines, a pass over the range to omit that
 * finds the lines with failure words, and a pass that writes the head, the
 * marker, the chosen failure lines and the tail, cutting long lines as
 * they go by.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/headtail.h"
#include "reduce/lines.h"
#include "reduce/repeat.h"
#include "reduce/u8.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* Of the omitted lines, at most this fraction of max_lines is flagged. */
#define FLAGGED_SHARE	4

/* The lines of in that are left out. */
struct omission {
	size_t		 from;		/* output lines [from, to) */
	size_t		 to;
	size_t		*flagged;	/* the lines shown anyway, ascending */
	size_t		 nflagged;
	size_t		 alarming;	/* lines of the range that could be */
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

/*
 * Find the lines of the omitted range that carry failure words and keep
 * up to budget of them: all when they fit, else the first and the last.
 */
static void
omission_flag(struct omission *o, const char *in, size_t len, size_t budget)
{
	struct red_alarm alarm;
	struct red_line l;
	size_t *all = NULL, cap = 0, k = 0, pos = 0, head, i;

	red_alarm_init(&alarm);
	while (red_line_next(in, len, &pos, &l) && k < o->to) {
		if (k >= o->from && red_alarm_match(&alarm, l.p, l.len)) {
			if (o->alarming == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				all = xrealloc(all, cap * sizeof *all);
			}
			all[o->alarming++] = k;
		}
		k++;
	}
	o->nflagged = o->alarming < budget ? o->alarming : budget;
	if (o->nflagged < o->alarming) {
		head = (o->nflagged + 1) / 2;
		for (i = head; i < o->nflagged; i++)
			all[i] = all[o->alarming - (o->nflagged - i)];
	}
	o->flagged = all;
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
	if (o->nflagged > 0 && o->nflagged == o->alarming)
		buf_printf(out, ", except %zu with failure words shown below "
		    "with their line numbers", o->nflagged);
	else if (o->nflagged > 0)
		buf_printf(out, ", except %zu of the %zu with failure words, "
		    "shown below with their line numbers", o->nflagged,
		    o->alarming);
	buf_printf(out, "; read %s with pty_read line_range=[%llu,%llu] or "
	    "full=true]", them, info->omitted_first, info->omitted_last);
	if (nl)
		buf_addc(out, '\n');
	info->lines_out++;
}

void
red_headtail_map(const char *in, size_t len,
    const struct red_headtail_opts *opts, const struct red_linemap *map,
    struct aiterm_buf *out, struct red_headtail_info *info)
{
	struct red_headtail_info scratch;
	struct red_lineno ln;
	struct omission o = { 0 };
	struct red_line l;
	size_t n, k = 0, pos = 0, j = 0;
	bool ends_nl = len > 0 && in[len - 1] == '\n';

	if (info == NULL)
		info = &scratch;
	memset(info, 0, sizeof *info);
	n = red_line_count(in, len);
	if (map != NULL && map->n != n)
		map = NULL;
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
		if (k == o.from && o.from < o.to)
			emit_marker(out, &ln, map, &o,
			    o.to < n || ends_nl || o.nflagged > 0, info);
		if (k < o.from || k >= o.to) {
			emit_line(out, &l, opts->max_line_bytes, info);
			info->lines_out++;
		} else if (j < o.nflagged && o.flagged[j] == k) {
			buf_printf(out, "%llu: ", red_lineno_at(&ln,
			    map != NULL ? red_linemap_first(map, k) : k));
			emit_line(out, &l, opts->max_line_bytes, info);
			info->lines_out++;
			j++;
		}
		k++;
	}
	info->cut = info->lines_omitted > 0 || info->lines_cut > 0;
	if (out->data == NULL)
		buf_add(out, "", 0);
	free(o.flagged);
}

void
red_headtail(const char *in, size_t len, const struct red_headtail_opts *opts,
    struct aiterm_buf *out, struct red_headtail_info *info)
{
	red_headtail_map(in, len, opts, NULL, out, info);
}
