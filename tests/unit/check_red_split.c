/*
 * The passes that read a long text with two threads (ADR 0046, 0047):
 * RED-STRIP, RED-REPEAT and the shapes of RED-HEADTAIL give what one
 * thread gives, byte for byte, whatever lies at the cut: redraws that
 * reach back over it, a save pending across it, a cursor not on the last
 * row, blanks running short, runs of similar lines around it.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/headtail.h"
#include "reduce/lines.h"
#include "reduce/pipeline.h"
#include "reduce/repeat.h"
#include "reduce/strip.h"
#include "util/buf.h"

#include "rng.h"

#define NELEM(a)	(sizeof (a) / sizeof (a)[0])

static bool
same(const struct aiterm_buf *a, const struct aiterm_buf *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/*
 * Terminal output made of pieces that move the cursor, save it, erase
 * and pad: wherever the middle falls, some round cuts through each.
 */
static const char *const term_pieces[] = {
	"building target", " ok", "\n", "\n", "\n", "\r\n", "\r",
	"progress 45%\r", "\x1b[2A", "\x1b[1B", "\x1b[3F", "\x1bM",
	"\x1b" "7", "\x1b" "8", "\x1b[s", "\x1b[u", "\x1b[K", "\x1b[1K",
	"\x1b[2J", "\x1b[J", "\x1b[5;10H", "\x1b[40C", "\x1b[12D", "\b",
	"\x1b[3@", "\x1b[2P", "\x1b[4X", "\xff", "caf\xc3\xa9",
	"\x1b]0;title\x07", "\x1b[1;31merror\x1b[0m",
	"\x1b[1A\x1b[2Kstatus line\n",
};

static void
term_text(struct aiterm_buf *in, uint64_t *x, size_t n, bool starve)
{
	size_t k;

	buf_reset(in);
	for (k = 0; k < n; k++) {
		/* Motions far past the text: the blanks run short. */
		if (starve && rng_next(x) % 3 == 0)
			buf_adds(in, "\x1b[1000Cx\x1b[999@");
		buf_adds(in, term_pieces[rng_next(x) % NELEM(term_pieces)]);
	}
}

/* Strip in by one thread and by two, cut in its middle: the same text. */
static void
strip_both(const struct aiterm_buf *in, size_t cols, const char *what,
    size_t round)
{
	struct aiterm_buf one = BUF_INIT, two = BUF_INIT;

	red_strip_split(in->data, in->len, cols, SIZE_MAX, &one);
	red_strip_split(in->data, in->len, cols, 1, &two);
	ck_assert_msg(same(&one, &two), "%s %zu: one thread %zu bytes [%.200s]"
	    ", two %zu [%.200s]", what, round, one.len, buf_str(&one), two.len,
	    buf_str(&two));
	buf_free(&one);
	buf_free(&two);
}

/* RED-STRIP (ADR 0047): any cut gives the one thread's text. */
START_TEST(test_strip_two_threads)
{
	struct aiterm_buf in = BUF_INIT;
	uint64_t x = 0x2545f4914f6cdd1dULL;
	size_t round;

	for (round = 0; round < 400; round++) {
		term_text(&in, &x, 200 + round * 7, round % 10 == 9);
		strip_both(&in, round % 3 == 0 ? 80 : round % 3 == 1 ? 0 : 17,
		    "round", round);
	}
	buf_free(&in);
}
END_TEST

/*
 * The cut falls right after the last LF of the first part: a row of 200
 * bytes before it and a tail without LF after the second part put the
 * middle of the text on the first part's last line.
 */
static void
cut_text(struct aiterm_buf *in, const char *first, const char *second)
{
	size_t a, fill = 200, k;

	buf_reset(in);
	for (k = 0; k < fill; k++)
		buf_addc(in, 'x');
	buf_addc(in, '\n');
	a = in->len + (size_t)(strrchr(first, '\n') - first);
	buf_adds(in, first);
	buf_adds(in, second);
	ck_assert_uint_le(in->len, 2 * a);
	while (in->len < 2 * a)
		buf_addc(in, 'y');
}

