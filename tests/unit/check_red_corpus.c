/*
 * RED-FAITHFUL over the whole fixture corpus (tests/fixtures/reduce),
 * on the path a pty_read takes: RED-STRIP, then the command reducer the
 * case's cmd chooses among the build tree's reducer plugins, else the
 * generic stages with the limits of a read.  Every must_keep string of
 * every case survives, and no result is longer than the stripped text.
 * Prints, per case, which reducer ran and the bytes before and after.
 */
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "reduce/pipeline.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures/reduce"
#endif

static char *
read_text(const char *dir, const char *name, const char *file, size_t *len)
{
	struct aiterm_buf b = BUF_INIT;
	char chunk[65536], *path = xasprintf("%s/%s/%s", dir, name, file);
	FILE *f = fopen(path, "rb");
	size_t n;

	free(path);
	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return buf_steal(&b, len);
}

struct totals {
	size_t	cases, claimed, facts, kept, stripped, out;
};

static void
one_case(const char *name, struct totals *t, struct aiterm_buf *why)
{
	struct red_headtail_opts opts = RED_HEADTAIL_READ;
	struct aiterm_buf stripped = BUF_INIT, out = BUF_INIT;
	struct red_cmd_result res;
	char *raw, *cmd, *nl;
	size_t len, cmdlen, i;
	json_t *meta, *keep, *v, *code;
	json_error_t jerr;
	const char *s;
	char *path;

	raw = read_text(FIXTURES_DIR, name, "out", &len);
	cmd = read_text(FIXTURES_DIR, name, "cmd", &cmdlen);
	path = xasprintf("%s/%s/meta.json", FIXTURES_DIR, name);
	meta = json_load_file(path, 0, &jerr);
	free(path);
	if (raw == NULL || cmd == NULL || meta == NULL) {
		buf_printf(why, "%s: cannot read cmd, out or meta.json\n", name);
		goto out;
	}
	if ((nl = strchr(cmd, '\n')) != NULL)
		*nl = '\0';
	code = json_object_get(meta, "exit_code");
	red_strip(raw, len, &stripped);
	if (red_cmd_reduce(cmd, buf_str(&stripped), stripped.len,
	    json_is_integer(code) ? (int)json_integer_value(code) : -1,
	    RED_CMD_MAX_LINES, &out, &res) == 0)
		t->claimed++;
	else
		red_generic(buf_str(&stripped), stripped.len, &opts, &out, NULL);
	if (out.len > stripped.len)
		buf_printf(why, "%s: %zu bytes > stripped %zu\n", name, out.len,
		    stripped.len);
	keep = json_object_get(meta, "must_keep");
	json_array_foreach(keep, i, v) {
		if ((s = json_string_value(v)) == NULL)
			continue;
		t->facts++;
		if (strstr(buf_str(&out), s) != NULL)
			t->kept++;
		else
			buf_printf(why, "%s (%s): lost: %s\n", name,
			    res.name[0] != '\0' ? res.name : "generic", s);
	}
	t->cases++;
	t->stripped += stripped.len;
	t->out += out.len;
	printf("%-36s %-14s stripped %7zu -> %6zu bytes\n", name,
	    res.name[0] != '\0' ? res.name : "(generic)", stripped.len,
	    out.len);
out:
	json_decref(meta);
	free(raw);
	free(cmd);
	buf_free(&stripped);
	buf_free(&out);
}

START_TEST(test_corpus_faithful)
{
	struct totals t = { 0, 0, 0, 0, 0, 0 };
	struct aiterm_buf why = BUF_INIT;
	struct dirent **names;
	int n, i;

	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
	n = scandir(FIXTURES_DIR, &names, NULL, alphasort);
	ck_assert_msg(n >= 0, "cannot read %s", FIXTURES_DIR);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' &&
		    strcmp(names[i]->d_name, "README.md") != 0)
			one_case(names[i]->d_name, &t, &why);
		free(names[i]);
	}
	free(names);
	printf("corpus: %zu cases, %zu by a command reducer; must_keep "
	    "%zu/%zu; bytes stripped %zu -> %zu\n", t.cases, t.claimed,
	    t.kept, t.facts, t.stripped, t.out);
	fflush(stdout);
	registry_reset();
	ck_assert_msg(why.len == 0, "%s", buf_str(&why));
	ck_assert_uint_ge(t.cases, 30);
	buf_free(&why);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("red-corpus");
	TCase *tc = tcase_create("corpus");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_corpus_faithful);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
