/*
 * RED-FAITHFUL: line shapes hashed as they are read (the template is
 * never built as a whole string), an open-addressing table of their
 * counts, and the check that a reduced text holds the rare lines.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/lines.h"
#include "reduce/shape.h"
#include "reduce/shapechar.h"
#include "util/xmalloc.h"

#define NELEM(a) (sizeof (a) / sizeof (a)[0])

/* A word longer than this is looked for by its first bytes. */
#define WORD_PROBE	64

static const char marker[] = "[\xe2\x80\xa6 ";	/* "[… " */

/*
 * The length of a drawing character at p[i] (box drawing, U+2500 to
 * U+257F, as tree draws with; a no-break space, U+00A0), or 0: bytes
 * above 0x7f are letters, but these are no part of a word.
 */
static size_t
drawing(const unsigned char *p, size_t len, size_t i)
{
	if (i + 1 < len && p[i] == 0xc2 && p[i + 1] == 0xa0)
		return 2;
	if (i + 2 < len && p[i] == 0xe2 && (p[i + 1] == 0x94 ||
	    p[i + 1] == 0x95))
		return 3;
	return 0;
}

/* The next word of a line from *pos; false when there is none. */
static bool
word_next(const unsigned char *p, size_t len, size_t *pos,
    const unsigned char **w, size_t *n)
{
	size_t i = *pos, e, d;

	/* Drawing characters start with a byte above 0x7f, like letters. */
	while (i < len) {
		if (p[i] >= 0x80 && (d = drawing(p, len, i)) > 0)
			i += d;
		else if (is_word(p[i]))
			break;
		else
			i++;
	}
	if (i >= len) {
		*pos = len;
		return false;
	}
	for (e = i; e < len && is_word(p[e]) && (p[e] < 0x80 ||
	    drawing(p, len, e) == 0); e++)
		;
	*pos = e;
	while (e > i && (p[e - 1] == '.' || p[e - 1] == ','))
		e--;
	*w = p + i;
	*n = e - i;
	return true;
}

/* Whether a word names something (see shape.h). */
static bool
word_counts(const unsigned char *w, size_t n)
{
	bool letter = false, digit = false, other = false;
	unsigned char a = 0, b = 0;
	size_t i, letters = 0, kinds = 0;

	if (n < 2 || is_digit(w[0]))
		return false;
	for (i = 0; i < n; i++) {
		if (is_digit(w[i]))
			digit = true;
		else if (is_letter(w[i])) {
			letter = true;
			letters++;
			if (kinds == 0 || (w[i] != a && kinds == 1)) {
				b = a;
				a = w[i];
				kinds++;
			} else if (w[i] != a && w[i] != b)
				kinds = 3;
		}
		if (is_letter(w[i]) && !is_hex(w[i]))
			other = true;
	}
	/* A progress string ("FFFF.F", "ssss") is no name. */
	if (!letter || (letters >= 4 && kinds <= 2))
		return false;
	return !digit || other;
}

bool
red_shape_named(const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text, *w;
	size_t pos = 0, n;

	while (word_next(p, len, &pos, &w, &n)) {
		if (word_counts(w, n))
			return true;
	}
	return false;
}

