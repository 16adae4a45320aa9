/*
 * bench/reduce-case: what the core's command reducers make of a recorded
 * case (<case>/cmd, <case>/out), for reducer authors (doc/reducers.md).
 * Prints the reducer that took it, or the last one refused and why
 * (RED-FAITHFUL: the first line it must keep but left out), then the
 * result.  Plugins come from AITERM_PLUGIN_PATH (':'-separated), by
 * default the build tree's reducer families.
 *
 *	make bench/reduce-case && bench/reduce-case CASE_DIR... [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "reduce/strip.h"
#include "util/buf.h"

static char *
slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *text;
	long n;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (text = malloc((size_t)n + 1)) ==
	    NULL) {
		fclose(f);
		return NULL;
	}
	*len = fread(text, 1, (size_t)n, f);
	text[*len] = '\0';
	fclose(f);
	return text;
}

static int
one_case(const char *dir, int quiet)
{
	struct aiterm_buf stripped = BUF_INIT, out = BUF_INIT;
	struct red_cmd_result res;
	size_t clen, olen;
	char *cmd = slurp(dir, "cmd", &clen), *raw = slurp(dir, "out", &olen);
	int rc;

	if (cmd == NULL || raw == NULL) {
		fprintf(stderr, "%s: no cmd or out\n", dir);
		free(cmd);
		free(raw);
		return 1;
	}
	cmd[strcspn(cmd, "\n")] = '\0';
	red_strip(raw, olen, &stripped);
	rc = red_cmd_reduce(cmd, buf_str(&stripped), stripped.len, -1,
	    RED_CMD_MAX_LINES, &out, &res);
	printf("== %s: %s\n", dir, cmd);
	if (res.refused[0] != '\0')
		printf("refused %s: %s (stripped line %zu)\n", res.refused,
		    res.refused_why, res.refused_line + 1);
	if (rc == 0)
		printf("taken by %s%s: %zu -> %zu bytes\n", res.name,
		    res.lossless ? " (lossless)" : "", stripped.len, out.len);
	else
		printf("no reducer took it (%zu bytes)\n", stripped.len);
	if (!quiet && rc == 0)
		fwrite(out.data, 1, out.len, stdout);
	buf_free(&stripped);
	buf_free(&out);
	free(cmd);
	free(raw);
	return 0;
}

int
main(int argc, char **argv)
{
	char built[] = PLUGIN_PATH, *p;
	const char *path = getenv("AITERM_PLUGIN_PATH");
	int i, quiet = 0, bad = 0;

	/* The build tree's plugin folders, as make lists them. */
	for (p = built; *p != '\0'; p++)
		*p = *p == ' ' ? ':' : *p;
	for (i = 1; i < argc; i++)
		quiet |= strcmp(argv[i], "--quiet") == 0;
	registry_load(path != NULL ? path : built, NULL);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quiet") != 0)
			bad |= one_case(argv[i], quiet);
	}
	registry_reset();
	return bad;
}
