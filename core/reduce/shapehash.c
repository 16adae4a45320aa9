/*
 * RED-FAITHFUL: the hash of a line's shape (reduce/shape.h), read as the
 * line is, never copied.  Where SSE2 is (every x86-64), the words are
 * found sixteen bytes at a time from bit masks of the line's blanks,
 * digits, hex digits and slashes; elsewhere a byte at a time.  Both mix
 * the same pieces in the same order: the same hash.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "reduce/shape.h"
#include "reduce/shapechar.h"

#define HASH_SEED	1469598103934665603ULL

/*
 * The template is hashed as it is read, never copied: each of its pieces
 * (a word, the text between a word's masked numbers, a path's folders) is
 * mixed eight bytes at a time straight from the line, one multiply a
 * word, and what ends the piece (a blank, a masked number, a path's file
 * name) is mixed in with its last bytes as a tag.  An avalanche finishes
 * it.
 */
#define MIX_K1	0x9e3779b97f4a7c15ULL
#define MIX_K2	0xbf58476d1ce4e5b9ULL

/* What ends a piece, in the top byte of its last word. */
enum { END_WORD = 1, END_NUMBER, END_FOLDER };

/* The avalanche; never 0. */
static uint64_t
finish(uint64_t h)
{
	h ^= h >> 33;
	h *= MIX_K2;
	h ^= h >> 29;
	return h != 0 ? h : 1;
}

static inline uint64_t
mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * MIX_K1;
	return h ^ (h >> 31);
}

/*
 * The n (1 to 7) bytes at p as a word, zero above them; room is how many
 * bytes of the line p has, so that one load reads them when it may.
 */
static inline uint64_t
load_part(const unsigned char *p, size_t n, size_t room)
{
	uint64_t w = 0;
	size_t k;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (room >= 8) {
		memcpy(&w, p, 8);
		return w & (~0ULL >> (64 - 8 * n));
	}
#else
	(void)room;
#endif
	for (k = 0; k < n; k++)
		w |= (uint64_t)p[k] << (8 * k);
	return w;
}

/* Mix the n bytes at p (room of the line from p on) and what ends them. */
static inline uint64_t
mix_piece(uint64_t h, const unsigned char *p, size_t n, size_t room,
    unsigned int end)
{
	uint64_t w, tag = (uint64_t)end << 56;

	for (; n >= 8; n -= 8, p += 8, room -= 8) {
		memcpy(&w, p, 8);
		h = mix(h, w);
	}
	return mix(h, n > 0 ? load_part(p, n, room) | tag : tag);
}

/*
 * Mix a word with every hex run that holds a decimal digit as a number:
 * only the runs around digits are looked at byte by byte.
 */
static uint64_t
mix_masked(uint64_t h, const unsigned char *p, size_t n, size_t room,
    unsigned int end)
{
	size_t k = 0, d, r;

	for (;;) {
		for (d = k; d < n && !is_digit(p[d]); d++)
			;
		if (d == n)
			return mix_piece(h, p + k, n - k, room - k, end);
		for (r = d; r > k && is_hex(p[r - 1]); r--)
			;
		h = mix_piece(h, p + k, r - k, room - k, END_NUMBER);
		for (k = d; k < n && is_hex(p[k]); k++)
			;
	}
}

/*
 * What ends, splits or masks a word of a template: one table load a byte.
 * A letter (0) and a digit (1) go on in one predictable branch.
 */
enum { DIGIT = 1, SLASH, BLANK };
static const unsigned char byte_class[256] = {
	[' '] = BLANK, ['\t'] = BLANK, ['\r'] = BLANK, ['\f'] = BLANK,
	['\v'] = BLANK, ['/'] = SLASH,
	['0'] = DIGIT, ['1'] = DIGIT, ['2'] = DIGIT, ['3'] = DIGIT,
	['4'] = DIGIT, ['5'] = DIGIT, ['6'] = DIGIT, ['7'] = DIGIT,
	['8'] = DIGIT, ['9'] = DIGIT,
};

