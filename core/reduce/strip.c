/*
 * RED-STRIP: a line-based virtual screen.
 *
 * The screen keeps the last RED_STRIP_WINDOW rows in a ring; a row that
 * falls out of the ring is final and goes to the output.  The cursor is a
 * row, a byte offset in that row and a count of blank columns past the end
 * of the row (a motion beyond the text pads only when something is written
 * there).  Columns count characters: a wide character takes one column.
 *
 * Plain text is found by a word-at-a-time scan and copied into the cursor
 * row as one run; everything else goes through tables: one for C0
 * controls, one for the byte after ESC and one for CSI final bytes.
 *
 * Costs stay bounded on hostile input.  A row longer than EDIT_MAX bytes
 * freezes what it has, the way a terminal wraps a long line, so that no
 * edit or motion touches more than about EDIT_MAX bytes.  The cursor
 * column is tracked; a row known to be ASCII maps columns to offsets
 * directly, and any other row walks from the nearest of its start, its
 * end and a mark (the last place the cursor was in it).  Motions go at
 * most COL_MAX columns past the text, and the blanks that motions and
 * insertions add are drawn from a budget the size of the input, so the
 * output stays in proportion to the input.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "reduce/lines.h"
#include "reduce/strip.h"
#include "reduce/u8.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define EDIT_MAX	2048	/* bytes of a row past its frozen part */
#define COL_MAX		1024	/* columns a motion goes past the text */
#define BLANK_SPARE	65536	/* blanks allowed beyond the input's size */
#define PARAM_MAX	16	/* CSI parameters kept; more are parsed */
#define PARAM_VALUE_MAX	65535	/* a larger parameter saturates */
#define ROW_SPARE_MAX	65536	/* a reused row keeps at most this buffer */

#define ESC	0x1b

struct row {
	char	*data;
	size_t	 len;
	size_t	 cap;
	size_t	 frozen;	/* bytes before this offset are final */
	size_t	 chars;		/* characters past frozen */
	bool	 wide;		/* may hold non-ASCII past frozen */
	size_t	 mark_off;	/* a known column: its offset, */
	size_t	 mark_col;	/* and its column past frozen */
};

struct screen {
	struct aiterm_buf *out;
	struct row	*rows;		/* row r lives in rows[r % WINDOW] */
	size_t		 top;		/* the oldest row still reachable */
	size_t		 last;		/* the newest row */
	size_t		 cur;		/* the cursor row */
	size_t		 off;		/* the cursor offset in the row */
	size_t		 pad;		/* blank columns past the end */
	size_t		 col;		/* the cursor column, past frozen */
	size_t		 blanks;	/* blanks still allowed */
	bool		 saved;		/* inside a save/restore bracket */
	size_t		 saved_row;
	size_t		 saved_col;
	bool		 discard;	/* absolute position: drop writes */
	size_t		 wrap;		/* terminal width, 0: unknown */
	/* For a part of a text played on its own (red_strip_split): */
	bool		 above;		/* a motion up stopped at row 0 */
	bool		 starved;	/* blanks ran short */
};

struct csi {
	unsigned int	 param[PARAM_MAX];
	size_t		 nparam;
};

/*
 * Rows
 */

static struct row *
row_get(struct screen *s, size_t r)
{
	return &s->rows[r % RED_STRIP_WINDOW];
}

static void
row_reserve(struct row *r, size_t more)
{
	size_t need = r->len + more;
	size_t cap = r->cap == 0 ? 128 : r->cap;

	if (need > r->cap) {
		while (cap < need)
			cap *= 2;
		r->data = xrealloc(r->data, cap);
		r->cap = cap;
	}
}

/* Empty a row for reuse, giving back a buffer a very long line grew. */
static void
row_clear(struct row *r)
{
	if (r->cap > ROW_SPARE_MAX) {
		free(r->data);
		r->data = NULL;
		r->cap = 0;
	}
	r->len = 0;
	r->frozen = 0;
	r->chars = 0;
	r->wide = false;
	r->mark_off = 0;
	r->mark_col = 0;
}

/*
 * Replace bytes [from, to) of a row with n bytes of rep, or with n spaces
 * when rep is NULL.
 */
