/*
 * REPL prompts: whether the current line of a screen is the prompt of a
 * read-eval-print loop (python3, node, sqlite3, psql, mysql/mariadb,
 * ipython), so that text sent through a shell carrier (ssh) to a REPL on
 * the far side goes as given, without an eval wrapper or a sentinel
 * (issue 34).
 */
#ifndef AITERM_SHELL_REPL_PROMPT_H
#define AITERM_SHELL_REPL_PROMPT_H

#include <stdbool.h>

/*
 * The name of the REPL whose prompt (or continuation prompt) is the last
 * line of screen that is not blank, leading and trailing blanks aside:
 * "python", "node", "sqlite3", "psql", "mysql", "ipython"; NULL for any
 * other line (a shell prompt, output) and for NULL.  Lines above the last
 * are never looked at.
 */
const char	*shell_repl_prompt(const char *screen);
/*
 * Whether exe, a program's name ("python3.11", "mariadb"), is one of the
 * REPLs whose prompts shell_repl_prompt knows (its name starts with one).
 */
bool		 shell_repl_known(const char *exe);

#endif
