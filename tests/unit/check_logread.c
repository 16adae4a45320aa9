/*
 * Reading output logs: exact byte ranges, UTF-8 characters split by the
 * writer, head and tail truncation with the lines left out, line ranges,
 * tails, CRLF, empty, missing and growing logs, scans across chunks, and a
 * 3 GB sparse log read at its end with bounded memory.  Logs live below a
 * directory made by mkdtemp under $TMPDIR (or /tmp), removed afterwards.
 *
 * CHECK_LOGREAD_NO_BIG=1 skips the 3 GB log (for slow runs under valgrind).
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pty/logread.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/xmalloc.h"

static char *tmpdir;
static char *logpath;		/* <tmpdir>/session.log */
static char *missing;		/* <tmpdir>/missing.log, never created */

static void
setup(void)
{
	const char *base = getenv("TMPDIR");

	if (base == NULL || *base == '\0')
		base = "/tmp";
	tmpdir = xasprintf("%s/check_logread.XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	logpath = xasprintf("%s/session.log", tmpdir);
	missing = xasprintf("%s/missing.log", tmpdir);
}

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void
teardown(void)
{
	nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(missing);
	free(logpath);
	free(tmpdir);
	missing = logpath = tmpdir = NULL;
}

/* Append len bytes to the log, creating it; the writer's side. */
static void
append_log(const void *data, size_t len)
{
	int fd;

	fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	ck_assert_msg(fd != -1, "open %s: %s", logpath, strerror(errno));
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void
append_str(const char *s)
{
	append_log(s, strlen(s));
}

/*
 * A log of count lines numbered from 1: prefix, the number zero-padded to
 * width digits, eol.
 */
static void
write_lines(const char *prefix, int width, const char *eol, int count)
{
	struct aiterm_buf b = BUF_INIT;
	int i;

	for (i = 1; i <= count; i++)
		buf_printf(&b, "%s%0*d%s", prefix, width, i, eol);
	append_log(b.data, b.len);
	buf_free(&b);
}

static void
assert_buf(const struct aiterm_buf *b, const char *want)
{
	ck_assert_uint_eq(b->len, strlen(want));
	ck_assert_str_eq(buf_str(b), want);
}

/* An untruncated slice holding want, with its ends and lines. */
static void
assert_whole(const struct log_slice *s, const char *want, uint64_t from,
    uint64_t first_line, uint64_t to_line)
{
	assert_buf(&s->head, want);
	assert_buf(&s->tail, "");
	ck_assert(!s->truncated);
	ck_assert_uint_eq(s->from, from);
	ck_assert_uint_eq(s->to, from + strlen(want));
	ck_assert_uint_eq(s->first_line, first_line);
	ck_assert_uint_eq(s->to_line, to_line);
	ck_assert_uint_eq(s->omitted_first_line, 0);
	ck_assert_uint_eq(s->omitted_last_line, 0);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(test_range_exact)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;
	uint64_t size;

	append_str("one\ntwo\nthree\n");
	ck_assert_int_eq(log_size(logpath, &size, &err), 0);
	ck_assert_uint_eq(size, 14);

	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 4096, 0, &s,
	    &err), 0);
	assert_whole(&s, "one\ntwo\nthree\n", 0, 1, 4);
	ck_assert_uint_eq(s.size, 14);
	log_slice_free(&s);

	/* The line at from is counted, or taken from the hint. */
	ck_assert_int_eq(log_read_range(logpath, 4, 8, 4096, 0, &s, &err), 0);
	assert_whole(&s, "two\n", 4, 2, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_range(logpath, 4, 8, 4096, 70, &s, &err), 0);
	assert_whole(&s, "two\n", 4, 70, 71);
	log_slice_free(&s);

	/* Mid-line ranges, an empty one, and a to past the end. */
	ck_assert_int_eq(log_read_range(logpath, 5, 10, 4096, 0, &s, &err), 0);
	assert_whole(&s, "wo\nth", 5, 2, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_range(logpath, 6, 6, 4096, 0, &s, &err), 0);
	assert_whole(&s, "", 6, 2, 2);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_range(logpath, 8, 1000, 4096, 0, &s, &err),
	    0);
	assert_whole(&s, "three\n", 8, 3, 4);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_range_beyond_end)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	append_str("abc\n");

	/* At the end: nothing new. */
	ck_assert_int_eq(log_read_range(logpath, 4, UINT64_MAX, 4096, 2, &s,
	    &err), 0);
	assert_whole(&s, "", 4, 2, 2);
	log_slice_free(&s);

	/* Beyond it (the log was recreated): empty, and size says so. */
	ck_assert_int_eq(log_read_range(logpath, 100, UINT64_MAX, 4096, 9, &s,
	    &err), 0);
	assert_buf(&s.head, "");
	ck_assert_uint_eq(s.from, 100);
	ck_assert_uint_eq(s.to, 100);
	ck_assert_uint_eq(s.size, 4);
	ck_assert_uint_eq(s.first_line, 9);
	ck_assert_uint_eq(s.to_line, 9);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_range_utf8_split)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	/* The writer has put out two bytes of U+1F600 (F0 9F 98 80). */
	append_str("ab\xF0\x9F");
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 4096, 1, &s,
	    &err), 0);
	assert_whole(&s, "ab", 0, 1, 1);
	log_slice_free(&s);

	/* Three of four bytes: still held back. */
	append_str("\x98");
	ck_assert_int_eq(log_read_range(logpath, 2, UINT64_MAX, 4096, 1, &s,
	    &err), 0);
	assert_whole(&s, "", 2, 1, 1);
	log_slice_free(&s);

	/* The next read, from the cursor, returns the character whole. */
	append_str("\x80" "c\n");
	ck_assert_int_eq(log_read_range(logpath, 2, UINT64_MAX, 4096, 1, &s,
	    &err), 0);
	assert_whole(&s, "\xF0\x9F\x98\x80" "c\n", 2, 1, 2);
	log_slice_free(&s);

	/* An explicit to inside the character is moved back before it. */
	ck_assert_int_eq(log_read_range(logpath, 0, 5, 4096, 1, &s, &err), 0);
	assert_whole(&s, "ab", 0, 1, 1);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_range(logpath, 0, 6, 4096, 1, &s, &err), 0);
	assert_whole(&s, "ab\xF0\x9F\x98\x80", 0, 1, 1);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_range_invalid_utf8_not_held)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	/* A stray continuation byte or 0xFF never completes: return it. */
	append_str("ab\x80");
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 4096, 1, &s,
	    &err), 0);
	assert_whole(&s, "ab\x80", 0, 1, 1);
	log_slice_free(&s);
	append_str("\xFF");
	ck_assert_int_eq(log_read_range(logpath, 3, UINT64_MAX, 4096, 1, &s,
	    &err), 0);
	assert_whole(&s, "\xFF", 3, 1, 1);
	log_slice_free(&s);

	/* A lead byte followed by ASCII is not waited for either. */
	append_str("\xE2" "x");
	ck_assert_int_eq(log_read_range(logpath, 4, UINT64_MAX, 4096, 1, &s,
	    &err), 0);
	assert_whole(&s, "\xE2" "x", 4, 1, 1);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_growing)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;
	uint64_t cursor, line, lines;

	/* A reader follows a writer with its mark: (to, to_line). */
	append_str("$ make\ncc -c a.c");
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 4096, 1, &s,
	    &err), 0);
	assert_whole(&s, "$ make\ncc -c a.c", 0, 1, 2);
	cursor = s.to;
	line = s.to_line;
	log_slice_free(&s);

	append_str("\ncc -c b.c\n");
	ck_assert_int_eq(log_read_range(logpath, cursor, UINT64_MAX, 4096,
	    line, &s, &err), 0);
	assert_whole(&s, "\ncc -c b.c\n", 16, 2, 4);
	ck_assert_int_eq(log_count_lines(logpath, cursor, s.to, &lines, &err),
	    0);
	ck_assert_uint_eq(lines, 2);
	cursor = s.to;
	line = s.to_line;
	log_slice_free(&s);

	/* Nothing new. */
	ck_assert_int_eq(log_read_range(logpath, cursor, UINT64_MAX, 4096,
	    line, &s, &err), 0);
	assert_whole(&s, "", 27, 4, 4);
	log_slice_free(&s);

	append_str("done\n");
	ck_assert_int_eq(log_read_range(logpath, cursor, UINT64_MAX, 4096,
	    line, &s, &err), 0);
	assert_whole(&s, "done\n", 27, 4, 5);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 2, 4096, &s, &err), 0);
	assert_whole(&s, "cc -c b.c\ndone\n", 17, 3, 5);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_lines)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	write_lines("L", 0, "\n", 10);	/* L1..L9 take 3 bytes, L10 4 */

	/* Start, middle, end. */
	ck_assert_int_eq(log_read_lines(logpath, 1, 1, 4096, &s, &err), 0);
	assert_whole(&s, "L1\n", 0, 1, 2);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 4, 6, 4096, &s, &err), 0);
	assert_whole(&s, "L4\nL5\nL6\n", 9, 4, 7);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 9, 0, 4096, &s, &err), 0);
	assert_whole(&s, "L9\nL10\n", 24, 9, 11);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 10, 10, 4096, &s, &err), 0);
	assert_whole(&s, "L10\n", 27, 10, 11);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 1, 0, 4096, &s, &err), 0);
	ck_assert_uint_eq(s.head.len, 31);
	ck_assert_uint_eq(s.to_line, 11);
	log_slice_free(&s);

	/* Partly and wholly past the end. */
	ck_assert_int_eq(log_read_lines(logpath, 10, 20, 4096, &s, &err), 0);
	assert_whole(&s, "L10\n", 27, 10, 11);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 11, 12, 4096, &s, &err), 0);
	assert_whole(&s, "", 31, 11, 11);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 15, 0, 4096, &s, &err), 0);
	assert_whole(&s, "", 31, 11, 11);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_lines_no_trailing_lf)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	append_str("a\nb\nc");
	ck_assert_int_eq(log_read_lines(logpath, 3, 3, 4096, &s, &err), 0);
	assert_whole(&s, "c", 4, 3, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 2, 5, 4096, &s, &err), 0);
	assert_whole(&s, "b\nc", 2, 2, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 4, 4, 4096, &s, &err), 0);
	assert_whole(&s, "", 5, 3, 3);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_tail_lines)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	append_str("a\nb\nc\n");
	ck_assert_int_eq(log_read_tail_lines(logpath, 1, 4096, &s, &err), 0);
	assert_whole(&s, "c\n", 4, 3, 4);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 2, 4096, &s, &err), 0);
	assert_whole(&s, "b\nc\n", 2, 2, 4);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 3, 4096, &s, &err), 0);
	assert_whole(&s, "a\nb\nc\n", 0, 1, 4);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 50, 4096, &s, &err), 0);
	assert_whole(&s, "a\nb\nc\n", 0, 1, 4);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 0, 4096, &s, &err), 0);
	assert_whole(&s, "", 6, 4, 4);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_tail_lines_no_trailing_lf)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	append_str("a\nb\nc");
	ck_assert_int_eq(log_read_tail_lines(logpath, 1, 4096, &s, &err), 0);
	assert_whole(&s, "c", 4, 3, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 2, 4096, &s, &err), 0);
	assert_whole(&s, "b\nc", 2, 2, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 3, 4096, &s, &err), 0);
	assert_whole(&s, "a\nb\nc", 0, 1, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 4, 4096, &s, &err), 0);
	assert_whole(&s, "a\nb\nc", 0, 1, 3);
	log_slice_free(&s);

	/* An incomplete character at the end is not part of the last line. */
	append_str("\n\xE2\x82");
	ck_assert_int_eq(log_read_tail_lines(logpath, 1, 4096, &s, &err), 0);
	assert_whole(&s, "c\n", 4, 3, 4);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_tail_empty_lines)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	append_str("a\n\n\n");
	ck_assert_int_eq(log_read_tail_lines(logpath, 1, 4096, &s, &err), 0);
	assert_whole(&s, "\n", 3, 3, 4);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 2, 4096, &s, &err), 0);
	assert_whole(&s, "\n\n", 2, 2, 4);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_crlf)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;
	uint64_t lines;

	append_str("one\r\ntwo\r\nthree\r\n");
	ck_assert_int_eq(log_read_lines(logpath, 2, 2, 4096, &s, &err), 0);
	assert_whole(&s, "two\r\n", 5, 2, 3);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 1, 4096, &s, &err), 0);
	assert_whole(&s, "three\r\n", 10, 3, 4);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 2, 4096, &s, &err), 0);
	assert_whole(&s, "two\r\nthree\r\n", 5, 2, 4);
	log_slice_free(&s);
	ck_assert_int_eq(log_count_lines(logpath, 0, UINT64_MAX, &lines, &err),
	    0);
	ck_assert_uint_eq(lines, 3);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_crlf_truncated)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	/* 1000 lines of 11 bytes; 550 bytes are exactly 50 lines. */
	write_lines("line ", 4, "\r\n", 1000);
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 1100, 1, &s,
	    &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.head.len, 550);
	ck_assert_uint_eq(s.tail.len, 550);
	ck_assert_mem_eq(s.head.data + 539, "line 0050\r\n", 11);
	ck_assert_mem_eq(s.tail.data, "line 0951\r\n", 11);
	ck_assert_uint_eq(s.omitted_first_line, 51);
	ck_assert_uint_eq(s.omitted_last_line, 950);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_empty)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;
	uint64_t n;

	append_log("", 0);
	ck_assert_int_eq(log_size(logpath, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 4096, 0, &s,
	    &err), 0);
	assert_whole(&s, "", 0, 1, 1);
	ck_assert_ptr_null(s.head.data);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 1, 0, 4096, &s, &err), 0);
	assert_whole(&s, "", 0, 1, 1);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines(logpath, 3, 5, 4096, &s, &err), 0);
	assert_whole(&s, "", 0, 1, 1);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines(logpath, 5, 4096, &s, &err), 0);
	assert_whole(&s, "", 0, 1, 1);
	log_slice_free(&s);
	ck_assert_int_eq(log_count_lines(logpath, 0, UINT64_MAX, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_count_lines)
{
	struct aiterm_error err = ERROR_INIT;
	uint64_t n;

	append_str("a\nb\nc\nd");
	ck_assert_int_eq(log_count_lines(logpath, 0, UINT64_MAX, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(log_count_lines(logpath, 2, 4, &n, &err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(log_count_lines(logpath, 2, 3, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(log_count_lines(logpath, 5, 2, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(log_count_lines(logpath, 100, UINT64_MAX, &n, &err),
	    0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_truncate_lines)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	/* 1000 lines of 10 bytes: 500 bytes are exactly 50 lines. */
	write_lines("line ", 4, "\n", 1000);
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 1000, 0, &s,
	    &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.from, 0);
	ck_assert_uint_eq(s.to, 10000);
	ck_assert_uint_eq(s.head.len, 500);
	ck_assert_uint_eq(s.tail.len, 500);
	ck_assert_mem_eq(s.head.data, "line 0001\n", 10);
	ck_assert_mem_eq(s.head.data + 490, "line 0050\n", 10);
	ck_assert_mem_eq(s.tail.data, "line 0951\n", 10);
	ck_assert_str_eq(s.tail.data + 490, "line 1000\n");
	ck_assert_uint_eq(s.first_line, 1);
	ck_assert_uint_eq(s.omitted_first_line, 51);
	ck_assert_uint_eq(s.omitted_last_line, 950);
	ck_assert_uint_eq(s.to_line, 1001);
	log_slice_free(&s);

	/*
	 * 1005 bytes: each half is 502, cut back to the LF before (head) and
	 * forward to the LF after (tail), so the same lines.
	 */
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 1005, 0, &s,
	    &err), 0);
	ck_assert_uint_eq(s.head.len, 500);
	ck_assert_uint_eq(s.tail.len, 500);
	ck_assert_uint_eq(s.omitted_first_line, 51);
	ck_assert_uint_eq(s.omitted_last_line, 950);
	log_slice_free(&s);

	/* From the middle of a line, with a hint. */
	ck_assert_int_eq(log_read_range(logpath, 2005, 8000, 200, 201, &s,
	    &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.head.len, 95);	/* "0201\n" + 9 lines */
	ck_assert_mem_eq(s.head.data, "0201\nline 0202\n", 15);
	ck_assert_uint_eq(s.tail.len, 100);
	ck_assert_mem_eq(s.tail.data, "line 0791\n", 10);
	ck_assert_uint_eq(s.omitted_first_line, 211);
	ck_assert_uint_eq(s.omitted_last_line, 790);
	ck_assert_uint_eq(s.to_line, 801);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_truncate_long_lines)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	struct log_slice s;
	char line[6000];
	int i;

	/* Five lines of 6000 bytes: no LF near the cuts, made mid-line. */
	memset(line, 'x', sizeof line - 1);
	line[sizeof line - 1] = '\n';
	for (i = 0; i < 5; i++)
		buf_add(&b, line, sizeof line);
	append_log(b.data, b.len);
	buf_free(&b);

	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 4000, 0, &s,
	    &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.head.len, 2000);
	ck_assert_uint_eq(s.tail.len, 2000);
	/* Lines 1 and 5 are partly shown: 2 to 4 were left out whole. */
	ck_assert_uint_eq(s.omitted_first_line, 2);
	ck_assert_uint_eq(s.omitted_last_line, 4);
	ck_assert_uint_eq(s.to_line, 6);
	log_slice_free(&s);

	/*
	 * Up to 25500: the tail's cut (23500) moves to just after the LF of
	 * line 4, 500 bytes on, within half of the tail.
	 */
	ck_assert_int_eq(log_read_range(logpath, 0, 25500, 4000, 0, &s, &err),
	    0);
	ck_assert_uint_eq(s.head.len, 2000);
	ck_assert_uint_eq(s.tail.len, 1500);
	ck_assert_uint_eq(s.omitted_first_line, 2);
	ck_assert_uint_eq(s.omitted_last_line, 4);
	ck_assert_uint_eq(s.to_line, 5);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_truncate_one_line)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;
	char text[10000];

	memset(text, 'y', sizeof text);
	append_log(text, sizeof text);
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 1000, 0, &s,
	    &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.head.len, 500);
	ck_assert_uint_eq(s.tail.len, 500);
	/* The middle of one line: no whole line was left out. */
	ck_assert_uint_eq(s.omitted_first_line, 0);
	ck_assert_uint_eq(s.omitted_last_line, 0);
	ck_assert_uint_eq(s.first_line, 1);
	ck_assert_uint_eq(s.to_line, 1);
	log_slice_free(&s);

	/* A tiny max_bytes is taken as LOG_MIN_BYTES. */
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 0, 0, &s,
	    &err), 0);
	ck_assert_uint_eq(s.head.len + s.tail.len, LOG_MIN_BYTES);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_truncate_utf8)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	struct log_slice s;
	int i;

	/*
	 * "a", 5000 U+00E9 (C3 A9), "z": characters start at odd offsets, and
	 * both cuts (at 500 and 10002 - 500) fall inside one.  The head ends
	 * before it, the tail starts after it.
	 */
	buf_addc(&b, 'a');
	for (i = 0; i < 5000; i++)
		buf_adds(&b, "\xC3\xA9");
	buf_addc(&b, 'z');
	append_log(b.data, b.len);
	buf_free(&b);

	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 1000, 0, &s,
	    &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.head.len, 499);
	ck_assert_uint_eq((unsigned char)s.head.data[498], 0xA9);
	ck_assert_uint_eq(s.tail.len, 499);
	ck_assert_uint_eq((unsigned char)s.tail.data[0], 0xC3);
	ck_assert_int_eq(s.tail.data[498], 'z');
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_truncate_line_range)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;

	write_lines("line ", 4, "\n", 1000);
	ck_assert_int_eq(log_read_lines(logpath, 100, 900, 1000, &s, &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.from, 990);
	ck_assert_uint_eq(s.to, 9000);
	ck_assert_mem_eq(s.head.data, "line 0100\n", 10);
	ck_assert_uint_eq(s.head.len, 500);
	ck_assert_mem_eq(s.tail.data, "line 0851\n", 10);
	ck_assert_str_eq(s.tail.data + 490, "line 0900\n");
	ck_assert_uint_eq(s.first_line, 100);
	ck_assert_uint_eq(s.omitted_first_line, 150);
	ck_assert_uint_eq(s.omitted_last_line, 850);
	ck_assert_uint_eq(s.to_line, 901);
	log_slice_free(&s);

	ck_assert_int_eq(log_read_tail_lines(logpath, 300, 1000, &s, &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.from, 7000);
	ck_assert_mem_eq(s.head.data, "line 0701\n", 10);
	ck_assert_uint_eq(s.first_line, 701);
	ck_assert_uint_eq(s.omitted_first_line, 751);
	ck_assert_uint_eq(s.omitted_last_line, 950);
	ck_assert_uint_eq(s.to_line, 1001);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_chunks)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_mark mark;
	struct log_slice s;
	uint64_t n;

	/* 500,000 lines of 8 bytes: 4 MB, four chunks. */
	write_lines("", 7, "\n", 500000);
	ck_assert_int_eq(log_count_lines(logpath, 0, UINT64_MAX, &n, &err), 0);
	ck_assert_uint_eq(n, 500000);
	ck_assert_int_eq(log_count_lines(logpath, 8 * 131070, 8 * 131080, &n,
	    &err), 0);
	ck_assert_uint_eq(n, 10);

	/* Line 131073 starts 8 bytes past the first chunk. */
	ck_assert_int_eq(log_read_lines(logpath, 131071, 131073, 4096, &s,
	    &err), 0);
	assert_whole(&s, "0131071\n0131072\n0131073\n", 8 * 131070, 131071,
	    131074);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_range(logpath, 8 * 131071, 8 * 131072, 4096,
	    0, &s, &err), 0);
	assert_whole(&s, "0131072\n", 8 * 131071, 131072, 131073);
	log_slice_free(&s);

	/* A tail that spans two chunks, scanned backwards. */
	ck_assert_int_eq(log_read_tail_lines(logpath, 200000, 64, &s, &err), 0);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.from, 8 * 300000);
	ck_assert_uint_eq(s.first_line, 300001);
	assert_buf(&s.head, "0300001\n0300002\n0300003\n0300004\n");
	assert_buf(&s.tail, "0499997\n0499998\n0499999\n0500000\n");
	ck_assert_uint_eq(s.omitted_first_line, 300005);
	ck_assert_uint_eq(s.omitted_last_line, 499996);
	ck_assert_uint_eq(s.to_line, 500001);
	log_slice_free(&s);

	/* From a mark at the end, backwards. */
	mark.offset = 8 * 500000;
	mark.line = 500001;
	ck_assert_int_eq(log_read_lines_mark(logpath, 499990, 499991, 4096,
	    &mark, &s, &err), 0);
	assert_whole(&s, "0499990\n0499991\n", 8 * 499989, 499990, 499992);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_tail_lines_mark(logpath, 1, 4096, &mark, &s,
	    &err), 0);
	assert_whole(&s, "0500000\n", 8 * 499999, 500000, 500001);
	log_slice_free(&s);

	/* From a mark in the middle of a line, either way. */
	mark.offset = 8 * 100000 + 3;
	mark.line = 100001;
	ck_assert_int_eq(log_read_lines_mark(logpath, 100001, 100001, 4096,
	    &mark, &s, &err), 0);
	assert_whole(&s, "0100001\n", 8 * 100000, 100001, 100002);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines_mark(logpath, 100002, 100002, 4096,
	    &mark, &s, &err), 0);
	assert_whole(&s, "0100002\n", 8 * 100001, 100002, 100003);
	log_slice_free(&s);
	ck_assert_int_eq(log_read_lines_mark(logpath, 1, 1, 4096, &mark, &s,
	    &err), 0);
	assert_whole(&s, "0000001\n", 0, 1, 2);
	log_slice_free(&s);

	/*
	 * Marks that cannot be of this log are not trusted: line 1 at the
	 * end (a scan back passes an LF), line 300000 at offset 8 (a scan
	 * back finds fewer LFs than that), one beyond the end.
	 */
	mark.offset = 8 * 500000;
	mark.line = 1;
	ck_assert_int_eq(log_read_tail_lines_mark(logpath, 1, 4096, &mark, &s,
	    &err), 0);
	assert_whole(&s, "0500000\n", 8 * 499999, 500000, 500001);
	log_slice_free(&s);
	mark.offset = 8;
	mark.line = 300000;
	ck_assert_int_eq(log_read_lines_mark(logpath, 7, 7, 4096, &mark, &s,
	    &err), 0);
	assert_whole(&s, "0000007\n", 48, 7, 8);
	log_slice_free(&s);
	mark.offset = 1ULL << 40;
	mark.line = 5;
	ck_assert_int_eq(log_read_lines_mark(logpath, 7, 7, 4096, &mark, &s,
	    &err), 0);
	assert_whole(&s, "0000007\n", 48, 7, 8);
	log_slice_free(&s);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_missing)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;
	uint64_t n;
	char *want;

	want = xasprintf("cannot open log '%s': No such file or directory",
	    missing);
	ck_assert_int_eq(log_read_range(missing, 0, UINT64_MAX, 4096, 0, &s,
	    &err), -1);
	ck_assert_str_eq(err.msg, want);
	ck_assert_uint_eq(s.head.len, 0);
	log_slice_free(&s);
	error_clear(&err);
	ck_assert_int_eq(log_read_lines(missing, 1, 0, 4096, &s, &err), -1);
	ck_assert_str_eq(err.msg, want);
	error_clear(&err);
	ck_assert_int_eq(log_read_tail_lines(missing, 5, 4096, &s, &err), -1);
	ck_assert_str_eq(err.msg, want);
	error_clear(&err);
	ck_assert_int_eq(log_count_lines(missing, 0, UINT64_MAX, &n, &err), -1);
	ck_assert_str_eq(err.msg, want);
	error_clear(&err);
	ck_assert_int_eq(log_size(missing, &n, &err), -1);
	ck_assert_str_eq(err.msg, want);
	error_clear(&err);
	free(want);

	/* A directory is not a log. */
	ck_assert_int_eq(log_size(tmpdir, &n, &err), -1);
	want = xasprintf("log '%s' is not a regular file", tmpdir);
	ck_assert_str_eq(err.msg, want);
	error_clear(&err);
	free(want);
}
END_TEST

