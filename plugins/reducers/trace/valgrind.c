/*
 * valgrind (memcheck, helgrind, drd, ...): each distinct report stays,
 * its header ("Invalid read of size 1", "Possible data race during
 * write of size 8 at 0x10C080 by thread #3", "Conflicting store by
 * thread 4 at 0x0010c088 size 8"), its other lines ("Address ... is 0
 * bytes after a block of size 12 alloc'd", "This conflicts with a
 * previous write ...", "Locks held: none") and, of each stack, the first
 * frame and the frames in the program's own files ("by 0x1092EC:
 * flush_thread (agg.c:52)").  Frames in libraries and in valgrind's and
 * libc's own sources go, and a report alike another one before it (the
 * same header and own frames, addresses aside) folds into it with a
 * count ("[and 2 more like it]"), as do a report's repeated lines other
 * than frames (drd's segments: "Other segment start (thread 2) [×13]").  The "==PID== "
 * prefix is left on the first line only; the program's own output, the
 * summaries and valgrind's hints stay as they are.  A last line counts
 * what was left out.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define VG_SEEN		512	/* distinct reports remembered */

/* Sources of libc and valgrind that are no program's own files. */
static const char *const vg_system[] = {
	"pthread_create.c:", "clone.S:", "clone3.S:", "libc-start.c:",
	"libc_start_call_main.h:", "vg_replace_malloc.c:",
	"vg_replace_strmem.c:", "hg_intercepts.c:", "drd_pthread_intercepts.c:",
	"drd_clientreq.c:", "exit.c:", "dl-init.c:", "dl-open.c:",
	"dl-error-skeleton.c:", NULL,
};

/* A line of valgrind's: "==123== " (or --123--, **123**) and its body. */
static bool
vg_prefix(struct rl_line l, size_t *plen)
{
	char c;
	size_t i;

	if (l.len < 5 || (l.p[0] != '=' && l.p[0] != '-' && l.p[0] != '*') ||
	    l.p[1] != l.p[0])
		return false;
	c = l.p[0];
	for (i = 2; i < l.len && isdigit((unsigned char)l.p[i]); i++)
		;
	if (i == 2 || i + 2 > l.len || l.p[i] != c || l.p[i + 1] != c)
		return false;
	i += 2;
	if (i < l.len && l.p[i] != ' ')
		return false;
	*plen = i < l.len ? i + 1 : i;
	return true;
}

static bool
vg_frame(struct rl_line b)
{
	struct rl_line t = rl_trim(b);

	return b.len > 0 && b.p[0] == ' ' && (rl_starts(&t, "at 0x") ||
	    rl_starts(&t, "by 0x"));
}

/* A frame in a source file of the program: "fn (file.c:50)". */
static bool
vg_own(struct rl_line b)
{
	const char *open;
	size_t i;

	if (b.len < 4 || b.p[b.len - 1] != ')' || rl_has(&b, ": ??? (") ||
	    (open = memrchr(b.p, '(', b.len)) == NULL || rl_has(&b, "(in /"))
		return false;
	if (memchr(open, ':', (size_t)(b.p + b.len - open)) == NULL)
		return false;
	for (i = 0; vg_system[i] != NULL; i++)
		if (rl_has(&b, vg_system[i]))
			return false;
	return true;
}

/* FNV-1a over the text with each 0x... address as one "#". */
static unsigned long long
vg_hash(unsigned long long h, struct rl_line b)
{
	size_t i;

	for (i = 0; i < b.len; i++) {
		if (b.p[i] == '0' && i + 1 < b.len && b.p[i + 1] == 'x') {
			for (i += 2; i < b.len && isxdigit((unsigned char)b.p[i]);
			    i++)
				;
			i--;
			h = (h ^ '#') * 1099511628211ULL;
			continue;
		}
		h = (h ^ (unsigned char)b.p[i]) * 1099511628211ULL;
	}
	return (h ^ '\n') * 1099511628211ULL;
}

/* The parts of a report valgrind sets off by a blank line. */
static const char *const vg_parts[] = {
	"This conflicts with ", "Address 0x", "Block was alloc'd",
	"Block was freed", "Uninitialised value was created", NULL,
};

static bool
vg_more(struct rl_line b)
{
	struct rl_line t = rl_trim(b);
	size_t i;

	for (i = 0; vg_parts[i] != NULL; i++)
		if (rl_starts(&t, vg_parts[i]))
			return true;
	return false;
}

/*
 * One report: lines [first, end) of valgrind's, between blank ones (a
 * part set off by a blank line, "This conflicts with ...", included).
 */
struct vg_report {
	size_t			 first, end;
	unsigned long long	 key;
	size_t			 alike;		/* later ones folded into it */
	bool			 dup;		/* folded into an earlier one */
};

