/*
 * RED-CMD: the command words behind an output (red_cmd_argv) and the
 * choice of a reducer plugin by its manifest's command patterns
 * (red_cmd_reduce), with the test-only reducer of tests/plugins.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* The words joined by '|' ("" for none), for compact expectations. */
static char *
joined(const char *line)
{
	struct aiterm_buf b = BUF_INIT;
	char **argv = red_cmd_argv(line);
	size_t i;

	if (argv == NULL)
		return xstrdup("(none)");
	for (i = 0; argv[i] != NULL; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : "|", argv[i]);
	red_cmd_argv_free(argv);
	return buf_steal(&b, NULL);
}

static const struct {
	const char *line;
	const char *want;
} words[] = {
	{ "git status", "git|status" },
	{ "  git   log --oneline -5  ", "git|log|--oneline|-5" },
	{ "/usr/bin/git diff", "git|diff" },
	{ "sudo apt-get install -y python3-pytest", "apt-get|install|-y|"
	    "python3-pytest" },
	{ "sudo -u root -E env FOO=1 BAR='a b' make -j2", "make|-j2" },
	{ "LANG=C CI=1 pytest -q", "pytest|-q" },
	{ "time nice -n 5 cargo test", "cargo|test" },
	{ "timeout 30 pytest", "pytest" },
	{ "timeout -s KILL 30s pytest tests/", "pytest|tests/" },
	{ "uv run pytest -x", "pytest|-x" },
	{ "uv run --with rich python -m pytest", "pytest" },
	{ "poetry run pytest", "pytest" },
	{ "python3 -m pytest -q tests", "pytest|-q|tests" },
	{ "python3.11 -m pip install -r requirements.txt",
	    "pip|install|-r|requirements.txt" },
	{ "python3 -m orders_sync.main config.json", "orders_sync.main|"
	    "config.json" },
	{ "npx jest", "jest" },
	{ "npx --yes tsc --noEmit", "tsc|--noEmit" },
	{ "pnpm exec vitest run", "vitest|run" },
	{ "npm install express", "npm|install|express" },
	{ "cd src && make", "make" },
	{ "make 2>&1 | tee build.log", "make" },
	{ "git log | head -20", "git|log" },
	{ "dmesg | tail -n 50", "dmesg" },
	{ "tail -n 2000 /var/log/syslog", "tail|-n|2000|/var/log/syslog" },
	{ "ps aux | grep nginx", "grep|nginx" },
	{ "cat a.txt", "cat|a.txt" },
	{ "make > out.log 2>/dev/null; ls -l", "ls|-l" },
	{ "grep -rn \"a b\" 'c d' e\\ f", "grep|-rn|a b|c d|e f" },
	{ "echo \"\\$HOME \\\"q\\\"\"", "echo|$HOME \"q\"" },
	{ "git log --format='%h %s' # newest first", "git|log|--format=%h %s" },
	{ "ls $(pwd)/x", "ls|$(pwd)/x" },
	{ "pytest &", "pytest" },
	{ "make; ", "make" },
	{ "", "(none)" },
	{ "   ", "(none)" },
	{ "FOO=1", "(none)" },
	{ "echo 'unclosed", "(none)" },
	{ "(cd x && make)", "(none)" },
	{ "cat <<EOF", "(none)" },
	{ "make\nls", "(none)" },
	/* A LF after a redirect is a second line too (fuzz/crashes/cmd-argv-*). */
	{ "make >log\ngit status", "(none)" },
	{ "cat </etc/hosts\r\nls", "(none)" },
	/* An escaped quote in a redirect target opens no quote (fuzz). */
	{ "a <b\\\"c\nd\"", "(none)" },
	{ "a >\"x\\\"\ny\" z", "a|z" },
	{ "echo 'a\nb' >x", "echo|a\nb" },
	{ "make # build\nrm -rf x", "(none)" },
	{ "echo `date`", "(none)" },
	{ "trailing\\", "(none)" },
};

START_TEST(test_words)
{
	char *got = joined(words[_i].line);

	ck_assert_msg(strcmp(got, words[_i].want) == 0, "'%s': got '%s', "
	    "want '%s'", words[_i].line, got, words[_i].want);
	free(got);
}
END_TEST

START_TEST(test_many_words_refused)
{
	struct aiterm_buf b = BUF_INIT;
	char *got;
	size_t i;

	for (i = 0; i < 1000; i++)
		buf_adds(&b, "w ");
	got = joined(buf_str(&b));
	ck_assert_str_eq(got, "(none)");
	free(got);
	buf_free(&b);
}
END_TEST

static void
setup(void)
{
	const char *top = getenv("top_builddir");
	char *dir;

	ck_assert_msg(top != NULL, "top_builddir must be set by make check");
	dir = xasprintf("%s/tests/plugins", top);
	registry_load(dir, NULL);
	free(dir);
}

static void
teardown(void)
{
	registry_reset();
}

static const char long_text[] =
    "a long enough output that a short summary is shorter\n";

/* red_cmd_reduce through the good-reducer test plugin ("N bytes"). */
static int
run(const char *line, const char *text, struct aiterm_buf *out,
    struct red_cmd_result *res)
{
	return red_cmd_reduce(line, text, strlen(text), 0, 200, out, res);
}

START_TEST(test_dispatch_match)
{
	struct aiterm_buf out = BUF_INIT;
	struct red_cmd_result res;

	ck_assert_int_eq(run("sudo testcmd -v", long_text, &out, &res), 0);
	ck_assert_str_eq(buf_str(&out), "53 bytes");
	ck_assert_str_eq(res.name, "testcmd");
	ck_assert_str_eq(res.version, "1.0");
	ck_assert_str_eq(res.plugin, "good-reducer");
	ck_assert(!res.lossless);
	buf_reset(&out);
	/* "othercmd sub": options between the words are skipped. */
	ck_assert_int_eq(run("othercmd -x sub", long_text, &out, &res), 0);
	ck_assert_str_eq(res.name, "testcmd");
	buf_free(&out);
}
END_TEST

