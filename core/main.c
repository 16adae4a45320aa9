/*
 * aiterm-mcp: the stdio MCP server.
 *
 *   aiterm-mcp                      serve MCP on stdin/stdout
 *   aiterm-mcp --list-plugins       print every plugin found, as JSON
 *   aiterm-mcp --version | --help
 *   aiterm-mcp --log-pipe LOG       a session's output log writer (pipe-pane)
 *
 * Options: --max-message-bytes N (also $AITERM_MAX_MESSAGE_BYTES),
 * --state-dir DIR (also $AITERM_STATE_DIR), --structured (structuredContent
 * for every client, not only those that ask: ADR 0006).
 */
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "config.h"
#include "deliver/expire.h"
#include "deliver/observe.h"
#include "mcp/server.h"
#include "plugin/registry.h"
#include "pty/logpipe.h"
#include "pty/session.h"
#include "state/stateroot.h"
#include "util/error.h"

static uv_timer_t resume;

static void
on_resume(uv_timer_t *t)
{
	uv_close((uv_handle_t *)t, NULL);
	if (state_root() != NULL)
		delivery_resume();
}

enum mode { MODE_SERVE, MODE_LIST_PLUGINS, MODE_VERSION, MODE_HELP };

struct args {
	enum mode	 mode;
	const char	*state_dir;
	const char	*max_message;
	bool		 structured;
};

enum option_kind { OPT_MODE, OPT_VALUE, OPT_FLAG };

struct option_entry {
	const char		*name;
	enum option_kind	 kind;
	enum mode		 mode;		/* OPT_MODE */
	size_t			 offset;	/* OPT_VALUE, OPT_FLAG: field */
};

static const struct option_entry options[] = {
	{ "--list-plugins", OPT_MODE, MODE_LIST_PLUGINS, 0 },
	{ "--version", OPT_MODE, MODE_VERSION, 0 },
	{ "--help", OPT_MODE, MODE_HELP, 0 },
	{ "--state-dir", OPT_VALUE, 0, offsetof(struct args, state_dir) },
	{ "--max-message-bytes", OPT_VALUE, 0,
	    offsetof(struct args, max_message) },
	{ "--structured", OPT_FLAG, 0, offsetof(struct args, structured) },
};

static const char usage[] =
    "usage: aiterm-mcp [--state-dir DIR] [--max-message-bytes N] "
    "[--structured]\n"
    "       aiterm-mcp --list-plugins | --version | --help\n"
    "Serves the Model Context Protocol on stdin/stdout.\n"
    "--structured: structuredContent in every result (default: only for "
    "clients\n"
    "that ask with the experimental capability " SERVER_STRUCTURED_CAP ").\n";

static int
parse_args(int argc, char **argv, struct args *a)
{
	const struct option_entry *o;
	size_t i;
	int k;

	for (k = 1; k < argc; k++) {
		o = NULL;
		for (i = 0; i < sizeof options / sizeof options[0]; i++) {
			if (strcmp(argv[k], options[i].name) == 0)
				o = &options[i];
		}
		if (o == NULL) {
			fprintf(stderr, "aiterm-mcp: unknown option '%s'\n%s",
			    argv[k], usage);
			return -1;
		}
		if (o->kind == OPT_MODE) {
			a->mode = o->mode;
			continue;
		}
		if (o->kind == OPT_FLAG) {
			*(bool *)((char *)a + o->offset) = true;
			continue;
		}
		if (k + 1 >= argc) {
			fprintf(stderr, "aiterm-mcp: %s needs a value\n",
			    o->name);
			return -1;
		}
		*(const char **)((char *)a + o->offset) = argv[++k];
	}
	return 0;
}

static int
parse_size(const char *text, size_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < 1024 ||
	    v > (1ull << 31)) {
		fprintf(stderr, "aiterm-mcp: --max-message-bytes must be a "
		    "whole number from 1024 to %llu, got '%s'\n", 1ull << 31,
		    text);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

static int
list_plugins(void)
{
	json_t *out;

	registry_load_default();
	out = json_pack("{s:s, s:o}", "version", PACKAGE_VERSION,
	    "plugins", registry_to_json());
	json_dumpf(out, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(out);
	return 0;
}

int
main(int argc, char **argv)
{
	struct args a = { MODE_SERVE, NULL, NULL, false };
	struct server_options so = { SERVER_DEFAULT_MAX_MESSAGE, false, false };
	struct aiterm_error err = ERROR_INIT;
	const char *env;
	int rc;

	/* tmux's pipe-pane runs this as a session's log writer. */
	if (argc == 3 && strcmp(argv[1], "--log-pipe") == 0)
		return logpipe_main(argv[2]);
	if (parse_args(argc, argv, &a) != 0)
		return 2;
	switch (a.mode) {
	case MODE_HELP:
		fputs(usage, stdout);
		return 0;
	case MODE_VERSION:
		printf("aiterm-mcp %s\n", PACKAGE_VERSION);
		return 0;
	case MODE_LIST_PLUGINS:
		return list_plugins();
	case MODE_SERVE:
		break;
	}
	if (a.max_message == NULL)
		a.max_message = getenv("AITERM_MAX_MESSAGE_BYTES");
	if (a.max_message != NULL && parse_size(a.max_message,
	    &so.max_message) != 0)
		return 2;
	env = getenv("AITERM_TEST_TOOLS");
	so.test_tools = env != NULL && strcmp(env, "1") == 0;
	so.structured = a.structured;
	if (state_root_init(a.state_dir, &err) != 0) {
		/* Serve anyway: diagnostics must be able to say why. */
		fprintf(stderr, "aiterm-mcp: state root: %s\n",
		    error_msg(&err));
		error_clear(&err);
	} else
		session_cleanup_all();
	registry_load_default();
	/* Deliveries whose server died are taken over once serving. */
	uv_timer_init(uv_default_loop(), &resume);
	uv_timer_start(&resume, on_resume, 0, 0);
	uv_unref((uv_handle_t *)&resume);
	/* Ready answers nobody claims in time end failed (DLV-CORE). */
	delivery_expiry_start(uv_default_loop());
	rc = server_run(&so);
	registry_reset();
	return rc;
}