static void
row_splice(struct row *r, size_t from, size_t to, const char *rep, size_t n)
{
	size_t tail = r->len - to;

	if (n > to - from)
		row_reserve(r, n - (to - from));
	if (n != to - from && tail > 0)
		memmove(r->data + from + n, r->data + to, tail);
	if (n > 0 && rep != NULL)
		memcpy(r->data + from, rep, n);
	else if (n > 0)
		memset(r->data + from, ' ', n);
	r->len = from + n + tail;
}

/*
 * Walk up to *n characters forward from off; *n is left with the count
 * that did not fit before the end of the row.
 */
static size_t
row_walk(const struct row *r, size_t off, size_t *n)
{
	while (*n > 0 && off < r->len) {
		off += red_u8_len((unsigned char)r->data[off]);
		(*n)--;
	}
	return off > r->len ? r->len : off;
}

/*
 * The cursor
 */

static size_t
cursor_col(const struct screen *s)
{
	return s->col;
}

/* Blanks, as many of n as the budget still allows. */
static size_t
blanks_take(struct screen *s, size_t n)
{
	if (n > s->blanks) {
		n = s->blanks;
		s->starved = true;
	}
	s->blanks -= n;
	return n;
}

/*
 * Remember where the cursor is in its row.  Every change to a row happens
 * at the cursor and ends here, so a mark is always a valid column.
 */
static void
cursor_mark(struct screen *s)
{
	struct row *r = row_get(s, s->cur);

	r->mark_off = s->off;
	r->mark_col = s->col - s->pad;
}

/*
 * The offset of column col in a row that may hold non-ASCII: its end, or
 * a walk from the nearer of its start and its mark; *left is what lies
 * past the end of the text.
 */
static size_t
row_seek(const struct row *r, size_t col, size_t *left)
{
	size_t off = r->frozen, at = r->mark_col;

	*left = col;
	if (col >= r->chars) {
		*left = col - r->chars;
		off = r->len;
	} else if (col >= at) {
		*left = col - at;
		off = row_walk(r, r->mark_off, left);
	} else if (at - col < col) {
		off = r->mark_off;
		for (; at > col; at--) {
			off--;
			while (off > r->frozen &&
			    red_u8_is_cont((unsigned char)r->data[off]))
				off--;
		}
		*left = 0;
	} else {
		off = row_walk(r, r->frozen, left);
	}
	return off;
}

/*
 * Move to a column of the cursor row.  Past the end of the text the
 * cursor goes at most COL_MAX columns.
 */
static void
cursor_to_col(struct screen *s, size_t col)
{
	const struct row *r = row_get(s, s->cur);
	size_t left, seg = r->len - r->frozen;

	if (r->wide) {
		s->off = row_seek(r, col, &left);
	} else {
		s->off = r->frozen + (col < seg ? col : seg);
		left = col < seg ? 0 : col - seg;
	}
	s->pad = left < COL_MAX ? left : COL_MAX;
	s->col = col - (left - s->pad);
	cursor_mark(s);
}

/* Move to another reachable row, keeping the column. */
static void
cursor_to_row(struct screen *s, size_t row)
{
	size_t col = cursor_col(s);

	s->cur = row;
	cursor_to_col(s, col);
}

static void
cursor_up(struct screen *s, size_t n)
{
	size_t room = s->cur - s->top;

	if (n > room && s->top == 0)
		s->above = true;
	cursor_to_row(s, s->cur - (n < room ? n : room));
}

static void
cursor_down(struct screen *s, size_t n)
{
	size_t room = s->last - s->cur;

	cursor_to_row(s, s->cur + (n < room ? n : room));
}

/*
 * The screen
 */

/* The oldest row leaves the window: it is final. */
static void
screen_evict(struct screen *s)
{
	struct row *r = row_get(s, s->top);

	buf_add(s->out, r->data, r->len);
	buf_addc(s->out, '\n');
	row_clear(r);
	s->top++;
}

/* Move down one row, making a new one below the last. */
static void
screen_index(struct screen *s)
{
	if (s->cur < s->last) {
		s->cur++;
	} else {
		if (s->last - s->top + 1 == RED_STRIP_WINDOW)
			screen_evict(s);
		s->last++;
		s->cur = s->last;
		row_clear(row_get(s, s->cur));
	}
}

/* Forget the rows below the cursor. */
static void
screen_drop_below(struct screen *s)
{
	while (s->last > s->cur) {
		row_clear(row_get(s, s->last));
		s->last--;
	}
}

/*
 * The characters in n bytes of valid UTF-8, and whether any is not ASCII.
 * Eight bytes at a time: a word without high bits holds eight characters;
 * in another, continuation bytes are those with bit 7 set and bit 6 not.
 */
