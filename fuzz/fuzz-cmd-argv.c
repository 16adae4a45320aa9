/*
 * RED-CMD's command-line word splitter on any line: no crash, a line
 * with a LF outside quotes (a second command) gives NULL, and the words
 * it returns are no longer than the line (quotes and backslashes only
 * ever shrink it; '' is an empty word).
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reduce/cmd.h"
#include "util/xmalloc.h"

/*
 * True when line holds a LF outside quotes, a backslash escape and a
 * command substitution: a second command, which must not pass for one.
 */
static bool
bare_lf(const char *p)
{
	char q = 0;
	int depth;

	for (; *p != '\0'; p++) {
		if (q == 0 && p[0] == '$' && p[1] == '(') {
			for (depth = 1, p += 2; *p != '\0' && depth > 0; p++)
				depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			if (*p == '\0')
				break;
			/* What follows is looked at whole: "$(a)$(b)". */
			p--;
			continue;
		}
		if (q != '\'' && *p == '\\' && p[1] != '\0')
			p++;
		else if (q == 0 && (*p == '\'' || *p == '"'))
			q = *p;
		else if (q != 0 && *p == q)
			q = 0;
		else if (q == 0 && *p == '\n')
			return true;
	}
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = xmalloc(size + 1), **argv;
	size_t i, len;

	memcpy(line, data, size);
	line[size] = '\0';
	len = strlen(line);
	argv = red_cmd_argv(line);
	if (argv != NULL) {
		fuzz_require(argv[0] != NULL, "argv: at least one word");
		fuzz_require(!bare_lf(line),
		    "argv: NULL for a multi-line command");
		for (i = 0; argv[i] != NULL; i++)
			fuzz_require(strlen(argv[i]) <= len,
			    "argv: a word no longer than the line");
		fuzz_require(strchr(argv[0], '/') == NULL ||
		    argv[0][strlen(argv[0]) - 1] == '/',
		    "argv: argv[0] has lost its directory");
	}
	red_cmd_argv_free(argv);
	free(line);
	return 0;
}