/* Mix a word: masked when it holds a digit, else as it is. */
static inline uint64_t
mix_word(uint64_t h, const unsigned char *p, size_t n, size_t room,
    bool digit, unsigned int end)
{
	return digit ? mix_masked(h, p, n, room, end) :
	    mix_piece(h, p, n, room, end);
}

/*
 * The end of the word at p[i] (its first blank), whether it holds a
 * digit, and its last two '/'.
 */
static inline size_t
word_end(const unsigned char *p, size_t i, size_t len, bool *digit,
    size_t *last, size_t *prev)
{
	size_t e;
	unsigned char c, dig = 0;

	for (e = i; e < len; e++) {
		c = byte_class[p[e]];
		if (c <= DIGIT) {
			dig |= c;
			continue;
		}
		if (c != SLASH)
			break;
		*prev = *last;
		*last = e;
	}
	*digit = dig != 0;
	return e;
}

/*
 * Where the mixed part of a word ending at e ends, and its tag: up to its
 * file name's '/' (the last one that something follows, else the one
 * before it: last and prev, SIZE_MAX for none), or all of it.
 */
static size_t
word_kept(size_t e, size_t last, size_t prev, unsigned int *end)
{
	size_t s = last != SIZE_MAX && last + 1 < e ? last : prev;

	*end = s != SIZE_MAX ? END_FOLDER : END_WORD;
	return s != SIZE_MAX ? s + 1 : e;
}

uint64_t
red_shape_hash_bytes(const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	uint64_t h = HASH_SEED;
	size_t i = 0, e, to, last, prev;
	unsigned int end;
	bool digit;

	while (i < len) {
		if (is_blank(p[i])) {
			i++;
			continue;
		}
		/* The last '/' that something follows: a path's file name. */
		last = prev = SIZE_MAX;
		e = word_end(p, i, len, &digit, &last, &prev);
		to = word_kept(e, last, prev, &end);
		h = mix_word(h, p + i, to - i, len - i, digit, end);
		i = e;
	}
	return finish(h);
}

#ifdef __SSE2__
/*
 * A window of up to 64 bytes of a line as bit masks, bit k for byte k:
 * blanks (and every position past the line), decimal digits, hex digits
 * and slashes.
 */
struct window {
	uint64_t	 blank, digit, hex, slash;
};

static inline void
window_block(struct window *w, __m128i v, unsigned k)
{
	__m128i ctl = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(8)),
	    _mm_cmplt_epi8(v, _mm_set1_epi8(14)));
	__m128i blank = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
	    _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), ctl));
	__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
	    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
	__m128i low = _mm_or_si128(v, _mm_set1_epi8(0x20));
	__m128i hex = _mm_or_si128(digit, _mm_and_si128(_mm_cmpgt_epi8(low,
	    _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(low, _mm_set1_epi8('f' + 1))));
	__m128i slash = _mm_cmpeq_epi8(v, _mm_set1_epi8('/'));

	/* Signed compares: bytes above 0x7f are none of these. */
	w->blank |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << k;
	w->digit |= (uint64_t)(unsigned)_mm_movemask_epi8(digit) << k;
	w->hex |= (uint64_t)(unsigned)_mm_movemask_epi8(hex) << k;
	w->slash |= (uint64_t)(unsigned)_mm_movemask_epi8(slash) << k;
}

/* The window of the line at p, n bytes left in it. */
static inline void
window_read(struct window *w, const unsigned char *p, size_t n)
{
	unsigned char tail[16];
	unsigned k;

	w->blank = w->digit = w->hex = w->slash = 0;
	for (k = 0; k < 64 && n >= 16; k += 16, p += 16, n -= 16)
		window_block(w, _mm_loadu_si128((const __m128i *)(const void *)p),
		    k);
	if (k < 64 && n > 0) {
		memset(tail, ' ', sizeof tail);
		memcpy(tail, p, n);
		window_block(w, _mm_loadu_si128((const __m128i *)(void *)tail),
		    k);
		k += 16;
	}
	if (k < 64)
		w->blank |= ~0ULL << k;
}