static size_t
text_chars(const char *p, size_t n, bool *wide)
{
	const uint64_t highs = 0x8080808080808080ULL;
	uint64_t w, high = 0, c;
	size_t i = 0, cont = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		high |= w;
		if ((w & highs) != 0) {
			for (c = w & ~(w << 1) & highs; c != 0; c &= c - 1)
				cont++;
		}
	}
	for (; i < n; i++) {
		high |= (unsigned char)p[i];
		cont += ((unsigned char)p[i] & 0xc0) == 0x80;
	}
	*wide = (high & highs) != 0;
	return n - cont;
}

/*
 * Write valid UTF-8 text at the cursor, overwriting what is there; wide:
 * it may hold characters beyond ASCII (else its bytes are its characters).
 */
static void
row_write(struct screen *s, const char *p, size_t n, bool wide)
{
	struct row *r = row_get(s, s->cur);
	size_t nl, ol, pad, chars;

	if (s->pad > 0) {
		pad = blanks_take(s, s->pad);
		row_splice(r, r->len, r->len, NULL, pad);
		r->chars += pad;
		s->col -= s->pad - pad;
		s->off = r->len;
		s->pad = 0;
	}
	chars = wide ? text_chars(p, n, &wide) : n;
	s->col += chars;
	r->wide = r->wide || wide;
	r->chars += chars;
	while (n > 0 && s->off < r->len) {
		nl = red_u8_len((unsigned char)*p);
		ol = red_u8_len((unsigned char)r->data[s->off]);
		if (nl > n)
			nl = n;
		if (ol > r->len - s->off)
			ol = r->len - s->off;
		if (nl == ol)
			memcpy(r->data + s->off, p, nl);
		else
			row_splice(r, s->off, s->off + ol, p, nl);
		s->off += nl;
		p += nl;
		n -= nl;
		r->chars--;
	}
	if (n > 0) {
		row_reserve(r, n);
		memcpy(r->data + r->len, p, n);
		r->len += n;
		s->off = r->len;
	}
	if (s->off == r->len && r->len - r->frozen > EDIT_MAX) {
		r->frozen = r->len;
		r->chars = 0;
		r->wide = false;
		s->col = 0;
	} else if (s->off == r->len && s->wrap > 0 && r->chars > s->wrap) {
		/*
		 * Past the last column the terminal wrapped: the row's start
		 * is final and a CR returns to the wrapped part (zsh's
		 * PROMPT_SP, readline's long lines).
		 */
		size_t w = s->wrap;

		r->frozen = row_walk(r, r->frozen, &w);
		r->chars -= s->wrap;
		s->col = r->chars;
	}
	cursor_mark(s);
}

/* Text reaches the row unless it is being drawn at an unknown place. */
static void
screen_write(struct screen *s, const char *p, size_t n, bool wide)
{
	if (!s->discard)
		row_write(s, p, n, wide);
}

static void
screen_init(struct screen *s, struct aiterm_buf *out, size_t len)
{
	memset(s, 0, sizeof *s);
	s->out = out;
	s->blanks = len + BLANK_SPARE;
	s->rows = xcalloc(RED_STRIP_WINDOW, sizeof *s->rows);
}

static void
screen_free(struct screen *s)
{
	size_t r;

	for (r = 0; r < RED_STRIP_WINDOW; r++)
		free(s->rows[r].data);
	free(s->rows);
}

/*
 * Emit the rows still in the window.  Blank rows below the cursor are what
 * a cleared status block leaves behind; they are not part of the text.
 */
static void
screen_finish(struct screen *s)
{
	size_t end = s->cur, r;

	for (r = s->cur + 1; r <= s->last; r++) {
		if (row_get(s, r)->len > 0)
			end = r;
	}
	for (r = s->top; r <= end; r++) {
		buf_add(s->out, row_get(s, r)->data, row_get(s, r)->len);
		if (r < end)
			buf_addc(s->out, '\n');
	}
	if (s->out->data == NULL)
		buf_add(s->out, "", 0);
	screen_free(s);
}

/*
 * Actions shared by controls, ESC sequences and CSI sequences
 */

static void
act_cr(struct screen *s)
{
	s->off = row_get(s, s->cur)->frozen;
	s->pad = 0;
	s->col = 0;
	cursor_mark(s);
}