/* Each way the second part depends on what lies before the cut. */
START_TEST(test_strip_cut_reached_back)
{
	static const char *const second[] = {
		"\x1b[3Anew\n",			/* up over the cut */
		"\x1bMx\n",			/* reverse index */
		"\x1b[2Fy\n",			/* previous line */
		"\x1b[urestored\n",		/* a save from before */
		"\x1b" "8restored\n",
		"\x1b[1;1Hdrawn\x1b" "8after\n",	/* inside a bracket */
		"plain\n",
	};
	static const char *const first[] = {
		"row one\nrow two\nrow three\n",
		"a\nb\x1b[s\nc\n",
		"a\nb\x1b" "7\nc\n",
		"top\n\x1b[1Abelow\n\n",	/* cursor not on the last row */
	};
	struct aiterm_buf in = BUF_INIT;
	size_t i, j;

	for (i = 0; i < NELEM(first); i++) {
		for (j = 0; j < NELEM(second); j++) {
			cut_text(&in, first[i], second[j]);
			strip_both(&in, 0, "first and second",
			    i * NELEM(second) + j);
		}
	}
	buf_free(&in);
}
END_TEST

/*
 * Motions far past the text pad rows with blanks from a budget the size
 * of the whole input: the second part's own budget is not what the
 * first part left it.  Padded all through, from the middle on, in the
 * first part only, and there to the end of the budget with a little
 * padding after the middle.
 */
START_TEST(test_strip_blanks_short)
{
	struct aiterm_buf in = BUF_INIT;
	size_t round, i;

	for (round = 0; round < 4; round++) {
		buf_reset(&in);
		for (i = 0; i < 3000; i++) {
			if (round == 3 && i >= 1500)
				buf_adds(&in, i % 50 == 0 ?
				    "\x1b[100Cx\n" : "plain row of text\n");
			else if ((round == 1 && i < 1500) || (round == 2 &&
			    i >= 1500))
				buf_adds(&in, "plain row of text\n");
			else
				buf_adds(&in, i % 3 == 0 ? "\x1b[1000Cx\n" :
				    "\x1b[1000Cx");
		}
		strip_both(&in, 0, "padding", round);
	}
	buf_free(&in);
}
END_TEST

/*
 * Lines with runs of equal and similar ones, failure words among them;
 * a long similar stretch over the middle makes the cut look further on,
 * or give up (one thread).
 */
static void
run_text(struct aiterm_buf *in, uint64_t *x, size_t n, bool long_run)
{
	static const struct {
		const char	*words;
		int		 nums;	/* numbers after them, 0 to 2 */
	} kinds[] = {
		{ "GET /api/items", 2 }, { "same line", 0 },
		{ "worker retry", 2 }, { "ERROR worker failed", 2 },
		{ "compiling unit", 1 }, { "", 0 }, { "tick", 0 },
	};
	uint64_t r;
	size_t k, kind = 0, left = 0;

	buf_reset(in);
	for (k = 0; k < n; k++) {
		if (left == 0) {
			r = rng_next(x);
			kind = r % NELEM(kinds);
			left = 1 + (r >> 8) % 9;
		}
		if (long_run && k > n / 2 - 40 && k < n / 2 + 400)
			kind = 0;
		buf_adds(in, kinds[kind].words);
		if (kinds[kind].nums > 0)
			buf_printf(in, " %zu", k);
		if (kinds[kind].nums > 1)
			buf_printf(in, " %zu", (size_t)(rng_next(x) % 1000));
		buf_addc(in, '\n');
		left--;
	}
	if (rng_next(x) % 2 == 0)
		buf_adds(in, "no final line feed");
}

