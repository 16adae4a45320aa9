/*
 * RED-CMD: choosing and running the command reducer for an output.
 *
 * The command line that produced the output is split into words the way
 * a POSIX shell would (quotes and backslashes; no expansion).  Of a
 * pipeline or a list (|, &&, ||, ;) the last simple command is the one
 * whose output the terminal shows, unless it is a filter that passes the
 * previous one's lines through (head, tail, less, more, cat, tee, grep -v
 * ... see cmdline.c), in which case the one before it is taken.  Prefixes
 * are skipped: VAR=value words, sudo and its options, env and its
 * options, time, nice, nohup, command, exec, stdbuf, timeout DURATION,
 * and runners: uv run, poetry run, pipenv run, pdm run, npx, bunx,
 * pnpm exec/dlx, yarn exec/dlx, python[3] -m MODULE (MODULE becomes the
 * program).  argv[0] loses its directory ("/usr/bin/git" is "git").
 *
 * The reducers are the loaded plugins of kind reducer.  A manifest
 * command pattern is words: the first matches argv[0], each further word
 * the next word of argv that is not an option, in order; a pattern word
 * that starts with '-' must be present among argv's words.  A longer
 * pattern beats a shorter one; among equals the plugin found first wins.
 * A reducer that declines (returns -1) passes the turn to the next match.
 */
#ifndef AITERM_REDUCE_CMD_H
#define AITERM_REDUCE_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "reduce/headtail.h"
#include "util/buf.h"

/*
 * The words of the command whose output a terminal shows for line,
 * NULL-terminated and allocated (red_cmd_argv_free), or NULL when line is
 * empty, multi-line, or not a simple command this parser understands
 * (unbalanced quotes, a subshell, a here-document).
 */
char	**red_cmd_argv(const char *line);
void	 red_cmd_argv_free(char **argv);

/* The budget of lines a command reducer gets in a read. */
#define RED_CMD_MAX_LINES	120
/*
 * A listing's reducer (ls, find, ps, kubectl get, ...: cmd.c) gets this
 * many times the budget, so that it can keep every row (RED-FAITHFUL).
 */
#define RED_CMD_LISTING_FACTOR	4
/*
 * A listing far beyond that budget (its rows left out anyway) is held to
 * what a read's generic reduction shows at most (RED_READ_BYTES), for
 * every client: its reducer chooses the names within it (ADR 0044).
 */
#define RED_CMD_FAR_BYTES	RED_READ_BYTES
/*
 * A reducer's result that left out this many lines or more is followed
 * by the line naming where the whole text is (core/pty/output.c).
 */
#define RED_CMD_FOOTER_LINES	8

/* res.name of a listing within its budget that went whole (no reducer). */
#define RED_CMD_WHOLE	"listing"

struct red_cmd_result {
	char	name[64];	/* the reducer that ran, "" when none */
	char	version[32];
	char	plugin[64];
	bool	lossless;	/* it left nothing out (it returned 1) */
	/*
	 * The last reducer whose result was refused (RED-FAITHFUL), "" when
	 * none was; why (a fixed phrase); and when it left out a line it
	 * must keep (reduce/shape.h), the first such line (0-based).
	 */
	char	refused[64];
	const char *refused_why;
	size_t	refused_line;
};

/*
 * Run the command reducer for line on text (stripped output, len bytes)
 * and append its result to out.  Returns 0 when a reducer ran and its
 * result is shorter than text and holds every rare line of it
 * (RED-FAITHFUL, reduce/shape.h), else -1 with out untouched; a reducer
 * whose result misses a rare line passes the turn to the next match.
 * A listing command (ls, find, du, ps, ...) whose output fits
 * RED_CMD_LISTING_FACTOR times max_lines and that no reducer shortened
 * goes whole: 0, res->name RED_CMD_WHOLE, lossless.
 * max_lines is the budget passed to the reducer; a result with more lines
 * is refused.  exit_code is -1 when unknown.
 */
int	 red_cmd_reduce(const char *line, const char *text, size_t len,
	    int exit_code, size_t max_lines, struct aiterm_buf *out,
	    struct red_cmd_result *res);
/*
 * The same within max_bytes as well (0: no limit; a read for a client
 * that cuts long results passes what it shows): a longer result keeps
 * its first and last lines and says how many went between, and must
 * still hold what RED-FAITHFUL asks (a listing's rows aside: it is taken
 * as far beyond its budget), else the next reducer or the generic stages
 * take it; a listing goes whole only within it.
 */
int	 red_cmd_reduce_within(const char *line, const char *text,
	    size_t len, int exit_code, size_t max_lines, size_t max_bytes,
	    struct aiterm_buf *out, struct red_cmd_result *res);

#endif