/* LF, VT and FF: a new line, at its first column. */
static void
act_lf(struct screen *s)
{
	s->discard = false;
	screen_index(s);
	act_cr(s);
}

static void
act_bs(struct screen *s)
{
	const struct row *r = row_get(s, s->cur);

	if (s->pad > 0) {
		s->pad--;
		s->col--;
	} else if (s->off > r->frozen) {
		s->off--;
		while (s->off > r->frozen &&
		    red_u8_is_cont((unsigned char)r->data[s->off]))
			s->off--;
		s->col--;
	}
	cursor_mark(s);
}

static void
act_save(struct screen *s)
{
	s->saved = true;
	s->saved_row = s->cur;
	s->saved_col = cursor_col(s);
}

/*
 * Restore closes the bracket and ends a discard.  A saved row that has
 * left the window is out of reach; the cursor then stays where it is.
 */
static void
act_restore(struct screen *s)
{
	if (s->saved) {
		s->discard = false;
		s->saved = false;
		if (s->saved_row >= s->top && s->saved_row <= s->last) {
			s->cur = s->saved_row;
			cursor_to_col(s, s->saved_col);
		}
	}
}

/*
 * An absolute position: the screen does not know the terminal's height.
 * Inside a save/restore bracket it is a status line drawn elsewhere, whose
 * text is dropped until the restore; otherwise only the column is used.
 */
static void
act_absolute(struct screen *s, bool has_col, size_t col)
{
	if (s->saved)
		s->discard = true;
	else if (has_col)
		cursor_to_col(s, col);
}

/* Erase from the cursor to the end of the row. */
static void
erase_right(struct screen *s)
{
	struct row *r = row_get(s, s->cur);

	if (s->off < r->len) {
		r->len = s->off;
		r->chars = s->col - s->pad;
	}
	if (r->len == r->frozen)
		r->wide = false;
	cursor_mark(s);
}

/* Erase from the start of the row up to and including the cursor. */
static void
erase_left(struct screen *s)
{
	struct row *r = row_get(s, s->cur);
	size_t cols = s->col - s->pad, to = s->off;

	if (s->pad == 0 && to < r->len)
		to += red_u8_len((unsigned char)r->data[to]);
	if (to > r->len)
		to = r->len;
	row_splice(r, r->frozen, to, NULL, cols + (to > s->off ? 1 : 0));
	s->off = r->frozen + cols;
	cursor_mark(s);
}

static void
erase_line(struct screen *s)
{
	struct row *r = row_get(s, s->cur);

	r->len = r->frozen;
	r->chars = 0;
	r->wide = false;
	s->off = r->frozen;
	s->pad = s->col;
	cursor_mark(s);
}

/*
 * Clearing the screen: what was shown stays as history (a terminal keeps
 * it in its scrollback) and the text continues on a fresh row.
 */
static void
erase_screen(struct screen *s)
{
	screen_drop_below(s);
	if (row_get(s, s->cur)->len > 0)
		screen_index(s);
	act_cr(s);
}

/*
 * C0 controls
 */

static void
ctl_cr(struct screen *s)
{
	if (!s->discard)
		act_cr(s);
}

static void
ctl_bs(struct screen *s)
{
	if (!s->discard)
		act_bs(s);
}

/*
 * Indexed by the control byte.  LF, VT and FF start a new line (even
 * while writes are dropped, see act_lf); controls without an entry (NUL,
 * BEL, SO, SI, CAN, SUB...) vanish.
 */
static void (*const ctl_table[0x20])(struct screen *) = {
	['\b'] = ctl_bs,
	['\n'] = act_lf,
	['\v'] = act_lf,
	['\f'] = act_lf,
	['\r'] = ctl_cr,
};

/*
 * CSI sequences
 */

/* Parameter i, or def when it is absent or zero. */
static size_t
csi_arg(const struct csi *c, size_t i, size_t def)
{
	return i >= c->nparam || c->param[i] == 0 ? def : c->param[i];
}

static void
csi_ich(struct screen *s, const struct csi *c)
{
	struct row *r = row_get(s, s->cur);
	size_t n = csi_arg(c, 0, 1), room;

	room = r->len - r->frozen < EDIT_MAX ? EDIT_MAX - (r->len - r->frozen) : 0;
	if (n > room)
		n = room;
	if (s->pad == 0 && s->off < r->len) {
		n = blanks_take(s, n);
		row_splice(r, s->off, s->off, NULL, n);
		r->chars += n;
	}
	cursor_mark(s);
}