/* RED-REPEAT (ADR 0047): the same text and the same line map. */
START_TEST(test_repeat_two_threads)
{
	struct aiterm_buf in = BUF_INIT, one = BUF_INIT, two = BUF_INIT;
	struct red_linemap m1 = RED_LINEMAP_INIT, m2 = RED_LINEMAP_INIT;
	unsigned long long *line_of = NULL;
	struct red_lineno ln;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t round, n, i;

	for (round = 0; round < 200; round++) {
		run_text(&in, &x, 50 + round * 13, round % 4 == 3);
		n = red_line_count(in.data, in.len);
		/* Numbers from the log's own lines, or from a base. */
		free(line_of);
		line_of = calloc(n + 1, sizeof *line_of);
		for (i = 0; i < n; i++)
			line_of[i] = 7 + 3 * (unsigned long long)i;
		red_lineno_init(&ln, 1000, round % 2 == 0 ? line_of : NULL,
		    n, n);
		buf_reset(&one);
		buf_reset(&two);
		buf_add(&one, in.data, in.len);
		buf_add(&two, in.data, in.len);
		red_repeat_inplace(&one, &ln, &m1, SIZE_MAX);
		red_repeat_inplace(&two, &ln, &m2, 1);
		ck_assert_msg(same(&one, &two), "round %zu:\n%s\n----\n%s",
		    round, buf_str(&one), buf_str(&two));
		ck_assert_uint_eq(m1.n, m2.n);
		ck_assert_uint_eq(m1.total, m2.total);
		ck_assert(memcmp(m1.start, m2.start, m1.n *
		    sizeof *m1.start) == 0);
		/* Without a map, the same text. */
		buf_reset(&two);
		buf_add(&two, in.data, in.len);
		red_repeat_inplace(&two, &ln, NULL, 1);
		ck_assert(same(&one, &two));
	}
	free(line_of);
	red_linemap_free(&m1);
	red_linemap_free(&m2);
	buf_free(&in);
	buf_free(&one);
	buf_free(&two);
}
END_TEST

/*
 * RED-HEADTAIL (ADR 0046) and the whole of red_generic: a 2 MB log with
 * escapes, redraws, runs, rare lines, failure words and a diff's headers
 * and markers in both halves, split at 1 MB and not at all, for three
 * line budgets and byte bounds: the same result and the same red_info.
 */
START_TEST(test_generic_two_threads)
{
	static const char *const odd[] = {
		"FATAL: pool exhausted after", "diff --git a/x.c b/x.c #",
		"[\xe2\x80\xa6 lines]", "Accepted publickey for deploy from",
		"warning: unused variable",
		"\x1b[1A\x1b[2K\rprogress redrawn",
	};
	static const char *const words[] = {
		"cache", "shard", "GET", "commit", "queue", "lease", "sync",
		"index", "flush", "page", "token", "route", "batch", "probe",
		"merge", "spill",
	};
	struct red_headtail_opts one = RED_HEADTAIL_READ;
	struct red_headtail_opts two = RED_HEADTAIL_READ;
	struct aiterm_buf in = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	struct red_info ia, ib;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t i, round;

	for (i = 0; in.len < ((size_t)2 << 20); i++) {
		rng_next(&x);
		/* Lines unlike the one before: the repeats stage keeps them. */
		if (x % 997 == 0)
			buf_printf(&in, "%s %zu\n", odd[(x >> 20) % NELEM(odd)],
			    i);
		else if (x % 7 == 0)
			buf_printf(&in, "\x1b[32m%s\x1b[0m step %zu\r\n",
			    words[x % 16], i % 5);
		else
			buf_printf(&in, "%s %s %s %s id=%llu\n",
			    words[x % 16], words[(x >> 8) % 16],
			    words[(x >> 16) % 16], words[(x >> 24) % 16],
			    (unsigned long long)(x >> 40));
	}
	for (round = 0; round < 3; round++) {
		one.max_bytes = two.max_bytes = round == 0 ? 0 :
		    round == 1 ? RED_READ_BYTES : 4096;
		one.max_lines = two.max_lines = round == 2 ? 40 : 120;
		one.split = SIZE_MAX;
		two.split = (size_t)1 << 20;
		buf_reset(&a);
		buf_reset(&b);
		red_generic(in.data, in.len, &one, &a, &ia);
		red_generic(in.data, in.len, &two, &b, &ib);
		ck_assert_msg(same(&a, &b), "round %zu: one thread %zu bytes, "
		    "two %zu", round, a.len, b.len);
		ck_assert(memcmp(&ia, &ib, sizeof ia) == 0);
		/* Lines from both halves were flagged. */
		ck_assert_ptr_nonnull(strstr(a.data, "FATAL: pool"));
		ck_assert_uint_gt(ia.lines_flagged, 2);
	}
	buf_free(&in);
	buf_free(&a);
	buf_free(&b);
}
END_TEST

static Suite *
make_red_split_suite(void)
{
	Suite *s = suite_create("red_split");
	TCase *tc = tcase_create("Same");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_strip_two_threads);
	tcase_add_test(tc, test_strip_cut_reached_back);
	tcase_add_test(tc, test_strip_blanks_short);
	tcase_add_test(tc, test_repeat_two_threads);
	tcase_add_test(tc, test_generic_two_threads);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_red_split_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
