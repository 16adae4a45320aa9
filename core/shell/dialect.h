/*
 * Shell dialects: which syntax a command, a sentinel or an eval wrapper
 * has to be written in for the shell that will read it.
 */
#ifndef AITERM_SHELL_DIALECT_H
#define AITERM_SHELL_DIALECT_H

#include <stdbool.h>
#include <stddef.h>

enum shell_dialect {
	SHELL_POSIX,		/* sh, bash, dash, zsh, ksh, busybox ... */
	SHELL_POWERSHELL,	/* pwsh, Windows PowerShell */
	SHELL_FISH,
	SHELL_UNKNOWN,
};

/*
 * The dialect of a shell named by its command: a path or a bare name, an
 * argv[0] with the login-shell '-' in front, a Windows name with ".exe";
 * letter case does not matter ("/bin/bash", "-zsh", "PowerShell.exe").
 * SHELL_UNKNOWN for anything not in the table (csh, cmd.exe, python3).
 */
enum shell_dialect shell_dialect_for(const char *command_name);

/*
 * SHELL_POWERSHELL when the current line of a screen (its last line that
 * is not blank) is a standard PowerShell prompt, "PS <path>> ", possibly
 * with a remoting prefix "[host]: " and one '>' per nesting level;
 * otherwise SHELL_UNKNOWN.  Lines above the last are never looked at, so
 * an old PowerShell prompt in the scrollback does not count.
 */
enum shell_dialect shell_dialect_from_prompt(const char *screen);

/*
 * Find the last line of screen holding something other than blanks; set
 * *start and *len to it without its trailing blanks.  False when there
 * is none.
 */
bool	shell_last_line(const char *screen, const char **start, size_t *len);

/* A stable lower-case name: "posix", "powershell", "fish", "unknown". */
const char *shell_dialect_name(enum shell_dialect dialect);

#endif
