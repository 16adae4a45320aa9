/*
 * The generic pipeline (RED-STRIP, RED-REPEAT, RED-HEADTAIL) with the
 * default limits: clean text, never longer than the stripped text
 * (RED-FAITHFUL), and within the headtail budget of lines and bytes.
 */
#include "common.h"
#include "reduce/pipeline.h"

/* A marker or a "N: " prefix adds at most this much to a line. */
#define LINE_SLACK	512

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct red_headtail_opts opts = RED_HEADTAIL_DEFAULTS;
	struct aiterm_buf out = BUF_INIT;
	struct red_info info;
	size_t lines, budget;

	/* Half the inputs on a terminal of known width. */
	if (size > 0 && (data[0] & 1) != 0)
		opts.wrap_cols = 20 + data[0] % 180;
	red_generic((const char *)data, size, &opts, &out, &info);
	fuzz_require(fuzz_clean_text(out.data, out.len), "generic: clean text");
	fuzz_require(out.len == info.out_bytes, "generic: out_bytes");
	fuzz_require(info.out_bytes <= info.stripped_bytes,
	    "generic: never longer than the stripped text");
	fuzz_require(info.raw_bytes == size, "generic: raw_bytes");
	lines = red_line_count(out.data, out.len);
	fuzz_require(lines == info.lines_out || info.fell_back,
	    "generic: lines_out");
	if (!info.fell_back) {
		budget = opts.head_lines + opts.tail_lines + 1 +
		    opts.max_lines / 4;
		if (budget < info.stripped_lines)
			fuzz_require(lines <= budget ||
			    info.stripped_lines <= opts.max_lines,
			    "generic: line budget");
		fuzz_require(out.len <= lines * (opts.max_line_bytes +
		    LINE_SLACK), "generic: byte budget");
	}
	buf_free(&out);
	return 0;
}
