/*
 * Shared by the reducer family suites (check_red_<family>.c): files, the
 * real dispatch (red_cmd_reduce with the build tree's plugins) and the
 * corpus check of one fixture case.
 */
#ifndef AITERM_TESTS_REDTEST_H
#define AITERM_TESTS_REDTEST_H

#include <stddef.h>
#include <stdint.h>

#include "reduce/cmd.h"

/* The whole file, NUL-terminated (len may be NULL); fails the test if unreadable. */
char	*rt_slurp(const char *path, size_t *len);

/* red_cmd_reduce on text; the result, or NULL when no reducer took it. */
char	*rt_reduce(const char *line, const char *text, int exit_code,
	    size_t max_lines, struct red_cmd_result *res);

/*
 * line on text must be taken by reducer name of plugin with exactly want
 * as its result, lossless as asked (1, 0, or -1: either); budget 200.
 */
void	rt_check_exact(const char *plugin, const char *line, const char *text,
	    const char *name, int lossless, const char *want);
/* No reducer takes line on text (budget 200). */
void	rt_check_declines(const char *line, const char *text);

/* One case of <fixtures>/reduce and what must happen to it. */
struct rt_fixture {
	const char	*name;
	const char	*reducer;	/* the reducer that must take it */
	int		 lossless;	/* 1, 0, or -1: either */
};

/*
 * The case's cmd and stripped out through red_cmd_reduce at the budget of
 * a read: taken by fx->reducer of plugin, lossless as asked, shorter than
 * the stripped text, within RED_CMD_MAX_LINES (a listing: times
 * RED_CMD_LISTING_FACTOR), and every must_keep string
 * of its meta.json kept.
 */
void	rt_check_fixture(const char *fixtures_dir, const char *plugin,
	    const struct rt_fixture *fx);

/* xorshift64*, for property tests: the same cases on every machine. */
uint64_t rt_next(uint64_t *s);
/* A number below n (0 when n is 0). */
size_t	rt_pick(uint64_t *s, size_t n);

#endif
