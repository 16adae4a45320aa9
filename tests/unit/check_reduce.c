/*
 * The generic reducer stages (RED-STRIP, RED-REPEAT, RED-HEADTAIL) and the
 * pipeline that runs them: exact output for each stage, the fixture corpus
 * of tests/fixtures/reduce (every must_keep string survives), and
 * hostile input (random bytes, a 1 MB line, a megabyte of escapes).
 */
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/headtail.h"
#include "reduce/lines.h"
#include "reduce/pipeline.h"
#include "reduce/repeat.h"
#include "reduce/shape.h"
#include "reduce/strip.h"
#include "reduce/u8.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#include "rng.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures/reduce"
#endif

#define FFFD RED_U8_REPLACEMENT

/*
 * Helpers
 */

/* What red_strip makes of len bytes; the caller frees it. */
static char *
strip_n(const char *in, size_t len)
{
	struct aiterm_buf out = BUF_INIT;

	red_strip(in, len, &out);
	return buf_steal(&out, NULL);
}

static char *
strip_s(const char *in)
{
	return strip_n(in, strlen(in));
}

static void
check_strip(const char *in, const char *want)
{
	char *got = strip_s(in);

	ck_assert_str_eq(got, want);
	free(got);
}

static char *
repeat_s(const char *in)
{
	struct aiterm_buf out = BUF_INIT;

	red_repeat(in, strlen(in), &out);
	return buf_steal(&out, NULL);
}

static void
check_repeat(const char *in, const char *want)
{
	char *got = repeat_s(in);

	ck_assert_str_eq(got, want);
	free(got);
}

/*
 * True when s is valid UTF-8 with no control other than LF and TAB: what
 * the stripper promises.
 */
static bool
clean_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t n, bad;
	bool clean = true;

	while (clean && p < end) {
		n = red_u8_check(p, end, &bad);
		clean = n > 0 && (*p >= 0x20 || *p == '\n' || *p == '\t') &&
		    *p != 0x7f && !(p[0] == 0xc2 && p[1] < 0xa0);
		p += n;
	}
	return clean;
}

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct aiterm_buf b = BUF_INIT;
	char chunk[65536];
	size_t n;

	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	if (b.data == NULL)
		buf_add(&b, "", 0);
	return buf_steal(&b, len);
}

/*
 * Whether a line is a RED-REPEAT or RED-HEADTAIL marker; if so, the lines
 * it says it stands for (count), the log lines it names (a-b) and whether
 * it is the headtail one.
 */
static bool
parse_marker(const struct red_line *l, unsigned long long *count,
    unsigned long long *a, unsigned long long *b, bool *headtail,
    bool *same)
{
	static const char rep[] = "  [… ", ht[] = "[… ";
	char *s = xstrndup(l->p, l->len), *p, *end;
	bool found = false;

	*same = false;
	if (strncmp(s, rep, sizeof rep - 1) == 0)
		p = s + sizeof rep - 1;
	else if (strncmp(s, ht, sizeof ht - 1) == 0)
		p = s + sizeof ht - 1;
	else
		goto out;
	*headtail = p == s + sizeof ht - 1;
	if (!*headtail && strncmp(p, "same line repeated ", 19) == 0) {
		*same = true;
		p += 19;
	}
	*count = strtoull(p, &end, 10);
	if (end == p)
		goto out;
	if (*same)
		found = strncmp(end, " more times (", 13) == 0;
	else if (!*headtail)
		found = strncmp(end, " similar line", 13) == 0;
	else
		found = strncmp(end, " line", 5) == 0 &&
		    strstr(end, " omitted (") != NULL;
	p = strstr(end, "(line");
	if (!found || p == NULL) {
		found = false;
		goto out;
	}
	if (strncmp(p, "(lines ", 7) == 0) {
		*a = strtoull(p + 7, &end, 10);
		*b = strtoull(end + 1, NULL, 10);
	} else {
		*a = *b = strtoull(p + 6, NULL, 10);
	}
out:
	free(s);
	return found;
}

static bool
line_is(const struct red_line *l, const struct red_line *m)
{
	return l->len == m->len && memcmp(l->p, m->p, l->len) == 0;
}

/*
 * RED-FAITHFUL, checked: walking the output against the stripped text
 * (its lines numbered by line_of), every stripped line is shown as it is,
 * in order, or folded into exactly one marker, whose range starts at the
 * first line not yet accounted for and ends at the last line it folds,
 * and whose count is the number of lines folded.  The repeats of a "same
 * line" marker equal the line shown before it; the failure lines after a
 * headtail marker ("N: text") are lines of its range.  Long lines must
 * not be cut (max_line_bytes 0).  Returns NULL, or what went wrong.
 */
static char *
unfaithful(const char *text, size_t tlen, const unsigned long long *line_of,
    const char *out, size_t olen)
{
	struct red_line *lines, l, shown = { "", 0, false };
	unsigned long long count, a, b, num;
	size_t n = red_line_count(text, tlen), pos = 0, j = 0, hs = 0, he = 0;
	size_t k, first;
	char *why = NULL, *end;
	bool headtail, same, after_ht = false, found;

	lines = xcalloc(n + 1, sizeof *lines);
	for (k = 0; red_line_next(text, tlen, &pos, &lines[k]); k++)
		continue;
	pos = 0;
	while (why == NULL && red_line_next(out, olen, &pos, &l)) {
		if (parse_marker(&l, &count, &a, &b, &headtail, &same)) {
			first = j;
			if (j >= n || line_of[j] != a)
				why = xasprintf("marker %.*s: next line is "
				    "%llu", (int)l.len, l.p,
				    j < n ? line_of[j] : 0);
			while (why == NULL && j < n && line_of[j] <= b) {
				if (same && !line_is(&lines[j], &shown))
					why = xasprintf("marker %.*s: line "
					    "%llu differs", (int)l.len, l.p,
					    line_of[j]);
				j++;
			}
			if (why == NULL && (j == first || line_of[j - 1] != b ||
			    j - first != count))
				why = xasprintf("marker %.*s: folds %zu lines "
				    "ending at %llu", (int)l.len, l.p,
				    j - first, j > 0 ? line_of[j - 1] : 0);
			after_ht = headtail;
			hs = first;
			he = j;
			continue;
		}
		found = false;
		if (after_ht && l.len > 0 && l.p[0] >= '0' && l.p[0] <= '9') {
			num = strtoull(l.p, &end, 10);
			for (k = hs; k < he && !found; k++) {
				found = line_of[k] == num && end[0] == ':' &&
				    end[1] == ' ' && (size_t)(end + 2 - l.p) +
				    lines[k].len == l.len && memcmp(end + 2,
				    lines[k].p, lines[k].len) == 0;
			}
		}
		if (found)
			continue;
		after_ht = false;
		if (j >= n || !line_is(&l, &lines[j]))
			why = xasprintf("line %.*s is not stripped line %zu",
			    (int)l.len, l.p, j);
		else
			shown = lines[j++];
	}
	if (why == NULL && j != n)
		why = xasprintf("%zu of %zu lines accounted for", j, n);
	free(lines);
	return why;
}

static void
check_faithful(const char *text, size_t tlen,
    const unsigned long long *line_of, const struct aiterm_buf *out)
{
	char *why = unfaithful(text, tlen, line_of, out->data, out->len);

	ck_assert_msg(why == NULL, "%s", why);
}

/* Log line numbers first, first + step, ... for n lines. */
static unsigned long long *
numbers(size_t n, unsigned long long first, unsigned long long step)
{
	unsigned long long *v = xcalloc(n + 1, sizeof *v);
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = first + i * step;
	return v;
}

/*
 * RED-STRIP
 */

START_TEST(test_strip_plain)
{
	check_strip("hello\nworld\n", "hello\nworld\n");
	check_strip("no final newline", "no final newline");
	check_strip("", "");
	check_strip("\n\n", "\n\n");
	check_strip("tab\there\n", "tab\there\n");
	check_strip("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80\n",
	    "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80\n");
}
END_TEST

/*
 * Text with nothing for the screen to do is its own strip (a shortcut
 * that skips the screen): the screen, made to run by a colour reset at
 * the end, leaves the same.  Random text of tabs, UTF-8, empty lines,
 * rows longer than a row's edit span and more rows than the window.
 */
START_TEST(test_strip_plain_shortcut)
{
	static const char *const pieces[] = {
	    "a", "word ", "\t", "caf\xc3\xa9", "\xe2\x9c\x93", "\n", "\n\n",
	    "0123456789", "  ", "/usr/lib/x",
	};
	struct aiterm_buf in = BUF_INIT, fast = BUF_INIT, slow = BUF_INIT;
	uint64_t x = 0x2545f4914f6cdd1dULL;
	size_t round, k, n, j;

	for (round = 0; round < 60; round++) {
		buf_reset(&in);
		n = round % 3 == 0 ? 3000 : round * 7;
		for (k = 0; k < n; k++) {
			rng_next(&x);
			/* Now and then a row of 3,000 bytes. */
			buf_adds(&in, round % 5 == 1 && k % 500 == 7 ? "" :
			    pieces[x % (sizeof pieces / sizeof pieces[0])]);
			if (round % 5 == 1 && k % 500 == 7) {
				for (j = 0; j < 300; j++)
					buf_adds(&in, "long text ");
			}
		}
		buf_reset(&fast);
		red_strip(in.data != NULL ? in.data : "", in.len, &fast);
		ck_assert_uint_eq(fast.len, in.len);
		ck_assert(memcmp(fast.data, in.data != NULL ? in.data : "",
		    in.len) == 0);
		buf_adds(&in, "\x1b[0m");
		buf_reset(&slow);
		red_strip(in.data, in.len, &slow);
		ck_assert_msg(slow.len == fast.len &&
		    memcmp(slow.data, fast.data, fast.len) == 0, "round %zu",
		    round);
	}
	buf_free(&in);
	buf_free(&fast);
	buf_free(&slow);
}
END_TEST

