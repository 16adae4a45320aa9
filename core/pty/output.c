#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pty/echo.h"
#include "pty/logread.h"
#include "pty/output.h"
#include "pty/render.h"
#include "reduce/cmd.h"
#include "reduce/pipeline.h"
#include "shell/utf8.h"
#include "util/xmalloc.h"

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

/* The command text RED-CMD chooses by: the session's last-command file. */
char *
output_last_command(const char *session)
{
	char *path = session_path(session, "last-command"), *text = NULL;
	size_t len = 0;
	FILE *f = path != NULL ? fopen(path, "re") : NULL;

	if (f != NULL) {
		text = xmalloc(4097);
		len = fread(text, 1, 4096, f);
		text[len] = '\0';
		fclose(f);
		if (len == 4096 || strlen(text) != len) {
			free(text);
			text = NULL;
		}
	}
	free(path);
	return text;
}

/*
 * RED-CMD on the stripped text: 0 when a command reducer gave the answer.
 * A reducer that left out RED_CMD_FOOTER_LINES lines or more is followed
 * by one line naming it and the log lines holding the whole text; a
 * smaller omission is told by the reducer's own counts, where that line
 * (15 tokens) would cost more than what was left out (ADR 0010).  A
 * result that is not shorter than the text with that line goes to the
 * generic stages instead.
 */
static int
reduce_command(const char *command, int exit_code, const struct aiterm_buf *t,
    const unsigned long long *line_of, size_t nline_of, uint64_t base_line,
    size_t max_bytes, struct output_text *out)
{
	struct red_cmd_result res;
	size_t lines = red_line_count(buf_str(t), t->len), start = out->text.len;
	unsigned long long first, last;

	if (command == NULL || lines == 0 || red_cmd_reduce_within(command,
	    buf_str(t), t->len, exit_code, RED_CMD_MAX_LINES, max_bytes,
	    &out->text, &res) != 0)
		return -1;
	snprintf(out->reducer, sizeof out->reducer, "%s", res.name);
	snprintf(out->reducer_version, sizeof out->reducer_version, "%s",
	    res.version);
	if (res.lossless)
		return 0;
	if (line_of != NULL && nline_of == lines) {
		first = line_of[0];
		last = line_of[lines - 1];
	} else {
		first = base_line;
		last = base_line + lines - 1;
	}
	out->omitted_first = first;
	out->omitted_last = last;
	if (red_line_count(out->text.data + start, out->text.len - start) +
	    RED_CMD_FOOTER_LINES > lines)
		return 0;
	if (out->text.len > 0 && out->text.data[out->text.len - 1] != '\n')
		buf_addc(&out->text, '\n');
	buf_printf(&out->text, "[%s reducer; all of it: line_range=[%llu,%llu]]",
	    res.name, first, last);
	if (out->text.len - start < t->len)
		return 0;
	out->text.len = start;
	out->text.data[start] = '\0';
	out->reducer[0] = out->reducer_version[0] = '\0';
	out->omitted_first = out->omitted_last = 0;
	return -1;
}

/* Drop the first n bytes of b (whole lines), and their line_of entries. */
static void
drop_head(struct aiterm_buf *b, size_t n, unsigned long long *line_of,
    size_t *nline_of)
{
	size_t lines = 0, i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		lines += b->data[i] == '\n';
	memmove(b->data, b->data + n, b->len - n + 1);
	b->len -= n;
	if (line_of != NULL && lines <= *nline_of) {
		memmove(line_of, line_of + lines, (*nline_of - lines) *
		    sizeof *line_of);
		*nline_of -= lines;
	}
}

/*
 * line_of gives the log line of each line of rendered (render tracked
 * them), so markers name lines pty_read line_range can fetch; when
 * stripping changed the line count (cursor-up redraws) it is not used.
 * command is the command line whose whole output rendered is, or NULL;
 * client_cut as in struct output_request.
 */
static void
reduce(const struct aiterm_buf *rendered, uint64_t base_line,
    unsigned long long *line_of, size_t nline_of, unsigned cols, bool raw,
    const char *command, const char *typed, int exit_code, size_t client_cut,
    struct output_text *out)
{
	struct red_headtail_opts opts = RED_HEADTAIL_READ;
	struct aiterm_buf stripped = BUF_INIT;
	struct red_info info;

