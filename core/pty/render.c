#include <stdlib.h>
#include <string.h>

#include "pty/render.h"
#include "util/xmalloc.h"

#define RENDER_HOLD_MAX	(OSC133_BODY_MAX + 16)

void
render_init(struct render *r, uint64_t base, enum render_region region,
    const char *token, const char *nonce)
{
	memset(r, 0, sizeof *r);
	osc133_init(&r->parser);
	/* A cursor file's unknown region reads as output: nothing is lost. */
	r->region = (unsigned)region < REGION_COUNT ? region : REGION_OUTPUT;
	r->token = token;
	r->nonce = nonce;
	r->next = base;
	r->drop_prompt = true;
}

bool
render_is_ours(const struct render *r, const struct osc133_mark *m)
{
	if (m->token[0] == '\0')
		return false;
	return (r->token != NULL && strcmp(m->token, r->token) == 0) ||
	    (r->nonce != NULL && strcmp(m->token, r->nonce) == 0);
}

/* The region a mark opens. */
static enum render_region
region_after(char kind)
{
	static const struct {
		char			kind;
		enum render_region	region;
	} table[] = {
		{ 'A', REGION_PROMPT },
		{ 'B', REGION_INPUT },
		{ 'C', REGION_OUTPUT },
		{ 'D', REGION_OUTPUT },
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (table[i].kind == kind)
			return table[i].region;
	}
	return REGION_OUTPUT;
}

void
render_track_lines(struct render *r, unsigned long long line)
{
	r->tracking = true;
	r->line = line;
	r->at_line_start = true;
}

static void
push_line(struct render *r, unsigned long long line)
{
	if (r->nline_of == r->cap_line_of) {
		r->cap_line_of = r->cap_line_of == 0 ? 256 : r->cap_line_of * 2;
		r->line_of = xrealloc(r->line_of, r->cap_line_of *
		    sizeof *r->line_of);
	}
	r->line_of[r->nline_of++] = line;
}

/* Count the log lines of data; record where kept lines start. */
static void
track(struct render *r, const char *data, size_t len, bool kept)
{
	const char *p = data, *end = data + len, *nl;

	while (p < end) {
		if (kept && r->at_line_start) {
			push_line(r, r->line);
			r->at_line_start = false;
		}
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;
		r->line++;
		if (kept)
			r->at_line_start = true;
		p = nl + 1;
	}
}

/* Text of the region that goes to the output (REGION_BETWEEN: unheld). */
static bool
kept_region(const struct render *r)
{
	return r->region == REGION_OUTPUT ||
	    (r->region == REGION_BETWEEN && !r->hold_between);
}

static void
keep(struct render *r, const char *data, size_t len, struct aiterm_buf *out)
{
	const char *nl;
	size_t skip;

	if (r->region == REGION_PROMPT_LINE) {
		nl = memchr(data, '\n', len);
		skip = nl == NULL ? len : (size_t)(nl + 1 - data);
		if (r->tracking)
			track(r, data, skip, false);
		if (nl == NULL)
			return;
		r->region = REGION_OUTPUT;
		len -= skip;
		data += skip;
	}
	if (r->region == REGION_BETWEEN && r->hold_between && out != NULL) {
		if (r->between.len == 0) {
			r->between_line = r->line;
			r->between_at_start = r->at_line_start;
		}
		if (r->tracking)
			track(r, data, len, false);
		buf_add(&r->between, data, len);
		return;
	}
	if (r->tracking)
		track(r, data, len, out != NULL && kept_region(r));
	if (out != NULL && kept_region(r) && len > 0)
		buf_add(out, data, len);
}

void
render_flush(struct render *r, struct aiterm_buf *out)
{
	unsigned long long line = r->line;

	if (r->between.len == 0)
		return;
	if (out != NULL) {
		if (r->tracking) {
			/* Its lines are counted again, as kept ones. */
			r->line = r->between_line;
			r->at_line_start = r->between_at_start;
			track(r, r->between.data, r->between.len, true);
			r->line = line;
		}
		buf_add(out, r->between.data, r->between.len);
	}
	buf_reset(&r->between);
}

void
render_hold_from_here(struct render *r)
{
	if (r->region == REGION_OUTPUT && !r->keep_all)
		r->region = REGION_BETWEEN;
}

/*
 * The region one of our marks opens.  A nested command's C mark ends the
 * held prompt and echo (dropped), its D mark starts the next (held); any
 * other mark of ours gives the held text back first.
 */
static void
enter(struct render *r, const struct osc133_mark *m, struct aiterm_buf *out)
{
	bool nested = r->nonce != NULL && strcmp(m->token, r->nonce) == 0;

	if (r->region == REGION_BETWEEN && m->kind == 'C')
		buf_reset(&r->between);
	else if (r->region == REGION_BETWEEN)
		render_flush(r, out);
	r->region = region_after(m->kind);
	if (m->kind == 'D' && nested)
		r->region = REGION_BETWEEN;
	if (!r->drop_prompt && m->kind == 'A')
		r->region = REGION_PROMPT_LINE;
	if (r->keep_all)
		r->region = REGION_OUTPUT;
}

/*
 * Another command's sentinel end (typed ahead of ours): what was held
 * before it was that command's output.
 */
static bool
other_nested_end(const struct osc133_mark *m)
{
	return m->kind == 'D' && m->has_exit && m->token[0] != '\0';
}

void
render_free(struct render *r)
{
	buf_free(&r->hold);
	buf_free(&r->between);
	free(r->line_of);
	r->line_of = NULL;
	r->nline_of = r->cap_line_of = 0;
}

/*
 * The parser reports a mark once its terminator arrives, so the bytes of
 * a sequence still open at the end of a piece are held back and parsed
 * again with the next piece: they are dropped only if they turn out to be
 * one of our marks.
 */
void
render_feed(struct render *r, const char *data, size_t len,
    struct aiterm_buf *out)
{
	struct aiterm_buf joined = BUF_INIT;
	struct osc133_mark m;
	const char *p = data;
	uint64_t base = r->next, pos;
	size_t n = len, used, off = 0, safe;

	if (r->hold.len > 0) {
		buf_add(&joined, r->hold.data, r->hold.len);
		buf_add(&joined, data, len);
		p = joined.data;
		n = joined.len;
		base = r->next - r->hold.len;
		buf_reset(&r->hold);
	}
	osc133_init(&r->parser);
	r->parser.offset = base;
	while (off < n) {
		pos = base + off;
		if (osc133_feed(&r->parser, p + off, n - off, &used, &m)) {
			keep(r, p + off, (size_t)(m.start - pos), out);
			if (render_is_ours(r, &m)) {
				enter(r, &m, out);
				if (r->on_mark != NULL)
					r->on_mark(r->arg, &m);
			} else {
				if (r->region == REGION_BETWEEN &&
				    other_nested_end(&m))
					render_flush(r, out);
				keep(r, p + (m.start - base),
				    (size_t)(m.end - m.start), out);
			}
			off += used;
			continue;
		}
		safe = r->parser.state != 0 ?
		    (size_t)(r->parser.start - base) : n;
		if (n - safe > RENDER_HOLD_MAX)
			safe = n;	/* too long to be one of our marks */
		keep(r, p + off, safe - off, out);
		if (safe < n)
			buf_add(&r->hold, p + safe, n - safe);
		off = n;
	}
	r->next = base + n;
	buf_free(&joined);
}
