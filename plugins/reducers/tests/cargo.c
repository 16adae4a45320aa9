/*
 * cargo test: build progress and passing tests become counts; compiler
 * errors, failure blocks, "test result:" lines and cargo's own error lines
 * stay whole.
 *
 * - "Compiling", "Finished", "Downloaded" ... lines are left out; a
 *   compiler warning keeps its "warning:" line and its "-->" location,
 *   which gets the number of snippet lines left out ("(+5 lines)").  An
 *   error diagnostic is kept in full.
 * - Each test binary becomes one line, "unittests src/lib.rs: 11 tests,
 *   8 ok, 3 FAILED", instead of one line per test, followed by the
 *   "test x ... FAILED" lines as cargo printed them (RED-FAITHFUL: a
 *   failing test's line stays whole); a binary that ran no test is
 *   "Doc-tests x: 0 tests" without its result line.
 * - A "---- name stdout ----" block keeps every line but blank ones and
 *   the RUST_BACKTRACE hint; the frames of a stack backtrace are counted.
 * - The closing "failures:" list of names is left out when every name on
 *   it headed a block above.
 * Output that holds neither a test run nor a cargo error is declined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

enum cg_state {
	CG_BUILD,		/* compiling, or between test binaries */
	CG_TESTS,		/* after "running N tests" */
	CG_BLOCK,		/* inside "---- name stdout ----" */
	CG_NAMES,		/* the closing "failures:" list */
	CG_BACKTRACE,		/* stack backtrace frames of a block */
};

/* Cargo's progress words (first word of a line, right-aligned). */
static const char *const cg_progress[] = {
	"Compiling", "Finished", "Downloading", "Downloaded", "Updating",
	"Locking", "Blocking", "Fresh", "Checking", "Adding", "Documenting",
	"Building", "Packaging", "Unpacking", NULL,
};

struct cg_run {
	const struct aiterm_host *h;
	struct aiterm_buf	*out;
	const struct rl_lines	*t;
	struct rl_line		 label;		/* "unittests src/lib.rs" */
	size_t			 ran, ok, failed, ignored;
	size_t			 from;		/* its "running N tests" line */
	bool			 summed;	/* the binary's line is out */
	struct rl_line		*blocks;	/* names that headed a block */
	size_t			 nblocks;
	size_t			*names;		/* lines of the closing list */
	size_t			 nnames;
	size_t			 frames;	/* backtrace lines counted */
	bool			 dropped;
	bool			 seen;		/* a test run or an error */
};

static struct rl_line
word_at(struct rl_line l, size_t skip)
{
	l.p += skip;
	l.len -= skip;
	return rl_trim(l);
}

static bool
progress_line(struct rl_line l)
{
	struct rl_line t = rl_trim(l);
	size_t i, n;

	if (t.len == l.len || l.len == 0)	/* cargo indents these */
		return false;
	for (i = 0; cg_progress[i] != NULL; i++) {
		n = strlen(cg_progress[i]);
		if (rl_starts(&t, cg_progress[i]) && t.len > n &&
		    t.p[n] == ' ')
			return true;
	}
	return false;
}

/* "Running unittests src/lib.rs (target/...)" -> "unittests src/lib.rs". */
static bool
binary_label(struct rl_line l, struct rl_line *label)
{
	struct rl_line t = rl_trim(l);
	const char *paren;

	if (rl_starts(&t, "Doc-tests ")) {
		*label = t;
		return true;
	}
	if (!rl_starts(&t, "Running "))
		return false;
	t = word_at(t, strlen("Running "));
	paren = memmem(t.p, t.len, " (", 2);
	if (paren != NULL && rl_ends(&t, ")"))
		t.len = (size_t)(paren - t.p);
	*label = t;
	return true;
}

/* The binary's "test x ... FAILED" lines, up to its failure blocks. */
static void
put_failed(struct cg_run *r)
{
	struct rl_line t;
	size_t i;

	for (i = r->from + 1; i < r->t->n && r->failed > 0; i++) {
		t = rl_trim(r->t->v[i]);
		if (rl_eq(&t, "failures:") || rl_starts(&t, "test result:") ||
		    (rl_starts(&t, "---- ") && rl_ends(&t, " ----")))
			break;
		if (rl_starts(&t, "test ") && rl_ends(&t, " ... FAILED"))
			rl_put(r->h, r->out, &t);
	}
}

