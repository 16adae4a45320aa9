/*
 * Sentinels: how the start and the end of a command and its exit status
 * are seen in a shell where Aiterm's integration is absent (ssh, a
 * container, a shell started by hand).  The command line is wrapped so
 * that the shell prints an OSC 133 C mark with a per-command nonce just
 * before the command runs and a D mark with its status just after:
 *
 *   POSIX       printf '\033]133;C;aiterm=<nonce>\007'; <cmd>; printf '\033]133;D;%s;aiterm=<nonce>\007' "$?"
 *   fish        printf '\033]133;C;aiterm=<nonce>\007'; <cmd>; printf '\033]133;D;%s;aiterm=<nonce>\007' $status
 *   PowerShell  Write-Host -NoNewline "$([char]27)]133;C;aiterm=<nonce>$([char]7)"; <cmd>; $__aitermS = if ($?) { 0 } elseif ($LASTEXITCODE) { $LASTEXITCODE } else { 1 }; Write-Host -NoNewline "$([char]27)]133;D;$__aitermS;aiterm=<nonce>$([char]7)"
 *
 * The two marks are printed by the shell that runs the command, in the
 * order of its output: everything the command printed lies between them,
 * and nothing else (issue 34).  The nested shell's prompt and the echo of
 * the line come before C; the next prompt comes after D.
 *
 * The command line itself, echoed by the terminal, shows the ESC only as
 * the text "\033" or "$([char]27)", never as the byte, so the echo never
 * matches: only the marks the shell prints do.  The marks are OSCs, which
 * terminals do not display, and the reader strips them (pty/render.h).
 *
 * The suffix follows a complete command.  A line that ends in a comment,
 * '&' or an open quote would swallow or break it: append it to a line from
 * shell_eval_posix (or the PowerShell builder), never to raw user text.
 * The sentinel's own status replaces $? for the next command (0).
 */
#ifndef AITERM_SHELL_SENTINEL_H
#define AITERM_SHELL_SENTINEL_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/dialect.h"
#include "util/buf.h"
#include "util/error.h"

/*
 * Append the sentinel suffix for dialect to out.  The nonce is 1 to
 * OSC133_TOKEN_MAX characters from [A-Za-z0-9_.-].  Returns 0, or -1 with
 * an error (a bad nonce; SHELL_UNKNOWN has no sentinel).
 */
int	sentinel_build(enum shell_dialect dialect, const char *nonce,
	    struct aiterm_buf *out, struct aiterm_error *err);

/*
 * Wrap the command line in line with the start and end marks for dialect
 * (in place).  *suffix_at (may be NULL) is where the end mark's text
 * starts in the wrapped line.  Returns 0, or -1 with an error as
 * sentinel_build (line unchanged).
 */
int	sentinel_wrap(enum shell_dialect dialect, const char *nonce,
	    struct aiterm_buf *line, size_t *suffix_at, struct aiterm_error *err);

/*
 * Find the first real sentinel mark for nonce in raw terminal output
 * data[0..len): an OSC 133 D mark with an exit status and
 * aiterm=<nonce>.  On success sets *exit_code and the byte range of the
 * mark, [*start, *end), and returns true.  Any pointer may be NULL.
 */
bool	sentinel_find(const char *data, size_t len, const char *nonce,
	    int *exit_code, size_t *start, size_t *end);

#endif