static void
csi_cuu(struct screen *s, const struct csi *c)
{
	cursor_up(s, csi_arg(c, 0, 1));
}

static void
csi_cud(struct screen *s, const struct csi *c)
{
	cursor_down(s, csi_arg(c, 0, 1));
}

static void
csi_cuf(struct screen *s, const struct csi *c)
{
	cursor_to_col(s, cursor_col(s) + csi_arg(c, 0, 1));
}

static void
csi_cub(struct screen *s, const struct csi *c)
{
	size_t col = cursor_col(s), n = csi_arg(c, 0, 1);

	cursor_to_col(s, n < col ? col - n : 0);
}

static void
csi_cnl(struct screen *s, const struct csi *c)
{
	cursor_down(s, csi_arg(c, 0, 1));
	act_cr(s);
}

static void
csi_cpl(struct screen *s, const struct csi *c)
{
	cursor_up(s, csi_arg(c, 0, 1));
	act_cr(s);
}

static void
csi_cha(struct screen *s, const struct csi *c)
{
	cursor_to_col(s, csi_arg(c, 0, 1) - 1);
}

static void
csi_cup(struct screen *s, const struct csi *c)
{
	act_absolute(s, true, csi_arg(c, 1, 1) - 1);
}

static void
csi_vpa(struct screen *s, const struct csi *c)
{
	act_absolute(s, false, 0);
	(void)c;
}

static void
csi_ed(struct screen *s, const struct csi *c)
{
	switch (csi_arg(c, 0, 0)) {
	case 0:
		erase_right(s);
		screen_drop_below(s);
		break;
	case 1:
		erase_left(s);
		break;
	default:
		erase_screen(s);
		break;
	}
}

static void
csi_el(struct screen *s, const struct csi *c)
{
	switch (csi_arg(c, 0, 0)) {
	case 0:
		erase_right(s);
		break;
	case 1:
		erase_left(s);
		break;
	default:
		erase_line(s);
		break;
	}
}

/* Delete characters at the cursor; the rest of the row moves left. */
static void
csi_dch(struct screen *s, const struct csi *c)
{
	struct row *r = row_get(s, s->cur);
	size_t n = csi_arg(c, 0, 1), want = n, to;

	if (s->pad == 0 && s->off < r->len) {
		to = row_walk(r, s->off, &n);
		row_splice(r, s->off, to, "", 0);
		r->chars -= want - n;
	}
	cursor_mark(s);
}

/* Blank characters at the cursor without moving anything. */
static void
csi_ech(struct screen *s, const struct csi *c)
{
	struct row *r = row_get(s, s->cur);
	size_t n = csi_arg(c, 0, 1), want = n, to;

	if (s->pad == 0 && s->off < r->len) {
		if (n > COL_MAX)
			n = want = COL_MAX;
		to = row_walk(r, s->off, &n);
		row_splice(r, s->off, to, NULL, want - n);
	}
	cursor_mark(s);
}

static void
csi_save(struct screen *s, const struct csi *c)
{
	act_save(s);
	(void)c;
}

static void
csi_restore(struct screen *s, const struct csi *c)
{
	act_restore(s);
	(void)c;
}

struct csi_entry {
	void	(*fn)(struct screen *, const struct csi *);
	bool	 in_discard;	/* also runs while writes are dropped */
};

/*
 * Indexed by final byte minus 0x40.  Finals without an entry (SGR 'm',
 * DECSTBM 'r', device reports...) change nothing the text shows.
 */
static const struct csi_entry csi_table[0x3f] = {
	['@' - 0x40] = { csi_ich, false },
	['A' - 0x40] = { csi_cuu, false },
	['B' - 0x40] = { csi_cud, false },
	['C' - 0x40] = { csi_cuf, false },
	['D' - 0x40] = { csi_cub, false },
	['E' - 0x40] = { csi_cnl, false },
	['F' - 0x40] = { csi_cpl, false },
	['G' - 0x40] = { csi_cha, false },
	['H' - 0x40] = { csi_cup, false },
	['J' - 0x40] = { csi_ed, false },
	['K' - 0x40] = { csi_el, false },
	['P' - 0x40] = { csi_dch, false },
	['X' - 0x40] = { csi_ech, false },
	['`' - 0x40] = { csi_cha, false },
	['a' - 0x40] = { csi_cuf, false },
	['d' - 0x40] = { csi_vpa, false },
	['f' - 0x40] = { csi_cup, false },
	['s' - 0x40] = { csi_save, false },
	['u' - 0x40] = { csi_restore, true },
};

