/*
 * The far login shell's family (REM-RELAY, ADR 0028), as the probe told it
 * ("echo aiterm-probe-<n> %OS% $PSHOME": cmd expands %OS%, PowerShell
 * $PSHOME, a POSIX-family shell neither), and a command line in that
 * shell's syntax that runs a program with its arguments: how the relay
 * starts aiterm-mcp on a Windows host (through cmd or PowerShell, found on
 * PATH there) and how a far waiter is written for ssh to run there.
 */
#ifndef AITERM_REMOTE_FAMILY_H
#define AITERM_REMOTE_FAMILY_H

#include <stddef.h>

enum remote_family {
	REMOTE_FAM_UNKNOWN, REMOTE_FAM_POSIX, REMOTE_FAM_CMD, REMOTE_FAM_PWSH,
};

/* "POSIX", "cmd", "PowerShell" (unknown: "POSIX", the default). */
const char *remote_family_name(enum remote_family f);
/*
 * words[0..n) as one command line for f (allocated): POSIX words bare
 * when safe, else in single quotes; cmd words bare when safe, else in
 * double quotes; PowerShell "& " then every word in single quotes ('
 * doubled).  NULL when a word cannot be written for f (a double quote or
 * a percent sign for cmd, a newline anywhere).
 */
char	*remote_family_line(enum remote_family f, const char *const *words,
	    size_t n);

#endif
