/* The subcommands of aiterm: one row each, in the order --help lists them. */
#include <string.h>

#include "cli/cli.h"

const struct cli_command cli_commands[] = {
	{
		.name = "open", .tool = "pty_open",
		.summary = "open a terminal (a shell in Aiterm's tmux)",
		.notes = "  aiterm open --name build --cwd ~/src/proj\n",
	},
	{
		.name = "send", .tool = "pty_send",
		.summary = "type text into a session; --wait returns its "
		    "output",
		.positional = { "session_id", "text" }, .required = 2,
		.command_status = true,
		.notes = "  aiterm send build 'make -j2' --wait --timeout 600\n"
		    "With --wait (or --until) the exit status is the "
		    "command's own; 124 when\nit had not ended (timeout, or "
		    "another program in the foreground).\n",
	},
	{
		.name = "read", .tool = "pty_read",
		.summary = "read a session's new output, or its screen",
		.positional = { "session_id" }, .required = 1,
		.command_status = true,
		.notes = "  aiterm read build --wait\n  aiterm read build "
		    "--screen\nWith --wait the exit status is the command's, as "
		    "for send.\n",
	},
	{
		.name = "key", .tool = "pty_key",
		.summary = "press a key (C-c, Enter, Up, ...)",
		.positional = { "session_id", "key" }, .required = 2,
		.notes = "  aiterm key build C-c\n",
	},
	{
		.name = "close", .tool = "pty_close",
		.summary = "end a session and remove what it stored",
		.positional = { "session_id" }, .required = 1,
	},
	{
		.name = "list", .tool = "pty_list",
		.summary = "list the sessions of this state root",
		.notes = "In a pane Aiterm opened, $AITERM_SESSION_ID is that "
		    "pane's own session.\n",
	},
	{
		.name = "observe", .tool = "pty_observe",
		.summary = "the processes of a session and what changed",
		.positional = { "session_id" }, .required = 1,
		.notes = "  c=$(aiterm observe build --json | jq -r .cursor); "
		    "aiterm observe build --cursor \"$c\"\n",
	},
	{
		.name = "launch", .tool = "agent_launch",
		.summary = "start an agent CLI (claude-code, codex-cli, "
		    "grok-cli, cursor-cli)",
		.positional = { "harness", "cwd" }, .required = 2,
		.notes = "  aiterm launch codex-cli . --prompt 'fix the failing "
		    "test'\n",
	},
	{
		.name = "approval", .tool = "agent_approval",
		.summary = "show an agent's pending approval, or answer it",
		.positional = { "session_id", "choice" }, .required = 1,
		.notes = "  aiterm approval worker           (show it)\n"
		    "  aiterm approval worker yes --digest D\n",
	},
	{
		.name = "configure", .tool = "agent_configure",
		.summary = "change a running agent's model (and effort) in "
		    "place",
		.positional = { "session_id", "model" }, .required = 2,
		.notes = "  aiterm configure worker sonnet --effort high\n",
	},
	{ .name = NULL },
};

const struct cli_command *
cli_command_find(const char *name)
{
	const struct cli_command *c;

	for (c = cli_commands; c->name != NULL; c++) {
		if (strcmp(c->name, name) == 0)
			return c;
	}
	return NULL;
}