	opts.base_line = base_line - 1;
	opts.wrap_cols = cols;
	if (raw) {
		utf8_clean(rendered->data, rendered->len, &out->text);
		return;
	}
	red_strip_wrap(buf_str(rendered), rendered->len, cols, &stripped);
	if (red_line_count(buf_str(&stripped), stripped.len) != nline_of)
		line_of = NULL;
	trim_blanks(&stripped, &nline_of);
	drop_echo_lines(&stripped, line_of, &nline_of);
	drop_head(&stripped, echo_typed_len(buf_str(&stripped), stripped.len,
	    typed), line_of, &nline_of);
	out->reduced = true;
	if (reduce_command(command, exit_code, &stripped, line_of, nline_of,
	    base_line, client_cut > RESULT_ROOM ? client_cut - RESULT_ROOM : 0,
	    out) == 0) {
		buf_free(&stripped);
		return;
	}
	opts.line_of = line_of;
	opts.nline_of = line_of == NULL ? 0 : nline_of;
	memset(&info, 0, sizeof info);
	red_generic(buf_str(&stripped), stripped.len, &opts, &out->text,
	    &info);
	buf_free(&stripped);
	widest_range(&out->text, &out->omitted_first, &out->omitted_last);
}

/* The last command's output starts in the slice's head, the whole slice. */
static bool
command_starts_in(const struct output_request *req,
    const struct log_slice *slice)
{
	uint64_t at;

	if (req->raw || req->command == NULL || slice->truncated)
		return false;
	at = req->command->offset;
	return at >= slice->from && at <= slice->from + slice->head.len;
}

/*
 * Where in the head it starts (0 when it does not): the bytes before it
 * and after it are rendered apart, so that what came before can be told.
 */
static size_t
command_split(const struct output_request *req, const struct log_slice *slice)
{
	return command_starts_in(req, slice) ?
	    (size_t)(req->command->offset - slice->from) : 0;
}

/*
 * A nested command (a sentinel with its start mark, shell/sentinel.h)
 * whose output starts in this read.
 */
static bool
nested_starts_in(const struct output_request *req,
    const struct log_slice *slice)
{
	return command_starts_in(req, slice) &&
	    req->command->mark == MARK_SENTINEL &&
	    req->command->nonce[0] != '\0';
}

/*
 * The line such a command was typed on starts after the last LF before
 * its offset (at 0 when the read starts in that line): from there up to
 * its C mark is the nested prompt and the echo, which the render holds
 * (issue 34).
 */
static size_t
typed_line_start(const char *head, size_t split)
{
	while (split > 0 && head[split - 1] != '\n')
		split--;
	return split;
}

static bool
blank(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' &&
		    p[i] != '\r')
			return false;
	}
	return true;
}

/*
 * The command line to reduce by, or NULL: the read must start at the
 * command's output (only blanks rendered before it), hold its end, and
 * not be truncated.
 */
