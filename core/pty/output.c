#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pty/logread.h"
#include "pty/output.h"
#include "pty/render.h"
#include "reduce/pipeline.h"
#include "shell/utf8.h"
#include "util/xmalloc.h"

void
output_utf8_clean(const char *in, size_t len, struct aiterm_buf *out)
{
	size_t i = 0, n, bad;

	while (i < len) {
		if (utf8_valid(in + i, len - i, &bad)) {
			buf_add(out, in + i, len - i);
			return;
		}
		buf_add(out, in + i, bad);
		i += bad;
		n = utf8_seq_len((const unsigned char *)in + i, len - i);
		buf_adds(out, "\xef\xbf\xbd");
		i += n == 0 ? 1 : n;
	}
}

/*
 * The terminal echoes a sentinel's command text as typed ("; printf
 * '\033]133;D;%s;aiterm=<nonce>\007' "$?""): never what the AI should
 * read.  Drop each stripped line holding it, and the next line too when
 * the echo wrapped and its end ("$?") landed there.
 */
static bool
is_sentinel_echo(const char *line, size_t len)
{
	return memmem(line, len, "133;D;", 6) != NULL &&
	    memmem(line, len, "aiterm=", 7) != NULL;
}

static bool
ends_sentinel(const char *line, size_t len)
{
	return memmem(line, len, "\"$?\"", 4) != NULL ||
	    memmem(line, len, "$status", 7) != NULL;
}

/*
 * line_of (may be NULL) holds the log line of each line of b; the entries
 * of dropped lines are removed with them.
 */
static void
drop_echo_lines(struct aiterm_buf *b, unsigned long long *line_of,
    size_t *nline_of)
{
	struct aiterm_buf kept = BUF_INIT;
	const char *p = buf_str(b), *end = p + b->len, *nl;
	size_t len, i = 0, k = 0;
	bool drop, dropping_tail = false;

	if (memmem(p, b->len, "aiterm=", 7) == NULL)
		return;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = nl == NULL ? (size_t)(end - p) : (size_t)(nl + 1 - p);
		drop = true;
		if (is_sentinel_echo(p, len))
			dropping_tail = !ends_sentinel(p, len);
		else if (dropping_tail)
			dropping_tail = false, drop = ends_sentinel(p, len);
		else
			drop = false;
		if (!drop) {
			buf_add(&kept, p, len);
			if (line_of != NULL && i < *nline_of)
				line_of[k++] = line_of[i];
		}
		i++;
		p += len;
	}
	if (line_of != NULL)
		*nline_of = i == *nline_of ? k : 0;
	buf_free(b);
	*b = kept;
}

/*
 * Trailing blanks are invisible on a terminal, and shells paint them
 * (zsh's PROMPT_SP fills a row with spaces before its prompt): drop them,
 * and a last unterminated line that is only blanks.  Line count is kept,
 * except for that last line (its line_of entry goes with it).
 */
static void
trim_blanks(struct aiterm_buf *b, size_t *nline_of)
{
	struct aiterm_buf kept = BUF_INIT;
	const char *p = buf_str(b), *end = p + b->len, *nl;
	size_t len, n;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = nl == NULL ? (size_t)(end - p) : (size_t)(nl - p);
		n = len;
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (nl == NULL && n == 0) {
			if (len > 0 && *nline_of > 0)
				(*nline_of)--;
			break;
		}
		buf_add(&kept, p, n);
		if (nl != NULL)
			buf_addc(&kept, '\n');
		p += len + (nl != NULL ? 1 : 0);
	}
	buf_free(b);
	*b = kept;
}

/*
 * The widest "line_range=[a,b]" any marker of the reduced text offers
 * (head+tail or a folded run): the structured form of what was left out.
 */
static void
widest_range(const struct aiterm_buf *text, uint64_t *first,
    uint64_t *last)
{
	const char *p = buf_str(text), *end = p + text->len;
	unsigned long long a, b;

	*first = *last = 0;
	while ((p = memmem(p, (size_t)(end - p), "line_range=[", 12)) != NULL) {
		p += 12;
		if (sscanf(p, "%llu,%llu]", &a, &b) == 2 && b >= a &&
		    b - a >= *last - *first && (*last == 0 || b - a >
		    *last - *first)) {
			*first = a;
			*last = b;
		}
	}
}

/*
 * line_of gives the log line of each line of rendered (render tracked
 * them), so markers name lines pty_read line_range can fetch; when
 * stripping changed the line count (cursor-up redraws) it is not used.
 */
static void
reduce(const struct aiterm_buf *rendered, uint64_t base_line,
    unsigned long long *line_of, size_t nline_of, unsigned cols, bool raw,
    struct output_text *out)
{
	struct red_headtail_opts opts = {
		.max_lines = 120, .head_lines = 40, .tail_lines = 60,
		.max_line_bytes = 2000, .base_line = base_line - 1,
		.wrap_cols = cols,
	};
	struct aiterm_buf stripped = BUF_INIT;
	struct red_info info;

	if (raw) {
		output_utf8_clean(rendered->data, rendered->len, &out->text);
		return;
	}
	red_strip_wrap(buf_str(rendered), rendered->len, cols, &stripped);
	if (red_line_count(buf_str(&stripped), stripped.len) != nline_of)
		line_of = NULL;
	trim_blanks(&stripped, &nline_of);
	drop_echo_lines(&stripped, line_of, &nline_of);
	opts.line_of = line_of;
	opts.nline_of = line_of == NULL ? 0 : nline_of;
	memset(&info, 0, sizeof info);
	red_generic(buf_str(&stripped), stripped.len, &opts, &out->text,
	    &info);
	buf_free(&stripped);
	out->reduced = true;
	widest_range(&out->text, &out->omitted_first, &out->omitted_last);
}

