/*
 * RED-REPEAT: one pass over the lines, comparing each with the one before.
 * A run is the first line, the count and whether all its lines are the
 * same; it is written out when a line breaks it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <uv.h>

#include "reduce/lines.h"
#include "reduce/repeat.h"
#include "util/buf.h"

#define RUN_MIN	3	/* the shortest run that collapses */

/*
 * Words that make a line worth seeing on its own, lower case and grouped
 * by their first letter.  They match anywhere in a line and in any case
 * ("ERROR", "failed", "Warning:", "Exited (1)").
 */
struct alarm_word {
	const char	*word;
	size_t		 len;
};

#define ALARM_PER_LETTER 3
#define PAIR_SPAN	3	/* the shortest failure word, less one */
#define W(s) { s, sizeof s - 1 }
static const struct alarm_word alarm_words[26][ALARM_PER_LETTER] = {
	['a' - 'a'] = { W("abort") },
	['c' - 'a'] = { W("crash"), W("critical") },
	['d' - 'a'] = { W("denied") },
	['e' - 'a'] = { W("error"), W("exception"), W("exit") },
	['f' - 'a'] = { W("fail"), W("fatal") },
	['k' - 'a'] = { W("killed") },
	['p' - 'a'] = { W("panic") },
	['r' - 'a'] = { W("refused") },
	['s' - 'a'] = { W("segfault") },
	['t' - 'a'] = { W("traceback"), W("timeout"), W("timed out") },
	['u' - 'a'] = { W("unhealthy") },
	['w' - 'a'] = { W("warn") },
};
#undef W

/*
 * Where the result goes: appended to a buffer, or written over the text
 * being read (never ahead of it: a run never grows).
 */
struct sink {
	struct aiterm_buf *out;		/* NULL when in place */
	char		*base;		/* the text, when in place */
	size_t		 len;		/* bytes written in place */
};

static void
sink_add(struct sink *k, const char *p, size_t n)
{
	if (k->out != NULL) {
		buf_add(k->out, p, n);
	} else {
		if (k->base + k->len != p)
			memmove(k->base + k->len, p, n);
		k->len += n;
	}
}

static void
sink_addc(struct sink *k, char c)
{
	sink_add(k, &c, 1);
}

struct run {
	struct red_line	 first;
	struct red_line	 last;
	size_t		 count;
	size_t		 index;		/* source index of the first line */
	bool		 same;		/* every line equals the first */
};

static bool
hex_digit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

static bool
dec_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

void
red_alarm_init(struct red_alarm *a)
{
	const struct alarm_word *w;
	size_t c, k, j;

	memset(a, 0, sizeof *a);
	for (c = 0; c < 26; c++) {
		a->letter['a' + c] = a->letter['A' + c] = (uint8_t)(c + 1);
		a->bit['a' + c] = a->bit['A' + c] = 1u << c;
	}
	for (c = 0; c < 26; c++) {
		for (k = 0; k < ALARM_PER_LETTER; k++) {
			w = &alarm_words[c][k];
			if (w->word == NULL)
				continue;
			a->third[c + 1][a->letter[(unsigned char)w->word[1]]] |=
			    a->bit[(unsigned char)w->word[2]];
			for (j = 0; j < PAIR_SPAN; j++)
				a->pair[a->letter[(unsigned char)w->word[j]]] |=
				    a->bit[(unsigned char)w->word[j + 1]];
		}
	}
}

/*
 * Whether a failure word that starts with letter c starts at p (len bytes
 * left).  The words are lower case letters and spaces, which OR 0x20
 * leaves alone.
 */
static bool
alarm_at(const char *p, size_t len, unsigned int c)
{
	const struct alarm_word *w;
	size_t k, j;
	bool found = false;

	for (k = 0; k < ALARM_PER_LETTER && !found; k++) {
		w = &alarm_words[c][k];
		if (w->word == NULL || len < w->len)
			continue;
		for (j = 0; j < w->len && (p[j] | 0x20) == w->word[j]; j++)
			continue;
		found = j == w->len;
	}
	return found;
}

/* Whether a failure word may start at s[i]: its first three letters. */
static uint32_t
alarm_triple(const struct red_alarm *a, const unsigned char *s, size_t i)
{
	return a->third[a->letter[s[i]]][a->letter[s[i + 1]]] & a->bit[s[i + 2]];
}

/*
 * Every failure word has at least PAIR_SPAN + 1 letters (a word of four:
 * "exit", "fail", "warn"), so a word that starts at q covers the pairs of
 * letters at q, q + 1 and q + 2, and one of those positions is a multiple
 * of PAIR_SPAN: the scan looks at every third position only, with two
 * table loads, and only where that pair begins one of the pairs of some
 * failure word are the three positions before it tested as a word's
 * start (its first three letters, then the word).
 */