struct vg {
	const struct aiterm_host	*h;
	struct aiterm_buf		*out;
	const struct rl_lines		*t;
	size_t				*plen;	/* prefix length, 0 none */
	size_t				 frames, dups, lines;
};

/* Whether line i is kept within its report (first frames, own ones). */
static bool
vg_keep_line(const struct vg *v, size_t i, bool *first_frame)
{
	struct rl_line b = rl_from(v->t->v[i], v->plen[i]);

	if (!vg_frame(b)) {
		*first_frame = true;
		return true;
	}
	if (*first_frame) {
		*first_frame = false;
		return true;
	}
	return vg_own(b);
}

static void
vg_report_put(struct vg *v, const struct vg_report *r, bool bare)
{
	struct rl_line b, c, l;
	size_t i, j, n;
	bool ff = true, first = true, frame;

	for (i = r->first; i < r->end; i++) {
		b = rl_from(v->t->v[i], bare ? v->plen[i] : 0);
		bare = true;
		if (rl_blank(&b))
			continue;
		if (!vg_keep_line(v, i, &ff)) {
			v->frames++;
			continue;
		}
		/*
		 * A report's repeated line other than a frame (drd's segment
		 * lines): the first, with a count.  Frames stay under each
		 * stack they are in.
		 */
		l = rl_from(v->t->v[i], v->plen[i]);
		frame = vg_frame(l);
		for (j = r->first, n = 0; !frame && j < r->end; j++) {
			c = rl_from(v->t->v[j], v->plen[j]);
			if (c.len != l.len || memcmp(c.p, l.p, c.len) != 0)
				continue;
			if (j < i)
				break;
			n++;
		}
		if (!frame && j < i)
			continue;
		v->h->buf_add(v->out, b.p, b.len);
		if (n > 1)
			v->h->buf_printf(v->out, " [×%zu]", n);
		if (first && r->alike > 0)
			v->h->buf_printf(v->out, " [and %zu more like it]",
			    r->alike);
		first = false;
		v->h->buf_add(v->out, "\n", 1);
		v->lines++;
	}
}

int
red_valgrind(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct vg v = { h, out, NULL, NULL, 0, 0, 0 };
	struct vg_report *reps = NULL;
	struct rl_lines t;
	struct rl_line b;
	size_t i, j, n = 0, ours = 0;
	bool ff, shown = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	v.t = &t;
	if (t.n == 0 || (v.plen = calloc(t.n, sizeof *v.plen)) == NULL ||
	    (reps = calloc(t.n, sizeof *reps)) == NULL)
		goto out;
	for (i = 0; i < t.n; i++)
		if (vg_prefix(t.v[i], &v.plen[i]))
			ours++;
	if (ours * 2 < t.n)
		goto out;
	/* The reports: runs of valgrind's non-blank lines. */
	for (i = 0; i < t.n; i = j) {
		b = rl_from(t.v[i], v.plen[i]);
		if (v.plen[i] == 0 || rl_blank(&b)) {
			j = i + 1;
			continue;
		}
		reps[n].first = i;
		reps[n].key = 14695981039346656037ULL;
		for (j = i, ff = true; j < t.n && v.plen[j] > 0; j++) {
			b = rl_from(t.v[j], v.plen[j]);
			if (rl_blank(&b)) {
				/* A part of the same report goes on after it. */
				if (j + 1 < t.n && v.plen[j + 1] > 0 &&
				    vg_more(rl_from(t.v[j + 1], v.plen[j + 1])))
					continue;
				break;
			}
			if (vg_keep_line(&v, j, &ff))
				reps[n].key = vg_hash(reps[n].key, b);
		}
		reps[n].end = j;
		for (i = 0; i < n && i < VG_SEEN; i++) {
			if (!reps[i].dup && reps[i].key == reps[n].key) {
				reps[i].alike++;
				reps[n].dup = true;
				v.dups++;
				break;
			}
		}
		n++;
	}
	/* Out in order: the program's lines, each report not folded. */
	for (i = 0, j = 0; i < t.n; i++) {
		if (j < n && i == reps[j].first) {
			if (!reps[j].dup)
				vg_report_put(&v, &reps[j], shown);
			shown = true;
			i = reps[j++].end - 1;
			continue;
		}
		if (v.plen[i] > 0)
			continue;		/* a blank line of valgrind's */
		rl_put(h, out, &t.v[i]);
		v.lines++;
	}
	if (n == 0)
		goto out;
	h->buf_printf(out, "[… %zu frames outside the program's files, "
	    "%zu repeated reports; the \"%.*s\" prefix left out]\n", v.frames,
	    v.dups, (int)(v.plen[reps[0].first] > 0 ?
	    v.plen[reps[0].first] - 1 : 0), t.v[reps[0].first].p);
	rc = v.lines + 1 <= rl_budget(in) ? 0 : -1;
out:
	free(v.plen);
	free(reps);
	rl_lines_free(&t);
	return rc;
}