static void
note_mark(void *arg, const struct osc133_mark *m)
{
	struct output_text *out = arg;

	if (m->kind == 'D' && m->has_exit) {
		out->done_seen = true;
		out->done_exit = m->exit_code;
	}
}

int
output_collect(const struct output_request *req, struct output_text *out,
    struct aiterm_error *err)
{
	struct session_cursor cur, next;
	struct aiterm_buf rendered = BUF_INIT;
	struct log_slice slice;
	struct render r;
	char *log = session_path(req->session, "output.log");
	int rc = -1;

	render_init(&r, 0, REGION_OUTPUT, NULL, NULL);
	memset(out, 0, sizeof *out);
	memset(&slice, 0, sizeof slice);
	session_cursor_read(req->session, &cur);
	if (log_read_range(log, cur.offset, req->to, OUTPUT_MAX_BYTES,
	    cur.line, &slice, err) != 0)
		goto out;
	render_free(&r);
	render_init(&r, slice.from, (enum render_region)cur.region,
	    req->meta->token, req->nonce);
	r.drop_prompt = req->meta->start_marks;
	render_track_lines(&r, cur.line);
	r.on_mark = note_mark;
	r.arg = out;
	/* raw: the bytes as the terminal got them; marks still counted. */
	render_feed(&r, buf_str(&slice.head), slice.head.len, req->raw ?
	    NULL : &rendered);
	if (req->raw)
		buf_add(&rendered, slice.head.data == NULL ? "" :
		    slice.head.data, slice.head.len);
	if (slice.truncated) {
		buf_printf(&rendered, "\n[… %llu bytes omitted",
		    (unsigned long long)(slice.to - slice.from -
		    slice.head.len - slice.tail.len));
		if (slice.omitted_last_line > 0)
			buf_printf(&rendered, "; read them with pty_read "
			    "line_range=[%llu,%llu]",
			    (unsigned long long)slice.omitted_first_line,
			    (unsigned long long)slice.omitted_last_line);
		buf_adds(&rendered, "]\n");
		r.next = slice.to - slice.tail.len;
		buf_reset(&r.hold);
		render_feed(&r, buf_str(&slice.tail), slice.tail.len,
		    req->raw ? NULL : &rendered);
		if (req->raw)
			buf_add(&rendered, slice.tail.data == NULL ? "" :
			    slice.tail.data, slice.tail.len);
	}
	reduce(&rendered, cur.line, r.line_of, r.nline_of, req->meta->cols,
	    req->raw, out);
	out->from = slice.from;
	out->to = slice.to;
	out->line = slice.to_line;
	if (req->advance) {
		next.offset = slice.to;
		next.line = out->line;
		next.region = (int)r.region;
		if (session_cursor_write(req->session, &next, err) != 0)
			goto out;
	}
	rc = 0;
out:
	render_free(&r);
	log_slice_free(&slice);
	buf_free(&rendered);
	free(log);
	return rc;
}

int
output_lines(const struct output_request *req, uint64_t first,
    uint64_t last, uint64_t tail, struct output_text *out,
    struct aiterm_error *err)
{
	struct aiterm_buf rendered = BUF_INIT;
	struct session_cursor cur;
	struct log_slice slice;
	struct log_mark mark;
	struct render r;
	char *log = session_path(req->session, "output.log");
	int rc;

	memset(out, 0, sizeof *out);
	memset(&slice, 0, sizeof slice);
	session_cursor_read(req->session, &cur);
	mark.offset = cur.offset;
	mark.line = cur.line;
	if (tail > 0)
		rc = log_read_tail_lines_mark(log, tail, OUTPUT_MAX_BYTES,
		    &mark, &slice, err);
	else
		rc = log_read_lines_mark(log, first, last, OUTPUT_MAX_BYTES,
		    &mark, &slice, err);
	if (rc != 0)
		goto out;
	/*
	 * Line reads keep every line (prompts and echoes too) so that line
	 * numbers match the log; only our marks go.
	 */
	render_init(&r, slice.from, REGION_OUTPUT, req->meta->token, NULL);
	r.keep_all = true;
	render_feed(&r, buf_str(&slice.head), slice.head.len, &rendered);
	if (slice.truncated) {
		buf_printf(&rendered, "\n[… lines %llu-%llu omitted; ask for "
		    "a smaller line_range]\n",
		    (unsigned long long)slice.omitted_first_line,
		    (unsigned long long)slice.omitted_last_line);
		render_feed(&r, buf_str(&slice.tail), slice.tail.len,
		    &rendered);
	}
	render_free(&r);
	if (req->raw) {
		buf_reset(&rendered);
		buf_add(&rendered, buf_str(&slice.head), slice.head.len);
		buf_add(&rendered, buf_str(&slice.tail), slice.tail.len);
	}
	/* Line reads are what was asked for: stripped, not cut again. */
	if (req->raw) {
		output_utf8_clean(rendered.data, rendered.len, &out->text);
	} else {
		size_t unused = 0;

		red_strip_wrap(buf_str(&rendered), rendered.len,
		    req->meta->cols, &out->text);
		trim_blanks(&out->text, &unused);
		drop_echo_lines(&out->text, NULL, NULL);
		out->reduced = true;
	}
	out->from = slice.from;
	out->to = slice.to;
	out->line = slice.first_line;
out:
	log_slice_free(&slice);
	buf_free(&rendered);
	free(log);
	return rc;
}

void
output_text_free(struct output_text *out)
{
	buf_free(&out->text);
}