bool
red_alarm_match(const struct red_alarm *a, const char *p, size_t len)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t j, q;

	for (j = 0; j + 1 < len; j += PAIR_SPAN) {
		if ((a->pair[a->letter[s[j]]] & a->bit[s[j + 1]]) == 0)
			continue;
		for (q = j >= PAIR_SPAN - 1 ? j - (PAIR_SPAN - 1) : 0; q <= j;
		    q++) {
			if (q + 2 < len && alarm_triple(a, s, q) != 0 &&
			    alarm_at(p + q, len - q, a->letter[s[q]] - 1u))
				return true;
		}
	}
	return false;
}

bool
red_line_alarming(const char *p, size_t len)
{
	struct red_alarm a;

	red_alarm_init(&a);
	return red_alarm_match(&a, p, len);
}

/* The end of the hex run at s[i], and whether it holds a decimal digit. */
static size_t
hex_run(const char *s, size_t len, size_t i, bool *digit)
{
	*digit = false;
	while (i < len && hex_digit((unsigned char)s[i])) {
		if (dec_digit((unsigned char)s[i]))
			*digit = true;
		i++;
	}
	return i;
}

/*
 * The offset of the first byte where a and b differ, at most n; compared
 * eight bytes at a time.
 */
static size_t
common_prefix(const char *a, const char *b, size_t n)
{
	uint64_t wa, wb;
	size_t i = 0;

	while (i + 8 <= n) {
		memcpy(&wa, a + i, 8);
		memcpy(&wb, b + i, 8);
		if (wa != wb)
			break;
		i += 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Equal stretches are skipped eight bytes at a time; where the lines
 * first differ after one, the comparison with placeholders starts at
 * the beginning of the hex run (if any) there, a run boundary in both:
 * the bytes before it are equal and the one before the stretch was no
 * hex digit, or the stretch began the line.
 */
bool
red_line_similar(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i = 0, j = 0, k, ei, ej;
	bool da, db;

	for (;;) {
		k = common_prefix(a + i, b + j, alen - i < blen - j ?
		    alen - i : blen - j);
		i += k;
		j += k;
		if (i == alen && j == blen)
			return true;
		for (; k > 0 && hex_digit((unsigned char)a[i - 1]); k--) {
			i--;
			j--;
		}
		if (i == alen || j == blen || !hex_digit((unsigned char)a[i]) ||
		    !hex_digit((unsigned char)b[j]))
			return false;
		ei = hex_run(a, alen, i, &da);
		ej = hex_run(b, blen, j, &db);
		if ((!da || !db) && (da != db || ei - i != ej - j ||
		    memcmp(a + i, b + j, ei - i) != 0))
			return false;
		i = ei;
		j = ej;
	}
}

static bool
line_equal(const struct red_line *a, const struct red_line *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

/*
 * The marker of a collapsed run, naming the log lines it stands for: the
 * repeats of the first line, or the lines between the first and the last.
 */
static size_t
marker(char *dst, size_t size, const struct run *r,
    const struct red_lineno *ln)
{
	size_t n = r->same ? r->count - 1 : r->count - 2;
	unsigned long long a = red_lineno_at(ln, r->index + 1);
	unsigned long long b = red_lineno_at(ln, r->index + n);
	int len;

	if (r->same)
		len = snprintf(dst, size, "  [… same line repeated %zu more "
		    "times (lines %llu-%llu)]", n, a, b);
	else if (n == 1)
		len = snprintf(dst, size, "  [… 1 similar line (line %llu); "
		    "pty_read line_range=[%llu,%llu]]", a, a, b);
	else
		len = snprintf(dst, size, "  [… %zu similar lines (lines "
		    "%llu-%llu); pty_read line_range=[%llu,%llu]]", n, a, b,
		    a, b);
	return len < 0 || (size_t)len >= size ? 0 : (size_t)len;
}

/*
 * Write out a run: collapsed when it is long enough and that is shorter,
 * else as it came.
 */
static void
run_flush(const struct run *r, const struct red_lineno *ln, struct sink *out,
    struct red_linemap *map)
{
	char text[224];
	size_t mlen = 0, raw, shown, k;
	bool collapse = false;

	if (r->count >= RUN_MIN) {
		raw = (size_t)(r->last.p + r->last.len - r->first.p) +
		    (r->last.nl ? 1 : 0);
		mlen = marker(text, sizeof text, r, ln);
		shown = r->first.len + 1 + mlen + (r->last.nl ? 1 : 0) +
		    (r->same ? 0 : r->last.len + 1);
		collapse = mlen > 0 && shown < raw;
	}
	if (collapse) {
		sink_add(out, r->first.p, r->first.len);
		sink_addc(out, '\n');
		sink_add(out, text, mlen);
		if (!r->same) {
			sink_addc(out, '\n');
			sink_add(out, r->last.p, r->last.len);
		}
		if (r->last.nl)
			sink_addc(out, '\n');
		if (map != NULL) {
			red_linemap_push(map, r->index);
			red_linemap_push(map, r->index + 1);
			if (!r->same)
				red_linemap_push(map, r->index + r->count - 1);
		}
	} else if (r->count > 0) {
		sink_add(out, r->first.p, (size_t)(r->last.p + r->last.len -
		    r->first.p) + (r->last.nl ? 1 : 0));
		for (k = 0; map != NULL && k < r->count; k++)
			red_linemap_push(map, r->index + k);
	}
}

/*
 * Whether line l continues the run: it equals the line before, or it is
 * similar to it and neither it nor the run carries a failure word (a run
 * that is not all the same never does).
 */
static bool
run_extends(const struct run *r, const struct red_line *l,
    const struct red_alarm *alarm)
{
	bool extends = false;

	if (line_equal(l, &r->last))
		extends = true;
	else if (red_line_similar(l->p, l->len, r->last.p, r->last.len))
		extends = !red_alarm_match(alarm, l->p, l->len) && (!r->same ||
		    !red_alarm_match(alarm, r->first.p, r->first.len));
	return extends;
}

/*
 * The pass over the lines of in, for both forms; ln (may be NULL: the
 * text's own numbers, from 1) numbers the lines the markers name, the
 * first of in being line index0 of the text.
 */
static void
repeat(const char *in, size_t len, size_t index0, const struct red_lineno *ln,
    struct sink *out, struct red_linemap *map)
{
	struct run r = { .count = 0 };
	struct red_lineno own = { NULL, 0 };
	struct red_alarm alarm;
	struct red_line l;
	size_t pos = 0, index = index0;

	if (ln == NULL)
		ln = &own;
	red_alarm_init(&alarm);
	if (map != NULL)
		map->n = 0;
	while (red_line_next(in, len, &pos, &l)) {
		if (r.count > 0 && run_extends(&r, &l, &alarm)) {
			if (!line_equal(&l, &r.last))
				r.same = false;
			r.last = l;
			r.count++;
		} else {
			run_flush(&r, ln, out, map);
			r.first = r.last = l;
			r.count = 1;
			r.index = index;
			r.same = true;
		}
		index++;
	}
	run_flush(&r, ln, out, map);
	if (map != NULL)
		map->total = index;
}

/*
 * Two threads (ADR 0047).  A text of at least split bytes is cut at the
 * first line past its middle that neither equals nor resembles the line
 * before it: every run ends there, whatever came before, so a thread
 * folds the lines from there on in place while the caller folds those
 * before them; the second part's text then moves down to follow the
 * first's.  No such line among the next CUT_TRIES: one thread.
 */
#define CUT_TRIES	256

struct repeat_part {
	char		*in;
	size_t		 len, index0;
	const struct red_lineno *ln;
	struct sink	 sink;
	struct red_linemap map;
	bool		 mapped;	/* the caller wants the map */
};

static void
repeat_part_run(void *arg)
{
	struct repeat_part *rp = arg;

	repeat(rp->in, rp->len, rp->index0, rp->ln, &rp->sink,
	    rp->mapped ? &rp->map : NULL);
}

/* Where a line starts past the middle that no run crosses; 0: none. */
static size_t
repeat_cut(const char *in, size_t len)
{
	struct red_line prev, l;
	size_t pos = red_line_past_middle(in, len), tries;

	if (pos == 0 || !red_line_next(in, len, &pos, &prev))
		return 0;
	for (tries = 0; tries < CUT_TRIES; tries++) {
		if (!red_line_next(in, len, &pos, &l))
			break;
		if (!line_equal(&prev, &l) &&
		    !red_line_similar(l.p, l.len, prev.p, prev.len))
			return (size_t)(l.p - in);
		prev = l;
	}
	return 0;
}

void
red_repeat_inplace(struct aiterm_buf *text, const struct red_lineno *ln,
    struct red_linemap *map, size_t split)
{
	struct sink sink = { NULL, text->data, 0 };
	struct repeat_part rp = { .ln = ln, .map = RED_LINEMAP_INIT,
	    .mapped = map != NULL };
	uv_thread_t thread;
	size_t cut, len = text->len, k;
	bool two = false;

	cut = len >= red_split_at(split) ? repeat_cut(text->data, len) : 0;
	if (cut > 0) {
		rp.in = text->data + cut;
		rp.len = len - cut;
		rp.index0 = red_line_count(text->data, cut);
		rp.sink.base = rp.in;
		two = uv_thread_create(&thread, repeat_part_run, &rp) == 0;
	}
	repeat(text->data, two ? cut : len, 0, ln, &sink, map);
	if (two) {
		uv_thread_join(&thread);
		memmove(text->data + sink.len, rp.in, rp.sink.len);
		sink.len += rp.sink.len;
		if (map != NULL) {
			for (k = 0; k < rp.map.n; k++)
				red_linemap_push(map, rp.map.start[k]);
			map->total = rp.map.total;
		}
		red_linemap_free(&rp.map);
	}
	text->len = sink.len;
	if (text->data != NULL)
		text->data[text->len] = '\0';
}

void
red_repeat_map(const char *in, size_t len, const struct red_lineno *ln,
    struct aiterm_buf *out, struct red_linemap *map)
{
	struct sink sink = { out, NULL, 0 };

	repeat(in, len, 0, ln, &sink, map);
	if (out->data == NULL)
		buf_add(out, "", 0);
}

void
red_repeat(const char *in, size_t len, struct aiterm_buf *out)
{
	red_repeat_map(in, len, NULL, out, NULL);
}

