/*
 * A tool's result on stdout: its text (what the model reads) by default,
 * its structuredContent with --json; a failure's text on stderr.  The
 * exit status says which (ADR 0022).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void
put_text(FILE *fp, json_t *result)
{
	json_t *item;
	size_t i;
	const char *text;

	json_array_foreach(json_object_get(result, "content"), i, item) {
		text = json_string_value(json_object_get(item, "text"));
		if (text == NULL)
			continue;
		fputs(text, fp);
		if (*text == '\0' || text[strlen(text) - 1] != '\n')
			fputc('\n', fp);
	}
}

/*
 * send/read that waited: the command's own exit status; 124 when it had
 * not ended; 0 when it ended without one (until, quiet).
 */
static int
command_status(const struct cli_request *req, json_t *sc)
{
	json_t *code = json_object_get(sc, "exit_code");

	if (!req->cmd->command_status || !req->waits)
		return 0;
	if (json_is_false(json_object_get(sc, "complete")))
		return CLI_EXIT_INCOMPLETE;
	if (json_is_integer(code))
		return (int)(json_integer_value(code) & 0xff);
	return 0;
}

int
cli_output(const struct cli_request *req, json_t *result)
{
	json_t *sc = json_object_get(result, "structuredContent");

	if (json_is_true(json_object_get(result, "isError"))) {
		put_text(stderr, result);
		return CLI_EXIT_FAILED;
	}
	if (req->json) {
		json_dumpf(sc != NULL ? sc : json_null(), stdout,
		    JSON_INDENT(2) | JSON_ENCODE_ANY);
		fputc('\n', stdout);
	} else
		put_text(stdout, result);
	return command_status(req, sc);
}
