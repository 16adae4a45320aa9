/*
 * The terminal test, before any client's config is touched: spawn the
 * aiterm-mcp that will be registered, speak MCP to it on stdio
 * (initialize, pty_open, a command whose output and exit code must come
 * back, pty_close), and end it by closing its stdin.
 */
#ifndef AITERM_SETUP_SELFTEST_H
#define AITERM_SETUP_SELFTEST_H

#include <jansson.h>

/* 0 when the test passed; else -1 and *why (allocated).  *facts: JSON. */
int	selftest_run(const char *server, json_t *env, json_t **facts,
	    char **why);

#endif
