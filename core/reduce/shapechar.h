/*
 * The bytes a line's shape is made of (reduce/shape.h): blanks between
 * words, decimal and hex digits, letters (any byte above 0x7f is one) and
 * the other bytes of a word.  For shape.c and shapehash.c.
 */
#ifndef AITERM_REDUCE_SHAPECHAR_H
#define AITERM_REDUCE_SHAPECHAR_H

#include <stdbool.h>

static inline bool
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static inline bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline bool
is_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline bool
is_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static inline bool
is_word(unsigned char c)
{
	return is_letter(c) || is_digit(c) || c == '_' || c == '.' ||
	    c == '@' || c == '+' || c == '~' || c == '-';
}

#endif