START_TEST(test_strip_progress_cr)
{
	check_strip("10%\r20%\r100%\r\n", "100%\n");
	/* Shorter text overwrites only what it covers, as on a screen. */
	check_strip("Downloading 10%\rDone\n", "Doneloading 10%\n");
	check_strip("\r1 s, 520 MB/s\r2 s, 567 MB/s\r\n19000+0 records in\r\n",
	    "2 s, 567 MB/s\n19000+0 records in\n");
	check_strip("\rReading... 0%\r\rReading... Done\r\r\nnext\r\n",
	    "Reading... Done\nnext\n");
	/* Overwriting a wide character with a narrow one, and back. */
	check_strip("\xc3\xa9\xc3\xa9\xc3\xa9\rab\n", "ab\xc3\xa9\n");
	check_strip("abc\r\xe2\x9c\x93\n", "\xe2\x9c\x93" "bc\n");
}
END_TEST

START_TEST(test_strip_crlf)
{
	check_strip("a\r\nb\r\n\r\nc", "a\nb\n\nc");
	check_strip("only\r\n", "only\n");
}
END_TEST

START_TEST(test_strip_backspace)
{
	check_strip("abc\b\bX\n", "aXc\n");
	check_strip("x\b\b\by", "y");
	check_strip("\xc3\xa9\bE", "E");
	/* Overstrike, as man pages do it. */
	check_strip("_\bA_\bB", "AB");
}
END_TEST

START_TEST(test_strip_sgr)
{
	check_strip("\x1b[1;31mred\x1b[0m \x1b[38;5;208mtext\x1b[m\n",
	    "red text\n");
	/* A location printed in three colours exists only once stripped. */
	check_strip("\x1b[1msrc/net.c:\x1b[0m\x1b[1m66:5:\x1b[m error",
	    "src/net.c:66:5: error");
	check_strip("\x1b[?25l\x1b[?2004hvisible\x1b[?25h", "visible");
}
END_TEST

START_TEST(test_strip_osc)
{
	check_strip("\x1b]8;;https://gcc.gnu.org/onlinedocs\x07-Wsign-compare"
	    "\x1b]8;;\x07 warning\n", "-Wsign-compare warning\n");
	check_strip("\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\ end",
	    "link end");
	check_strip("\x1b]0;user@host: ~\x07$ ls\n", "$ ls\n");
	check_strip("\x1bPtmux;data\x1b\\after", "after");
	check_strip("\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\text", "text");
	/* A lost terminator ends at the line, not at the end of the log. */
	check_strip("\x1b]0;title\nnext\n", "\nnext\n");
}
END_TEST

START_TEST(test_strip_spinner)
{
	check_strip("\xe2\xa0\x99\x1b[1G\x1b[0K\xe2\xa0\xb9\x1b[1G\x1b[0K"
	    "added 125 packages in 3s\n", "added 125 packages in 3s\n");
	check_strip("\x1b(Bplain\x1b(0\x1b)B", "plain");
}
END_TEST

/* jest: RUNS lines are redrawn with cursor-up and erase. */
START_TEST(test_strip_cursor_up)
{
	check_strip("RUNS a.test.js\r\n\r\x1b[K\r\x1b[1A\r\x1b[K"
	    "PASS a.test.js\r\n", "PASS a.test.js\n");
	check_strip("Determining...\x1b[999D\x1b[K\r\n"
	    "\r\x1b[K\r\x1b[1A\r\n"
	    "RUNS a\r\n\r\x1b[K\r\x1b[1A\r\x1b[K\r\x1b[1A\r\n"
	    "RUNS a\r\n\r\x1b[K\r\x1b[1A\r\x1b[K\r\x1b[1A"
	    "FAIL a\r\n\r\n  done\r\n", "FAIL a\n\n  done\n");
	/* A status block redrawn three times appears once. */
	check_strip("log 1\n"
	    "status A 1\nstatus B 1\n\x1b[2A\x1b[J"
	    "status A 2\nstatus B 2\n\x1b[2A\x1b[J"
	    "log 2\nstatus A 3\nstatus B 3\n",
	    "log 1\nlog 2\nstatus A 3\nstatus B 3\n");
	/* The column is kept, and the top of the screen stops the cursor. */
	check_strip("abcdef\nxy\x1b[1Az\n", "abzdef\nxy");
	check_strip("one\x1b[9Atwo\n", "onetwo\n");
	/* Down does not go below the last row; NEL and RI move rows too. */
	check_strip("a\nb\x1b[5Bc\n", "a\nbc\n");
	check_strip("top\x1b" "Ebottom\r\x1bMX\n", "Xop\nbottom");
}
END_TEST

START_TEST(test_strip_columns)
{
	check_strip("ab\x1b[6Gx\n", "ab   x\n");
	check_strip("a\x1b[3Cb", "a   b");
	check_strip("abcdef\x1b[3Dx", "abcxef");
	check_strip("abcdef\x1b[3D\x1b[K", "abc");
	check_strip("abcdef\x1b[3D\x1b[0K", "abc");
	check_strip("abcdef\x1b[3D\x1b[1K", "    ef");
	check_strip("abc\x1b[2Kx", "   x");
	check_strip("abcdef\r\x1b[2Px", "xdef");
	check_strip("abcdef\r\x1b[2X", "  cdef");
	check_strip("abc\r\x1b[2@", "  abc");
	/* A motion alone leaves no blanks behind. */
	check_strip("ab\x1b[40G\n", "ab\n");
}
END_TEST

/* A huge column stops 1024 columns past the text. */
START_TEST(test_strip_column_limit)
{
	char want[1030];

	memset(want, ' ', 1024);
	strcpy(want + 1024, "x");
	check_strip("\x1b[65535Gx", want);
}
END_TEST

/* apt: a status line below a scroll region, drawn by save/move/restore. */
START_TEST(test_strip_scroll_region)
{
	check_strip("\n\x1b" "7\x1b[0;23r\x1b" "8\x1b[1A"
	    "Setting up a (1.0) ...\r\n"
	    "\x1b" "7\x1b[24;0f\x1b[42m\x1b[30mProgress: [ 50%]\x1b[49m\x1b[39m"
	    " [#####.....] \x1b" "8"
	    "Setting up b (2.0) ...\r\n"
	    "\x1b" "7\x1b[0;24r\x1b[24;0f\x1b[J\x1b" "8",
	    "Setting up a (1.0) ...\nSetting up b (2.0) ...\n");
	check_strip("x\x1b[s\x1b[10;1Hstatus\x1b[uy\n", "xy\n");
}
END_TEST

START_TEST(test_strip_clear)
{
	check_strip("$ ls\r\nfile\r\n\x1b[H\x1b[2J\x1b[3Jnext\r\n",
	    "$ ls\nfile\nnext\n");
	check_strip("old\x1b[2Jnew\n", "old\nnew\n");
	check_strip("a\x1b" "cb\n", "a\nb\n");
}
END_TEST

START_TEST(test_strip_controls)
{
	static const char in[] = "a\x07" "b\0c\x7f\x0e\x0f" "d\te\x1a\x18";
	static const char c1[] = "x\xc2\x9b" "y\xc2\x85z";
	char *got;

	got = strip_n(in, sizeof in - 1);
	ck_assert_str_eq(got, "abcd\te");
	free(got);
	got = strip_n(c1, sizeof c1 - 1);
	ck_assert_str_eq(got, "xyz");
	free(got);
	check_strip("a\vb\fc", "a\nb\nc");
}
END_TEST

START_TEST(test_strip_split_escape)
{
	check_strip("abc\x1b", "abc");
	check_strip("abc\x1b[", "abc");
	check_strip("abc\x1b[3", "abc");
	check_strip("abc\x1b[?25", "abc");
	check_strip("abc\x1b]8;;http://x", "abc");
	check_strip("abc\x1bP1;2", "abc");
	check_strip("ab\x1b(", "ab");
	check_strip("ab\x1b]8;;u\x1b", "ab");
}
END_TEST

START_TEST(test_strip_invalid_utf8)
{
	check_strip("a\xff" "b\xe2\x82" "c\n", "a" FFFD "b" FFFD "c\n");
	/* Overlong, surrogate, beyond U+10FFFF: one U+FFFD a byte. */
	check_strip("\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80",
	    FFFD FFFD "|" FFFD FFFD FFFD "|" FFFD FFFD FFFD FFFD);
	check_strip("cut \xe2\x82", "cut " FFFD);
	check_strip("\x80\xbf", FFFD FFFD);
	/* A carriage return over invalid bytes keeps the text valid. */
	check_strip("\xff\xfe\xfd\rab", "ab" FFFD);
}
END_TEST

START_TEST(test_strip_lone_esc)
{
	check_strip("\x1b", "");
	check_strip("a\x1b\x1b[31mb", "ab");
	check_strip("a\x1b\nb", "a\nb");
	check_strip("a\x1b\xc3\xa9", "a\xc3\xa9");
	check_strip("a\x1b[1\nb", "a\nb");
}
END_TEST

