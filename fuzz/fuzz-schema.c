/*
 * Tool-argument validation.  The first byte picks a schema: one of the
 * tools' own input schemas (from the tool table), or, for the last value
 * of the byte's range, a schema read from the input up to its first LF.
 * The rest is the arguments as JSON.  An argument refused has a message;
 * one accepted by a tool's schema has the type it says (an object).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "util/jsonschema.h"
#include "tools/tool.h"

static json_t	**schemas;
static size_t	  nschemas;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	while (tool_table[nschemas] != NULL)
		nschemas++;
	schemas = calloc(nschemas, sizeof *schemas);
	for (i = 0; i < nschemas; i++) {
		schemas[i] = json_loads(tool_base(tool_table[i])->input_schema, 0,
		    NULL);
		if (schemas[i] == NULL) {
			fprintf(stderr, "fuzz-schema: %s: bad schema\n",
			    tool_table[i]->name);
			exit(1);
		}
	}
	return 0;
}

static void
check(const json_t *schema, const json_t *value, bool tool)
{
	struct aiterm_error err = ERROR_INIT;

	if (schema_check(schema, value, &err) == 0) {
		fuzz_require(err.msg == NULL, "schema: accepted, no message");
		if (tool)
			fuzz_require(json_is_object(value),
			    "schema: tool arguments are an object");
	} else {
		fuzz_require(err.msg != NULL && err.msg[0] != '\0',
		    "schema: refused with a message");
	}
	error_clear(&err);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data + 1;
	json_t *schema = NULL, *value;
	const char *nl;
	size_t pick, len;

	if (size == 0)
		return 0;
	pick = data[0] % (nschemas + 1);
	len = size - 1;
	if (pick == nschemas) {
		nl = len == 0 ? NULL : memchr(in, '\n', len);
		if (nl == NULL)
			return 0;
		schema = json_loadb(in, (size_t)(nl - in), JSON_DECODE_ANY,
		    NULL);
		len -= (size_t)(nl + 1 - in);
		in = nl + 1;
		if (schema == NULL)
			return 0;
	}
	value = json_loadb(in, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	if (value != NULL)
		check(schema != NULL ? schema : schemas[pick], value,
		    schema == NULL);
	json_decref(value);
	json_decref(schema);
	return 0;
}