static size_t
slot_of(const struct red_shapes *s, uint64_t h)
{
	size_t i = (size_t)(h ^ (h >> 29)) & (s->cap - 1);

	while (s->key[i] != 0 && s->key[i] != h)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void
grow(struct red_shapes *s)
{
	struct red_shapes old = *s;
	size_t i, j;

	s->cap = old.cap == 0 ? 256 : old.cap * 2;
	s->key = xcalloc(s->cap, sizeof *s->key);
	s->count = xcalloc(s->cap, sizeof *s->count);
	s->first = xcalloc(s->cap, sizeof *s->first);
	s->first_pos = xcalloc(s->cap, sizeof *s->first_pos);
	for (i = 0; i < old.cap; i++) {
		if (old.key[i] == 0)
			continue;
		j = slot_of(s, old.key[i]);
		s->key[j] = old.key[i];
		s->count[j] = old.count[i];
		s->first[j] = old.first[i];
		s->first_pos[j] = old.first_pos[i];
	}
	free(old.key);
	free(old.count);
	free(old.first);
	free(old.first_pos);
}

void
red_shapes_add(struct red_shapes *s, uint64_t h)
{
	size_t i;

	if (s->cap == 0)
		grow(s);
	i = slot_of(s, h);
	if (s->key[i] == 0) {
		if (s->n >= RED_SHAPES_MAX) {
			s->full = true;
			return;
		}
		if ((s->n + 1) * 4 > s->cap * 3) {
			grow(s);
			i = slot_of(s, h);
		}
		s->key[i] = h;
		s->first[i] = s->at;
		s->first_pos[i] = s->at_pos;
		s->n++;
	}
	s->lines++;
	if (s->count[i] == 0)
		s->single++;
	else if (s->count[i] == 1)
		s->single--;
	if (s->count[i] < UINT32_MAX)
		s->count[i]++;
}

static bool
is_marker(const char *p, size_t len)
{
	return len >= sizeof marker - 1 &&
	    memcmp(p, marker, sizeof marker - 1) == 0;
}

uint64_t
red_shape_of(const char *p, size_t len)
{
	return !is_marker(p, len) && red_shape_named(p, len) ?
	    red_shape_hash(p, len) : 0;
}

void
red_shapes_put(struct red_shapes *s, uint64_t h, size_t pos)
{
	s->at_pos = pos;
	if (h != 0)
		red_shapes_add(s, h);
	s->at++;
}

uint64_t
red_shapes_line(struct red_shapes *s, const char *p, size_t len, size_t pos)
{
	uint64_t h = red_shape_of(p, len);

	red_shapes_put(s, h, pos);
	return h;
}

void
red_shapes_count(struct red_shapes *s, const char *text, size_t len)
{
	struct red_line l;
	size_t pos = 0, start = 0;

	while (red_line_next(text, len, &pos, &l)) {
		red_shapes_line(s, l.p, l.len, start);
		start = pos;
	}
}

uint32_t
red_shapes_get(const struct red_shapes *s, uint64_t h)
{
	size_t i;

	if (s->cap == 0)
		return 0;
	i = slot_of(s, h);
	return s->key[i] == h ? s->count[i] : 0;
}

bool
red_shapes_rare(const struct red_shapes *s, const char *p, size_t len)
{
	return !is_marker(p, len) && red_shapes_get(s,
	    red_shape_hash(p, len)) == 1 && red_shape_named(p, len);
}

/* Of the lines counted, at least this share in shapes of two or more. */
#define PATTERNED_NUM	3
#define PATTERNED_DEN	4

bool
red_shapes_patterned(const struct red_shapes *s)
{
	return s->lines > 0 && (s->lines - s->single) * PATTERNED_DEN >=
	    s->lines * PATTERNED_NUM;
}

static int
index_cmp(const void *a, const void *b)
{
	const struct red_line_at *x = a, *y = b;

	return x->k < y->k ? -1 : x->k > y->k;
}

size_t
red_shapes_rare_lines(const struct red_shapes *s, size_t from, size_t to,
    struct red_line_at **lines)
{
	size_t i, n = 0, cap = 0;

	*lines = NULL;
	for (i = 0; i < s->cap; i++) {
		if (s->key[i] == 0 || s->count[i] != 1 || s->first[i] < from ||
		    s->first[i] >= to)
			continue;
		if (n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			*lines = xrealloc(*lines, cap * sizeof **lines);
		}
		(*lines)[n].k = s->first[i];
		(*lines)[n++].pos = s->first_pos[i];
	}
	if (n > 1)
		qsort(*lines, n, sizeof **lines, index_cmp);
	return n;
}

void
red_shapes_free(struct red_shapes *s)
{
	free(s->key);
	free(s->count);
	free(s->first);
	free(s->first_pos);
	memset(s, 0, sizeof *s);
}

/* Whether hay holds the bytes of w (memmem without _GNU_SOURCE). */
static bool
holds(const char *hay, size_t hlen, const void *needle, size_t n)
{
	const char *p = hay, *end = hay + hlen, *w = needle;

	if (n == 0)
		return true;
	while ((size_t)(end - p) >= n) {
		p = memchr(p, w[0], (size_t)(end - p) - n + 1);
		if (p == NULL)
			return false;
		if (memcmp(p, w, n) == 0)
			return true;
		p++;
	}
	return false;
}

static inline unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* A word is held in any case: low is out in lower case (ASCII). */
static bool
word_held(const unsigned char *w, size_t n, const char *low, size_t outlen)
{
	unsigned char probe[WORD_PROBE];
	size_t i;

	if (!word_counts(w, n))
		return true;
	if (n > WORD_PROBE)
		n = WORD_PROBE;
	for (i = 0; i < n; i++)
		probe[i] = lower(w[i]);
	return holds(low, outlen, probe, n);
}

/* Whether out (low: in lower case) holds every word of the line. */
static bool
words_held(const char *line, size_t len, const char *low, size_t outlen)
{
	const unsigned char *p = (const unsigned char *)line, *w;
	size_t pos = 0, n;

	while (word_next(p, len, &pos, &w, &n)) {
		if (!word_held(w, n, low, outlen))
			return false;
	}
	return true;
}

/* A line without its trailing blanks. */
static size_t
trimmed(const char *p, size_t len)
{
	while (len > 0 && is_blank((unsigned char)p[len - 1]))
		len--;
	return len;
}

/* A banner: a title between runs of '=', '-', '_', '*' or '#'. */
static bool
banner(const char *p, size_t len)
{
	size_t e;
	char c;

	while (len > 0 && is_blank((unsigned char)*p)) {
		p++;
		len--;
	}
	len = trimmed(p, len);
	if (len < 6)
		return false;
	c = p[0];
	if (c != '=' && c != '-' && c != '_' && c != '*' && c != '#')
		return false;
	for (e = 1; e < 3; e++) {
		if (p[e] != c || p[len - 1 - e] != c)
			return false;
	}
	return p[len - 1] == c;
}

/*
 * A line of a hex dump ("\t0x0010:  7f00 0001 cd5a ...  .....Z..", as
 * tcpdump -X, xxd and od print them): its text column renders the bytes
 * beside it, so the packet or offset it belongs to stands for it.
 */
static bool
hexdump(const char *p, size_t len)
{
	size_t i = 0, n;

	while (i < len && is_blank((unsigned char)p[i]))
		i++;
	if (i + 2 < len && p[i] == '0' && p[i + 1] == 'x')
		i += 2;
	for (n = 0; i < len && is_hex((unsigned char)p[i]); i++)
		n++;
	if (n < 4 || i + 2 >= len || p[i] != ':' || !is_blank((unsigned char)
	    p[i + 1]))
		return false;
	for (i++; i < len && is_blank((unsigned char)p[i]); i++)
		;
	for (n = 0; i < len && is_hex((unsigned char)p[i]); i++)
		n++;
	return n == 2 || n == 4;
}

/* A diff's own bookkeeping: its header line stands for it. */
static const char *const diff_meta[] = {
	"index ", "--- ", "+++ ", "old mode ", "new mode ", "similarity index ",
	"new file mode ", "deleted file mode ",
};

static bool
meta(const char *p, size_t len)
{
	size_t i, n;

	for (i = 0; i < NELEM(diff_meta); i++) {
		n = strlen(diff_meta[i]);
		if (len >= n && memcmp(p, diff_meta[i], n) == 0)
			return true;
	}
	return false;
}

/* Lines a person navigates by, after up to two diff columns. */
static const char *const nav_prefix[] = {
	"diff --git ", "diff --cc ", "diff --combined ", "@@ -", "@@@ -",
};
static const char *const conflict_marker[] = {
	"<<<<<<<", "=======", ">>>>>>>", "|||||||",
};

/* What a line a person navigates by can start with: 1 a prefix, 2 a marker, 3 a diff column. */
static const unsigned char nav_first[256] = {
	['d'] = 1, ['@'] = 1, ['<'] = 2, ['='] = 2, ['>'] = 2, ['|'] = 2,
	[' '] = 3, ['+'] = 3, ['-'] = 3,
};

bool
red_shape_navigation(const char *p, size_t len)
{
	size_t i, skip, n;
	unsigned char c;

	/*
	 * Every prefix and marker starts with one of these bytes, or comes
	 * after a diff column (' ', '+', '-'): most lines are ruled out by
	 * their first byte.
	 */
	if (len == 0 || nav_first[(unsigned char)p[0]] == 0)
		return false;
	for (i = 0; nav_first[(unsigned char)p[0]] == 1 &&
	    i < NELEM(nav_prefix); i++) {
		n = strlen(nav_prefix[i]);
		if (len >= n && memcmp(p, nav_prefix[i], n) == 0)
			return true;
	}
	for (skip = 0; skip <= 2 && skip < len; skip++) {
		c = (unsigned char)p[skip];
		for (i = 0; nav_first[c] == 2 && i < NELEM(conflict_marker);
		    i++) {
			if (len - skip >= 7 && memcmp(p + skip,
			    conflict_marker[i], 7) == 0 &&
			    (len - skip == 7 || p[skip + 7] == ' '))
				return true;
		}
		if (nav_first[c] != 3)
			break;
	}
	return false;
}

/* How a test runner names a failing test: a prefix, or a suffix. */
static const char *const failed_prefix[] = {
	"FAILED ", "ERROR ", "\xe2\x9c\x96 ", "\xe2\x9c\x95 ", "\xc3\x97 ",
	"not ok ", "--- FAIL: ", "FAIL ",
};
static const char *const failed_suffix[] = {
	" ... FAILED", " ... FAIL", " ... ERROR",
};

/* A passing or skipped test: a count may stand for it. */
static const char *const passed_prefix[] = {
	"\xe2\x9c\x94 ", "\xe2\x9c\x93 ", "\xef\xb9\xa3 ", "ok ", "PASSED ",
	"SKIPPED ",
};
static const char *const passed_suffix[] = {
	" ... ok", " PASSED", " ... ignored",
};

/* A tool's advice on what to type next (git's hints): generic, not a fact
 * of this output, so a rare one is not an outlier. */
static const char *const advice_prefix[] = {
	"(use ", "(fix conflicts ", "(all conflicts fixed", "(commit or discard ",
	"hint: ",
};

/* Whether the line (blanks before it skipped) starts or ends so. */
static bool
line_is(const char *p, size_t len, const char *const *prefix, size_t npre,
    const char *const *suffix, size_t nsuf)
{
	size_t i, n;

	while (len > 0 && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	len = trimmed(p, len);
	for (i = 0; i < npre; i++) {
		n = strlen(prefix[i]);
		if (len > n && memcmp(p, prefix[i], n) == 0)
			return true;
	}
	for (i = 0; i < nsuf; i++) {
		n = strlen(suffix[i]);
		if (len > n && memcmp(p + len - n, suffix[i], n) == 0)
			return true;
	}
	return false;
}

static bool
failed_test(const char *p, size_t len)
{
	return line_is(p, len, failed_prefix, NELEM(failed_prefix),
	    failed_suffix, NELEM(failed_suffix));
}

static bool
passed_test(const char *p, size_t len)
{
	return line_is(p, len, passed_prefix, NELEM(passed_prefix),
	    passed_suffix, NELEM(passed_suffix));
}

static bool
advice(const char *p, size_t len)
{
	return line_is(p, len, advice_prefix, NELEM(advice_prefix), NULL, 0);
}

static size_t
digits(const char *p, size_t len, size_t i)
{
	size_t j = i;

	while (j < len && is_digit((unsigned char)p[j]))
		j++;
	return j - i;
}

static bool
starts(const char *p, size_t len, size_t i, const char *word)
{
	size_t n = strlen(word);

	return len - i >= n && memcmp(p + i, word, n) == 0;
}

/*
 * The end of a diagnostic location "file:12[:5]" or "file(12,5)" whose
 * file part is p[0, i) (a word with '.' or '/'), or 0 when what follows
 * is not a location before "error", "fatal error" or "warning".
 */
static size_t
location_end(const char *p, size_t len, size_t i)
{
	size_t d, e = i;

	if (e < len && p[e] == ':' && (d = digits(p, len, e + 1)) > 0) {
		e += 1 + d;
		if (e < len && p[e] == ':' && (d = digits(p, len, e + 1)) > 0)
			e += 1 + d;
	} else if (e < len && p[e] == '(' &&
	    (d = digits(p, len, e + 1)) > 0) {
		e += 1 + d;
		if (e < len && p[e] == ',' && (d = digits(p, len, e + 1)) > 0)
			e += 1 + d;
		if (e >= len || p[e] != ')')
			return 0;
		e++;
	} else {
		return 0;
	}
	d = e;
	if (starts(p, len, d, ": "))
		d += 2;
	else if (starts(p, len, d, " - "))
		d += 3;
	else if (starts(p, len, d, ":"))
		d += 1;
	else
		return 0;
	if (starts(p, len, d, "error") || starts(p, len, d, "fatal error") ||
	    starts(p, len, d, "warning"))
		return e;
	return 0;
}

/* Whether out holds the locations of the diagnostics of the line. */
static bool
locations_held(const char *line, size_t len, const char *out, size_t outlen)
{
	const unsigned char *p = (const unsigned char *)line, *w;
	size_t pos = 0, n, start, end;

	while (word_next(p, len, &pos, &w, &n)) {
		start = (size_t)(w - p);
		/* The file part: the word and the folders before it. */
		while (start > 0 && (is_word(p[start - 1]) ||
		    p[start - 1] == '/'))
			start--;
		if (memchr(p + start, '.', (size_t)(w - p) + n - start) ==
		    NULL && memchr(p + start, '/', (size_t)(w - p) + n -
		    start) == NULL)
			continue;
		end = location_end(line, len, (size_t)(w - p) + n);
		if (end > 0 && !holds(out, outlen, line + start, end - start))
			return false;
	}
	return true;
}

/* The scan of an input that red_faithful and red_faithful_explain share. */
struct scan {
	struct red_shapes shapes;
	bool		  outliers;	/* the text is patterned */
	unsigned	  flags;
	char		 *low;		/* the output in lower case */
};

static void
scan_init(struct scan *sc, const char *in, size_t len, const char *out,
    size_t outlen, unsigned flags)
{
	size_t i;

	memset(sc, 0, sizeof *sc);
	red_shapes_count(&sc->shapes, in, len);
	sc->outliers = (flags & RED_FAITHFUL_FAR) == 0 &&
	    red_shapes_patterned(&sc->shapes);
	sc->flags = flags;
	sc->low = xmalloc(outlen + 1);
	for (i = 0; i < outlen; i++)
		sc->low[i] = (char)lower((unsigned char)out[i]);
	sc->low[outlen] = '\0';
}

static void
scan_free(struct scan *sc)
{
	red_shapes_free(&sc->shapes);
	free(sc->low);
}

/*
 * Whether out holds what it must of one line: 1 held, 0 missing, -1 when
 * nothing of it had to be held.
 */
static int
line_check(const struct scan *sc, const char *p, size_t len,
    const char *out, size_t outlen)
{
	bool must = false, whole;

	if (red_shape_navigation(p, len)) {
		if (!holds(out, outlen, p, trimmed(p, len)))
			return 0;
		must = true;
	}
	if (!locations_held(p, len, out, outlen))
		return 0;
	if ((sc->flags & RED_FAITHFUL_LISTING) != 0)
		whole = !is_marker(p, len) && red_shape_named(p, len);
	else
		whole = failed_test(p, len) || (sc->outliers &&
		    !passed_test(p, len) && !banner(p, len) && !meta(p, len) &&
		    !advice(p, len) && !hexdump(p, len) &&
		    red_shapes_rare(&sc->shapes, p, len));
	if (whole) {
		if (!words_held(p, len, sc->low, outlen))
			return 0;
		must = true;
	}
	return must ? 1 : -1;
}

bool
red_faithful(const char *in, size_t len, const char *out, size_t outlen,
    unsigned flags, struct red_faithful *f)
{
	struct red_faithful scratch;
	struct scan sc;
	struct red_line l;
	size_t pos = 0, k = 0;
	int got;

	if (f == NULL)
		f = &scratch;
	memset(f, 0, sizeof *f);
	scan_init(&sc, in, len, out, outlen, flags);
	while (red_line_next(in, len, &pos, &l)) {
		got = line_check(&sc, l.p, l.len, out, outlen);
		if (got >= 0)
			f->checked++;
		if (got == 0) {
			f->missing = 1;
			f->first_missing = k;
			break;
		}
		k++;
	}
	scan_free(&sc);
	return f->missing == 0;
}

size_t
red_faithful_explain(const char *in, size_t len, const char *out,
    size_t outlen, unsigned flags, size_t max, struct aiterm_buf *why)
{
	struct scan sc;
	struct red_line l;
	const unsigned char *w;
	size_t pos = 0, k = 0, missing = 0, wpos, n;

	scan_init(&sc, in, len, out, outlen, flags);
	while (red_line_next(in, len, &pos, &l)) {
		k++;
		if (line_check(&sc, l.p, l.len, out, outlen) != 0)
			continue;
		if (missing++ >= max)
			continue;
		buf_printf(why, "line %zu: %.*s (missing:", k,
		    (int)(l.len < 200 ? l.len : 200), l.p);
		wpos = 0;
		while (word_next((const unsigned char *)l.p, l.len, &wpos,
		    &w, &n)) {
			if (!word_held(w, n, sc.low, outlen))
				buf_printf(why, " %.*s", (int)n, w);
		}
		buf_adds(why, ")\n");
	}
	scan_free(&sc);
	return missing;
}
