/*
 * PowerShell: multi-line text as one line that runs it in the current
 * scope.  The text's UTF-8 bytes are Base64-encoded and the line decodes
 * them into a script block that is dot-sourced, so variables and the
 * location persist:
 *
 *   . ([scriptblock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('<base64>'))))
 *
 * Base64 holds only [A-Za-z0-9+/=], so nothing in the line needs quoting
 * and no LF is ever typed into PowerShell (PSReadLine and Windows console
 * input handle a typed LF badly: Ctrl+Enter and reversed line order).
 * The text is passed through byte for byte, CRLF included; it must be
 * well-formed UTF-8, since UTF8.GetString would quietly replace anything
 * else with U+FFFD.
 */
#ifndef AITERM_SHELL_PWSH_H
#define AITERM_SHELL_PWSH_H

#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"

/*
 * Append the line for text[0..len) to out.  Returns 0, or -1 with
 * "invalid UTF-8 at byte offset N" and nothing appended.
 */
int	shell_eval_pwsh(const char *text, size_t len, struct aiterm_buf *out,
	    struct aiterm_error *err);

#endif
