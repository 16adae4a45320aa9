/* POSIX and fish eval commands for multi-line text (see posix-eval.h). */
#include <stdbool.h>
#include <string.h>

#include "shell/posix-eval.h"

#define POSIX_PLAIN_HEAD	"eval \"$(__aiterm_s=$?;printf '"
#define POSIX_PLAIN_TAIL	"';exit $__aiterm_s)\""
#define POSIX_KEEP_HEAD		"__aiterm_eval=$(__aiterm_s=$?;printf '"
#define POSIX_KEEP_TAIL		"_';exit $__aiterm_s);eval \"${__aiterm_eval%_}\""
#define FISH_HEAD		"eval (printf '"
#define FISH_TAIL		"' | string collect -N)"
/* Between two quoted segments: close, continue the line, reopen. */
#define CONTINUATION		"'\\\n'"

/* Printable ASCII that is written as an octal escape all the same. */
static const char escaped_punct[] = "'\\%\"$`!()";

/*
 * Set enc to the printf escape for byte c at position pos of the text;
 * return its length (1 when c stands for itself).  With octal_space, a
 * space is escaped too.
 */
static size_t
encode_byte(unsigned char c, size_t pos, bool octal_space, char enc[5])
{
	static const char digits[] = "01234567";

	if (c == '\n' || c == '\t') {
		enc[0] = '\\';
		enc[1] = c == '\n' ? 'n' : 't';
		return 2;
	}
	if (c >= 0x20 && c < 0x7f && strchr(escaped_punct, c) == NULL &&
	    !(c == '-' && pos == 0) && !(c == ' ' && octal_space)) {
		enc[0] = (char)c;
		return 1;
	}
	enc[0] = '\\';
	enc[1] = digits[(c >> 6) & 7];
	enc[2] = digits[(c >> 3) & 7];
	enc[3] = digits[c & 7];
	return 4;
}

/* Offset of the first NUL in text, or len. */
static size_t
find_nul(const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);

	return nul == NULL ? len : (size_t)(nul - text);
}

/* True when byte i of text is a CR that starts a CRLF. */
static bool
is_crlf_cr(const char *text, size_t len, size_t i)
{
	return text[i] == '\r' && i + 1 < len && text[i + 1] == '\n';
}

/* True when the text, CRLF taken as LF, ends with LF. */
static bool
ends_with_lf(const char *text, size_t len)
{
	return len > 0 && text[len - 1] == '\n';
}

/*
 * Append the format for text to out.  line is the length of the physical
 * line so far; with max_line not 0, a continuation is put in before an
 * escape that would take the line (plus reserve bytes still to come on
 * the last line) past max_line.  Returns the length of the last line.
 */
static size_t
add_format(struct aiterm_buf *out, const char *text, size_t len,
    bool octal_space, size_t line, size_t max_line, size_t reserve)
{
	char enc[5];
	size_t i, n, pos = 0;

	for (i = 0; i < len; i++) {
		if (is_crlf_cr(text, len, i))
			continue;
		n = encode_byte((unsigned char)text[i], pos++, octal_space, enc);
		if (max_line != 0 && line + n + reserve > max_line) {
			buf_adds(out, CONTINUATION);
			line = 1;
		}
		buf_add(out, enc, n);
		line += n;
	}
	return line;
}

static int
check_nul(const char *text, size_t len, struct aiterm_error *err)
{
	size_t nul = find_nul(text, len);

	if (nul < len)
		return error_set(err, "text holds a NUL byte at offset %zu, "
		    "which no shell string can carry", nul);
	return 0;
}

int
shell_eval_posix(const char *text, size_t len, size_t max_line,
    struct aiterm_buf *out, struct aiterm_error *err)
{
	bool keep = ends_with_lf(text, len);
	const char *head = keep ? POSIX_KEEP_HEAD : POSIX_PLAIN_HEAD;
	const char *tail = keep ? POSIX_KEEP_TAIL : POSIX_PLAIN_TAIL;

	if (check_nul(text, len, err) == -1)
		return -1;
	if (max_line != 0 && max_line < SHELL_EVAL_MIN_LINE)
		return error_set(err, "max_line %zu is below the minimum of %d",
		    max_line, SHELL_EVAL_MIN_LINE);
	buf_adds(out, head);
	/* Room for the continuation's "'\" on any line but the last. */
	add_format(out, text, len, false, strlen(head), max_line,
	    max_line == 0 ? 0 : strlen(tail) + 2);
	buf_adds(out, tail);
	return 0;
}

int
shell_eval_fish(const char *text, size_t len, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	if (check_nul(text, len, err) == -1)
		return -1;
	buf_adds(out, FISH_HEAD);
	/* fish checks for an abbreviation at every typed space. */
	add_format(out, text, len, true, 0, 0, 0);
	buf_adds(out, FISH_TAIL);
	return 0;
}