/* Bits [a, b), a <= b <= 64. */
static inline uint64_t
bits(unsigned a, unsigned b)
{
	uint64_t below_b = b == 64 ? ~0ULL : (1ULL << b) - 1;

	return below_b & ~((1ULL << a) - 1);
}

static inline unsigned
lowest(uint64_t m)
{
	return (unsigned)__builtin_ctzll(m);
}

static inline unsigned
highest(uint64_t m)
{
	return 63u - (unsigned)__builtin_clzll(m);
}

/*
 * mix_masked for bytes [a, b) of the window at p: each hex run with a
 * decimal digit found from the masks, not byte by byte.
 */
static uint64_t
mix_masked_window(uint64_t h, const unsigned char *p, unsigned a, unsigned b,
    size_t room, unsigned int end, const struct window *w)
{
	uint64_t d = w->digit & bits(a, b), before;
	unsigned k = a, at, from, to;

	while (d != 0) {
		at = lowest(d);
		before = ~w->hex & bits(k, at);
		from = before != 0 ? highest(before) + 1 : k;
		/* The run ends by b: at the word's blank or its '/'. */
		to = at + lowest(~(w->hex >> at));
		h = mix_piece(h, p + k, from - k, room - (k - a), END_NUMBER);
		k = to;
		d &= ~bits(0, to);
	}
	return mix_piece(h, p + k, b - k, room - (k - a), end);
}

/*
 * Mix the word at ws of the line p (len bytes) ending at e, its last two
 * '/' last and prev (word_kept), masked when it holds a digit.  w: the
 * window at base holding all of what is mixed, or NULL.
 */
static uint64_t
mix_found(uint64_t h, const unsigned char *p, size_t len, size_t ws,
    size_t e, size_t last, size_t prev, bool digit, const struct window *w,
    size_t base)
{
	unsigned int end;
	size_t to = word_kept(e, last, prev, &end);

	if (digit && w != NULL && ws >= base && to - base <= 64)
		return mix_masked_window(h, p + base, (unsigned)(ws - base),
		    (unsigned)(to - base), len - ws, end, w);
	return mix_word(h, p + ws, to - ws, len - ws, digit, end);
}

uint64_t
red_shape_hash(const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	uint64_t h = HASH_SEED, m;
	size_t base, ws = 0, last = SIZE_MAX, prev = SIZE_MAX;
	unsigned pos, end, top;
	bool in_word = false, digit = false;
	struct window w;

	for (base = 0; base < len; base += 64) {
		window_read(&w, p + base, len - base);
		for (pos = 0;;) {
			if (!in_word) {
				if ((m = ~w.blank & ~bits(0, pos)) == 0)
					break;
				pos = lowest(m);
				ws = base + pos;
				in_word = true;
				digit = false;
				last = prev = SIZE_MAX;
			}
			m = w.blank & ~bits(0, pos);
			end = m != 0 ? lowest(m) : 64;
			digit = digit || (w.digit & bits(pos, end)) != 0;
			if ((m = w.slash & bits(pos, end)) != 0) {
				top = highest(m);
				m &= ~(1ULL << top);
				prev = m != 0 ? base + highest(m) : last;
				last = base + top;
			}
			if (end == 64)
				break;	/* the word goes on */
			h = mix_found(h, p, len, ws, base + end, last, prev,
			    digit, &w, base);
			in_word = false;
			pos = end;
		}
	}
	if (in_word)
		h = mix_found(h, p, len, ws, len, last, prev, digit, NULL,
		    0);
	return finish(h);
}
#else
uint64_t
red_shape_hash(const char *text, size_t len)
{
	return red_shape_hash_bytes(text, len);
}
#endif
