/* The generic reducer pipeline and the RED-FAITHFUL length guard. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "reduce/headtail.h"
#include "reduce/lines.h"
#include "reduce/pipeline.h"
#include "reduce/repeat.h"
#include "reduce/strip.h"
#include "util/buf.h"
#include "util/xmalloc.h"

bool
red_keep_shorter(struct aiterm_buf *out, size_t mark, const char *text,
    size_t len)
{
	bool replace = out->len - mark >= len;

	if (replace) {
		out->len = mark;
		buf_add(out, text, len);
	}
	return replace;
}

/*
 * RED-REPEAT works in place on the stripped text, so that a large log
 * needs one buffer, not two.  Should the result not be shorter, the
 * stripped text is the answer: still in that buffer when RED-REPEAT
 * changed nothing, else stripped again (that only happens when the
 * headtail limits are off or wide).  The stripped lines are counted only
 * to check line_of against them; RED-HEADTAIL checks it again against the
 * map's source lines, the same count.
 */
void
red_generic(const char *in, size_t len, const struct red_headtail_opts *opts,
    struct aiterm_buf *out, struct red_info *info)
{
	struct aiterm_buf text = BUF_INIT;
	struct red_linemap map = RED_LINEMAP_INIT;
	struct red_headtail_info ht;
	struct red_lineno ln;
	struct red_info scratch;
	size_t mark = out->len, stripped;

	if (info == NULL)
		info = &scratch;
	memset(info, 0, sizeof *info);
	/*
	 * RED-STRIP takes bytes away more often than it adds any (U+FFFD
	 * for a stray byte): the stripped text rarely outgrows len.
	 */
	buf_init_large(&text, len);
	red_strip_split(in, len, opts->wrap_cols, opts->split, &text);
	stripped = text.len;
	red_lineno_init(&ln, opts->base_line, opts->line_of, opts->nline_of,
	    opts->line_of != NULL ? red_line_count(text.data, text.len) : 0);
	red_repeat_inplace(&text, &ln, &map, opts->split);
	red_headtail_own(text.data, text.len, opts, &map, out, &ht);
	info->raw_bytes = len;
	info->stripped_bytes = stripped;
	info->stripped_lines = map.total;
	info->fell_back = out->len - mark >= stripped;
	if (info->fell_back) {
		out->len = mark;
		if (text.len == stripped)
			buf_add(out, text.data, text.len);
		else
			red_strip_split(in, len, opts->wrap_cols, opts->split,
			    out);
		info->lines_out = map.total;
	} else {
		info->lines_out = ht.lines_out;
		info->lines_omitted = ht.lines_omitted;
		info->omitted_first = ht.omitted_first;
		info->omitted_last = ht.omitted_last;
		info->lines_flagged = ht.lines_flagged;
		info->lines_cut = ht.lines_cut;
		info->bytes_cut = ht.bytes_cut;
		info->cut = ht.cut;
	}
	info->out_bytes = out->len - mark;
	red_linemap_free(&map);
	buf_free(&text);
}