/* Rows that left the window are final: cursor-up cannot reach them. */
START_TEST(test_strip_window)
{
	struct aiterm_buf in = BUF_INIT, want = BUF_INIT;
	char *got;
	size_t i;

	for (i = 0; i < RED_STRIP_WINDOW + 10; i++) {
		buf_printf(&in, "row %zu\n", i);
		buf_printf(&want, "row %zu\n", i);
	}
	buf_adds(&in, "\x1b[9999AX");
	got = strip_n(in.data, in.len);
	/* The cursor stops at the oldest reachable row, 11. */
	ck_assert_ptr_nonnull(strstr(got, "\nXow 11\n"));
	ck_assert_ptr_nonnull(strstr(got, "\nrow 10\n"));
	free(got);
	buf_free(&in);
	buf_free(&want);
}
END_TEST

/*
 * RED-REPEAT
 */

START_TEST(test_repeat_identical)
{
	check_repeat("start\n"
	    "waiting for the database to accept connections\n"
	    "waiting for the database to accept connections\n"
	    "waiting for the database to accept connections\n"
	    "waiting for the database to accept connections\n"
	    "ready\n",
	    "start\n"
	    "waiting for the database to accept connections\n"
	    "  [… same line repeated 3 more times (lines 3-5)]\n"
	    "ready\n");
	/* Without a final LF the result has none either. */
	check_repeat("a fairly long line of output text\n"
	    "a fairly long line of output text\n"
	    "a fairly long line of output text",
	    "a fairly long line of output text\n"
	    "  [… same line repeated 2 more times (lines 2-3)]");
}
END_TEST

START_TEST(test_repeat_similar)
{
	check_repeat("Jun 14 03:40:25 web-02 healthcheck[2211]: GET /healthz -> 200 OK (3 ms)\n"
	    "Jun 14 03:40:30 web-02 healthcheck[2211]: GET /healthz -> 200 OK (4 ms)\n"
	    "Jun 14 03:40:35 web-02 healthcheck[2211]: GET /healthz -> 200 OK (14 ms)\n"
	    "Jun 14 03:40:40 web-02 healthcheck[2211]: GET /healthz -> 200 OK (5 ms)\n"
	    "Jun 14 03:40:45 web-02 healthcheck[2211]: GET /healthz -> 200 OK (4 ms)\n"
	    "Jun 14 03:40:50 web-02 other[1874]: stats\n",
	    "Jun 14 03:40:25 web-02 healthcheck[2211]: GET /healthz -> 200 OK (3 ms)\n"
	    "  [… 3 similar lines (lines 2-4); pty_read line_range=[2,4]]\n"
	    "Jun 14 03:40:45 web-02 healthcheck[2211]: GET /healthz -> 200 OK (4 ms)\n"
	    "Jun 14 03:40:50 web-02 other[1874]: stats\n");
	/* Hex addresses and ids compare equal; words do not. */
	check_repeat("alloc 0x7f3a2c001000 req=9f8e7d6c size 64 bytes ok\n"
	    "alloc 0x7f3a2c0010a0 req=1a2b3c4d size 64 bytes ok\n"
	    "alloc 0x7f3a2c0010f0 req=5e6f7a8b size 32 bytes ok\n"
	    "alloc 0x55d2c0ffee00 req=0badf00d size 128 bytes ok\n",
	    "alloc 0x7f3a2c001000 req=9f8e7d6c size 64 bytes ok\n"
	    "  [… 2 similar lines (lines 2-3); pty_read line_range=[2,3]]\n"
	    "alloc 0x55d2c0ffee00 req=0badf00d size 128 bytes ok\n");
	check_repeat("apple pie is served here\nbanana pie is served here\n"
	    "cherry pie is served here\n",
	    "apple pie is served here\nbanana pie is served here\n"
	    "cherry pie is served here\n");
}
END_TEST

START_TEST(test_repeat_alarming)
{
	const char *s;
	const char *warnings =
	    "WARN disk 91% full on /dev/sda1 (check 1)\n"
	    "WARN disk 92% full on /dev/sda1 (check 2)\n"
	    "WARN disk 93% full on /dev/sda1 (check 3)\n";
	const char *errors =
	    "12:00:01 ERROR db: connection refused (attempt 1 of 5)\n"
	    "12:00:06 ERROR db: connection refused (attempt 2 of 5)\n"
	    "12:00:11 ERROR db: connection refused (attempt 3 of 5)\n"
	    "12:00:16 ERROR db: connection refused (attempt 4 of 5)\n";

	check_repeat(errors, errors);
	check_repeat(warnings, warnings);
	/* The backup that exited with 1 is not hidden between the others. */
	check_repeat("290d9f945ffa   postgres:15.7   Exited (0) 4 days ago   pg-backup-20240610\n"
	    "4d1278220ad2   postgres:15.7   Exited (1) 3 days ago   pg-backup-20240611\n"
	    "cf1337349e45   postgres:15.7   Exited (0) 2 days ago   pg-backup-20240612\n",
	    "290d9f945ffa   postgres:15.7   Exited (0) 4 days ago   pg-backup-20240610\n"
	    "4d1278220ad2   postgres:15.7   Exited (1) 3 days ago   pg-backup-20240611\n"
	    "cf1337349e45   postgres:15.7   Exited (0) 2 days ago   pg-backup-20240612\n");
	/* Identical failure lines are counted, never merged with others. */
	check_repeat("E: Failed to fetch http://deb.example/a 404 Not Found\n"
	    "E: Failed to fetch http://deb.example/a 404 Not Found\n"
	    "E: Failed to fetch http://deb.example/a 404 Not Found\n"
	    "E: Failed to fetch http://deb.example/b 404 Not Found\n",
	    "E: Failed to fetch http://deb.example/a 404 Not Found\n"
	    "  [… same line repeated 2 more times (lines 2-3)]\n"
	    "E: Failed to fetch http://deb.example/b 404 Not Found\n");
	s = "Traceback (most recent call last):";
	ck_assert(red_line_alarming(s, strlen(s)));
	s = "Permission DENIED";
	ck_assert(red_line_alarming(s, strlen(s)));
	s = "all good here";
	ck_assert(!red_line_alarming(s, strlen(s)));
}
END_TEST

/* The documented failure words, for a plain reference matcher. */
static const char *const reference_words[] = {
	"error", "fail", "warn", "fatal", "panic", "denied", "refused",
	"exception", "traceback", "abort", "crash", "critical", "segfault",
	"killed", "timeout", "timed out", "unhealthy", "exit",
};

static bool
reference_alarming(const char *p, size_t len)
{
	char *lower = xstrndup(p, len);
	size_t i;
	bool found = false;

	for (i = 0; i < len; i++) {
		if (lower[i] >= 'A' && lower[i] <= 'Z')
			lower[i] = (char)(lower[i] - 'A' + 'a');
	}
	for (i = 0; i < sizeof reference_words / sizeof reference_words[0]; i++)
		found = found || strstr(lower, reference_words[i]) != NULL;
	free(lower);
	return found;
}

START_TEST(test_repeat_alarm_words)
{
	static const char *const cases[] = {
		"", "e", "er", "err", "erro", "error", "ERROR", "xERRORx",
		"1234567error", "12345678error", "1234567890123456ERRO",
		"1234567890123456eRrOr", "exi", "exit", "Timed Out", "timedout",
		"warn", "wa rn", "segfaul", "Segfault!", "unhealth", "UNHEALTHY",
	};
	static const char letters[] = "abcdefghiklmnoprstuwxERTF ";
	char line[40];
	uint64_t state = 7;
	size_t i, j, n;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(red_line_alarming(cases[i], strlen(cases[i])) ==
		    reference_alarming(cases[i], strlen(cases[i])), "%s",
		    cases[i]);
	for (i = 0; i < 200000; i++) {
		n = rng_next(&state) % sizeof line;
		for (j = 0; j < n; j++)
			line[j] = letters[rng_next(&state) % (sizeof letters - 1)];
		ck_assert_msg(red_line_alarming(line, n) ==
		    reference_alarming(line, n), "%.*s", (int)n, line);
	}
}
END_TEST

START_TEST(test_repeat_never_longer)
{
	check_repeat("x\nx\nx\nx\nx\n", "x\nx\nx\nx\nx\n");
	check_repeat("\n\n\n\n", "\n\n\n\n");
	check_repeat("1\n2\n3\n4\n", "1\n2\n3\n4\n");
	check_repeat("", "");
}
END_TEST

START_TEST(test_repeat_map)
{
	struct aiterm_buf out = BUF_INIT;
	struct red_linemap map = RED_LINEMAP_INIT;
	const char *in = "head\n"
	    "tick 1 of the long running job\ntick 2 of the long running job\n"
	    "tick 3 of the long running job\ntick 4 of the long running job\n"
	    "tick 5 of the long running job\ntail\n";

	red_repeat_map(in, strlen(in), NULL, &out, &map);
	ck_assert_uint_eq(map.total, 7);
	ck_assert_uint_eq(map.n, 5);
	ck_assert_uint_eq(red_linemap_first(&map, 0), 0);
	ck_assert_uint_eq(red_linemap_first(&map, 1), 1);
	ck_assert_uint_eq(red_linemap_first(&map, 2), 2);
	ck_assert_uint_eq(red_linemap_last(&map, 2), 4);
	ck_assert_uint_eq(red_linemap_first(&map, 3), 5);
	ck_assert_uint_eq(red_linemap_last(&map, 4), 6);
	red_linemap_free(&map);
	buf_free(&out);
}
END_TEST