START_TEST(test_bad_ranges)
{
	struct aiterm_error err = ERROR_INIT;
	struct log_slice s;
	char *want;

	append_str("a\nb\n");
	ck_assert_int_eq(log_read_range(logpath, 3, 2, 4096, 0, &s, &err), -1);
	want = xasprintf("invalid byte range 3-2 of log '%s': the end is "
	    "before the start", logpath);
	ck_assert_str_eq(err.msg, want);
	free(want);
	error_clear(&err);

	ck_assert_int_eq(log_read_lines(logpath, 0, 3, 4096, &s, &err), -1);
	want = xasprintf("invalid line range of log '%s': lines are numbered "
	    "from 1", logpath);
	ck_assert_str_eq(err.msg, want);
	free(want);
	error_clear(&err);

	ck_assert_int_eq(log_read_lines(logpath, 5, 4, 4096, &s, &err), -1);
	want = xasprintf("invalid line range 5-4 of log '%s': the last line is "
	    "before the first", logpath);
	ck_assert_str_eq(err.msg, want);
	free(want);
	error_clear(&err);
	log_slice_free(&s);
}
END_TEST

/*
 * The 3 GB log: "start\n" at 0, "middle\n" at 1.5 GiB, and from 3 GiB an
 * LF then BIG_LINES lines "tail %08d\n"; the rest are holes (NUL bytes).
 * Line 1 is "start", 2 ends with "middle", 3 ends at 3 GiB, and line
 * 4 + i is "tail i".
 */
