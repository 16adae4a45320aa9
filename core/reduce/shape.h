/*
 * RED-FAITHFUL, structurally: the shape of a line, which lines of a text
 * stand out, and whether a reduced text still holds them.
 *
 * A line's shape is its template: runs of blanks count as one blank,
 * every run of hex digits that holds a decimal digit is one placeholder
 * (numbers, times, dates, ids, hashes, addresses, PIDs), and in a word
 * that holds a '/' the part after the last '/' (a path's file name) is one
 * placeholder.  Lines that share a shape may be folded together.  A line
 * whose shape occurs once in a text is rare.
 *
 * A word is a run of letters, digits, '_', '.', '@', '+', '~', '-' and
 * non-ASCII bytes (so a path is a word a folder: "src/a.c" holds "src"
 * and "a.c", which a listing grouped by folder still has), without a trailing '.' or ','.  Drawing
 * characters are not part of a word: box drawing (U+2500 to U+257F:
 * tree's "├── ", "│   ") and the no-break space (U+00A0).  Only words that
 * name something count: two bytes or more, with a letter, and not made
 * of hex digits and separators alone when they hold a digit (a number, a
 * time, a hash or a version is what a reducer may shorten or count).
 * A line with no such word (blank, a rule of dashes, a lone brace) and a
 * marker line a stage wrote ("[… ") are never rare, nor counted.
 *
 * A word that starts with a digit does not count either (a duration, a
 * size), nor one of four letters or more made of two letters at most (a
 * progress string: "FF.F.", "ssss").  Words are held in any case
 * ("FAILED" by "failed").
 *
 * What a reduction must hold (red_faithful), whatever reducer made it:
 *  - outliers: the rare lines of a patterned text, one where at least
 *    three in four of the counted lines share their shape with another
 *    line (the one accepted login among thousands of failures, the one
 *    sudo command, the one kernel warning): each of their words; a
 *    passing or skipped test's line, a banner ("==== FAILURES ====") and
 *    a diff's bookkeeping (index, ---, +++, mode lines: its header
 *    stands for them) are not outliers (a count or a layout may stand
 *    for them);
 *  - lines a person navigates by, verbatim: diff and combined-diff
 *    headers (diff --git, diff --cc, diff --combined), hunk headers (@@,
 *    @@@), conflict markers (<<<<<<<, =======, >>>>>>>, |||||||, also
 *    behind a diff's one or two columns of +, - or blank);
 *  - the location of a compiler diagnostic, verbatim: "file:line" (and
 *    ":col") or "file(line,col)" before "error", "fatal error" or
 *    "warning";
 *  - the line that names a failing test (FAILED x, x ... FAILED, not ok,
 *    --- FAIL:, the crosses of node, jest and vitest): each word;
 *  - for a listing (RED_FAITHFUL_LISTING: ls, find, tree, du, ps, ...),
 *    every row, rare or not ("file1" and "file2" share a shape): each
 *    of its words.
 */
#ifndef AITERM_REDUCE_SHAPE_H
#define AITERM_REDUCE_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* The shape of a line as a 64-bit hash (never 0). */
uint64_t	red_shape_hash(const char *p, size_t len);
/*
 * The same hash, the words found a byte at a time: what red_shape_hash
 * is where SSE2 is not (core/reduce/shapehash.c); for tests there.
 */
uint64_t	red_shape_hash_bytes(const char *p, size_t len);

/* True when the line has a word that counts (see above). */
bool		red_shape_named(const char *p, size_t len);

/* True for a line a person navigates by: diff or hunk header, conflict marker. */
bool		red_shape_navigation(const char *p, size_t len);

/*
 * How often each shape occurs in a text.  The table holds at most
 * RED_SHAPES_MAX shapes; past that, lines of new shapes are not counted
 * and never taken for rare (full is set).
 */
#define RED_SHAPES_MAX	(1u << 18)

struct red_shapes {
	uint64_t	*key;
	uint32_t	*count;
	size_t		*first;	/* red_shapes_count: the shape's first line */
	size_t		*first_pos; /* and where that line starts */
	size_t		 at;	/* red_shapes_count: lines read so far */
	size_t		 at_pos; /* and where the next one starts */
	size_t		 cap;	/* slots, a power of two, or 0 */
	size_t		 n;	/* shapes held */
	size_t		 lines;	/* lines counted */
	size_t		 single; /* of those, alone in their shape */
	bool		 full;
};

#define RED_SHAPES_INIT { NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, false }

/*
 * Count the shapes of the lines of text that have a word that counts and
 * are not markers (adds to what s holds).
 */
void	red_shapes_count(struct red_shapes *s, const char *text, size_t len);
/*
 * The shape a text's line is counted by: its hash, or 0 when it has no
 * word that counts or is a marker.  Any thread.
 */
uint64_t red_shape_of(const char *p, size_t len);
/*
 * Count the next line of a text, at byte pos of it, by its shape h from
 * red_shape_of (0: not counted), in the text's order.
 */
void	red_shapes_put(struct red_shapes *s, uint64_t h, size_t pos);
/*
 * Count one line of a text as red_shapes_count does, the line at byte pos
 * of it; its hash, or 0 when it has no word that counts or is a marker.
 */
uint64_t red_shapes_line(struct red_shapes *s, const char *p, size_t len,
	    size_t pos);
/* Count one shape (a hash from red_shape_hash). */
void	red_shapes_add(struct red_shapes *s, uint64_t h);
/* How often the shape h was counted. */
uint32_t red_shapes_get(const struct red_shapes *s, uint64_t h);
/* True when the line is rare in the counted text. */
bool	red_shapes_rare(const struct red_shapes *s, const char *p,
	    size_t len);
/* A line of a text: its index (0-based) and the byte where it starts. */
struct red_line_at {
	size_t	k;
	size_t	pos;
};

/*
 * The lines (of the text red_shapes_count read) in [from, to) that are
 * alone in their shape, ascending, in *lines (allocated; NULL when none);
 * returns how many.  One pass over the table, none over the
 * text.
 */
size_t	red_shapes_rare_lines(const struct red_shapes *s, size_t from,
	    size_t to, struct red_line_at **lines);
/* True when at least three in four of the lines counted share their shape. */
bool	red_shapes_patterned(const struct red_shapes *s);
void	red_shapes_free(struct red_shapes *s);

/* The text is a listing: every row must be held. */
#define RED_FAITHFUL_LISTING	0x1
/*
 * The text is a listing far beyond the read budget: rows may be left out
 * (the reducer says which), outliers among them too.
 */
#define RED_FAITHFUL_FAR	0x2

/* What red_faithful found. */
struct red_faithful {
	size_t		 checked;	/* lines of the input that must be held */
	size_t		 missing;	/* of those, not held by the output */
	size_t		 first_missing;	/* line index (0-based) of the first */
};

/*
 * Whether out (a reduction of in) holds what it must of in (see above):
 * a word is held when it occurs anywhere in out, a verbatim line or
 * location when it occurs as a whole.  Stops at the first line that is
 * missing (f->missing is then 1).  f may be NULL.
 */
bool	red_faithful(const char *in, size_t len, const char *out,
	    size_t outlen, unsigned flags, struct red_faithful *f);

/*
 * For a reducer's author and its tests: append to why, one per line, up
 * to max lines of in that out must hold and does not, each as "line N:
 * TEXT (missing: WORD ...)" with N 1-based.  Returns how many are missing in
 * all.
 */
size_t	red_faithful_explain(const char *in, size_t len, const char *out,
	    size_t outlen, unsigned flags, size_t max, struct aiterm_buf *why);

#endif
