/*
 * Starting a shell with Aiterm's shell integration (core/shell/integration,
 * installed in $(pkgdatadir)/shell): the argv and the environment entries
 * that make the shell load it without touching the user's startup files.
 *
 *   bash      bash --rcfile <dir>/aiterm.bash    (sources ~/.bashrc)
 *   zsh       ZDOTDIR=<dir>/zsh, AITERM_USER_ZDOTDIR=<the user's ZDOTDIR>
 *   dash, sh  ENV=<dir>/aiterm.sh, AITERM_USER_ENV=<the user's ENV>
 *   fish      fish --init-command "source '<dir>/aiterm.fish'"
 *
 * and AITERM_SHELL_TOKEN=<token> for all, which the scripts put in every
 * mark as aiterm=<token>.  See core/shell/integration/README.md.  Other
 * shells start plain and need a sentinel (shell/sentinel.h).
 */
#ifndef AITERM_SHELL_LAUNCH_H
#define AITERM_SHELL_LAUNCH_H

#include <stdbool.h>

#include "util/error.h"

struct shell_integration_options {
	const char	*shell;		/* path or name, e.g. "/bin/bash" */
	const char	*dir;		/* the integration scripts' folder */
	const char	*token;		/* [A-Za-z0-9_.-], 1..64; NULL: none */
	const char	*user_zdotdir;	/* the user's ZDOTDIR; NULL: unset */
	const char	*user_env;	/* the user's ENV; NULL: unset */
	/*
	 * Integrate only when the shell's script is readable in dir (a
	 * server run from a tree whose scripts are missing falls back to
	 * sentinels instead of waiting for marks that never come).
	 */
	bool		 require_scripts;
};

struct shell_launch {
	char	**argv;		/* NULL-terminated; argv[0] is the shell */
	char	**env;		/* NULL-terminated "NAME=value" to set */
	bool	  integrated;	/* false: a shell with no integration */
};

/*
 * Fill *out (to be released with shell_launch_free).  For a shell without
 * integration, argv is the shell alone, env is empty and integrated is
 * false.  Returns 0, or -1 with an error (no shell, no dir, a bad token).
 */
int	shell_integration_argv(const struct shell_integration_options *o,
	    struct shell_launch *out, struct aiterm_error *err);

void	shell_launch_free(struct shell_launch *launch);

#endif
