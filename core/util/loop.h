/*
 * The process's event loop.  The core runs on one libuv loop; the program
 * that owns it (aiterm-mcp's server, the aiterm command) names it once
 * with core_loop_set() before any work starts, and every layer that starts
 * asynchronous work takes it from here.  It depends on nothing above it,
 * so no layer has to reach up to the MCP server for its loop (issue 31,
 * doc/layers.md).
 */
#ifndef AITERM_UTIL_LOOP_H
#define AITERM_UTIL_LOOP_H

#include <uv.h>

/* The loop; libuv's default loop until core_loop_set() names another. */
uv_loop_t	*core_loop(void);
void		 core_loop_set(uv_loop_t *loop);

#endif