#define BIG_HOLE	(3ULL << 30)
#define BIG_LINES	100000
#define BIG_LEN		14	/* strlen("tail 00000000\n") */
#define BIG_LAST	(3 + BIG_LINES)	/* the number of the last line */

static void
write_big(uint64_t *size)
{
	struct aiterm_buf b = BUF_INIT;
	int fd, i;

	fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ne(fd, -1);
	ck_assert_int_eq(ftruncate(fd, (off_t)BIG_HOLE), 0);
	ck_assert_int_eq(pwrite(fd, "start\n", 6, 0), 6);
	ck_assert_int_eq(pwrite(fd, "middle\n", 7, (off_t)(BIG_HOLE / 2)), 7);
	buf_addc(&b, '\n');
	for (i = 0; i < BIG_LINES; i++)
		buf_printf(&b, "tail %08d\n", i);
	ck_assert_int_eq(pwrite(fd, b.data, b.len, (off_t)BIG_HOLE),
	    (ssize_t)b.len);
	*size = BIG_HOLE + b.len;
	buf_free(&b);
	close(fd);
}

static long
maxrss_kb(void)
{
	struct rusage ru;

	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

/* The call took under limit seconds; say how long. */
static void
timed(const char *what, double start, double limit)
{
	double took = now() - start;

	fprintf(stderr, "check_logread: 3 GB log: %s took %.3f s\n", what,
	    took);
	ck_assert_msg(took < limit, "%s took %.1f s", what, took);
}

START_TEST(test_big)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf want = BUF_INIT;
	struct log_mark mark;
	struct log_slice s;
	uint64_t size, n, b0, r, i0;
	long rss;
	double t;
	int i;

	if (getenv("CHECK_LOGREAD_NO_BIG") != NULL) {
		fprintf(stderr, "check_logread: 3 GB log skipped\n");
		return;
	}
	write_big(&size);
	rss = maxrss_kb();
	ck_assert_int_eq(log_size(logpath, &n, &err), 0);
	ck_assert_uint_eq(n, size);

	/* The last five lines as a byte range, line counted from 0. */
	for (i = BIG_LINES - 5; i < BIG_LINES; i++)
		buf_printf(&want, "tail %08d\n", i);
	t = now();
	ck_assert_int_eq(log_read_range(logpath, size - 5 * BIG_LEN, UINT64_MAX,
	    65536, 0, &s, &err), 0);
	timed("range at the end, no hint", t, 20);
	assert_whole(&s, buf_str(&want), size - 5 * BIG_LEN, BIG_LAST - 4,
	    BIG_LAST + 1);
	log_slice_free(&s);

	/* The same with a hint: no count at all. */
	t = now();
	ck_assert_int_eq(log_read_range(logpath, size - 5 * BIG_LEN, UINT64_MAX,
	    65536, BIG_LAST - 4, &s, &err), 0);
	timed("range at the end, hinted", t, 5);
	assert_whole(&s, buf_str(&want), size - 5 * BIG_LEN, BIG_LAST - 4,
	    BIG_LAST + 1);
	log_slice_free(&s);

	/* As lines, from the start and from a mark at the end. */
	t = now();
	ck_assert_int_eq(log_read_lines(logpath, BIG_LAST - 4, 0, 65536, &s,
	    &err), 0);
	timed("lines near the end", t, 20);
	assert_whole(&s, buf_str(&want), size - 5 * BIG_LEN, BIG_LAST - 4,
	    BIG_LAST + 1);
	log_slice_free(&s);
	mark.offset = size;
	mark.line = BIG_LAST + 1;
	t = now();
	ck_assert_int_eq(log_read_lines_mark(logpath, BIG_LAST - 4, BIG_LAST,
	    65536, &mark, &s, &err), 0);
	timed("lines near the end from a mark", t, 5);
	assert_whole(&s, buf_str(&want), size - 5 * BIG_LEN, BIG_LAST - 4,
	    BIG_LAST + 1);
	log_slice_free(&s);

	/* As a tail. */
	t = now();
	ck_assert_int_eq(log_read_tail_lines(logpath, 5, 65536, &s, &err), 0);
	timed("tail lines", t, 20);
	assert_whole(&s, buf_str(&want), size - 5 * BIG_LEN, BIG_LAST - 4,
	    BIG_LAST + 1);
	log_slice_free(&s);
	t = now();
	ck_assert_int_eq(log_read_tail_lines_mark(logpath, 5, 65536, &mark, &s,
	    &err), 0);
	timed("tail lines from a mark", t, 5);
	assert_whole(&s, buf_str(&want), size - 5 * BIG_LEN, BIG_LAST - 4,
	    BIG_LAST + 1);
	log_slice_free(&s);
	buf_free(&want);

	t = now();
	ck_assert_int_eq(log_count_lines(logpath, 0, UINT64_MAX, &n, &err), 0);
	timed("count", t, 20);
	ck_assert_uint_eq(n, BIG_LAST);

	/*
	 * The whole log in 1 MiB: the head is "start\n" and NULs, cut inside
	 * line 2; the tail starts at the first line start after its cut.
	 */
	t = now();
	ck_assert_int_eq(log_read_range(logpath, 0, UINT64_MAX, 1 << 20, 0, &s,
	    &err), 0);
	timed("the whole log", t, 20);
	ck_assert(s.truncated);
	ck_assert_uint_eq(s.head.len, 1 << 19);
	ck_assert_uint_le(s.head.cap, (1 << 19) + 1);
	ck_assert_uint_le(s.tail.cap, (1 << 19) + 2);
	ck_assert_mem_eq(s.head.data, "start\n\0\0", 8);
	b0 = size - (1 << 19);
	r = b0 - (BIG_HOLE + 1);
	i0 = (r + BIG_LEN - 1) / BIG_LEN;
	ck_assert_uint_eq(s.tail.len, size - (BIG_HOLE + 1 + i0 * BIG_LEN));
	buf_printf(&want, "tail %08" PRIu64 "\n", i0);
	ck_assert_mem_eq(s.tail.data, want.data, want.len);
	buf_free(&want);
	ck_assert_uint_eq(s.omitted_first_line, 3);
	ck_assert_uint_eq(s.omitted_last_line, 3 + i0);
	ck_assert_uint_eq(s.to_line, BIG_LAST + 1);
	log_slice_free(&s);

	/* Everything above fit in a few chunks. */
	fprintf(stderr, "check_logread: 3 GB log: maxrss grew by %ld KiB\n",
	    maxrss_kb() - rss);
	ck_assert_int_lt(maxrss_kb() - rss, 64 * 1024);
	ck_assert_ptr_null(err.msg);
}
END_TEST

