/* The tool table: every MCP tool, one entry each, in listing order. */
#include <string.h>

#include "tools/tool.h"

extern const struct tool_entry tool_pty_open;
extern const struct tool_entry tool_pty_send;
extern const struct tool_entry tool_pty_read;
extern const struct tool_entry tool_pty_key;
extern const struct tool_entry tool_pty_close;
extern const struct tool_entry tool_pty_list;
extern const struct tool_entry tool_pty_observe;
extern const struct tool_entry tool_agent_launch;
extern const struct tool_entry tool_agent_approval;
extern const struct tool_entry tool_claude_approval;
extern const struct tool_entry tool_agent_configure;
extern const struct tool_entry tool_parent_deliveries;
extern const struct tool_entry tool_diagnostics;
extern const struct tool_entry tool_test_sleep;

const struct tool_entry *const tool_table[] = {
	&tool_pty_open,
	&tool_pty_send,
	&tool_pty_read,
	&tool_pty_key,
	&tool_pty_close,
	&tool_pty_list,
	&tool_pty_observe,
	&tool_agent_launch,
	&tool_agent_approval,
	&tool_claude_approval,
	&tool_agent_configure,
	&tool_parent_deliveries,
	&tool_diagnostics,
	&tool_test_sleep,
	NULL,
};

const struct tool_entry *
tool_base(const struct tool_entry *e)
{
	return e->alias_of != NULL ? e->alias_of : e;
}

const struct tool_entry *
tool_find(const char *name, bool test_tools)
{
	size_t i;

	for (i = 0; tool_table[i] != NULL; i++) {
		if (tool_table[i]->test_only && !test_tools)
			continue;
		if (strcmp(tool_table[i]->name, name) == 0)
			return tool_table[i];
	}
	return NULL;
}