/* The markers name log lines: from a base, or mapped by line_of. */
START_TEST(test_repeat_ranges)
{
	static const unsigned long long line_of[] = {
		5, 6, 9, 10, 11, 14, 15, 16, 20, 21, 22,
	};
	struct aiterm_buf out = BUF_INIT;
	struct red_linemap m1 = RED_LINEMAP_INIT, m2 = RED_LINEMAP_INIT;
	struct red_lineno ln;
	const char *in = "build started\n"
	    "waiting for lock /var/lib/dpkg/lock-frontend\n"
	    "waiting for lock /var/lib/dpkg/lock-frontend\n"
	    "waiting for lock /var/lib/dpkg/lock-frontend\n"
	    "waiting for lock /var/lib/dpkg/lock-frontend\n"
	    "progress 10% of 2.5 GB, eta 00:01:40 remaining\n"
	    "progress 20% of 2.5 GB, eta 00:01:30 remaining\n"
	    "progress 30% of 2.5 GB, eta 00:01:10 remaining\n"
	    "progress 40% of 2.5 GB, eta 00:01:00 remaining\n"
	    "progress 50% of 2.5 GB, eta 00:00:50 remaining\n"
	    "done\n";
	size_t n = red_line_count(in, strlen(in));

	ck_assert_uint_eq(n, sizeof line_of / sizeof line_of[0]);
	red_lineno_init(&ln, 0, line_of, n, n);
	red_repeat_map(in, strlen(in), &ln, &out, &m1);
	ck_assert_str_eq(out.data, "build started\n"
	    "waiting for lock /var/lib/dpkg/lock-frontend\n"
	    "  [… same line repeated 3 more times (lines 9-11)]\n"
	    "progress 10% of 2.5 GB, eta 00:01:40 remaining\n"
	    "  [… 3 similar lines (lines 15-20); pty_read "
	    "line_range=[15,20]]\n"
	    "progress 50% of 2.5 GB, eta 00:00:50 remaining\n"
	    "done\n");
	check_faithful(in, strlen(in), line_of, &out);

	/* The same in place, and the map does not depend on the numbers. */
	buf_reset(&out);
	buf_adds(&out, in);
	red_repeat_inplace(&out, &ln, &m2, 0);
	ck_assert_str_eq(out.data, "build started\n"
	    "waiting for lock /var/lib/dpkg/lock-frontend\n"
	    "  [… same line repeated 3 more times (lines 9-11)]\n"
	    "progress 10% of 2.5 GB, eta 00:01:40 remaining\n"
	    "  [… 3 similar lines (lines 15-20); pty_read "
	    "line_range=[15,20]]\n"
	    "progress 50% of 2.5 GB, eta 00:00:50 remaining\n"
	    "done\n");
	ck_assert_uint_eq(m1.n, m2.n);
	ck_assert_uint_eq(m1.total, m2.total);
	ck_assert_mem_eq(m1.start, m2.start, m1.n * sizeof *m1.start);

	/* line_of for another number of lines: the numbers of the base. */
	red_lineno_init(&ln, 1000, line_of, n - 1, n);
	buf_reset(&out);
	red_repeat_map(in, strlen(in), &ln, &out, NULL);
	ck_assert_ptr_nonnull(strstr(out.data, "  [… same line repeated 3 "
	    "more times (lines 1003-1005)]\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "  [… 3 similar lines (lines "
	    "1007-1009); pty_read line_range=[1007,1009]]\n"));

	/* One line folded. */
	in = "Jun 14 03:40:25 web-02 healthcheck[2211]: GET /healthz -> 200 "
	    "OK (3 ms)\n"
	    "Jun 14 03:40:30 web-02 healthcheck[2211]: GET /healthz -> 200 "
	    "OK (4 ms)\n"
	    "Jun 14 03:40:35 web-02 healthcheck[2211]: GET /healthz -> 200 "
	    "OK (14 ms)\n";
	buf_reset(&out);
	red_lineno_init(&ln, 41, NULL, 0, 3);
	red_repeat_map(in, strlen(in), &ln, &out, NULL);
	ck_assert_str_eq(out.data, "Jun 14 03:40:25 web-02 healthcheck[2211]: "
	    "GET /healthz -> 200 OK (3 ms)\n"
	    "  [… 1 similar line (line 43); pty_read line_range=[43,43]]\n"
	    "Jun 14 03:40:35 web-02 healthcheck[2211]: GET /healthz "
	    "-> 200 OK (14 ms)\n");
	red_linemap_free(&m1);
	red_linemap_free(&m2);
	buf_free(&out);
}
END_TEST

/* A marker, range and all, never makes a run longer than it was. */
START_TEST(test_repeat_marker_longer)
{
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	struct red_lineno ln;
	size_t i;

	check_repeat("a 1\na 2\na 3\n", "a 1\na 2\na 3\n");
	check_repeat("a rather short line\na rather short line\n"
	    "a rather short line\n", "a rather short line\n"
	    "a rather short line\na rather short line\n");
	/* Long numbers make a long marker: runs that fit it stay whole. */
	for (i = 0; i < 3; i++)
		buf_printf(&in, "step %zu of the nightly build\n", i);
	red_lineno_init(&ln, 123456789012345ULL, NULL, 0, 3);
	red_repeat_map(in.data, in.len, &ln, &out, NULL);
	ck_assert_str_eq(out.data, in.data);
	for (i = 3; i < 40; i++)
		buf_printf(&in, "step %zu of the nightly build\n", i);
	buf_reset(&out);
	red_repeat_map(in.data, in.len, &ln, &out, NULL);
	ck_assert_str_eq(out.data, "step 0 of the nightly build\n"
	    "  [… 38 similar lines (lines 123456789012347-123456789012384); "
	    "pty_read line_range=[123456789012347,123456789012384]]\n"
	    "step 39 of the nightly build\n");
	ck_assert_uint_lt(out.len, in.len);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

/*
 * RED-HEADTAIL
 */

static char *
numbered_lines(size_t n)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	for (i = 1; i <= n; i++)
		buf_printf(&b, "line %zu\n", i);
	return buf_steal(&b, NULL);
}

START_TEST(test_headtail_marker)
{
	struct red_headtail_opts opts = { 20, 3, 2, 0, 0, NULL, 0, 0, 0, 0 };
	struct red_headtail_info info;
	struct aiterm_buf out = BUF_INIT;
	char *in = numbered_lines(100);

	red_headtail(in, strlen(in), &opts, &out, &info);
	ck_assert_str_eq(out.data, "line 1\nline 2\nline 3\n"
	    "[… 95 lines omitted (lines 4-98); read them with pty_read "
	    "line_range=[4,98] or full=true]\n"
	    "line 99\nline 100\n");
	ck_assert_uint_eq(info.lines_in, 100);
	ck_assert_uint_eq(info.lines_out, 6);
	ck_assert_uint_eq(info.lines_omitted, 95);
	ck_assert_uint_eq(info.omitted_first, 4);
	ck_assert_uint_eq(info.omitted_last, 98);
	ck_assert(info.cut);

	/* Line numbers are absolute in the log. */
	buf_reset(&out);
	opts.base_line = 1000;
	red_headtail(in, strlen(in), &opts, &out, &info);
	ck_assert_ptr_nonnull(strstr(out.data, "(lines 1004-1098); read them "
	    "with pty_read line_range=[1004,1098] or full=true]\n"));

	/* No head, no tail, no final LF. */
	buf_reset(&out);
	opts = (struct red_headtail_opts){ 5, 0, 0, 0, 0, NULL, 0, 0, 0, 0 };
	red_headtail("a\nb\nc\nd\ne\nf\ng", 13, &opts, &out, &info);
	ck_assert_str_eq(out.data, "[… 7 lines omitted (lines 1-7); read them "
	    "with pty_read line_range=[1,7] or full=true]");
	buf_free(&out);
	free(in);
}
END_TEST

START_TEST(test_headtail_short)
{
	struct red_headtail_opts opts = { 100, 10, 10, 0, 0, NULL, 0, 0, 0, 0 };
	struct red_headtail_info info;
	struct aiterm_buf out = BUF_INIT;
	char *in = numbered_lines(100);

	red_headtail(in, strlen(in), &opts, &out, &info);
	ck_assert_str_eq(out.data, in);
	ck_assert(!info.cut);
	ck_assert_uint_eq(info.lines_out, 100);
	buf_free(&out);
	free(in);
}
END_TEST

START_TEST(test_headtail_long_line)
{
	struct red_headtail_opts opts = { 0, 0, 0, 100, 0, NULL, 0, 0, 0, 0 };
	struct red_headtail_info info;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT, want = BUF_INIT;
	size_t i;

	/* "a", 1000 two-byte characters, "b": the cuts fall inside them. */
	buf_adds(&in, "a");
	for (i = 0; i < 1000; i++)
		buf_adds(&in, "\xc3\xa9");
	buf_adds(&in, "b\nshort\n");
	red_headtail(in.data, in.len, &opts, &out, &info);
	/* Head: bytes 0-48 ("a" and 24 characters); tail from byte 1953. */
	buf_adds(&want, "a");
	for (i = 0; i < 24; i++)
		buf_adds(&want, "\xc3\xa9");
	buf_adds(&want, "[… 1904 bytes omitted]");
	for (i = 0; i < 24; i++)
		buf_adds(&want, "\xc3\xa9");
	buf_adds(&want, "b\nshort\n");
	ck_assert_str_eq(out.data, want.data);
	ck_assert_uint_eq(info.lines_cut, 1);
	ck_assert_uint_eq(info.bytes_cut, 1904);
	ck_assert(info.cut);
	ck_assert(clean_text(out.data, out.len));
	buf_free(&in);
	buf_free(&out);
	buf_free(&want);
}
END_TEST

/* RED-FAITHFUL: failure lines of the omitted range are shown anyway. */
START_TEST(test_headtail_flagged)
{
	struct red_headtail_opts opts = { 20, 3, 2, 0, 0, NULL, 0, 0, 0, 0 };
	struct red_headtail_info info;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	size_t i;

	for (i = 1; i <= 100; i++) {
		if (i == 50)
			buf_adds(&in, "ERROR boom\n");
		else if (i == 60)
			buf_adds(&in, "warning: unused x\n");
		else
			buf_printf(&in, "line %zu\n", i);
	}
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_str_eq(out.data, "line 1\nline 2\nline 3\n"
	    "[… 95 lines omitted (lines 4-98), except 4 distinct or failure "
	    "lines shown below with their line numbers; read them with "
	    "pty_read line_range=[4,98] or full=true]\n"
	    "50: ERROR boom\n51: line 51\n60: warning: unused x\n"
	    "61: line 61\nline 99\nline 100\n");
	ck_assert_uint_eq(info.lines_flagged, 4);
	ck_assert_uint_eq(info.lines_out, 10);

	/*
	 * Over the budget (max_lines / 4): the first line of the shape, then
	 * the first and the last of the others that fit.
	 */
	buf_reset(&in);
	buf_reset(&out);
	for (i = 1; i <= 60; i++) {
		if (i % 10 == 0)
			buf_printf(&in, "FAILED case %zu\n", i);
		else
			buf_printf(&in, "ok %zu\n", i);
	}
	opts = (struct red_headtail_opts){ 8, 2, 2, 0, 500, NULL, 0, 0, 0, 0 };
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_str_eq(out.data, "ok 1\nok 2\n"
	    "[… 56 lines omitted (lines 503-558), except 2 of the 5 distinct "
	    "or failure lines, shown below with their line numbers; read "
	    "them with pty_read line_range=[503,558] or full=true]\n"
	    "510: FAILED case 10\n520: FAILED case 20\nok 59\nFAILED case 60\n");
	buf_free(&in);
	buf_free(&out);
}
END_TEST

/*
 * 200 numbered lines "WORD NNN xxx...", width x's each; line alert (if
 * any) has ERROR for its word.
 */
static void
long_lines(struct aiterm_buf *in, const char *word, int width, size_t alert)
{
	char pad[391];
	size_t i;

	memset(pad, 'x', sizeof pad - 1);
	pad[sizeof pad - 1] = '\0';
	buf_reset(in);
	for (i = 1; i <= 200; i++)
		buf_printf(in, "%s %03zu %.*s\n", i == alert ? "ERROR" : word,
		    i, width, pad);
}

/*
 * RED-HEADTAIL: lines of 400 bytes are kept by bytes, not by count: the
 * head and the tail keep 120 bytes a line they may keep (40 and 60 lines
 * of the read limits: 12 and 18 of these), and a flagged line costs a
 * unit of the budget (max_lines / 4) for each 120 bytes it shows or part
 * of them.  (Without the bound on the whole result, tested below.)
 */
START_TEST(test_headtail_long_lines_by_bytes)
{
	struct red_headtail_opts opts = RED_HEADTAIL_READ;
	struct red_headtail_info info;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;

	opts.max_bytes = 0;
	long_lines(&in, "entry", 390, 100);
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_eq(info.omitted_first, 13);
	ck_assert_uint_eq(info.omitted_last, 182);
	/* The one error and the line after it. */
	ck_assert_uint_eq(info.lines_flagged, 2);
	ck_assert_ptr_nonnull(strstr(out.data, "\n100: ERROR 100 x"));
	ck_assert_uint_eq(info.lines_out, 12 + 1 + 2 + 18);

	/* Every line a failure, of 406 bytes: 11 and 17 kept, 7 of 4 units. */
	long_lines(&in, "FAILED case", 390, 0);
	buf_reset(&out);
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_eq(info.lines_flagged, 7);
	ck_assert_uint_eq(info.lines_out, 11 + 1 + 7 + 17);

	/* Lines of 120 bytes keep the 40 and 60 lines, as before. */
	long_lines(&in, "entry", 110, 0);
	buf_reset(&out);
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_eq(info.omitted_first, 41);
	ck_assert_uint_eq(info.omitted_last, 140);

	/* And as many flagged lines as before: a unit each. */
	long_lines(&in, "FAILED", 109, 0);
	buf_reset(&out);
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_eq(info.omitted_first, 41);
	ck_assert_uint_eq(info.lines_flagged, 30);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

/*
 * RED-HEADTAIL: a read's reduction is at most RED_READ_BYTES, whatever
 * the widths (Codex cuts a longer result in its middle, where the flagged
 * lines are): the one alert and the line after it stay, the head and the
 * tail share the rest, lines too long for it are cut shorter, and a few
 * huge lines each keep their share.
 */
START_TEST(test_headtail_bounded_in_bytes)
{
	static const struct { const char *word; int width; size_t alert; }
	    cases[] = {
		{ "entry", 390, 100 }, { "entry", 110, 150 },
		{ "FAILED case", 390, 0 }, { "FAILED", 109, 0 },
		{ "entry", 60, 7 },
	};
	struct red_headtail_opts opts = RED_HEADTAIL_READ;
	struct red_headtail_info info;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	char *wide;
	size_t i, k;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long_lines(&in, cases[i].word, cases[i].width, cases[i].alert);
		buf_reset(&out);
		red_headtail(in.data, in.len, &opts, &out, &info);
		ck_assert_msg(out.len <= RED_READ_BYTES, "case %zu: %zu bytes",
		    i, out.len);
		ck_assert_msg(strncmp(out.data, cases[i].word,
		    strlen(cases[i].word)) == 0 && strstr(out.data, " 200 x") !=
		    NULL, "case %zu: the first and the last line", i);
		if (cases[i].alert > 0 && cases[i].width > 100)
			ck_assert_msg(strstr(out.data, cases[i].alert == 100 ?
			    "\n100: ERROR 100 x" : "\n150: ERROR 150 x") != NULL &&
			    info.lines_flagged == 2, "case %zu: the alert and "
			    "its next line flagged: %s", i, out.data);
	}
	/* 400-byte lines: the head 9 lines, the tail 13, two flagged. */
	long_lines(&in, "entry", 390, 100);
	buf_reset(&out);
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_eq(info.omitted_first, 10);
	ck_assert_uint_eq(info.lines_out, 9 + 1 + 2 + 13);
	/* Within max_lines, 50 lines of 1,000 bytes are cut by bytes. */
	wide = malloc(1001);
	memset(wide, 'w', 1000);
	wide[1000] = '\0';
	buf_reset(&in);
	for (k = 1; k <= 50; k++)
		buf_printf(&in, "%s %zu %s\n", k == 25 ? "panic:" : "row", k,
		    wide);
	buf_reset(&out);
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_le(out.len, RED_READ_BYTES);
	ck_assert(info.lines_omitted > 0);
	ck_assert_ptr_nonnull(strstr(out.data, "\n25: panic: 25 w"));
	ck_assert_ptr_nonnull(strstr(out.data, "row 50 w"));
	/* Five lines of 8,000 bytes: all five, each cut to its share. */
	buf_reset(&in);
	for (k = 1; k <= 5; k++) {
		buf_printf(&in, "line %zu ", k);
		for (i = 0; i < 8; i++)
			buf_add(&in, wide, 1000);
		buf_addc(&in, '\n');
	}
	buf_reset(&out);
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_le(out.len, RED_READ_BYTES);
	ck_assert_uint_eq(info.lines_omitted, 0);
	ck_assert_uint_eq(info.lines_cut, 5);
	ck_assert_ptr_nonnull(strstr(out.data, "line 5 w"));
	free(wide);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

/* After RED-REPEAT, the marker names the lines of the stripped text. */
START_TEST(test_headtail_mapped)
{
	struct red_headtail_opts opts = { 4, 1, 2, 0, 0, NULL, 0, 0, 0, 0 };
	struct red_headtail_info info;
	struct aiterm_buf mid = BUF_INIT, out = BUF_INIT;
	struct red_linemap map = RED_LINEMAP_INIT;
	const char *in = "head\n"
	    "tick 1 of the long running job\ntick 2 of the long running job\n"
	    "tick 3 of the long running job\ntick 4 of the long running job\n"
	    "between\nend 1\nend 2\n";

	red_repeat_map(in, strlen(in), NULL, &mid, &map);
	red_headtail_map(mid.data, mid.len, &opts, &map, &out, &info);
	/* "between" is the one line unlike the rest: shown (RED-FAITHFUL). */
	ck_assert_str_eq(out.data, "head\n"
	    "[… 5 lines omitted (lines 2-6), except 1 distinct or failure "
	    "line shown below with its line number; read them with pty_read "
	    "line_range=[2,6] or full=true]\n6: between\nend 1\nend 2\n");
	red_linemap_free(&map);
	buf_free(&mid);
	buf_free(&out);
}
END_TEST

/* line_of: the marker and the failure lines show the mapped numbers. */
/*
 * Two outliers on the last omitted lines: the line after the second is
 * the tail's, no flagged line of its own (fuzz/crashes/headtail-outlier-
 * last-follow: an index past the end was flagged and numbered).
 */
START_TEST(test_headtail_outlier_last)
{
	struct red_headtail_opts opts = { 20, 3, 2, 0, 0, NULL, 0, 0, 0, 0 };
	struct red_headtail_info info;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	size_t i;

	for (i = 1; i <= 100; i++) {
		if (i == 97)
			buf_adds(&in, "ERROR boom\n");
		else if (i == 98)
			buf_adds(&in, "warning: unused x\n");
		else
			buf_printf(&in, "line %zu\n", i);
	}
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_str_eq(out.data, "line 1\nline 2\nline 3\n"
	    "[… 95 lines omitted (lines 4-98), except 2 distinct or failure "
	    "lines shown below with their line numbers; read them with "
	    "pty_read line_range=[4,98] or full=true]\n"
	    "97: ERROR boom\n98: warning: unused x\nline 99\nline 100\n");
	ck_assert_uint_eq(info.lines_flagged, 2);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

START_TEST(test_headtail_line_of)
{
	unsigned long long line_of[100];
	struct red_headtail_opts opts = { 20, 3, 2, 0, 0, line_of, 100, 0, 0,
	    0 };
	struct red_headtail_info info;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	size_t i;

	/* Log lines 5, 6, 9-46, 60-119: prompts and echoes in the gaps. */
	line_of[0] = 5;
	line_of[1] = 6;
	for (i = 2; i < 100; i++)
		line_of[i] = i < 40 ? i + 7 : i + 20;
	for (i = 1; i <= 100; i++) {
		if (i == 50)
			buf_adds(&in, "ERROR boom\n");
		else if (i == 60)
			buf_adds(&in, "warning: unused x\n");
		else
			buf_printf(&in, "line %zu\n", i);
	}
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_str_eq(out.data, "line 1\nline 2\nline 3\n"
	    "[… 95 lines omitted (lines 10-117), except 4 distinct or failure "
	    "lines shown below with their line numbers; read them with "
	    "pty_read line_range=[10,117] or full=true]\n"
	    "69: ERROR boom\n70: line 51\n79: warning: unused x\n"
	    "80: line 61\nline 99\nline 100\n");
	ck_assert_uint_eq(info.lines_omitted, 95);
	ck_assert_uint_eq(info.omitted_first, 10);
	ck_assert_uint_eq(info.omitted_last, 117);
	check_faithful(in.data, in.len, line_of, &out);

	/* A count that is not the text's: base_line numbers them. */
	buf_reset(&out);
	opts.base_line = 1000;
	opts.nline_of = 99;
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_str_eq(out.data, "line 1\nline 2\nline 3\n"
	    "[… 95 lines omitted (lines 1004-1098), except 4 distinct or "
	    "failure lines shown below with their line numbers; read them "
	    "with pty_read line_range=[1004,1098] or full=true]\n"
	    "1050: ERROR boom\n1051: line 51\n1060: warning: unused x\n"
	    "1061: line 61\nline 99\nline 100\n");
	ck_assert_uint_eq(info.omitted_first, 1004);
	buf_reset(&out);
	opts.line_of = NULL;
	opts.nline_of = 100;
	red_headtail(in.data, in.len, &opts, &out, &info);
	ck_assert_uint_eq(info.omitted_first, 1004);
	ck_assert_uint_eq(info.omitted_last, 1098);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

/*
 * The pipeline
 */

START_TEST(test_generic_small)
{
	struct red_headtail_opts opts = RED_HEADTAIL_DEFAULTS;
	struct red_info info;
	struct aiterm_buf out = BUF_INIT;
	const char *in = "\x1b[32mok\x1b[0m\r\n";

	red_generic(in, strlen(in), &opts, &out, &info);
	ck_assert_str_eq(out.data, "ok\n");
	ck_assert(info.fell_back);
	ck_assert_uint_eq(info.raw_bytes, strlen(in));
	ck_assert_uint_eq(info.stripped_bytes, 3);
	ck_assert_uint_eq(info.out_bytes, 3);
	buf_free(&out);
}
END_TEST

START_TEST(test_generic_log)
{
	struct red_headtail_opts opts = { 40, 10, 20, 0, 100, NULL, 0, 0, 0, 0 };
	struct red_info info;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	size_t i;

	for (i = 0; i < 3000; i++)
		buf_printf(&in, "Jun 14 03:%02zu:%02zu web-02 healthcheck[2211]: "
		    "GET /healthz -> 200 OK (%zu ms)\r\n", i / 60 % 60, i % 60,
		    i % 7);
	buf_adds(&in, "\x1b[31mJun 14 04:00:00 web-02 orders-api[1874]: ERROR "
	    "db: connection refused\x1b[0m\r\n");
	for (i = 0; i < 100; i++)
		buf_printf(&in, "job %zu of %s done\r\n", i,
		    i % 2 ? "sync" : "render");
	red_generic(in.data, in.len, &opts, &out, &info);
	ck_assert(!info.fell_back);
	ck_assert_uint_eq(info.stripped_lines, 3101);
	ck_assert_ptr_nonnull(strstr(out.data, "  [… 2998 similar lines (lines "
	    "102-3099); pty_read line_range=[102,3099]]\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "ERROR db: connection refused\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "[… 74 lines omitted (lines "
	    "3108-3181); read them with pty_read line_range=[3108,3181] or "
	    "full=true]\n"));
	ck_assert_uint_lt(info.out_bytes, info.stripped_bytes);
	ck_assert_uint_eq(out.len, info.out_bytes);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

/*
 * The stripped log of test_generic_log, with a failure in the range
 * RED-HEADTAIL leaves out.
 */
static void
mixed_log(struct aiterm_buf *in)
{
	size_t i;

	for (i = 0; i < 3000; i++)
		buf_printf(in, "Jun 14 03:%02zu:%02zu web-02 healthcheck[2211]: "
		    "GET /healthz -> 200 OK (%zu ms)\r\n", i / 60 % 60, i % 60,
		    i % 7);
	buf_adds(in, "\x1b[31mJun 14 04:00:00 web-02 orders-api[1874]: ERROR "
	    "db: connection refused\x1b[0m\r\n");
	for (i = 0; i < 100; i++)
		buf_printf(in, "job %zu of %s %s\r\n", i, i % 2 ? "sync" :
		    "render", i == 40 ? "FAILED" : "done");
}

/* Every number the pipeline shows comes from line_of. */
START_TEST(test_generic_line_of)
{
	struct red_headtail_opts opts = { 40, 10, 20, 0, 0, NULL, 0, 0, 0, 0 };
	struct red_info info;
	struct aiterm_buf in = BUF_INIT, text = BUF_INIT, out = BUF_INIT;
	unsigned long long *line_of, *plain;
	size_t n;

	mixed_log(&in);
	red_strip(in.data, in.len, &text);
	n = red_line_count(text.data, text.len);
	ck_assert_uint_eq(n, 3101);
	/* Two dropped lines (prompt, echo) before each line: 7, 10, 13... */
	line_of = numbers(n, 7, 3);
	opts.line_of = line_of;
	opts.nline_of = n;
	red_generic(in.data, in.len, &opts, &out, &info);
	ck_assert(!info.fell_back);
	ck_assert_ptr_nonnull(strstr(out.data, "\n  [… 2998 similar lines "
	    "(lines 10-9001); pty_read line_range=[10,9001]]\n"));
	ck_assert_ptr_nonnull(strstr(out.data, "\n[… 74 lines omitted (lines "
	    "9028-9247), except 2 distinct or failure lines shown below with "
	    "their line numbers; read them with pty_read line_range=[9028,9247] "
	    "or full=true]\n9130: job 40 of render FAILED\n"
	    "9133: job 41 of sync done\n"));
	ck_assert_uint_eq(info.omitted_first, 9028);
	ck_assert_uint_eq(info.omitted_last, 9247);
	ck_assert_uint_eq(info.lines_omitted, 74);
	ck_assert_uint_le(out.len, text.len);
	check_faithful(text.data, text.len, line_of, &out);

	/* nline_of is not the number of stripped lines: base_line rules. */
	buf_reset(&out);
	opts.base_line = 100;
	opts.nline_of = n + 1;
	red_generic(in.data, in.len, &opts, &out, &info);
	ck_assert_ptr_nonnull(strstr(out.data, "\n  [… 2998 similar lines "
	    "(lines 102-3099); pty_read line_range=[102,3099]]\n"));
	ck_assert_ptr_nonnull(strstr(out.data,
	    "\n3142: job 40 of render FAILED\n"));
	ck_assert_uint_eq(info.omitted_first, 3108);
	ck_assert_uint_eq(info.omitted_last, 3181);
	plain = numbers(n, 101, 1);
	check_faithful(text.data, text.len, plain, &out);
	free(plain);
	free(line_of);
	buf_free(&in);
	buf_free(&text);
	buf_free(&out);
}
END_TEST

/*
 * `seq 1 200000`: one similar run, whose marker names exactly the lines
 * between the first and the last.
 */
START_TEST(test_generic_seq)
{
	struct red_headtail_opts opts = RED_HEADTAIL_DEFAULTS;
	struct red_info info;
	struct aiterm_buf in = BUF_INIT, text = BUF_INIT, out = BUF_INIT;
	unsigned long long *line_of;
	size_t i;

	for (i = 1; i <= 200000; i++)
		buf_printf(&in, "%zu\r\n", i);
	red_strip(in.data, in.len, &text);
	/* Log line 1 is the command line: the output starts at line 2. */
	opts.base_line = 1;
	red_generic(in.data, in.len, &opts, &out, &info);
	ck_assert_str_eq(out.data, "1\n"
	    "  [… 199998 similar lines (lines 3-200000); pty_read "
	    "line_range=[3,200000]]\n"
	    "200000\n");
	ck_assert_uint_eq(info.stripped_lines, 200000);
	ck_assert(!info.cut);
	line_of = numbers(200000, 2, 1);
	check_faithful(text.data, text.len, line_of, &out);
	free(line_of);

	/* The same through line_of, every other log line dropped. */
	line_of = numbers(200000, 2, 2);
	opts.line_of = line_of;
	opts.nline_of = 200000;
	buf_reset(&out);
	red_generic(in.data, in.len, &opts, &out, &info);
	ck_assert_str_eq(out.data, "1\n"
	    "  [… 199998 similar lines (lines 4-399998); pty_read "
	    "line_range=[4,399998]]\n"
	    "200000\n");
	check_faithful(text.data, text.len, line_of, &out);
	free(line_of);
	buf_free(&in);
	buf_free(&text);
	buf_free(&out);
}
END_TEST

START_TEST(test_keep_shorter)
{
	struct aiterm_buf out = BUF_INIT;

	buf_adds(&out, "prefix:");
	buf_adds(&out, "longer than the text");
	ck_assert(red_keep_shorter(&out, 7, "text", 4));
	ck_assert_str_eq(out.data, "prefix:text");
	ck_assert(!red_keep_shorter(&out, 7, "a longer text", 13));
	ck_assert_str_eq(out.data, "prefix:text");
	buf_free(&out);
}
END_TEST

/*
 * The fixture corpus
 */

struct corpus_totals {
	size_t	 cases;
	size_t	 facts;
	size_t	 kept_strip;
	size_t	 kept_generic;
	size_t	 raw;
	size_t	 stripped;
	size_t	 reduced;
};

/* RED-REPEAT in place writes what it writes to a second buffer. */
static bool
repeat_inplace_agrees(const char *text, size_t len)
{
	struct aiterm_buf a = BUF_INIT, b = BUF_INIT;
	struct red_linemap ma = RED_LINEMAP_INIT, mb = RED_LINEMAP_INIT;
	bool same;

	red_repeat_map(text, len, NULL, &a, &ma);
	buf_add(&b, text, len);
	red_repeat_inplace(&b, NULL, &mb, 0);
	same = a.len == b.len && memcmp(a.data, b.data, a.len) == 0 &&
	    ma.n == mb.n && ma.total == mb.total &&
	    memcmp(ma.start, mb.start, ma.n * sizeof *ma.start) == 0;
	red_linemap_free(&ma);
	red_linemap_free(&mb);
	buf_free(&a);
	buf_free(&b);
	return same;
}

/*
 * RED-FAITHFUL over a case, numbered from 1 and numbered by the line_of of
 * a caller that dropped every other log line: the output accounts for
 * every stripped line (see unfaithful), keeps every must_keep string and
 * is not longer than the stripped text.
 */
static void
corpus_faithful(const char *name, const char *raw, size_t len,
    const struct aiterm_buf *stripped, json_t *keep, struct aiterm_buf *why)
{
	struct red_headtail_opts opts = { 400, 100, 300, 0, 0, NULL, 0, 0, 0,
	    0 };
	struct aiterm_buf out = BUF_INIT;
	unsigned long long *line_of[2];
	size_t n = red_line_count(stripped->data, stripped->len), i, pass;
	json_t *v;
	const char *s;
	char *bad;

	line_of[0] = numbers(n, 1, 1);
	line_of[1] = numbers(n, 3, 2);
	for (pass = 0; pass < 2; pass++) {
		opts.line_of = pass == 0 ? NULL : line_of[pass];
		opts.nline_of = n;
		buf_reset(&out);
		red_generic(raw, len, &opts, &out, NULL);
		bad = unfaithful(stripped->data, stripped->len, line_of[pass],
		    out.data, out.len);
		if (bad != NULL)
			buf_printf(why, "%s (numbering %zu): %s\n", name, pass,
			    bad);
		free(bad);
		if (out.len > stripped->len)
			buf_printf(why, "%s (numbering %zu): %zu > stripped %zu "
			    "bytes\n", name, pass, out.len, stripped->len);
		json_array_foreach(keep, i, v) {
			s = json_string_value(v);
			if (s != NULL && strstr(out.data, s) == NULL)
				buf_printf(why, "%s (numbering %zu): lost: %s\n",
				    name, pass, s);
		}
	}
	free(line_of[0]);
	free(line_of[1]);
	buf_free(&out);
}

/* Check one case; failures are appended to why. */
static void
corpus_case(const char *dir, const char *name, struct corpus_totals *t,
    struct aiterm_buf *why)
{
	struct red_headtail_opts opts = { 400, 100, 300, 4096, 0, NULL, 0, 0,
	    0, 0 };
	struct red_info info;
	struct aiterm_buf stripped = BUF_INIT, reduced = BUF_INIT;
	char *path, *raw;
	json_t *meta, *keep, *v;
	json_error_t jerr;
	size_t len, i;
	const char *s;

	path = xasprintf("%s/%s/out", dir, name);
	raw = read_file(path, &len);
	free(path);
	path = xasprintf("%s/%s/meta.json", dir, name);
	meta = json_load_file(path, 0, &jerr);
	free(path);
	if (raw == NULL || meta == NULL) {
		buf_printf(why, "%s: cannot read out or meta.json\n", name);
		goto out;
	}
	red_strip(raw, len, &stripped);
	red_generic(raw, len, &opts, &reduced, &info);
	if (!repeat_inplace_agrees(stripped.data, stripped.len))
		buf_printf(why, "%s: red_repeat_inplace differs\n", name);
	if (!clean_text(stripped.data, stripped.len))
		buf_printf(why, "%s: stripped text is not clean\n", name);
	if (reduced.len > stripped.len)
		buf_printf(why, "%s: reduced %zu > stripped %zu bytes\n", name,
		    reduced.len, stripped.len);
	keep = json_object_get(meta, "must_keep");
	json_array_foreach(keep, i, v) {
		s = json_string_value(v);
		if (s == NULL)
			continue;
		t->facts++;
		if (strstr(stripped.data, s) != NULL)
			t->kept_strip++;
		else
			buf_printf(why, "%s: lost by red_strip: %s\n", name, s);
		if (strstr(reduced.data, s) != NULL)
			t->kept_generic++;
		else
			buf_printf(why, "%s: lost by red_generic: %s\n", name, s);
	}
	corpus_faithful(name, raw, len, &stripped, keep, why);
	t->cases++;
	t->raw += len;
	t->stripped += stripped.len;
	t->reduced += reduced.len;
	printf("corpus %-36s raw %7zu stripped %7zu generic %7zu%s\n", name,
	    len, stripped.len, reduced.len, info.fell_back ? " (stripped)" : "");
out:
	json_decref(meta);
	free(raw);
	buf_free(&stripped);
	buf_free(&reduced);
}

START_TEST(test_corpus)
{
	struct corpus_totals t = { 0 };
	struct aiterm_buf why = BUF_INIT;
	struct dirent **names;
	int n, i;

	n = scandir(FIXTURES_DIR, &names, NULL, alphasort);
	ck_assert_msg(n >= 0, "cannot read %s", FIXTURES_DIR);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' &&
		    strcmp(names[i]->d_name, "README.md") != 0)
			corpus_case(FIXTURES_DIR, names[i]->d_name, &t, &why);
		free(names[i]);
	}
	free(names);
	printf("corpus: %zu cases, must_keep %zu/%zu after strip, %zu/%zu "
	    "after generic; bytes raw %zu, stripped %zu, generic %zu\n",
	    t.cases, t.kept_strip, t.facts, t.kept_generic, t.facts, t.raw,
	    t.stripped, t.reduced);
	fflush(stdout);
	ck_assert_msg(why.len == 0, "%s", buf_str(&why));
	ck_assert_uint_ge(t.cases, 30);
	buf_free(&why);
}
END_TEST

/*
 * Hostile input
 */

/*
 * Bounded output: RED-STRIP writes at most one character per input byte
 * (3 bytes for U+FFFD) plus the blanks of cursor motions, budgeted to the
 * input's size plus 64 KiB; the pipeline at most its line budget, each
 * line cut to max_line_bytes plus a marker.
 */
#define STRIP_BOUND(len)	(4 * (len) + 65536)
#define LINE_SLACK		512

static void
check_hostile(const char *in, size_t len)
{
	struct red_headtail_opts opts = RED_HEADTAIL_DEFAULTS;
	struct aiterm_buf out = BUF_INIT;
	struct red_info info;
	size_t budget = opts.head_lines + opts.tail_lines + 1 +
	    opts.max_lines / 4;

	red_strip(in, len, &out);
	ck_assert(clean_text(out.data, out.len));
	ck_assert_uint_le(out.len, STRIP_BOUND(len));
	buf_reset(&out);
	red_generic(in, len, &opts, &out, &info);
	ck_assert(clean_text(out.data, out.len));
	ck_assert_uint_le(info.out_bytes, info.stripped_bytes);
	ck_assert_uint_le(info.stripped_bytes, STRIP_BOUND(len));
	if (!info.fell_back) {
		if (info.stripped_lines > opts.max_lines)
			ck_assert_uint_le(info.lines_out, budget);
		ck_assert_uint_le(out.len, info.lines_out *
		    (opts.max_line_bytes + LINE_SLACK));
	}
	buf_free(&out);
}

START_TEST(test_hostile_random)
{
	size_t len = 4u << 20, i;
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	char *in = xmalloc(len);

	for (i = 0; i < len; i += 8) {
		uint64_t r = rng_next(&state);

		memcpy(in + i, &r, 8);
	}
	check_hostile(in, len);
	/* Mostly escape-introducing bytes. */
	for (i = 0; i < len; i++) {
		static const char pick[] = "\x1b[]P;0123456789ABCDJKGHfmrsu78\r\n\b\x07\\";

		in[i] = pick[rng_next(&state) % (sizeof pick - 1)];
	}
	check_hostile(in, len);
	free(in);
}
END_TEST

START_TEST(test_hostile_long_line)
{
	size_t len = 1u << 20;
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	char *line = xmalloc(len);

	memset(line, 'x', len);
	buf_add(&in, line, len);
	buf_adds(&in, "\r\nafter\r\n");
	red_strip(in.data, in.len, &out);
	ck_assert_uint_eq(out.len, len + 7);
	ck_assert_str_eq(out.data + len, "\nafter\n");
	check_hostile(in.data, in.len);
	/* CR over a long row of wide characters, many times over. */
	buf_reset(&in);
	for (len = 0; len < 8000; len++)
		buf_adds(&in, "\xc3\xa9");
	for (len = 0; len < 20000; len++)
		buf_adds(&in, "\rab\x1b[1A\x1b[1B\x1b[4096@");
	check_hostile(in.data, in.len);
	free(line);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

START_TEST(test_hostile_escapes)
{
	static const char *const seq[] = {
		"\x1b[1A", "\x1b[2K", "\x1b[999C", "\x1b[4096@", "\x1b[5P",
		"\x1b" "7", "\x1b[3;1H", "\x1b" "8", "\r", "\x1b[J", "\x1b[38;5;1m",
		"\x1b]8;;http://example/\x07", "\x1b[65535G", "\x1b[9999X",
		"\xc3\xa9", "\n", "\x1b[2J", "\x1b[s", "\x1b[u", "\x1b[;;;;;;;;;;;;;;;;;;;;;;;m",
		"\x1bP", "\x1b\\", "\x1b(B", "\x1b" "c", "\x1bM", "\x1b" "D",
	};
	struct aiterm_buf in = BUF_INIT;
	uint64_t state = 42;

	while (in.len < (1u << 20))
		buf_adds(&in, seq[rng_next(&state) % (sizeof seq / sizeof seq[0])]);
	check_hostile(in.data, in.len);
	buf_free(&in);
}
END_TEST

/* A megabyte of ill-formed UTF-8 of every kind, with some line breaks. */
START_TEST(test_hostile_invalid_utf8)
{
	static const char *const bad[] = {
		"\xff", "\xfe", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\x80", "\xbf",
		"\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc2\x9b", "\xc2\x9d",
		"\xef\xbf\xbd", "\r", "\n", "x",
	};
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	uint64_t state = 7;

	while (in.len < (1u << 20))
		buf_adds(&in, bad[rng_next(&state) % (sizeof bad / sizeof bad[0])]);
	check_hostile(in.data, in.len);
	/* One line of nothing but invalid bytes. */
	buf_reset(&in);
	while (in.len < (1u << 20))
		buf_adds(&in, "\xff\xc0\x80");
	red_strip(in.data, in.len, &out);
	ck_assert(clean_text(out.data, out.len));
	check_hostile(in.data, in.len);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

START_TEST(test_hostile_lone_esc)
{
	check_hostile("\x1b", 1);
	check_hostile("text\x1b", 5);
	check_hostile("", 0);
}
END_TEST

/* RED-FAITHFUL: what a line's shape is made of. */
static bool
same_shape(const char *a, const char *b)
{
	return red_shape_hash(a, strlen(a)) == red_shape_hash(b, strlen(b));
}

START_TEST(test_shape_template)
{
	struct aiterm_buf a = BUF_INIT, b = BUF_INIT;
	int i;

	/* Numbers, hex runs with a digit, blanks: masked. */
	ck_assert(same_shape("took 12 ms at 0x7ffd3a", "took 9981 ms at 0xdead01"));
	ck_assert(same_shape("  a   b\t c", "a b c"));
	ck_assert(same_shape("id 3f9a2c1 done", "id 77 done"));
	/* Hex runs without a digit are words. */
	ck_assert(!same_shape("cafe", "beef"));
	ck_assert(!same_shape("added face", "added fade"));
	/* A path's file name is masked, its folders are not. */
	ck_assert(same_shape("/usr/include/stdio.h", "/usr/include/zlib.h"));
	ck_assert(!same_shape("/usr/include/stdio.h", "/usr/lib/stdio.h"));
	ck_assert(same_shape("doc/a/", "doc/b/"));
	ck_assert(!same_shape("doc/a/", "src/a/"));
	ck_assert(!same_shape("a b", "ab"));
	ck_assert(!same_shape("", "x"));
	ck_assert_uint_ne(red_shape_hash("", 0), 0);
	/* Lines longer than one hashing block: every byte counts. */
	for (i = 0; i < 300; i++) {
		buf_addc(&a, (char)('g' + i % 19));
		buf_addc(&b, (char)('g' + i % 19));
	}
	ck_assert_uint_eq(red_shape_hash(a.data, a.len),
	    red_shape_hash(b.data, b.len));
	b.data[257] = 'z';
	ck_assert_uint_ne(red_shape_hash(a.data, a.len),
	    red_shape_hash(b.data, b.len));
	buf_free(&a);
	buf_free(&b);
}
END_TEST

/* The same hash whether the words are found by masks or byte by byte. */
static void
same_hash(const char *p, size_t len, const char *what)
{
	ck_assert_msg(red_shape_hash(p, len) == red_shape_hash_bytes(p, len),
	    "%s: [%.*s]", what, (int)len, p);
}

START_TEST(test_shape_hash_two_ways)
{
	/* Long words cross the 64-byte windows; blanks are rare in one. */
	static const char *const alphabet[] = {
		" \t/0123456789abcdefxyzXYZ.-_\v\r\f\n\x01\xc3\xa9",
		"/09afAFgz.:=-\xe2\x94\x80 ",
		"0123456789abcdef/",
	};
	struct aiterm_buf text = BUF_INIT;
	struct dirent **names;
	struct red_line l;
	uint64_t x = 0x2545f4914f6cdd1dULL;
	char *raw, *path, line[400];
	size_t len, pos, round, i, n, k;
	int cases, c;

	cases = scandir(FIXTURES_DIR, &names, NULL, alphasort);
	ck_assert_int_ge(cases, 0);
	for (c = 0; c < cases; c++) {
		path = xasprintf("%s/%s/out", FIXTURES_DIR, names[c]->d_name);
		if ((raw = read_file(path, &len)) != NULL) {
			buf_reset(&text);
			red_strip(raw, len, &text);
			for (pos = 0; red_line_next(text.data, text.len, &pos,
			    &l);)
				same_hash(l.p, l.len, names[c]->d_name);
			free(raw);
		}
		free(path);
		free(names[c]);
	}
	free(names);
	for (round = 0; round < 300000; round++) {
		k = round % 3;
		n = rng_next(&x) % sizeof line;
		for (i = 0; i < n; i++)
			line[i] = alphabet[k][rng_next(&x) %
			    strlen(alphabet[k])];
		same_hash(line, n, "random");
	}
	buf_free(&text);
}
END_TEST

Suite *
make_reduce_suite(void);

Suite *
make_reduce_suite(void)
{
	Suite *s = suite_create("reduce");
	TCase *tc;

	tc = tcase_create("Valid");
	tcase_add_test(tc, test_shape_template);
	tcase_add_test(tc, test_shape_hash_two_ways);
	tcase_add_test(tc, test_strip_plain);
	tcase_add_test(tc, test_strip_plain_shortcut);
	tcase_add_test(tc, test_strip_progress_cr);
	tcase_add_test(tc, test_strip_crlf);
	tcase_add_test(tc, test_strip_backspace);
	tcase_add_test(tc, test_strip_sgr);
	tcase_add_test(tc, test_strip_osc);
	tcase_add_test(tc, test_strip_spinner);
	tcase_add_test(tc, test_strip_cursor_up);
	tcase_add_test(tc, test_strip_columns);
	tcase_add_test(tc, test_strip_column_limit);
	tcase_add_test(tc, test_strip_scroll_region);
	tcase_add_test(tc, test_strip_clear);
	tcase_add_test(tc, test_strip_controls);
	tcase_add_test(tc, test_repeat_identical);
	tcase_add_test(tc, test_repeat_similar);
	tcase_add_test(tc, test_repeat_alarming);
	tcase_add_test(tc, test_repeat_alarm_words);
	tcase_add_test(tc, test_repeat_never_longer);
	tcase_add_test(tc, test_repeat_map);
	tcase_add_test(tc, test_repeat_ranges);
	tcase_add_test(tc, test_repeat_marker_longer);
	tcase_add_test(tc, test_headtail_marker);
	tcase_add_test(tc, test_headtail_short);
	tcase_add_test(tc, test_headtail_long_line);
	tcase_add_test(tc, test_headtail_flagged);
	tcase_add_test(tc, test_headtail_long_lines_by_bytes);
	tcase_add_test(tc, test_headtail_bounded_in_bytes);
	tcase_add_test(tc, test_headtail_mapped);
	tcase_add_test(tc, test_headtail_outlier_last);
	tcase_add_test(tc, test_headtail_line_of);
	tcase_add_test(tc, test_generic_small);
	tcase_add_test(tc, test_generic_log);
	tcase_add_test(tc, test_generic_line_of);
	tcase_add_test(tc, test_generic_seq);
	tcase_add_test(tc, test_keep_shorter);
	tcase_add_test(tc, test_corpus);
	suite_add_tcase(s, tc);

	tc = tcase_create("Invalid");
	tcase_add_test(tc, test_strip_split_escape);
	tcase_add_test(tc, test_strip_invalid_utf8);
	tcase_add_test(tc, test_strip_lone_esc);
	suite_add_tcase(s, tc);

	tc = tcase_create("Limits");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_strip_window);
	tcase_add_test(tc, test_hostile_random);
	tcase_add_test(tc, test_hostile_long_line);
	tcase_add_test(tc, test_hostile_escapes);
	tcase_add_test(tc, test_hostile_invalid_utf8);
	tcase_add_test(tc, test_hostile_lone_esc);
	suite_add_tcase(s, tc);

	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_reduce_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
