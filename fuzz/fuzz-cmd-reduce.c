/*
 * RED-CMD with whatever reducer plugins $AITERM_PLUGIN_PATH holds: the
 * first input line is the command, the rest the output, stripped as the
 * pipeline strips it.  A reducer that ran gave a shorter text within the
 * budget of lines (a listing's, the larger, as the bound here), and for
 * half the inputs within a client's bytes (cut to fit, ADR 0043); a
 * listing no reducer took went whole; otherwise the output buffer is as
 * it was.
 * With no plugins loaded every input is declined, which is fine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "reduce/lines.h"
#include "reduce/strip.h"
#include "util/xmalloc.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i, n = 0;

	(void)argc;
	(void)argv;
	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
	for (i = 0; i < registry_count(); i++) {
		if (registry_entry(i)->loaded &&
		    registry_entry(i)->kind == AITERM_KIND_REDUCER)
			n++;
	}
	fprintf(stderr, "fuzz-cmd-reduce: %zu reducer plugins loaded\n", n);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char prefix[] = "before";
	struct aiterm_buf text = BUF_INIT, out = BUF_INIT;
	struct red_cmd_result res;
	const uint8_t *nl = size == 0 ? NULL : memchr(data, '\n', size);
	size_t cmdlen = nl != NULL ? (size_t)(nl - data) : size;
	char *command = xmalloc(cmdlen + 1);
	int rc, exit_code;
	size_t max_bytes;

	memcpy(command, data, cmdlen);
	command[cmdlen] = '\0';
	if (nl != NULL)
		red_strip((const char *)nl + 1, size - cmdlen - 1, &text);
	exit_code = (int)(cmdlen % 4) - 1;
	/* Half the inputs as for a client that cuts at a small size. */
	max_bytes = cmdlen % 2 == 0 ? 0 : 512 + size % 1024;
	buf_adds(&out, prefix);
	rc = red_cmd_reduce_within(command, buf_str(&text), text.len,
	    exit_code, RED_CMD_MAX_LINES, max_bytes, &out, &res);
	fuzz_require(rc != 0 || max_bytes == 0 || out.len - (sizeof prefix -
	    1) <= max_bytes, "cmd_reduce: within the client's bytes");
	fuzz_require(memcmp(out.data, prefix, sizeof prefix - 1) == 0,
	    "cmd_reduce: appends only");
	if (rc == 0 && strcmp(res.name, RED_CMD_WHOLE) == 0) {
		/* A listing no reducer took, within its budget: whole. */
		fuzz_require(res.lossless && out.len - (sizeof prefix - 1) ==
		    text.len && memcmp(out.data + sizeof prefix - 1,
		    text.data, text.len) == 0, "cmd_reduce: whole is whole");
		fuzz_require(red_line_count(text.data, text.len) <=
		    RED_CMD_LISTING_FACTOR * RED_CMD_MAX_LINES,
		    "cmd_reduce: whole within the listing budget");
	} else if (rc == 0) {
		fuzz_require(out.len - (sizeof prefix - 1) < text.len,
		    "cmd_reduce: shorter than the text");
		fuzz_require(red_line_count(out.data + sizeof prefix - 1,
		    out.len - (sizeof prefix - 1)) <= RED_CMD_LISTING_FACTOR *
		    RED_CMD_MAX_LINES, "cmd_reduce: within the line budget");
		fuzz_require(res.name[0] != '\0', "cmd_reduce: names the reducer");
	} else {
		fuzz_require(rc == -1, "cmd_reduce: 0 or -1");
		fuzz_require(out.len == sizeof prefix - 1,
		    "cmd_reduce: declined, nothing appended");
	}
	buf_free(&text);
	buf_free(&out);
	free(command);
	return 0;
}