static Suite *
make_logread_suite(void)
{
	Suite *s = suite_create("logread");
	TCase *tc;

	tc = tcase_create("Valid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_range_exact);
	tcase_add_test(tc, test_range_beyond_end);
	tcase_add_test(tc, test_range_utf8_split);
	tcase_add_test(tc, test_range_invalid_utf8_not_held);
	tcase_add_test(tc, test_growing);
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_lines_no_trailing_lf);
	tcase_add_test(tc, test_tail_lines);
	tcase_add_test(tc, test_tail_lines_no_trailing_lf);
	tcase_add_test(tc, test_tail_empty_lines);
	tcase_add_test(tc, test_crlf);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_count_lines);
	suite_add_tcase(s, tc);

	tc = tcase_create("Invalid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_bad_ranges);
	suite_add_tcase(s, tc);

	tc = tcase_create("Limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_truncate_lines);
	tcase_add_test(tc, test_truncate_long_lines);
	tcase_add_test(tc, test_truncate_one_line);
	tcase_add_test(tc, test_truncate_utf8);
	tcase_add_test(tc, test_truncate_line_range);
	tcase_add_test(tc, test_crlf_truncated);
	tcase_add_test(tc, test_chunks);
	tcase_add_test(tc, test_big);
	suite_add_tcase(s, tc);

	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_logread_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
