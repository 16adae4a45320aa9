/*
 * RED-REPEAT: the output is never longer than the input, keeps whether it
 * ends with a LF, and the in-place form, its lines folded by two threads
 * wherever a cut is found (ADR 0047), writes what the copying one does
 * with the same line map of one entry per output line.
 */
#include <string.h>

#include "common.h"
#include "reduce/repeat.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct aiterm_buf out = BUF_INIT, text = BUF_INIT;
	struct red_linemap map = RED_LINEMAP_INIT, map2 = RED_LINEMAP_INIT;
	struct red_lineno ln;
	size_t nlines = red_line_count(in, size), i;

	red_repeat(in, size, &out);
	fuzz_require(out.len <= size, "repeat: never longer");
	if (size > 0)
		fuzz_require((out.len > 0 && out.data[out.len - 1] == '\n') ==
		    (in[size - 1] == '\n'), "repeat: final LF kept");
	buf_reset(&out);
	red_lineno_init(&ln, size, NULL, 0, nlines);
	red_repeat_map(in, size, &ln, &out, &map);
	fuzz_require(out.len <= size, "repeat_map: never longer");
	fuzz_require(map.n == red_line_count(out.data, out.len),
	    "repeat_map: one map entry per output line");
	fuzz_require(map.total == nlines, "repeat_map: total source lines");
	for (i = 0; i + 1 < map.n; i++)
		fuzz_require(map.start[i] < map.start[i + 1],
		    "repeat_map: starts increase");
	buf_add(&text, in, size);
	red_repeat_inplace(&text, &ln, &map2, 1);
	fuzz_require(fuzz_equal(text.data, text.len, out.data, out.len),
	    "repeat_inplace: same text as repeat_map");
	fuzz_require(map2.n == map.n && map2.total == map.total &&
	    (map.n == 0 || memcmp(map2.start, map.start, map.n *
	    sizeof *map.start) == 0), "repeat_inplace: same map");
	red_linemap_free(&map);
	red_linemap_free(&map2);
	buf_free(&out);
	buf_free(&text);
	return 0;
}