/*
 * Parse a CSI sequence from p (just after "ESC ["); return where the text
 * continues.  Private (?, <, =, >) and intermediate forms are parsed and
 * dropped.  A byte that cannot occur in a CSI aborts it and is processed
 * as text; the end of the input drops it.
 */
static const unsigned char *
csi_parse(struct screen *s, const unsigned char *p, const unsigned char *end)
{
	struct csi c = { { 0 }, 1 };
	const struct csi_entry *e;
	bool plain = true;

	if (p < end && *p >= '<' && *p <= '?') {
		plain = false;
		p++;
	}
	for (; p < end && *p >= 0x30 && *p <= 0x3f; p++) {
		if (*p >= '0' && *p <= '9') {
			if (c.nparam <= PARAM_MAX) {
				unsigned int *v = &c.param[c.nparam - 1];

				*v = *v * 10 + (unsigned int)(*p - '0');
				if (*v > PARAM_VALUE_MAX)
					*v = PARAM_VALUE_MAX;
			}
		} else if (*p == ';' || *p == ':') {
			if (c.nparam <= PARAM_MAX)
				c.nparam++;
		} else {
			plain = false;
		}
	}
	if (c.nparam > PARAM_MAX)
		c.nparam = PARAM_MAX;
	for (; p < end && *p >= 0x20 && *p <= 0x2f; p++)
		plain = false;
	if (p < end && *p >= 0x40 && *p <= 0x7e) {
		e = &csi_table[*p - 0x40];
		if (plain && e->fn != NULL && (!s->discard || e->in_discard))
			e->fn(s, &c);
		p++;
	}
	return p;
}

/*
 * Strings: OSC, DCS, SOS, PM and APC
 */

/*
 * Skip a string body from p; it ends at BEL, ST (ESC \), CAN or SUB.  Any
 * other ESC ends it too and starts a new sequence.  A LF also ends it (a
 * terminal would keep swallowing text; a lost terminator should not hide
 * the rest of a log) and is processed as text.
 */
static const unsigned char *
string_skip(const unsigned char *p, const unsigned char *end)
{
	const unsigned char *q = p, *next = end;

	for (; q < end && next == end; q++) {
		if (*q == 0x07 || *q == 0x18 || *q == 0x1a)
			next = q + 1;
		else if (*q == '\n')
			next = q;
		else if (*q == ESC)
			next = q + 1 < end && q[1] == '\\' ? q + 2 : q;
	}
	return next;
}

/*
 * ESC sequences
 */

static void
esc_save(struct screen *s)
{
	act_save(s);
}

static void
esc_restore(struct screen *s)
{
	act_restore(s);
}

/* IND: down one row, keeping the column. */
static void
esc_ind(struct screen *s)
{
	size_t col = cursor_col(s);

	screen_index(s);
	cursor_to_col(s, col);
}

/* NEL: CR LF. */
static void
esc_nel(struct screen *s)
{
	act_lf(s);
}

/* RI: up one row. */
static void
esc_ri(struct screen *s)
{
	cursor_up(s, 1);
}

/* RIS: a full reset clears the screen and forgets the bracket. */
static void
esc_ris(struct screen *s)
{
	s->saved = false;
	s->discard = false;
	erase_screen(s);
}

enum esc_kind {
	ESC_FINAL = 0,	/* a two-byte sequence */
	ESC_CSI,
	ESC_STRING,	/* OSC, DCS, SOS, PM, APC */
};

struct esc_entry {
	enum esc_kind	 kind;
	void		(*fn)(struct screen *);
	bool		 in_discard;	/* also runs while writes are dropped */
};

/*
 * Indexed by the byte after ESC, for the final bytes 0x30..0x7e; those
 * without an entry are two-byte sequences that change nothing the text
 * shows.  Intermediate bytes (0x20..0x2f, as in "ESC ( B") are handled by
 * esc_parse; any other byte is not part of a sequence.
 */