START_TEST(test_dispatch_no_match)
{
	struct aiterm_buf out = BUF_INIT;
	struct red_cmd_result res;

	buf_adds(&out, "kept");
	ck_assert_int_eq(run("othercmd other", long_text, &out, &res), -1);
	ck_assert_int_eq(run("sub othercmd", long_text, &out, &res), -1);
	ck_assert_int_eq(run("unknown", long_text, &out, &res), -1);
	ck_assert_int_eq(run("", long_text, &out, &res), -1);
	ck_assert_int_eq(run("testcmd 'x", long_text, &out, &res), -1);
	ck_assert_str_eq(buf_str(&out), "kept");
	ck_assert_str_eq(res.name, "");
	buf_free(&out);
}
END_TEST

/*
 * No reducer claims the command: the empty candidate list is not sorted
 * (qsort(NULL, 0, ...) is undefined; clang's UBSan caught it, reproducer
 * fuzz/crashes/cmd-reduce-qsort-null), with or without plugins loaded.
 */
START_TEST(test_dispatch_no_candidates)
{
	struct aiterm_buf out = BUF_INIT;
	struct red_cmd_result res;

	ck_assert_int_eq(run("dd if=/dev/urandom of=/dev/null", long_text,
	    &out, &res), -1);
	registry_reset();
	ck_assert_int_eq(run("testcmd", long_text, &out, &res), -1);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_str_eq(res.name, "");
	buf_free(&out);
}
END_TEST

/*
 * RED-FAITHFUL: a listing command that no reducer takes (lsblk here)
 * goes whole while it fits the listing budget (4 x 200 lines), to the
 * generic stages beyond it; a command that is not a listing never goes
 * whole.
 */
START_TEST(test_dispatch_listing_whole)
{
	struct aiterm_buf out = BUF_INIT, text = BUF_INIT;
	struct red_cmd_result res;
	size_t i;

	for (i = 0; i < 700; i++)
		buf_printf(&text, "sd%zu   8:%zu  0  10G  0 disk\n", i, i);
	ck_assert_int_eq(run("lsblk", buf_str(&text), &out, &res), 0);
	ck_assert_str_eq(buf_str(&out), buf_str(&text));
	ck_assert_str_eq(res.name, RED_CMD_WHOLE);
	ck_assert(res.lossless);
	buf_reset(&out);
	ck_assert_int_eq(run("cat disks.txt", buf_str(&text), &out, &res), -1);
	ck_assert_uint_eq(out.len, 0);
	for (; i < 900; i++)
		buf_printf(&text, "sd%zu   8:%zu  0  10G  0 disk\n", i, i);
	ck_assert_int_eq(run("lsblk", buf_str(&text), &out, &res), -1);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_int_eq(run("lsblk", "", &out, &res), -1);
	buf_free(&out);
	buf_free(&text);
}
END_TEST

/*
 * RED-FAITHFUL: help asked for (--help, --help=CLASS) is a listing of
 * options, whatever the command: whole within the listing budget; a word
 * that only starts like it (--helpful) or -h (ls -h is not help) is not.
 */
START_TEST(test_dispatch_help_whole)
{
	static const char *const help[] = { "gcc --help=warnings",
	    "mytool sub --help", "mytool --help" };
	static const char *const not_help[] = { "mytool --helpful",
	    "mytool -h", "mytool help" };
	struct aiterm_buf out = BUF_INIT, text = BUF_INIT;
	struct red_cmd_result res;
	size_t i;

	for (i = 0; i < 400; i++)
		buf_printf(&text, "  -Wopt%zu   Warn about case %zu.\n", i, i);
	for (i = 0; i < sizeof help / sizeof help[0]; i++) {
		buf_reset(&out);
		ck_assert_int_eq(run(help[i], buf_str(&text), &out, &res), 0);
		ck_assert_str_eq(buf_str(&out), buf_str(&text));
		ck_assert_str_eq(res.name, RED_CMD_WHOLE);
	}
	for (i = 0; i < sizeof not_help / sizeof not_help[0]; i++) {
		buf_reset(&out);
		ck_assert_int_eq(run(not_help[i], buf_str(&text), &out, &res),
		    -1);
	}
	buf_free(&out);
	buf_free(&text);
}
END_TEST

START_TEST(test_dispatch_faithful)
{
	struct aiterm_buf out = BUF_INIT;
	struct red_cmd_result res;

	/* Declined: the generic stages run instead. */
	ck_assert_int_eq(run("testcmd decline", long_text, &out, &res), -1);
	/* "5 bytes" is not shorter than "hello": refused. */
	ck_assert_int_eq(run("testcmd", "hello", &out, &res), -1);
	ck_assert_uint_eq(out.len, 0);
	/* max_lines 0: no budget. */
	ck_assert_int_eq(red_cmd_reduce("testcmd", long_text,
	    strlen(long_text), 0, 0, &out, &res), 0);
	buf_free(&out);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("redcmd");
	TCase *tc = tcase_create("words");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, test_words, 0,
	    (int)(sizeof words / sizeof words[0]));
	tcase_add_test(tc, test_many_words_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("dispatch");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_dispatch_match);
	tcase_add_test(tc, test_dispatch_no_match);
	tcase_add_test(tc, test_dispatch_faithful);
	tcase_add_test(tc, test_dispatch_listing_whole);
	tcase_add_test(tc, test_dispatch_help_whole);
	tcase_add_test(tc, test_dispatch_no_candidates);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
