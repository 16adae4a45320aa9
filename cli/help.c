/*
 * aiterm --help and aiterm COMMAND --help.  A command's options are the
 * tool's input schema, written out: name, what it takes, its default and
 * its description, so the help cannot drift from what the tool accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char program_help[] =
"usage: aiterm COMMAND [ARGUMENTS] [--json]\n"
"       aiterm --help | --version | COMMAND --help\n"
"\n"
"The MCP tools of aiterm-mcp from a shell, for people and for agents\n"
"without MCP: the same arguments, the same checks and the same results,\n"
"run by the server's own code in this process.\n"
"\n"
"Commands:\n";

static const char program_notes[] =
"\n"
"Options of every command:\n"
"  --json          print the tool's structured result (structuredContent)\n"
"                  instead of its text\n"
"  --state-dir DIR the state root (default $AITERM_STATE_DIR, else\n"
"                  $XDG_STATE_HOME/aiterm, else ~/.local/state/aiterm)\n"
"  --help          the command's arguments\n"
"  --              every later word is an argument, even one starting "
"with --\n"
"\n"
"Every pane Aiterm starts has AITERM_SESSION_ID (its own session),\n"
"AITERM_STATE_DIR and AITERM_BIN (this program), so in any of them\n"
"\"$AITERM_BIN\" list works without setup.\n"
"\n"
"Exit status: 0 done; 1 the tool failed (its message on stderr); 2 bad\n"
"usage; send/read --wait: the command's own exit status, 124 when it had\n"
"not ended.\n";

/* Upper case of a property name, for a positional word. */
static void
put_upper(FILE *fp, const char *name)
{
	for (; *name != '\0'; name++)
		fputc(*name >= 'a' && *name <= 'z' ? *name - 'a' + 'A' : *name,
		    fp);
}

/* --foo-bar (prefix "--") for foo_bar. */
static void
put_option(FILE *fp, const char *prefix, const char *name)
{
	fputs(prefix, fp);
	for (; *name != '\0'; name++)
		fputc(*name == '_' ? '-' : *name, fp);
}

/* Text in lines of at most 76 columns, each after indent. */
static void
put_wrapped(FILE *fp, const char *text, const char *indent)
{
	size_t width = 76 - strlen(indent), len, cut;

	while (*text != '\0') {
		len = strlen(text);
		cut = len;
		if (len > width) {
			for (cut = width; cut > 0 && text[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = width;
		}
		fprintf(fp, "%s%.*s\n", indent, (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

static bool
is_positional(const struct cli_command *cmd, const char *name)
{
	size_t i;

	for (i = 0; cmd->positional[i] != NULL; i++) {
		if (strcmp(cmd->positional[i], name) == 0)
			return true;
	}
	return false;
}

/* What follows an option in the help: its value's form. */
static const char *
value_form(json_t *prop)
{
	static const struct {
		const char	*type;
		const char	*form;
	} table[] = {
		{ "boolean", "" },
		{ "integer", " N" },
		{ "number", " SECONDS" },
		{ "array", " A,B,..." },
		{ "object", " KEY=VALUE" },
		{ "string", " TEXT" },
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strcmp(table[i].type, cli_prop_type(prop)) == 0)
			return table[i].form;
	}
	return " VALUE";
}

static void
put_limits(FILE *fp, json_t *prop)
{
	json_t *min = json_object_get(prop, "minimum");
	json_t *max = json_object_get(prop, "maximum");
	json_t *def = json_object_get(prop, "default");
	char *d;

	if (json_is_number(min) && json_is_number(max))
		fprintf(fp, " (%g-%g)", json_number_value(min),
		    json_number_value(max));
	if (def != NULL && !json_is_false(def)) {
		d = json_dumps(def, JSON_ENCODE_ANY);
		fprintf(fp, " [default %s]", d != NULL ? d : "?");
		free(d);
	}
	if (strcmp(cli_prop_type(prop), "array") == 0 ||
	    strcmp(cli_prop_type(prop), "object") == 0)
		fputs(" (may repeat)", fp);
}

static void
command_help(FILE *fp, const struct cli_command *cmd)
{
	const struct tool_entry *t = tool_find(cmd->tool, false);
	json_t *props = json_object_get(tool_input_schema(t), "properties");
	json_t *prop;
	const char *name;
	size_t i;

	fprintf(fp, "usage: aiterm %s", cmd->name);
	for (i = 0; cmd->positional[i] != NULL; i++) {
		fputs(i < cmd->required ? " " : " [", fp);
		put_upper(fp, cmd->positional[i]);
		if (i >= cmd->required)
			fputc(']', fp);
	}
	fputs(" [OPTIONS] [--json]\n", fp);
	fprintf(fp, "\n%s: %s (the MCP tool %s).\n", cmd->name,
	    cmd->summary, cmd->tool);
	put_wrapped(fp, t->description, "");
	fputs("\nOptions:\n", fp);
	json_object_foreach(props, name, prop) {
		if (is_positional(cmd, name))
			continue;
		fputs("  ", fp);
		put_option(fp, "--", name);
		fputs(value_form(prop), fp);
		if (strcmp(cli_prop_type(prop), "boolean") == 0)
			put_option(fp, ", --no-", name);
		put_limits(fp, prop);
		fputc('\n', fp);
		if (json_is_string(json_object_get(prop, "description")))
			put_wrapped(fp, json_string_value(json_object_get(prop,
			    "description")), "      ");
	}
	fputs("  --json\n      print the structured result\n", fp);
	if (cmd->notes != NULL)
		fprintf(fp, "\n%s", cmd->notes);
}

void
cli_help(FILE *fp, const struct cli_command *cmd)
{
	const struct cli_command *c;

	if (cmd != NULL) {
		command_help(fp, cmd);
		return;
	}
	fputs(program_help, fp);
	for (c = cli_commands; c->name != NULL; c++)
		fprintf(fp, "  %-9s %s\n", c->name, c->summary);
	fprintf(fp, "  %-9s %s\n", "run", "one command under the supervisor: "
	    "timeouts, its whole tree ended");
	fputs(program_notes, fp);
}
