/*
 * Cursor parents (DLV-CURSOR, ADR 0017).  A parent is Cursor only by its
 * clientInfo.name (`cursor-vscode`, or that plus a space and more): no
 * conversation id comes in the MCP _meta.  Aiterm's hooks in
 * ~/.cursor/hooks.json (aiterm-hook cursor-after, cursor-post) tie the
 * conversation to the delivery from the tool's result and put the answer
 * into the conversation with the next tool call (additional_context);
 * a parent that ended its turn first starts the receipt's wait_process.
 * Whoever claims the body first hands it over; the other gets nothing.
 */
#ifndef AITERM_DELIVER_CURSOR_H
#define AITERM_DELIVER_CURSOR_H

#include <stdbool.h>

#include "tools/tool.h"
#include "util/error.h"

#define CURSOR_HOOKS_DIR	"cursor-parent-hooks"

bool	cursor_parent_of(struct tool_call *call);
/* Aiterm's two hooks are in the user's hooks.json: 0, else -1 + err. */
int	cursor_parent_ready(struct aiterm_error *err);

#endif