static void
put_summary(struct cg_run *r)
{
	if (r->summed)
		return;
	r->summed = true;
	if (r->label.len > 0)
		r->h->buf_printf(r->out, "%.*s: ", (int)r->label.len,
		    r->label.p);
	r->h->buf_printf(r->out, "%zu tests", r->ran);
	if (r->ran > 0)
		r->h->buf_printf(r->out, ", %zu ok", r->ok);
	if (r->failed > 0)
		r->h->buf_printf(r->out, ", %zu FAILED", r->failed);
	if (r->ignored > 0)
		r->h->buf_printf(r->out, ", %zu ignored", r->ignored);
	r->h->buf_add(r->out, "\n", 1);
	put_failed(r);
}

/* A "test name ... outcome" line: count it. */
static bool
test_line(struct cg_run *r, struct rl_line l)
{
	if (!rl_starts(&l, "test ") || rl_starts(&l, "test result:"))
		return false;
	if (rl_ends(&l, " ... ok"))
		r->ok++;
	else if (rl_ends(&l, " ... FAILED"))
		r->failed++;
	else if (rl_ends(&l, " ... ignored") || rl_has(&l, " ... ignored, "))
		r->ignored++;
	else
		return false;
	return true;
}

static bool
push_block(struct cg_run *r, struct rl_line name)
{
	struct rl_line *nb;

	nb = realloc(r->blocks, (r->nblocks + 1) * sizeof *nb);
	if (nb == NULL)
		return false;
	nb[r->nblocks++] = name;
	r->blocks = nb;
	return true;
}

static bool
push_name(struct cg_run *r, size_t i)
{
	size_t *nn;

	nn = realloc(r->names, (r->nnames + 1) * sizeof *nn);
	if (nn == NULL)
		return false;
	nn[r->nnames++] = i;
	r->names = nn;
	return true;
}

/* The closing list, unless every name on it headed a block. */
static void
flush_names(struct cg_run *r)
{
	struct rl_line l;
	size_t i, j;
	bool all = true;

	for (i = 0; i < r->nnames && all; i++) {
		l = rl_trim(r->t->v[r->names[i]]);
		for (j = 0; j < r->nblocks; j++) {
			if (r->blocks[j].len == l.len &&
			    memcmp(r->blocks[j].p, l.p, l.len) == 0)
				break;
		}
		all = j < r->nblocks;
	}
	if (!all) {
		r->h->buf_add(r->out, "failures:\n", strlen("failures:\n"));
		for (i = 0; i < r->nnames; i++)
			rl_put(r->h, r->out, &r->t->v[r->names[i]]);
	} else if (r->nnames > 0) {
		r->dropped = true;
	}
	r->nnames = 0;
}

static void
flush_frames(struct cg_run *r)
{
	if (r->frames > 0)
		r->h->buf_printf(r->out, "  (+%zu backtrace lines)\n",
		    r->frames);
	r->frames = 0;
}

/* A compiler diagnostic from line i: returns the line after it. */
static size_t
diagnostic(struct cg_run *r, size_t i)
{
	const struct rl_lines *t = r->t;
	struct rl_line l = t->v[i], loc = { NULL, 0 };
	size_t j, snippet = 0;
	bool warning = rl_starts(&l, "warning");

	rl_put(r->h, r->out, &l);
	for (j = i + 1; j < t->n && !rl_blank(&t->v[j]); j++) {
		l = rl_trim(t->v[j]);
		if (!warning)
			rl_put(r->h, r->out, &t->v[j]);
		else if (loc.p == NULL && rl_starts(&l, "--> "))
			loc = t->v[j];
		else
			snippet++;
	}
	if (loc.p != NULL) {
		r->h->buf_add(r->out, loc.p, loc.len);
		if (snippet > 0)
			r->h->buf_printf(r->out, " (+%zu lines)", snippet);
		r->h->buf_add(r->out, "\n", 1);
	} else if (snippet > 0) {
		r->h->buf_printf(r->out, "  (+%zu lines)\n", snippet);
	}
	if (snippet > 0)
		r->dropped = true;
	return j;
}

