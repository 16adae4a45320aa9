/*
 * Sanitising text before it is typed into a PTY (pty_send without
 * raw:true).  Text must be well-formed UTF-8; it is rejected otherwise,
 * with the offset of the first bad byte.  From valid text, removed are:
 *
 * - C0 controls other than TAB, LF and CR, and DEL;
 * - C1 controls (U+0080..U+009F);
 * - escape sequences: CSI (which covers the bracketed-paste markers
 *   ESC [ 200 ~ and ESC [ 201 ~), the string sequences OSC, DCS, SOS, PM
 *   and APC up to and including their BEL or ESC \ terminator, and the
 *   short ESC sequences (ESC with intermediates and a final byte).
 *
 * A sequence that is cut short is removed as far as it goes: a CSI up to
 * the first byte that cannot belong to it, a string sequence with no
 * terminator only its two-byte introducer (so a stray ESC ] does not eat
 * the rest of the text), a lone ESC only itself.
 */
#ifndef AITERM_SHELL_SANITIZE_H
#define AITERM_SHELL_SANITIZE_H

#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"

/*
 * What was removed, by kind, so that the caller can say the text was
 * changed and how (issue 37: it was removed without a word).
 */
enum shell_removed_kind {
	SANITIZE_CONTROL,	/* C0 controls but TAB, LF, CR; DEL */
	SANITIZE_C1,		/* C1 controls */
	SANITIZE_ESCAPE,	/* escape sequences, whole or cut short */
	SANITIZE_KINDS
};

struct shell_removed {
	size_t	count[SANITIZE_KINDS];
	size_t	bytes;		/* bytes removed in all */
	char	first[24];	/* the first one: "U+0003", "ESC [200~" */
};

/*
 * Append the sanitised form of text[0..len) to out and, when removed is
 * not NULL, set it to what was removed.  Returns 0, or -1 with "invalid
 * UTF-8 at byte offset N (0xXX)" in err, in which case nothing was
 * appended.
 */
int	shell_sanitize(const char *text, size_t len, struct aiterm_buf *out,
	    struct shell_removed *removed, struct aiterm_error *err);

#endif
