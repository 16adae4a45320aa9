/*
 * Multi-line text as one shell command that runs the text in the current
 * shell, so `cd` and variables persist: POSIX shells (bash, dash, zsh,
 * ...) and fish.  PowerShell has its own builder (shell/pwsh.h).
 *
 * The scheme.  The text, after CRLF is turned into LF, is written as the
 * format operand of the shell's printf builtin, single-quoted:
 *
 *   eval "$(__aiterm_s=$?;printf '<format>';exit $__aiterm_s)"
 *
 * In <format> every byte stands for itself except these, which are
 * written as a printf escape:
 *
 *   LF -> \n     TAB -> \t     and as a three-digit octal \ooo:
 *   ' \ % " $ ` ! ( ), a '-' in first place, every other control byte
 *   (CR included) and every byte from 0x80 up (UTF-8 stays byte-exact).
 *
 * Why this is byte-exact.  Inside single quotes the shell takes every
 * character literally, and <format> holds no single quote, so the word
 * the shell passes to printf is <format> itself.  POSIX printf writes the
 * format's characters as they are except for '\' escapes and '%'
 * directives; <format> has no '%' and its only backslashes start the
 * escapes \n, \t and \ooo (always three digits, so a digit after one is
 * never taken into it), each of which writes exactly one byte.  A format
 * that began with '-' could be taken for an option, hence \055.  So printf
 * writes exactly the text.  Command substitution then removes every
 * trailing newline, and nothing else; the double quotes stop field
 * splitting and globbing; eval runs the string it is given in the current
 * shell.  Hence, for a text that does not end in LF, eval runs exactly the
 * text.  For a text that does end in LF (where the trailing newlines
 * matter: a final backslash-newline, a here-document body at the end), a
 * '_' is written after it and removed with a parameter expansion, which
 * needs a variable:
 *
 *   __aiterm_eval=$(__aiterm_s=$?;printf '<format>_';exit $__aiterm_s);eval "${__aiterm_eval%_}"
 *
 * __aiterm_eval stays set in the shell afterwards (overwritten next time).
 * The subshell exits with the status the shell had before, so $? at the
 * start of the text is the status of the previous command, as if the text
 * had been typed.  The result is all printable ASCII: no LF, no CR, no
 * TAB to trigger completion, no '!' for bash or zsh history expansion, no
 * byte a line editor in a non-UTF-8 locale could take for a Meta key.
 * Tested byte for byte in dash, bash, zsh (and fish below) by
 * tests/unit/check_shell.c.
 *
 * Known limits: bash's eval parses options, so a text that starts with '-'
 * fails there with "invalid option" (dash and zsh: "not found"); a text
 * cannot hold a NUL byte (no shell string can), which is an error.
 *
 * Terminals in canonical mode.  A shell without a line editor (dash as
 * Debian builds it, ksh93 without an editing mode) reads in the tty's
 * canonical mode, and Linux drops every byte of a line past 4095.  So do
 * bash and zsh for text typed while a command still runs (their line
 * editor is off until the next prompt), which is why the send pipeline
 * always passes max_line (SHELL_EVAL_CANON_LINE_MAX): the command is then cut
 * between escapes into physical lines of at most max_line bytes, joined by
 * '\<LF>' outside the quotes ('...'\<LF>'...'), which the shell removes
 * as a line continuation.  It is still one command, but it does hold LFs
 * and the shell shows its PS2 prompt for each continuation.  With
 * max_line 0 the result is one line.
 *
 * fish.  The same <format>, for fish's printf builtin, with the output
 * kept whole (trailing newlines included) by `string collect -N` (fish
 * 3.1 or later):
 *
 *   eval (printf '<format>' | string collect -N)
 *
 * In fish's single quotes only \\ and \' are escapes, and <format> holds
 * neither, so the same argument is exact there too.  For fish a space is
 * written as \040 as well: fish looks for an abbreviation at every space
 * typed, over the whole line, which makes typing a long line with many
 * spaces take time quadratic in its length (9 s for 5,000 spaces).
 */
#ifndef AITERM_SHELL_POSIX_EVAL_H
#define AITERM_SHELL_POSIX_EVAL_H

#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"

/* A safe max_line for shells that read in canonical mode (Linux: 4095). */
#define SHELL_EVAL_CANON_LINE_MAX	4000
/* The smallest max_line accepted (other than 0). */
#define SHELL_EVAL_MIN_LINE		128

/*
 * Append the POSIX eval command for text[0..len) to out.  max_line is 0
 * for one line, or the longest physical line allowed (see above).  Returns
 * 0, or -1 with an error (a NUL byte, a max_line below
 * SHELL_EVAL_MIN_LINE) and nothing appended.
 */
int	shell_eval_posix(const char *text, size_t len, size_t max_line,
	    struct aiterm_buf *out, struct aiterm_error *err);

/* The same for fish; always one line. */
int	shell_eval_fish(const char *text, size_t len, struct aiterm_buf *out,
	    struct aiterm_error *err);

#endif
