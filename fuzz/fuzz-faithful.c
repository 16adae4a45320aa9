/*
 * RED-FAITHFUL's structural check (reduce/shape.h): a text always holds
 * itself, with or without the listing rule; an empty reduction is
 * faithful exactly when nothing had to be held, and the explanation
 * names a line exactly when the check fails; a line's shape does not
 * change with the width of its blanks or the value of its numbers, and
 * is the same hash whether its words are found by masks or byte by byte.
 */
#include <string.h>

#include "common.h"
#include "reduce/shape.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct aiterm_buf why = BUF_INIT, wide = BUF_INIT;
	struct red_faithful f;
	const char *nl;
	size_t missing, i, len;
	bool ok;

	fuzz_require(red_faithful(in, size, in, size, 0, NULL),
	    "faithful: a text holds itself");
	fuzz_require(red_faithful(in, size, in, size, RED_FAITHFUL_LISTING,
	    NULL), "faithful: a listing holds itself");
	ok = red_faithful(in, size, "", 0, 0, &f);
	missing = red_faithful_explain(in, size, "", 0, 0, 3, &why);
	fuzz_require(ok == (missing == 0), "faithful: explain agrees");
	fuzz_require(ok || f.missing == 1, "faithful: the first missing line");

	/* The first line, its blanks doubled and its digits changed. */
	nl = memchr(in, '\n', size);
	len = nl != NULL ? (size_t)(nl - in) : size;
	for (i = 0; i < len; i++) {
		if (in[i] == ' ')
			buf_addc(&wide, ' ');
		buf_addc(&wide, in[i] >= '0' && in[i] <= '8' ?
		    (char)(in[i] + 1) : in[i]);
	}
	fuzz_require(red_shape_hash(in, len) ==
	    red_shape_hash(wide.data != NULL ? wide.data : "", wide.len),
	    "shape: blanks and digits do not change it");
	fuzz_require(red_shape_hash(in, size) == red_shape_hash_bytes(in, size),
	    "shape: the same hash both ways");
	buf_free(&why);
	buf_free(&wide);
	return 0;
}
