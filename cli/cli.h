/*
 * The aiterm command (CTL-CLI, ADR 0022): the MCP tools from a shell.
 * Each subcommand is one row of a table naming its tool and the tool
 * arguments it takes as positional words; every other argument is an
 * option derived from the tool's input schema, so the command takes
 * exactly what the tool takes, checked by the same schema.
 */
#ifndef AITERM_CLI_H
#define AITERM_CLI_H

#include <jansson.h>
#include <stdbool.h>

#include "tools/tool.h"

#define CLI_MAX_POSITIONAL	3

/* Exit statuses: the tool's own failure, and bad usage. */
#define CLI_EXIT_FAILED		1
#define CLI_EXIT_USAGE		2
/* send/read --wait whose command had not ended (timeout(1)'s status). */
#define CLI_EXIT_INCOMPLETE	124

struct cli_command {
	const char	*name;
	const char	*tool;
	const char	*summary;
	/* Tool arguments taken as words, in order; NULL-terminated. */
	const char	*positional[CLI_MAX_POSITIONAL + 1];
	/* How many of them must be given (the rest may be). */
	unsigned	 required;
	/* With wait/until, exit with the command's status (send, read). */
	bool		 command_status;
	/* Examples and anything the schema does not say, for --help. */
	const char	*notes;
};

extern const struct cli_command cli_commands[];
const struct cli_command *cli_command_find(const char *name);

/* What the words after the subcommand asked for. */
struct cli_request {
	const struct cli_command *cmd;
	const struct tool_entry	*tool;
	json_t			*args;	/* the tool arguments */
	bool			 json;	/* print structuredContent */
	bool			 help;	/* print the command's help */
	const char		*state_dir;	/* --state-dir, or NULL */
	bool			 waits;	/* wait or until (send, read) */
};

/*
 * Parse argv (the words after the subcommand) into req->args; on bad
 * usage return -1 with a specific message in *why (malloc'd).
 */
int	cli_parse(struct cli_request *req, int argc, char **argv, char **why);

/* The schema type of a property (the first, when it lists several). */
const char *cli_prop_type(json_t *prop);

/* The help of one command, or of the whole program (cmd NULL). */
void	cli_help(FILE *fp, const struct cli_command *cmd);

/* aiterm run (SUP-RUN): the words after "run"; the exit status. */
int	cli_run(int argc, char **argv, const char *state_dir);

/* Print a tool's result as asked and return the exit status. */
int	cli_output(const struct cli_request *req, json_t *result);

#endif