static const struct esc_entry esc_table[0x7f] = {
	['7'] = { ESC_FINAL, esc_save, false },
	['8'] = { ESC_FINAL, esc_restore, true },
	['D'] = { ESC_FINAL, esc_ind, false },
	['E'] = { ESC_FINAL, esc_nel, false },
	['M'] = { ESC_FINAL, esc_ri, false },
	['c'] = { ESC_FINAL, esc_ris, true },
	['['] = { ESC_CSI, NULL, false },
	['P'] = { ESC_STRING, NULL, false },
	['X'] = { ESC_STRING, NULL, false },
	[']'] = { ESC_STRING, NULL, false },
	['^'] = { ESC_STRING, NULL, false },
	['_'] = { ESC_STRING, NULL, false },
};

/* q points at the byte after ESC, a final byte: run the sequence. */
static const unsigned char *
esc_dispatch(struct screen *s, const unsigned char *q, const unsigned char *end)
{
	const struct esc_entry *e = &esc_table[*q];

	switch (e->kind) {
	case ESC_FINAL:
		if (e->fn != NULL && (!s->discard || e->in_discard))
			e->fn(s);
		q++;
		break;
	case ESC_CSI:
		q = csi_parse(s, q + 1, end);
		break;
	case ESC_STRING:
		q = string_skip(q + 1, end);
		break;
	}
	return q;
}

/*
 * p points at ESC; return where the text continues.  An ESC that no
 * sequence follows is dropped alone.
 */
static const unsigned char *
esc_parse(struct screen *s, const unsigned char *p, const unsigned char *end)
{
	const unsigned char *q = p + 1;

	if (q >= end || *q < 0x20 || *q > 0x7e) {
		/* Nothing follows, or nothing that makes a sequence. */
	} else if (*q <= 0x2f) {
		while (q < end && *q >= 0x20 && *q <= 0x2f)
			q++;
		if (q < end && *q >= 0x30 && *q <= 0x7e)
			q++;
	} else {
		q = esc_dispatch(s, q, end);
	}
	return q;
}

/*
 * Text
 */

/*
 * Eight bytes at once: the high bit of each byte outside 0x20..0x7e.  The
 * lowest is exact (a borrow reaches only the bytes above it).
 */
static uint64_t
word_specials(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t highs = 0x8080808080808080ULL;
	uint64_t below = (w - 0x20 * ones) & ~w;
	uint64_t del = w ^ (0x7f * ones);

	del = (del - ones) & ~del;
	return (w | below | del) & highs;
}

/* The bytes of a word before its first special one (m != 0), or 0. */
static size_t
specials_skip(uint64_t m)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (size_t)__builtin_ctzll(m) / 8;
#else
	(void)m;
	return 0;	/* they are read one by one */
#endif
}

/*
 * The end of the run of text that starts at p: printable ASCII, TAB and
 * well-formed UTF-8 other than C1 controls; *wide is set when it holds
 * UTF-8 beyond ASCII.
 */
static const unsigned char *
text_scan(const unsigned char *p, const unsigned char *end, bool *wide)
{
	uint64_t w, m;
	size_t n, bad;

	for (;;) {
		while (end - p >= 8) {
			memcpy(&w, p, sizeof w);
			if ((m = word_specials(w)) != 0) {
				p += specials_skip(m);
				break;
			}
			p += 8;
		}
		while (p < end && *p >= 0x20 && *p < 0x7f)
			p++;
		if (p == end)
			break;
		if (*p == '\t') {
			p++;
			continue;
		}
		if (*p < 0x80)
			break;
		n = red_u8_check(p, end, &bad);
		if (n == 0 || (p[0] == 0xc2 && p[1] < 0xa0))
			break;
		*wide = true;
		p += n;
	}
	return p;
}

/*
 * One item that is not text: a control, an escape sequence, a C1 control
 * (dropped) or an ill-formed UTF-8 sequence (one U+FFFD).
 */
static const unsigned char *
special(struct screen *s, const unsigned char *p, const unsigned char *end)
{
	const unsigned char *next = p + 1;
	size_t n, bad;

	if (*p == ESC) {
		next = esc_parse(s, p, end);
	} else if (*p < 0x20) {
		if (ctl_table[*p] != NULL)
			ctl_table[*p](s);
	} else if (*p >= 0x80) {
		n = red_u8_check(p, end, &bad);
		if (n == 0) {
			screen_write(s, RED_U8_REPLACEMENT,
			    RED_U8_REPLACEMENT_LEN, true);
			n = bad;
		}
		next = p + n;
	}
	return next;
}

void
red_strip(const char *in, size_t len, struct aiterm_buf *out)
{
	red_strip_wrap(in, len, 0, out);
}

