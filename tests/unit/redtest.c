/* Shared by the reducer family suites (see redtest.h). */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/lines.h"
#include "reduce/strip.h"
#include "redtest.h"
#include "util/buf.h"
#include "util/xmalloc.h"

char *
rt_slurp(const char *path, size_t *len)
{
	struct aiterm_buf b = BUF_INIT;
	char chunk[8192];
	FILE *f;
	size_t n;

	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	buf_add(&b, "", 0);
	return buf_steal(&b, len);
}

char *
rt_reduce(const char *line, const char *text, int exit_code,
    size_t max_lines, struct red_cmd_result *res)
{
	struct aiterm_buf out = BUF_INIT;

	if (red_cmd_reduce(line, text, strlen(text), exit_code, max_lines,
	    &out, res) != 0) {
		buf_free(&out);
		return NULL;
	}
	buf_add(&out, "", 0);
	return buf_steal(&out, NULL);
}

void
rt_check_exact(const char *plugin, const char *line, const char *text,
    const char *name, int lossless, const char *want)
{
	struct red_cmd_result res;
	char *got;

	got = rt_reduce(line, text, 0, 200, &res);
	ck_assert_msg(got != NULL, "%s declined", line);
	ck_assert_str_eq(res.name, name);
	ck_assert_str_eq(res.plugin, plugin);
	ck_assert_str_eq(got, want);
	if (lossless >= 0)
		ck_assert_int_eq(res.lossless, lossless);
	free(got);
}

void
rt_check_declines(const char *line, const char *text)
{
	struct red_cmd_result res;
	char *got;

	got = rt_reduce(line, text, 0, 200, &res);
	/* A listing no reducer took goes whole (RED_CMD_WHOLE): declined. */
	ck_assert_msg(got == NULL || (strcmp(res.name, RED_CMD_WHOLE) == 0 &&
	    res.lossless && strcmp(got, text) == 0), "%s reduced (%s):\n%s",
	    line, res.name, got);
	free(got);
}

void
rt_check_fixture(const char *fixtures_dir, const char *plugin,
    const struct rt_fixture *fx)
{
	struct aiterm_buf text = BUF_INIT;
	struct red_cmd_result res;
	json_t *meta, *keep, *v;
	json_error_t jerr;
	char *path, *cmd, *raw, *got, *nl;
	size_t len, i;

	path = xasprintf("%s/reduce/%s/cmd", fixtures_dir, fx->name);
	cmd = rt_slurp(path, NULL);
	free(path);
	if ((nl = strchr(cmd, '\n')) != NULL)
		*nl = '\0';
	path = xasprintf("%s/reduce/%s/out", fixtures_dir, fx->name);
	raw = rt_slurp(path, &len);
	free(path);
	red_strip(raw, len, &text);
	buf_add(&text, "", 0);
	got = rt_reduce(cmd, buf_str(&text), -1, RED_CMD_MAX_LINES, &res);
	ck_assert_msg(got != NULL, "%s: declined", fx->name);
	ck_assert_str_eq(res.name, fx->reducer);
	ck_assert_str_eq(res.plugin, plugin);
	if (fx->lossless >= 0)
		ck_assert_int_eq(res.lossless, fx->lossless);
	ck_assert_uint_lt(strlen(got), text.len);
	/*
	 * The core refuses a result over the read's budget, or over four
	 * times it for a listing (ADR 0008); this holds for both.
	 */
	ck_assert_uint_le(red_line_count(got, strlen(got)),
	    RED_CMD_MAX_LINES * RED_CMD_LISTING_FACTOR);
	path = xasprintf("%s/reduce/%s/meta.json", fixtures_dir, fx->name);
	meta = json_load_file(path, 0, &jerr);
	ck_assert_msg(meta != NULL, "%s: %s", path, jerr.text);
	free(path);
	keep = json_object_get(meta, "must_keep");
	json_array_foreach(keep, i, v)
		ck_assert_msg(strstr(got, json_string_value(v)) != NULL,
		    "%s: lost \"%s\" in:\n%s", fx->name, json_string_value(v),
		    got);
	json_decref(meta);
	free(got);
	free(raw);
	free(cmd);
	buf_free(&text);
}

uint64_t
rt_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

size_t
rt_pick(uint64_t *s, size_t n)
{
	return n == 0 ? 0 : (size_t)(rt_next(s) % n);
}
