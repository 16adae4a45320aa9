/*
 * Sanitising text typed into a PTY, and the UTF-8 helpers beside it.
 * Valid UTF-8 comes out without controls (but TAB, LF, CR), C1 controls,
 * DEL or escape sequences, no longer than it went in, and sanitising
 * again changes nothing; invalid UTF-8 is refused at the offset of its
 * first bad byte.  The shell's UTF-8 checker agrees with the reducers',
 * and chunks for the multiplexer never split a character.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reduce/u8.h"
#include "shell/sanitize.h"
#include "shell/utf8.h"

/* A chunk size from the input, small enough to split often. */
#define CHUNK_MAX	64

static bool
sanitised(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end;
	size_t n, bad;

	if (len == 0)
		return true;
	for (end = p + len; p < end; p += n) {
		n = red_u8_check(p, end, &bad);
		if (n == 0)
			return false;
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
			return false;
		if (*p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0))
			return false;
	}
	return true;
}

static void
check_chunks(const char *s, size_t len, size_t max, bool valid)
{
	size_t *lens = NULL, n, i, off = 0;

	n = utf8_chunks(s, len, max, &lens);
	fuzz_require((n == 0) == (len == 0), "chunks: none only for nothing");
	for (i = 0; i < n; i++) {
		fuzz_require(lens[i] > 0 && lens[i] <= (max < 4 ? 4 : max),
		    "chunks: within max");
		off += lens[i];
		if (valid && off < len)
			fuzz_require(!red_u8_is_cont((unsigned char)s[off]),
			    "chunks: never split a character");
	}
	fuzz_require(off == len, "chunks: cover the text");
	free(lens);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct aiterm_buf out = BUF_INIT, again = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct shell_removed removed;
	size_t bad = size, i;
	bool valid = utf8_valid(text, size, &bad);
	char want[80];

	fuzz_require(valid == fuzz_valid_utf8(text, size),
	    "utf8: the shell's and the reducers' checkers agree");
	for (i = 0; i < size && i < 8; i++)
		fuzz_require(utf8_seq_len(data + i, size - i) <= 4,
		    "utf8: sequence length");
	check_chunks(text, size, size > 0 ? data[0] % CHUNK_MAX : 0, valid);

	if (shell_sanitize(text, size, &out, &removed, &err) == -1) {
		fuzz_require(!valid, "sanitize: refused only invalid UTF-8");
		snprintf(want, sizeof want,
		    "invalid UTF-8 at byte offset %zu (0x%02x)", bad,
		    (unsigned char)text[bad]);
		fuzz_require(strcmp(err.msg, want) == 0,
		    "sanitize: the offset of the first bad byte");
		fuzz_require(out.len == 0, "sanitize: nothing appended");
		goto out;
	}
	fuzz_require(valid, "sanitize: accepted only valid UTF-8");
	fuzz_require(out.len <= size, "sanitize: never longer");
	fuzz_require(out.len + removed.bytes == size,
	    "sanitize: what it removed is counted");
	fuzz_require((removed.bytes == 0) == (removed.count[SANITIZE_CONTROL] +
	    removed.count[SANITIZE_C1] + removed.count[SANITIZE_ESCAPE] ==
	    0) && (removed.bytes == 0) ==
	    (removed.first[0] == '\0'), "sanitize: removed, by kind");
	fuzz_require(sanitised(out.data, out.len),
	    "sanitize: no control, C1, DEL or escape left");
	fuzz_require(shell_sanitize(out.data, out.len, &again, NULL, &err) == 0 &&
	    fuzz_equal(again.data, again.len, out.data, out.len),
	    "sanitize: idempotent");
out:
	error_clear(&err);
	buf_free(&out);
	buf_free(&again);
	return 0;
}
