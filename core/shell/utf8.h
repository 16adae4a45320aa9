/*
 * UTF-8 helpers for text sent to a PTY: validation that names the offset
 * of the first bad byte, and splitting into chunks that never cut a
 * character in two (input that crosses a multiplexer server travels in
 * chunks of at most UTF8_CHUNK_MAX bytes).
 */
#ifndef AITERM_SHELL_UTF8_H
#define AITERM_SHELL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

#define UTF8_CHUNK_MAX	256

/*
 * Length (1 to 4) of the well-formed UTF-8 sequence that starts s, or 0
 * when s does not start with one: a stray continuation byte, an overlong
 * form, a surrogate, a code point above U+10FFFF or a sequence cut short
 * by len.  len must be at least 1.
 */
size_t	utf8_seq_len(const unsigned char *s, size_t len);

/*
 * True when s is well-formed UTF-8.  Otherwise false, and *bad (if not
 * NULL) is the offset of the first byte that does not begin a well-formed
 * sequence.
 */
bool	utf8_valid(const char *s, size_t len, size_t *bad);

/* Append s to out with each ill-formed sequence as U+FFFD. */
void	utf8_clean(const char *s, size_t len, struct aiterm_buf *out);

/*
 * Length of the first chunk of s: len itself when len <= max, otherwise
 * the longest prefix of at most max bytes that ends on a character
 * boundary.  Only if no boundary lies in the last three bytes before max
 * (invalid input) is max returned.  A max below 4 is taken as 4, so a
 * chunk can always hold a whole character.
 */
size_t	utf8_chunk_len(const char *s, size_t len, size_t max);

/*
 * Split s into chunks with utf8_chunk_len.  Returns the number of chunks
 * and sets *lens to an allocated array of their lengths (the caller frees
 * it; NULL when len is 0).
 */
size_t	utf8_chunks(const char *s, size_t len, size_t max, size_t **lens);

#endif
