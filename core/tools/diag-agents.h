/*
 * diagnostics' agent dependencies (OPS-DIAG, issue 32): each installed
 * harness's CLI, found on PATH or not, its version and whether it is new
 * enough for the plugin, by the same probe agent_launch runs (a child
 * with a deadline, cached per binary).  Read-only.
 */
#ifndef AITERM_TOOLS_DIAG_AGENTS_H
#define AITERM_TOOLS_DIAG_AGENTS_H

#include <jansson.h>

#include "util/buf.h"

/*
 * Probe every harness, then done(arg, agents): an array of {harness,
 * plugin, found, binary, version, min_version, ok, error}, which done
 * owns.  done may run before this returns.
 */
void	diag_agents(void (*done)(void *arg, json_t *agents), void *arg);
/* One line each for the model: "agents:" and what each has. */
void	diag_agents_text(struct aiterm_buf *b, json_t *agents);

#define DIAG_AGENTS_SCHEMA \
	"\"agents\":{\"type\":\"array\",\"items\":{\"type\":\"object\"," \
	"\"properties\":{\"harness\":{\"type\":\"string\"}," \
	"\"plugin\":{\"type\":\"string\"},\"found\":{\"type\":\"boolean\"}," \
	"\"binary\":{\"type\":[\"string\",\"null\"]}," \
	"\"version\":{\"type\":[\"string\",\"null\"]}," \
	"\"min_version\":{\"type\":[\"string\",\"null\"]}," \
	"\"ok\":{\"type\":\"boolean\"}," \
	"\"error\":{\"type\":[\"string\",\"null\"]}}," \
	"\"required\":[\"harness\",\"plugin\",\"found\",\"binary\"," \
	"\"version\",\"min_version\",\"ok\",\"error\"]}}"

#endif