static char *
command_text(const struct output_request *req, const struct log_slice *slice,
    const struct output_text *out, const struct aiterm_buf *rendered,
    size_t before)
{
	if (!command_starts_in(req, slice))
		return NULL;
	if (!req->command_done && !out->done_seen)
		return NULL;
	if (!blank(buf_str(rendered), before))
		return NULL;
	return output_last_command(req->session);
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

/* What the bytes of s come to once invalid UTF-8 is replaced. */
static size_t
cleaned_len(const struct aiterm_buf *s)
{
	struct aiterm_buf t = BUF_INIT;
	size_t n;

	utf8_clean(s->data == NULL ? "" : s->data, s->len, &t);
	n = t.len;
	buf_free(&t);
	return n;
}

/*
 * The slice of the log a read takes: at most OUTPUT_MAX_BYTES, its head
 * and tail kept around a marker beyond that.  A raw read (not reduced)
 * for a client that cuts a longer result is held to what it shows less
 * RESULT_ROOM and the marker's line, counting each invalid byte as the
 * U+FFFD it becomes (ADR 0043): read again smaller when it is over.
 */
static int
read_slice(const struct output_request *req, const char *log,
    const struct session_cursor *cur, struct log_slice *slice,
    struct aiterm_error *err)
{
	size_t max = OUTPUT_MAX_BYTES, got, tries;
	bool bound = req->raw && req->client_cut > RESULT_ROOM + 2 *
	    RAW_MARK_ROOM;

	if (bound)
		max = req->client_cut - RESULT_ROOM - RAW_MARK_ROOM;
	for (tries = 0; ; tries++) {
		if (log_read_range(log, cur->offset, req->to, max, cur->line,
		    slice, err) != 0)
			return -1;
		if (!bound || tries == 3 || (got = cleaned_len(&slice->head) +
		    cleaned_len(&slice->tail)) <= max)
			return 0;
		max = (size_t)((double)max * (double)max / (double)got);
		log_slice_free(slice);
		memset(slice, 0, sizeof *slice);
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
	char *command = NULL;
	size_t split, line_at, before;
	bool nested;
	int rc = -1;

	render_init(&r, 0, REGION_OUTPUT, NULL, NULL);
	memset(out, 0, sizeof *out);
	memset(&slice, 0, sizeof slice);
	session_cursor_read(req->session, &cur);
	if (read_slice(req, log, &cur, &slice, err) != 0)
		goto out;
	render_free(&r);
	render_init(&r, slice.from, (enum render_region)cur.region,
	    req->meta->token, req->nonce);
	r.drop_prompt = req->meta->start_marks;
	r.hold_between = true;
	render_track_lines(&r, cur.line);
	r.on_mark = note_mark;
	r.arg = out;
	/* raw: the bytes as the terminal got them; marks still counted. */
	split = command_split(req, &slice);
	nested = nested_starts_in(req, &slice);
	line_at = nested ? typed_line_start(buf_str(&slice.head), split) :
	    split;
	render_feed(&r, buf_str(&slice.head), line_at, req->raw ? NULL :
	    &rendered);
	if (nested)
		render_hold_from_here(&r);
	render_feed(&r, buf_str(&slice.head) + line_at, split - line_at,
	    req->raw ? NULL : &rendered);
	before = rendered.len;
	render_feed(&r, buf_str(&slice.head) + split, slice.head.len - split,
	    req->raw ? NULL : &rendered);
	if (req->raw)
		buf_add(&rendered, slice.head.data == NULL ? "" :
		    slice.head.data, slice.head.len);
	if (slice.truncated) {
		render_flush(&r, req->raw ? NULL : &rendered);
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
	/* A nested prompt with no command after it yet is what there is. */
	render_flush(&r, req->raw ? NULL : &rendered);
	command = command_text(req, &slice, out, &rendered, before);
	reduce(&rendered, cur.line, r.line_of, r.nline_of, req->meta->cols,
	    req->raw, command, req->typed, req->exit_code >= 0 ?
	    req->exit_code :
	    out->done_seen ? out->done_exit : -1, req->client_cut, out);
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
	free(command);
	free(log);
	return rc;
}

/* Lines in [p, p + len): its LFs, and a last line without one. */
static unsigned long long
lines_in(const char *p, size_t len)
{
	unsigned long long n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += p[i] == '\n';
	return n + (len > 0 && p[len - 1] != '\n');
}

/*
 * The part of a line read that one page shows, cut at whole lines: from
 * the start of the range (from_end: its end).  A slice of the log reader
 * is at most two pages; whole lines it left out in its middle are not
 * shown either.  *skip_first..*skip_last are the log lines left out, 0 0
 * when none; a single line longer than the page is shown whole.
 */
struct page_cut {
	const char		*p;
	size_t			 len;
	unsigned long long	 skip_first, skip_last;
};

static void
page_cut(const struct log_slice *s, bool from_end, struct page_cut *c)
{
	const struct aiterm_buf *part = from_end && s->truncated ? &s->tail :
	    &s->head;
	unsigned long long all = lines_in(s->head.data, s->head.len) +
	    (s->truncated ? s->omitted_last_line - s->omitted_first_line + 1 +
	    lines_in(s->tail.data, s->tail.len) : 0);
	const char *nl;
	size_t keep;

	c->p = buf_str(part);
	c->len = part->len;
	c->skip_first = c->skip_last = 0;
	if (c->len > OUTPUT_PAGE_BYTES && !from_end) {
		/* The last LF of the page (memrchr is not everywhere). */
		for (keep = OUTPUT_PAGE_BYTES; keep > 0 &&
		    c->p[keep - 1] != '\n'; keep--)
			;
		if (keep > 0)
			c->len = keep;
	} else if (c->len > OUTPUT_PAGE_BYTES) {
		nl = memchr(c->p + c->len - OUTPUT_PAGE_BYTES, '\n',
		    OUTPUT_PAGE_BYTES);
		if (nl != NULL && nl + 1 < c->p + c->len) {
			keep = (size_t)(c->p + c->len - (nl + 1));
			c->p = nl + 1;
			c->len = keep;
		}
	}
	if (c->len == s->head.len + (s->truncated ? s->tail.len : 0))
		return;
	keep = lines_in(c->p, c->len);
	if (from_end) {
		c->skip_first = s->first_line;
		c->skip_last = s->first_line + all - keep - 1;
	} else {
		c->skip_first = s->first_line + keep;
		c->skip_last = s->first_line + all - 1;
	}
}

/*
 * One page of a line read (page_cut), with the line_range of the lines
 * it left out before it (from_end) or after it.  A slice cut in the
 * middle of one long line (no whole line left out) keeps both ends.
 */
static void
page(struct render *r, const struct log_slice *slice, bool from_end,
    bool raw, struct aiterm_buf *rendered, struct output_text *out)
{
	struct page_cut c;

	if (slice->truncated && slice->omitted_first_line == 0) {
		if (raw) {
			buf_add(rendered, buf_str(&slice->head),
			    slice->head.len);
			buf_add(rendered, buf_str(&slice->tail),
			    slice->tail.len);
			return;
		}
		render_feed(r, buf_str(&slice->head), slice->head.len,
		    rendered);
		buf_adds(rendered, "\n[… the middle of a long line omitted; "
		    "raw=true reads it whole]\n");
		render_feed(r, buf_str(&slice->tail), slice->tail.len,
		    rendered);
		return;
	}
	page_cut(slice, from_end, &c);
	if (c.skip_last != 0 && from_end)
		buf_printf(rendered, "[earlier lines: pty_read "
		    "line_range=[%llu,%llu]]\n", c.skip_first, c.skip_last);
	if (raw)
		buf_add(rendered, c.p, c.len);
	else
		render_feed(r, c.p, c.len, rendered);
	if (c.skip_last != 0 && !from_end) {
		if (rendered->len > 0 &&
		    rendered->data[rendered->len - 1] != '\n')
			buf_addc(rendered, '\n');
		buf_printf(rendered, "[lines %llu-%llu shown; the rest: "
		    "pty_read line_range=[%llu,%llu]]", (unsigned long long)
		    slice->first_line, c.skip_first - 1, c.skip_first,
		    c.skip_last);
	}
	out->omitted_first = c.skip_first;
	out->omitted_last = c.skip_last;
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
	/* Twice a page: the slice's head (or tail) is one page. */
	if (tail > 0)
		rc = log_read_tail_lines_mark(log, tail, 2 * OUTPUT_PAGE_BYTES,
		    &mark, &slice, err);
	else
		rc = log_read_lines_mark(log, first, last,
		    2 * OUTPUT_PAGE_BYTES, &mark, &slice, err);
	if (rc != 0)
		goto out;
	/*
	 * Line reads keep every line (prompts and echoes too) so that line
	 * numbers match the log; only our marks go.
	 */
	render_init(&r, slice.from, REGION_OUTPUT, req->meta->token, NULL);
	r.keep_all = true;
	page(&r, &slice, tail > 0, req->raw, &rendered, out);
	render_free(&r);
	/* Line reads are what was asked for: stripped, not cut again. */
	if (req->raw) {
		utf8_clean(rendered.data, rendered.len, &out->text);
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
