/*
 * RED-STRIP, the escape-sequence parser and line screen: any bytes give
 * clean UTF-8 text (no controls but LF and TAB), in bounded size, with
 * no rows made out of plain text, at any terminal width; played by two
 * threads (ADR 0047), the same text as by one.
 */
#include <stdlib.h>

#include "common.h"
#include "reduce/strip.h"

/*
 * Each input byte adds at most one character (3 bytes for the U+FFFD of
 * an invalid byte), and the blanks that cursor motions pad rows with are
 * budgeted to the input's size plus 64 KiB (BLANK_SPARE in strip.c).
 */
#define STRIP_BOUND(len)	(4 * (len) + 65536)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct aiterm_buf out = BUF_INIT, wrap = BUF_INIT, two = BUF_INIT;
	size_t cols = size == 0 ? 0 : 1 + data[0] % 160, breaks = 0, i;

	for (i = 0; i < size; i++)
		breaks += data[i] == '\n' || data[i] == '\v' ||
		    data[i] == '\f' || data[i] == 0x1b || data[i] == 0xc2;

	red_strip(in, size, &out);
	fuzz_require(fuzz_clean_text(out.data, out.len), "strip: clean text");
	fuzz_require(out.len <= STRIP_BOUND(size), "strip: bounded output");
	red_strip_wrap(in, size, cols, &wrap);
	fuzz_require(fuzz_clean_text(wrap.data, wrap.len),
	    "strip_wrap: clean text");
	fuzz_require(wrap.len <= STRIP_BOUND(size),
	    "strip_wrap: bounded output");
	red_strip_split(in, size, cols, 1, &two);
	fuzz_require(fuzz_equal(two.data, two.len, wrap.data, wrap.len),
	    "strip_split: two threads give what one gives");
	/*
	 * Not "the same line count as red_strip": a row that wrapped keeps
	 * its first part when an erase takes the rest, as a terminal does.
	 * Rows start at LF, VT, FF, and at a sequence (ESC or a C1 control,
	 * lead byte 0xc2) such as a screen clear, never in plain text.
	 */
	fuzz_require(fuzz_count_lines(out.data, out.len) <= breaks &&
	    fuzz_count_lines(wrap.data, wrap.len) <= breaks,
	    "strip: no more lines than line starts and sequences");
	buf_free(&out);
	buf_free(&wrap);
	buf_free(&two);
	return 0;
}
