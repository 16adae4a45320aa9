/*
 * aiterm: the MCP tools of aiterm-mcp from a shell (CTL-CLI, ADR 0022).
 *
 *   aiterm COMMAND [ARGUMENTS] [--json] [--state-dir DIR]
 *   aiterm --help | --version | COMMAND --help
 *
 * The call runs in this process on its own libuv loop, through the
 * server's tool table (server_call_once): sessions live in the state root
 * and the private tmux server, not in any process, so one command after
 * another continues the same sessions as any aiterm-mcp does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "mcp/server.h"
#include "plugin/registry.h"
#include "state/stateroot.h"
#include "util/error.h"
#include "util/xmalloc.h"

static int
usage_error(const char *cmd, const char *why)
{
	fprintf(stderr, "aiterm%s%s: %s\n(aiterm%s%s --help shows the "
	    "usage)\n", cmd != NULL ? " " : "", cmd != NULL ? cmd : "", why,
	    cmd != NULL ? " " : "", cmd != NULL ? cmd : "");
	return CLI_EXIT_USAGE;
}

/*
 * Take --state-dir DIR (or --state-dir=DIR) out of argv, wherever it is
 * before "--"; -1 when it lacks its value.
 */
static int
take_state_dir(int *argc, char **argv, const char **dir)
{
	int k, j, take;

	for (k = 1; k < *argc && strcmp(argv[k], "--") != 0; k++) {
		take = 0;
		if (strcmp(argv[k], "--state-dir") == 0) {
			if (k + 1 >= *argc)
				return -1;
			*dir = argv[k + 1];
			take = 2;
		} else if (strncmp(argv[k], "--state-dir=", 12) == 0) {
			*dir = argv[k] + 12;
			take = 1;
		}
		if (take == 0)
			continue;
		for (j = k; j + take < *argc; j++)
			argv[j] = argv[j + take];
		*argc -= take;
		k--;
	}
	return 0;
}

struct shown {
	struct cli_request	*req;
	int			 rc;
};

/* The result as soon as it is there (a secret page is served after it). */
static void
show(json_t *result, void *arg)
{
	struct shown *out = arg;

	out->rc = cli_output(out->req, result);
	fflush(stdout);
}

static int
run(struct cli_request *req)
{
	struct aiterm_error err = ERROR_INIT;
	struct shown out = { req, CLI_EXIT_FAILED };
	json_t *result;
	int rc;

	if (state_root_init(req->state_dir, &err) != 0) {
		/* The tool says why it needs one (pty_list answers without). */
		fprintf(stderr, "aiterm: state root: %s\n", error_msg(&err));
		error_clear(&err);
	}
	registry_load_default();
	result = server_call_once(req->tool->name, req->args, show, &out);
	req->args = NULL;
	rc = out.rc;
	json_decref(result);
	registry_reset();
	return rc;
}

int
main(int argc, char **argv)
{
	struct cli_request req;
	char *why = NULL;
	int rc;

	memset(&req, 0, sizeof req);
	if (take_state_dir(&argc, argv, &req.state_dir) != 0)
		return usage_error(NULL, "--state-dir needs a directory");
	if (argc < 2)
		return usage_error(NULL, "a command is needed");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2 && strcmp(argv[2], "run") == 0) {
			char *help[] = { (char *)"--help", NULL };

			return cli_run(1, help, NULL);
		}
		req.cmd = argc > 2 ? cli_command_find(argv[2]) : NULL;
		cli_help(stdout, req.cmd);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("aiterm %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "run") == 0)
		return cli_run(argc - 2, argv + 2, req.state_dir);
	if ((req.cmd = cli_command_find(argv[1])) == NULL) {
		why = xasprintf("unknown command '%s'", argv[1]);
		rc = usage_error(NULL, why);
		free(why);
		return rc;
	}
	req.tool = tool_find(req.cmd->tool, false);
	if (cli_parse(&req, argc - 2, argv + 2, &why) != 0) {
		rc = usage_error(req.cmd->name, why);
		free(why);
		json_decref(req.args);
		return rc;
	}
	if (req.help) {
		cli_help(stdout, req.cmd);
		json_decref(req.args);
		return 0;
	}
	return run(&req);
}