/*
 * Whether the text holds nothing for a screen to do: runs of text
 * (text_scan) and line feeds only.  Such text leaves itself on the
 * screen, row by row, whatever the width (a wrap moves no byte).
 */
static bool
plain_text(const unsigned char *p, const unsigned char *end)
{
	bool wide = false;

	while ((p = text_scan(p, end, &wide)) < end) {
		if (*p != '\n')
			return false;
		p++;
	}
	return true;
}

/* Play the bytes [p, end) on the screen. */
static void
screen_play(struct screen *s, const unsigned char *p,
    const unsigned char *end)
{
	const unsigned char *q;
	bool wide;

	while (p < end) {
		wide = false;
		q = text_scan(p, end, &wide);
		if (q > p)
			screen_write(s, (const char *)p, (size_t)(q - p), wide);
		else
			q = special(s, p, end);
		p = q;
	}
}

/*
 * Two threads (ADR 0047).  A text of at least split bytes is cut after
 * the first LF past its middle; a thread plays the second part on a
 * screen of its own while the caller plays the first.  Where, at the
 * cut, the cursor stands on a new last row with no save pending, and
 * the second part never moved up past its first row nor ran short of
 * the blanks the first part left, the rows above the cursor are final
 * and the second part's text is what the whole screen shows after them.
 * Otherwise the caller's screen plays the second part itself.
 */
struct strip_part {
	const unsigned char *p, *end;
	size_t		 cols;
	struct aiterm_buf out;
	size_t		 used;		/* blanks taken */
	bool		 above, starved;
};

static void
strip_part_run(void *arg)
{
	struct strip_part *sp = arg;
	size_t len = (size_t)(sp->end - sp->p);
	struct screen s;

	buf_init_large(&sp->out, len);
	screen_init(&s, &sp->out, len);
	s.wrap = sp->cols;
	screen_play(&s, sp->p, sp->end);
	sp->used = len + BLANK_SPARE - s.blanks;
	sp->above = s.above;
	sp->starved = s.starved;
	screen_finish(&s);
}

/* Whether the second part's text follows the first's as it is. */
static bool
strip_cut_holds(struct screen *s, const struct strip_part *sp)
{
	return s->cur == s->last && row_get(s, s->cur)->len == 0 &&
	    !s->saved && !sp->above && !sp->starved && sp->used <= s->blanks;
}

/* The rows above the cursor are final: out they go, and the screen. */
static void
screen_hand_over(struct screen *s)
{
	size_t r;

	for (r = s->top; r < s->cur; r++) {
		buf_add(s->out, row_get(s, r)->data, row_get(s, r)->len);
		buf_addc(s->out, '\n');
	}
	screen_free(s);
}

/*
 * Play the text p (len bytes) cut at cut: true when all of it is out;
 * else *from is where the caller's screen plays on from.
 */
static bool
strip_in_two(struct screen *s, const unsigned char *p, size_t cut,
    size_t len, size_t cols, size_t *from)
{
	struct strip_part sp = { .p = p + cut, .end = p + len, .cols = cols };
	uv_thread_t thread;
	bool held;

	*from = 0;
	if (uv_thread_create(&thread, strip_part_run, &sp) != 0)
		return false;
	screen_play(s, p, sp.p);
	uv_thread_join(&thread);
	*from = cut;
	if ((held = strip_cut_holds(s, &sp))) {
		screen_hand_over(s);
		buf_add(s->out, sp.out.data, sp.out.len);
	}
	buf_free(&sp.out);
	return held;
}

void
red_strip_wrap(const char *in, size_t len, size_t cols,
    struct aiterm_buf *out)
{
	red_strip_split(in, len, cols, 0, out);
}

void
red_strip_split(const char *in, size_t len, size_t cols, size_t split,
    struct aiterm_buf *out)
{
	const unsigned char *p = (const unsigned char *)in;
	struct screen s;
	size_t cut, from = 0;

	if (plain_text(p, p + len)) {
		buf_add(out, len > 0 ? in : "", len);
		return;
	}
	screen_init(&s, out, len);
	s.wrap = cols;
	cut = len >= red_split_at(split) ? red_line_past_middle(in, len) : 0;
	if (cut > 0 && strip_in_two(&s, p, cut, len, cols, &from))
		return;
	screen_play(&s, p + from, p + len);
	screen_finish(&s);
}
