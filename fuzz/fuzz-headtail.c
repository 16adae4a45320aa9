/*
 * RED-HEADTAIL: the limits come from the first four bytes, the text is
 * the rest.  The line count in info is the line count of the output, a
 * cut output stays within its budget of lines, and the marker's range is
 * a range of the input's line numbers.
 */
#include <stdlib.h>

#include "common.h"
#include "reduce/headtail.h"
#include "util/xmalloc.h"

#define HEADER	4

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct red_headtail_opts opts = RED_HEADTAIL_DEFAULTS;
	struct red_headtail_info info;
	struct aiterm_buf out = BUF_INIT;
	unsigned long long *line_of = NULL;
	const char *in;
	size_t len, n, i;

	if (size < HEADER)
		return 0;
	opts.max_lines = data[0] % 64;
	opts.head_lines = data[1] % 16;
	opts.tail_lines = (data[1] >> 4) % 16;
	opts.max_line_bytes = (size_t)(data[2] & 0x7f) * 4;
	opts.base_line = data[3] & 0x0f;
	in = (const char *)data + HEADER;
	len = size - HEADER;
	n = red_line_count(in, len);
	if ((data[3] & 0x10) != 0 && n > 0) {
		/* Lines the caller dropped: every other log line. */
		line_of = xcalloc(n, sizeof *line_of);
		for (i = 0; i < n; i++)
			line_of[i] = opts.base_line + 2 * i + 1;
		opts.line_of = line_of;
		opts.nline_of = n;
	}
	red_headtail(in, len, &opts, &out, &info);
	fuzz_require(info.lines_in == n, "headtail: lines_in");
	fuzz_require(info.lines_out == red_line_count(out.data, out.len),
	    "headtail: lines_out is the output's line count");
	if (info.lines_omitted > 0) {
		fuzz_require(info.lines_out <= opts.head_lines +
		    opts.tail_lines + 1 + opts.max_lines / 4,
		    "headtail: within the line budget");
		fuzz_require(info.omitted_first >= opts.base_line + 1 &&
		    info.omitted_first <= info.omitted_last,
		    "headtail: omitted range");
		fuzz_require(info.omitted_last <= (line_of != NULL ?
		    line_of[n - 1] : opts.base_line + n),
		    "headtail: omitted range within the text");
	} else if (info.lines_cut == 0)
		fuzz_require(out.len == len, "headtail: nothing cut, same text");
	fuzz_require(info.cut == (info.lines_omitted > 0 || info.lines_cut > 0),
	    "headtail: cut flag");
	free(line_of);
	buf_free(&out);
	return 0;
}
