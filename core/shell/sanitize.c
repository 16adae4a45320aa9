/* Removal of control characters and escape sequences from text to send. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shell/sanitize.h"
#include "shell/utf8.h"

#define ESC	0x1b
#define BEL	0x07
#define DEL	0x7f

/* The byte after ESC that opens a string sequence, ended by BEL or ST. */
static const char string_introducers[] = {
	']',	/* OSC */
	'P',	/* DCS */
	'X',	/* SOS */
	'^',	/* PM */
	'_',	/* APC */
};

static bool
is_string_introducer(unsigned char c)
{
	size_t i;

	for (i = 0; i < sizeof string_introducers; i++) {
		if ((unsigned char)string_introducers[i] == c)
			return true;
	}
	return false;
}

static bool
in_range(unsigned char c, unsigned char lo, unsigned char hi)
{
	return c >= lo && c <= hi;
}

/* Length of the CSI at s (s[0] is ESC, s[1] is '['), as far as it goes. */
static size_t
csi_len(const unsigned char *s, size_t len)
{
	size_t i = 2;

	while (i < len && in_range(s[i], 0x30, 0x3f))
		i++;
	while (i < len && in_range(s[i], 0x20, 0x2f))
		i++;
	if (i < len && in_range(s[i], 0x40, 0x7e))
		i++;
	return i;
}

/*
 * Length of the string sequence at s through its terminator, or 2 (the
 * introducer alone) when it has none.
 */
static size_t
string_len(const unsigned char *s, size_t len)
{
	size_t i;

	for (i = 2; i < len; i++) {
		if (s[i] == BEL)
			return i + 1;
		if (s[i] == ESC && i + 1 < len && s[i + 1] == '\\')
			return i + 2;
	}
	return 2;
}

/* Length of the escape sequence at s (s[0] is ESC) that is to be removed. */
static size_t
escape_len(const unsigned char *s, size_t len)
{
	size_t i = 1;

	if (len < 2)
		return 1;
	if (s[1] == '[')
		return csi_len(s, len);
	if (is_string_introducer(s[1]))
		return string_len(s, len);
	while (i < len && in_range(s[i], 0x20, 0x2f))
		i++;
	if (i < len && in_range(s[i], 0x30, 0x7e))
		i++;
	return i;
}

static bool
is_kept_control(unsigned char c)
{
	return c == '\t' || c == '\n' || c == '\r';
}

/* "ESC" and the printable bytes of the sequence, as far as they fit. */
static void
name_escape(const unsigned char *s, size_t n, char *out, size_t size)
{
	size_t i, k;

	k = (size_t)snprintf(out, size, "ESC ");
	for (i = 1; i < n && k + 1 < size && in_range(s[i], 0x20, 0x7e); i++)
		out[k++] = (char)s[i];
	out[k] = '\0';
}

/* Count one removed item of n bytes at s in r. */
static void
note(struct shell_removed *r, enum shell_removed_kind kind,
    const unsigned char *s, size_t n)
{
	r->count[kind]++;
	r->bytes += n;
	if (r->first[0] != '\0')
		return;
	if (s[0] == ESC)
		name_escape(s, n, r->first, sizeof r->first);
	else
		snprintf(r->first, sizeof r->first, "U+%04X", s[0] == 0xc2 ?
		    s[1] : s[0]);
}

int
shell_sanitize(const char *text, size_t len, struct aiterm_buf *out,
    struct shell_removed *removed, struct aiterm_error *err)
{
	const unsigned char *s = (const unsigned char *)text;
	struct shell_removed r;
	size_t off = 0, n, bad;

	memset(&r, 0, sizeof r);
	if (!utf8_valid(text, len, &bad))
		return error_set(err, "invalid UTF-8 at byte offset %zu (0x%02x)",
		    bad, s[bad]);
	while (off < len) {
		if (s[off] == ESC) {
			n = escape_len(s + off, len - off);
			note(&r, SANITIZE_ESCAPE, s + off, n);
			off += n;
			continue;
		}
		n = utf8_seq_len(s + off, len - off);
		if ((s[off] < 0x20 && !is_kept_control(s[off])) ||
		    s[off] == DEL) {
			note(&r, SANITIZE_CONTROL, s + off, n);
			off += n;
			continue;
		}
		if (s[off] == 0xc2 && s[off + 1] < 0xa0) {
			note(&r, SANITIZE_C1, s + off, n);
			off += n;
			continue;
		}
		buf_add(out, s + off, n);
		off += n;
	}
	if (removed != NULL)
		*removed = r;
	return 0;
}