static bool
block_line(struct cg_run *r, struct rl_line l, enum cg_state *state)
{
	struct rl_line t = rl_trim(l);

	if (*state == CG_BACKTRACE) {
		if (t.len > 0 && (l.p[0] == ' ' || rl_starts(&t, "at ")) &&
		    !rl_starts(&t, "note:")) {
			r->frames++;
			r->dropped = true;
			return true;
		}
		flush_frames(r);
		*state = CG_BLOCK;
	}
	if (t.len == 0 || (rl_starts(&t, "note: run with `RUST_BACKTRACE=") ||
	    rl_starts(&t, "note: Some details are omitted"))) {
		r->dropped = true;
		return true;
	}
	if (rl_eq(&t, "stack backtrace:")) {
		rl_put(r->h, r->out, &l);
		*state = CG_BACKTRACE;
		return true;
	}
	rl_put(r->h, r->out, &l);
	return true;
}

static bool
run_line(struct cg_run *r, size_t *ip, enum cg_state *state)
{
	struct rl_line l = r->t->v[*ip], t = rl_trim(l), name;
	const char *p;

	if (rl_starts(&t, "---- ") && rl_ends(&t, " ----") && t.len > 10) {
		flush_frames(r);
		put_summary(r);
		name = t;
		name.p += 5;
		name.len -= 10;
		p = memmem(name.p, name.len, " std", 4);
		if (p != NULL)
			name.len = (size_t)(p - name.p);
		if (!push_block(r, name))
			return false;
		rl_put(r->h, r->out, &l);
		*state = CG_BLOCK;
		return true;
	}
	if (rl_eq(&t, "failures:") || rl_eq(&t, "successes:")) {
		flush_frames(r);
		*state = *state == CG_TESTS ? CG_TESTS : CG_NAMES;
		r->dropped = true;
		return true;
	}
	if (rl_starts(&t, "test result:")) {
		flush_frames(r);
		flush_names(r);
		put_summary(r);
		if (r->ran == 0 && rl_starts(&t, "test result: ok."))
			r->dropped = true;
		else
			rl_put(r->h, r->out, &l);
		*state = CG_BUILD;
		return true;
	}
	switch (*state) {
	case CG_NAMES:
		if (t.len == 0)
			return true;
		if (l.p[0] == ' ')
			return push_name(r, *ip);
		flush_names(r);
		break;
	case CG_BLOCK:
	case CG_BACKTRACE:
		return block_line(r, l, state);
	default:
		break;
	}
	if (test_line(r, t)) {
		r->dropped = true;
		return true;
	}
	if (t.len == 0) {
		r->dropped = true;
		return true;
	}
	rl_put(r->h, r->out, &l);
	return true;
}

static bool
walk(struct cg_run *r)
{
	const struct rl_lines *t = r->t;
	enum cg_state state = CG_BUILD;
	struct rl_line l, tr;
	const char *p, *end;
	size_t i, n;

	for (i = 0; i < t->n; i++) {
		l = t->v[i];
		tr = rl_trim(l);
		if (rl_starts(&tr, "running ") && rl_ends(&tr, "tests") &&
		    state != CG_BLOCK) {
			p = tr.p + strlen("running ");
			end = tr.p + tr.len;
			if (rl_number(&p, end, &n)) {
				flush_names(r);
				r->ran = n;
				r->from = i;
				r->ok = r->failed = r->ignored = 0;
				r->summed = false;
				r->seen = true;
				r->dropped = true;
				state = CG_TESTS;
				continue;
			}
		}
		if (state != CG_BUILD) {
			if (!run_line(r, &i, &state))
				return false;
			continue;
		}
		if (progress_line(l) || tr.len == 0) {
			r->dropped = true;
			continue;
		}
		if (binary_label(l, &r->label)) {
			r->dropped = true;
			continue;
		}
		if (rl_starts(&l, "error") || (rl_starts(&l, "warning") &&
		    !rl_has(&l, " generated "))) {
			if (rl_starts(&l, "error"))
				r->seen = true;
			i = diagnostic(r, i);
			if (i < t->n)
				r->dropped = true;
			continue;
		}
		rl_put(r->h, r->out, &l);
	}
	flush_frames(r);
	flush_names(r);
	return true;
}

int
red_cargo_test(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	struct rl_lines t;
	struct cg_run r;
	struct aiterm_buf *tmp;
	int rc = -1;

	if (h->buf_new == NULL || (tmp = h->buf_new()) == NULL)
		return -1;
	memset(&r, 0, sizeof r);
	if (!rl_split(in, &t)) {
		h->buf_free(tmp);
		return -1;
	}
	r.h = h;
	r.out = tmp;
	r.t = &t;
	if (walk(&r) && r.seen) {
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = r.dropped ? 0 : 1;
	}
	free(r.blocks);
	free(r.names);
	rl_lines_free(&t);
	h->buf_free(tmp);
	return rc;
}
