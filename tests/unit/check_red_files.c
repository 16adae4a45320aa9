/*
 * The file-listing reducers (plugin reducers-files: grep and rg, find,
 * ls -l, tree, du, tar) through the real dispatch: red_cmd_reduce on stripped text, with
 * the plugins loaded from the build tree ($AITERM_PLUGIN_PATH).
 *
 * - Fixtures: the corpus cases of this family reduce within the core's
 *   budget, are shorter and keep every must_keep string.
 * - Exact: the layout of small grep, rg, ls -l and tree outputs.
 * - Edges: empty output, shapes the reducers do not know, error lines,
 *   listings larger than the budget.
 */
#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "redtest.h"
#include "reduce/lines.h"
#include "reduce/strip.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures"
#endif

/*
 * Helpers
 */

/* red_cmd_reduce on text; the result (or NULL when it declined). */
static char *
reduce(const char *line, const char *text, struct red_cmd_result *res)
{
	return rt_reduce(line, text, 0, 200, res);
}

static void
check_exact(const char *line, const char *text, const char *name,
    bool lossless, const char *want)
{
	rt_check_exact("reducers-files", line, text, name, lossless, want);
}

static void
check_declines(const char *line, const char *text)
{
	rt_check_declines(line, text);
}

/*
 * Fixtures
 */

static const struct rt_fixture fixtures[] = {
	{ "grep-rn-color-fixme", "grep", 0 },
	{ "grep-rn-usr-include", "grep", 0 },
	{ "rg-n-piped-usr-include", "grep", 1 },
	{ "find-usr-share-doc-files", "find", 0 },
	{ "ls-la-color-usr-share-doc", "ls-long", 0 },
};

START_TEST(test_fixture)
{
	rt_check_fixture(FIXTURES_DIR, "reducers-files", &fixtures[_i]);
}
END_TEST

/*
 * grep and rg
 */

START_TEST(test_grep_layout)
{
	check_exact("grep -rn TODO src",
	    "src/a.c:12:\t\tint x;   /* TODO: y */\n"
	    "src/a.c:40:    return 0; // TODO\n"
	    "grep: src/secret: Permission denied\n"
	    "src/b c.c:3:TODO  two  spaces\n",
	    "grep", true,
	    "src/a.c:12:int x; /* TODO: y */\n"
	    "src/a.c:40:return 0; // TODO\n"
	    "grep: src/secret: Permission denied\n"
	    "src/b c.c:3:TODO two spaces\n");
	/* rg's heading layout on a terminal. */
	check_exact("rg EAGAIN",
	    "include/a.h\n"
	    "3:#define   EAGAIN   11\n"
	    "9:  x = EAGAIN;\n"
	    "\n"
	    "include/b.h\n"
	    "1:EAGAIN\n",
	    "grep", true,
	    "include/a.h\n"
	    "3:#define EAGAIN 11\n"
	    "9:x = EAGAIN;\n"
	    "\n"
	    "include/b.h\n"
	    "1:EAGAIN\n");
	/* A pipe: no file names, lines made tight. */
	check_exact("ps aux | grep nginx",
	    "root       812  0.0  0.1  nginx: master process\n"
	    "www-data   813  0.0  0.2  nginx: worker process\n",
	    "grep", true,
	    "root 812 0.0 0.1 nginx: master process\n"
	    "www-data 813 0.0 0.2 nginx: worker process\n");
}
END_TEST

START_TEST(test_grep_grouped)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i, f;

	for (f = 0; f < 10; f++) {
		for (i = 0; i < 30; i++)
			buf_printf(&b, "dir/file%zu.c:%zu:  match %zu\n", f,
			    i + 1, i);
	}
	buf_adds(&b, "grep: dir/locked: Permission denied\n");
	got = reduce("grep -rn match dir", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(!res.lossless);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	ck_assert_ptr_nonnull(strstr(got, "grep: dir/locked: Permission "
	    "denied\n"));
	for (f = 0; f < 10; f++) {
		char want[64];

		snprintf(want, sizeof want, "dir/file%zu.c:1:match 0\n", f);
		ck_assert_msg(strstr(got, want) != NULL, "no %s", want);
	}
	ck_assert_ptr_nonnull(strstr(got, " more: "));
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_grep_many_files)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got, want[64];
	size_t f;

	for (f = 0; f < 400; f++)
		buf_printf(&b, "d/f%zu.h:%zu:FIXME %zu\n", f, f + 1, f);
	got = reduce("grep -rn FIXME d", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	for (f = 0; f < 400; f++) {
		snprintf(want, sizeof want, "d/f%zu.h", f);
		ck_assert_msg(strstr(got, want) != NULL, "lost %s", want);
	}
	ck_assert_ptr_nonnull(strstr(got, "d/f0.h:1:FIXME 0\n"));
	ck_assert_ptr_nonnull(strstr(got, "d/f399.h:400:FIXME 399\n"));
	ck_assert_ptr_nonnull(strstr(got, "more matches in "));
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_grep_declines)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	check_declines("grep x", "");
	/* One file over the budget: nothing to group by. */
	for (i = 0; i < 300; i++)
		buf_printf(&b, "line %zu with x in it\n", i);
	check_declines("grep x file.txt", buf_str(&b));
	buf_reset(&b);
	/* Context groups over the budget are not torn apart. */
	for (i = 0; i < 100; i++)
		buf_printf(&b, "a.c-%zu-before\na.c:%zu:x\n--\n", i * 3 + 1,
		    i * 3 + 2);
	check_declines("grep -rn -C1 x .", buf_str(&b));
	buf_free(&b);
}
END_TEST

/*
 * find
 */

START_TEST(test_find)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	/* Far beyond a listing's budget (4 x 200 lines): folded. */
	buf_adds(&b, "find: './root': Permission denied\n");
	for (i = 0; i < 1000; i++)
		buf_printf(&b, "./%s/f%zu.%s\n", i % 2 ? "src" : "doc", i,
		    i % 5 ? "c" : "md");
	got = reduce("find . -type f", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(!res.lossless);
	ck_assert_ptr_nonnull(strstr(got, "find: './root': Permission "
	    "denied\n"));
	ck_assert_ptr_nonnull(strstr(got, "./doc/f0.md\n"));
	ck_assert_ptr_nonnull(strstr(got, "./src/f999.c\n"));
	ck_assert_ptr_nonnull(strstr(got, " more paths; in ./ most are in: "
	    "doc/ ("));
	ck_assert_ptr_nonnull(strstr(got, "… by name: *.c ("));
	/* Within what a read shows of a listing far beyond its budget. */
	ck_assert_uint_le(strlen(got), RED_CMD_FAR_BYTES);
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * find prints the folder it starts from first: the sum is of the folders
 * in it, not of it in its parent ("in /usr/share/ most are in: doc/").
 */
START_TEST(test_find_far_root)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	buf_adds(&b, "/usr/share/doc\n");
	for (i = 0; i < 1500; i++)
		buf_printf(&b, "/usr/share/doc/pkg%zu%s\n", i / 3,
		    i % 3 == 0 ? "" : i % 3 == 1 ? "/copyright" :
		    i < 600 ? "/changelog.gz" : "/NEWS");
	got = reduce("find /usr/share/doc -maxdepth 2", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_msg(strstr(got, " more paths; in /usr/share/doc/ most "
	    "are in: pkg") != NULL, "%s", got);
	ck_assert_ptr_null(strstr(got, "in /usr/share/ "));
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * Far beyond the budget, the paths nearest the top of the folder they
 * share are kept whole, the fewest folders down first and one of each
 * folder before a second: the package's own package.json and bin/cli.js
 * in the middle of a thousand paths of its dependencies, then the first
 * file of each dependency; never more than FD_NEAR (60) of them.
 */
START_TEST(test_find_nearest)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got, path[64];
	const char *near;
	size_t i, n;

	for (i = 0; i < 1200; i++) {
		if (i == 600)
			buf_adds(&b, "/opt/app/package.json\n");
		if (i == 700)
			buf_adds(&b, "/opt/app/bin/cli.js\n");
		if (i % 30 == 0)
			buf_printf(&b, "/opt/app/node_modules/dep%zu/"
			    "package.json\n", i / 30);
		buf_printf(&b, "/opt/app/node_modules/dep%zu/lib/f%zu.js\n",
		    i / 30, i);
	}
	got = reduce("find /opt/app -type f", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_le(strlen(got), RED_CMD_FAR_BYTES);
	near = strstr(got, " of them nearest the top:\n");
	ck_assert_msg(near != NULL, "%s", got);
	/* The package's own, then its dependencies' package.json. */
	ck_assert_ptr_nonnull(strstr(near, "\n/opt/app/package.json\n"));
	ck_assert_ptr_nonnull(strstr(near, "\n/opt/app/bin/cli.js\n"));
	for (i = 1, n = 0; i < 40; i++) {
		snprintf(path, sizeof path, "\n/opt/app/node_modules/dep%zu/"
		    "package.json\n", i);
		n += strstr(near, path) != NULL;
	}
	ck_assert_uint_ge(n, 35);
	/* In the listing's order, at most 60 of them. */
	ck_assert_ptr_nonnull(strstr(near, "/opt/app/package.json\n"
	    "/opt/app/node_modules/dep20/package.json\n"));
	for (i = 0, n = 0; near[i] != '\0'; i++)
		n += near[i] == '\n';
	ck_assert_uint_le(n, 60 + 1 + 10 + 2);
	free(got);
	buf_free(&b);
}
END_TEST

/* RED-FAITHFUL: a listing within its budget keeps every name. */
START_TEST(test_find_grouped)
{
	struct aiterm_buf b = BUF_INIT, want = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	buf_adds(&b, "./src\n");
	for (i = 0; i < 300; i++)
		buf_printf(&b, "./src/f%zu.c\n", i);
	buf_adds(&b, "./doc\n./doc/a b.md\n./doc/readme.md\n");
	got = reduce("find .", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(res.lossless);
	ck_assert_msg(strncmp(got, "./: src\n./src/: f0.c f1.c ", 25) == 0,
	    "%s", got);
	for (i = 0; i < 300; i++) {
		buf_reset(&want);
		buf_printf(&want, " f%zu.c", i);
		ck_assert_ptr_nonnull(strstr(got, buf_str(&want)));
	}
	/* A name with a blank stays on its own line, as find wrote it. */
	ck_assert_ptr_nonnull(strstr(got, "\n./: doc\n./doc/a b.md\n"
	    "./doc/: readme.md\n"));
	free(got);
	buf_free(&b);
	buf_free(&want);
}
END_TEST

START_TEST(test_find_declines)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	check_declines("find .", "");
	check_declines("find . -name x", "./a/x\n./b/x\n");
	for (i = 0; i < 500; i++)
		buf_printf(&b, "%zu 4 -rw-r--r-- 1 u g 0 Jan 1 00:00 ./f%zu\n",
		    i, i);
	check_declines("find . -ls", buf_str(&b));
	buf_free(&b);
}
END_TEST

/*
 * ls -l
 */

START_TEST(test_ls_layout)
{
	check_exact("ls -la",
	    "total 16\n"
	    "drwxr-xr-x  4 root root  4096 Dec  2 16:34 .\n"
	    "drwxr-xr-x 12 root root  4096 Dec  2 16:19 ..\n"
	    "-rw-r--r--  1 root root   120 May 20  2025 a  b.txt\n"
	    "lrwxrwxrwx  1 root root    11 Jan 14  2023 lib -> ../lib\n",
	    "ls-long", true,
	    "(every entry: root root)\n"
	    "total 16\n"
	    "drwxr-xr-x 4 4096 Dec 2 16:34 .\n"
	    "drwxr-xr-x 12 4096 Dec 2 16:19 ..\n"
	    "-rw-r--r-- 1 120 May 20 2025 a  b.txt\n"
	    "lrwxrwxrwx 1 11 Jan 14 2023 lib -> ../lib\n");
	check_exact("ls -l /dev/null x",
	    "crw-rw-rw- 1 root root 1, 3 Dec  2 16:19 /dev/null\n"
	    "-rw-r--r-- 1 me   me     0 Dec  2 16:19 x\n",
	    "ls-long", true,
	    "crw-rw-rw- 1 root root 1, 3 Dec 2 16:19 /dev/null\n"
	    "-rw-r--r-- 1 me me 0 Dec 2 16:19 x\n");
}
END_TEST

START_TEST(test_ls_many)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got, name[16];
	size_t i;

	/* Beyond a listing's budget (4 x 200 lines): every name, packed. */
	buf_adds(&b, "total 800\n");
	for (i = 0; i < 1000; i++)
		buf_printf(&b, "%s  1 u g  %4zu Jan  1  2024 n%03zu\n",
		    i % 4 ? "-rw-r--r--" : "drwxr-xr-x", i, i);
	got = reduce("ls -l", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(!res.lossless);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	ck_assert_ptr_nonnull(strstr(got, "(1000 entries, more than fit: "
	    "names only; permissions, links, owner, size and date left "
	    "out)\n"));
	ck_assert_ptr_nonnull(strstr(got, "total 800\n"));
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "n%03zu%s", i, i % 4 ? "" : "/");
		ck_assert_msg(strstr(got, name) != NULL, "%s lost", name);
	}
	/* The dates went, but from the largest files' rows, largest first. */
	ck_assert_ptr_nonnull(strstr(got, "(largest: 999 Jan  1  2024 n999; "
	    "998 Jan  1  2024 n998; 997 Jan  1  2024 n997)\n"));
	ck_assert_ptr_null(strstr(strstr(got, "n997)\n"), "Jan"));
	ck_assert_ptr_eq(strstr(got, "Jan"), strstr(got, "999 Jan") + 4);
	free(got);

	/* ls -h sizes compare by their unit; directories are not files. */
	buf_reset(&b);
	for (i = 0; i < 1000; i++)
		buf_printf(&b, "%s  1 u g  %s Jan  1  2024 n%03zu\n",
		    i % 4 ? "-rw-r--r--" : "drwxr-xr-x", i == 500 ? "9.9G" :
		    i == 3 ? "3.5G" : i == 7 ? "900M" : "12K", i);
	got = reduce("ls -lh", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_nonnull(strstr(got, "(largest: 3.5G Jan  1  2024 n003; "
	    "900M Jan  1  2024 n007; "));
	free(got);

	/*
	 * Names that fill the budget to its last line once the largest-files
	 * line is counted too: the result still fits (the dispatcher refuses
	 * one line more, and the generic stages would have run).
	 */
	buf_reset(&b);
	buf_adds(&b, "total 800\n");
	for (i = 0; i < 1596; i++)
		buf_printf(&b, "-rw-r--r--  1 u g  %4zu Jan  1  2024 %070zu\n",
		    i, i);
	got = reduce("ls -l", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "ls-long");
	ck_assert_uint_le(red_line_count(got, strlen(got)), 800);
	free(got);

	/* So many that even the names do not fit: first, last, counted. */
	buf_reset(&b);
	buf_adds(&b, "total 800\n");
	for (i = 0; i < 20000; i++)
		buf_printf(&b, "%s  1 u g  %4zu Jan  1  2024 n%05zu\n",
		    i % 4 ? "-rw-r--r--" : "drwxr-xr-x", i % 1000, i);
	got = reduce("ls -l", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	ck_assert_uint_le(strlen(got), RED_CMD_FAR_BYTES);
	ck_assert_ptr_nonnull(strstr(got, "\nn00000/  n00001  "));
	ck_assert_ptr_nonnull(strstr(got, "  n19999\n"));
	ck_assert_ptr_nonnull(strstr(got, " more: "));
	ck_assert_ptr_nonnull(strstr(got, " directories, "));
	free(got);

	/* Within it (400 rows), every name stays (RED-FAITHFUL). */
	buf_reset(&b);
	buf_adds(&b, "total 800\n");
	for (i = 0; i < 400; i++)
		buf_printf(&b, "%s  1 u g  %4zu Jan  1  2024 n%03zu\n",
		    i % 4 ? "-rw-r--r--" : "drwxr-xr-x", i, i);
	got = reduce("ls -l", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(res.lossless);
	ck_assert_ptr_nonnull(strstr(got, " n217\n"));
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_ls_declines)
{
	check_declines("ls -l", "");
	check_declines("ls", "a.txt  b.txt  c.txt  src  tests\n");
	check_declines("ls -l", "insgesamt 8\n-rw-r--r-- 1 u g 0 Dez  2 "
	    "16:19 x\n");
}
END_TEST

/*
 * tar -tv
 */

START_TEST(test_tar_layout)
{
	/* Within the budget: every row, what they all share said once. */
	check_exact("tar -tvzf site.tar.gz",
	    "drwxr-xr-x root/root         0 2026-12-06 17:35 site/\n"
	    "-rw-r--r-- root/root       651 2026-12-06 17:35 site/a.css\n"
	    "-rw-r--r-- root/root        15 2026-12-06 17:35 site/b c.png\n"
	    "lrwxrwxrwx root/root         0 2026-12-06 17:35 site/x -> a.css\n"
	    "tar: site/y: Cannot open: Permission denied\n",
	    "tar", true,
	    "(every entry: root/root 2026-12-06 17:35)\n"
	    "drwxr-xr-x 0 site/\n"
	    "-rw-r--r-- 651 site/a.css\n"
	    "-rw-r--r-- 15 site/b c.png\n"
	    "lrwxrwxrwx 0 site/x -> a.css\n"
	    "tar: site/y: Cannot open: Permission denied\n");
}
END_TEST

START_TEST(test_tar_many)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got, path[64];
	size_t i;

	/*
	 * Beyond a listing's budget (here 800 lines) and within
	 * RED_CMD_FAR_BYTES packed: every path whole, packed.
	 */
	for (i = 0; i < 850; i++) {
		if (i % 100 == 0)
			buf_printf(&b, "drwxr-xr-x u/g 0 2026-01-0%zu 10:00 "
			    "d%zu/\n", 1 + i / 500, i / 100);
		buf_printf(&b, "-rw-r--r-- u/g %6zu 2026-01-0%zu 10:00 "
		    "d%zu/f%03zu\n", i, 1 + i / 500, i / 100, i);
	}
	got = reduce("tar -tvf site.tar", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "tar");
	ck_assert(!res.lossless);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 800);
	ck_assert_msg(strstr(got, "(859 entries, more than fit: names only; "
	    "left out: permissions drwxr-xr-x 9, -rw-r--r-- 850; owner u/g "
	    "859; size; date 2026-01-01 10:00 505, 2026-01-02 10:00 354)\n") !=
	    NULL, "%s", got);
	ck_assert_ptr_nonnull(strstr(got, "(largest: 849 2026-01-02 10:00 "
	    "d8/f849; 848 2026-01-02 10:00 d8/f848; 847 2026-01-02 10:00 "
	    "d8/f847)\n"));
	for (i = 0; i < 850; i++) {
		snprintf(path, sizeof path, "d%zu/f%03zu", i / 100, i);
		ck_assert_msg(strstr(got, path) != NULL, "%s lost", path);
	}
	free(got);

	/*
	 * Beyond the bytes too (ADR 0044): the first and last paths that fit,
	 * the rest counted, the one alone of its kind (*.txt) whole.
	 */
	buf_reset(&b);
	for (i = 0; i < 2000; i++)
		buf_printf(&b, "-rw-r--r-- u/g %6zu 2026-01-01 10:00 "
		    "d%02zu/file-%04zu.%s\n", i, i / 50, i,
		    i == 1234 ? "txt" : "png");
	got = reduce("tar -tvf site.tar", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "tar");
	ck_assert_uint_le(strlen(got), RED_CMD_FAR_BYTES);
	ck_assert_ptr_nonnull(strstr(got, "\nd00/file-0000.png  "));
	ck_assert_ptr_nonnull(strstr(got, "d39/file-1999.png\n"));
	ck_assert_ptr_nonnull(strstr(got, " more entries\n… alone of its kind "
	    "among them: d24/file-1234.txt\n"));
	free(got);

	/* So many that even the paths do not fit: first, last, counted. */
	buf_reset(&b);
	for (i = 0; i < 30000; i++)
		buf_printf(&b, "-rw-r--r-- u/g %6zu 2026-01-01 10:00 "
		    "d/file-%05zu.png\n", i, i);
	got = reduce("tar tvf site.tar", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 800);
	ck_assert_uint_le(strlen(got), RED_CMD_FAR_BYTES);
	ck_assert_ptr_nonnull(strstr(got, "\nd/file-00000.png  "));
	ck_assert_ptr_nonnull(strstr(got, "  d/file-29999.png\n"));
	ck_assert_ptr_nonnull(strstr(got, " more entries\n"));
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_tar_declines)
{
	check_declines("tar -tvf x.tar", "");
	/* Neither -t nor -v: no listing. */
	check_declines("tar -czf x.tgz site", "a\nb\nc\nd\ne\n");
	/* A line that is no row among rows. */
	check_declines("tar -tvf x.tar",
	    "-rw-r--r-- u/g 1 2026-01-01 10:00 a\n"
	    "-rw-r--r-- u/g 1 2026-01-01 10:00 b\n"
	    "something else entirely\n"
	    "-rw-r--r-- u/g 1 2026-01-01 10:00 c\n"
	    "-rw-r--r-- u/g 1 2026-01-01 10:00 d\n");
	/* Plain names within the budget: whole, by the generic stages. */
	check_declines("tar -tf x.tar", "a\nb\nc\nd\ne\n");
}
END_TEST

/*
 * tree
 */

/* tree's drawing: rails above an entry, forks before its name. */
#define T_RAIL	"\u2502\u00a0\u00a0 "
#define T_FORK	"\u251c\u2500\u2500 "
#define T_LAST	"\u2514\u2500\u2500 "

static const char tree_small[] =
    "proj\n"
    T_FORK "README.md\n"
    T_FORK "docs\n"
    T_RAIL T_FORK "a.md\n"
    T_RAIL T_LAST "b.md\n"
    T_FORK "lib -> ../lib\n"
    T_FORK "src\n"
    T_RAIL T_FORK "main.c\n"
    T_RAIL T_FORK "net\n"
    T_RAIL T_RAIL T_FORK "tcp.c\n"
    T_RAIL T_RAIL T_LAST "udp.c\n"
    T_RAIL T_FORK "util\n"
    T_RAIL T_RAIL T_LAST "str.c\n"
    T_RAIL T_LAST "cfg.h -> ../build/cfg.h\n"
    T_LAST "tests\n"
    "    " T_FORK "t1.c\n"
    "    " T_FORK "t2.c\n"
    "    " T_FORK "t3.c\n"
    "    " T_FORK "t4.c\n"
    "    " T_FORK "t5.c\n"
    "    " T_LAST "data\n"
    "        " T_FORK "in.txt\n"
    "        " T_LAST "out.txt\n"
    "\n"
    "6 directories, 16 files\n";

/* Within the budget: every line, the drawing as two blanks a level. */
START_TEST(test_tree_layout)
{
	check_exact("tree -L 3 proj", tree_small, "tree", true,
	    "proj\n"
	    "  README.md\n"
	    "  docs\n"
	    "    a.md\n"
	    "    b.md\n"
	    "  lib -> ../lib\n"
	    "  src\n"
	    "    main.c\n"
	    "    net\n"
	    "      tcp.c\n"
	    "      udp.c\n"
	    "    util\n"
	    "      str.c\n"
	    "    cfg.h -> ../build/cfg.h\n"
	    "  tests\n"
	    "    t1.c\n"
	    "    t2.c\n"
	    "    t3.c\n"
	    "    t4.c\n"
	    "    t5.c\n"
	    "    data\n"
	    "      in.txt\n"
	    "      out.txt\n"
	    "\n"
	    "6 directories, 16 files\n");
	/* ASCII drawing (LANG=C), and tree -d's report. */
	check_exact("tree -d", ".\n|-- a\n|   `-- b\n`-- c\n\n3 directories\n",
	    "tree", true, ".\n  a\n    b\n  c\n\n3 directories\n");
}
END_TEST

/*
 * Beyond the budget (a read budget of 5: 20 lines for a listing): each
 * depth-1 entry as drawn, every name below it packed, folders by path.
 */
START_TEST(test_tree_packed)
{
	struct red_cmd_result res;
	char *got;

	got = rt_reduce("tree -L 3 proj", tree_small, 0, 5, &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "tree");
	ck_assert(!res.lossless);
	ck_assert_str_eq(got,
	    "(names below depth 1 packed per folder; link targets left out)\n"
	    "proj\n"
	    T_FORK "README.md\n"
	    T_FORK "docs\n"
	    "a.md  b.md\n"
	    T_FORK "lib -> ../lib\n"
	    T_FORK "src\n"
	    "main.c  net/  util/  cfg.h\n"
	    "net/:  tcp.c  udp.c\n"
	    "util/:  str.c\n"
	    T_LAST "tests\n"
	    "t1.c  t2.c  t3.c  t4.c  t5.c  data/\n"
	    "data/:  in.txt  out.txt\n"
	    "6 directories, 16 files\n");
	free(got);
}
END_TEST

/* A coloured tree (ls colours on a tty) as the stripper leaves it. */
START_TEST(test_tree_colour)
{
	struct aiterm_buf text = BUF_INIT;
	const char *raw =
	    "\033[01;34m.\033[0m\r\n"
	    T_FORK "\033[01;34mbin\033[0m\r\n"
	    T_RAIL T_LAST "\033[01;32mrun.sh\033[0m\r\n"
	    T_LAST "\033[01;36mlatest\033[0m -> \033[01;34mbin\033[0m\r\n"
	    "\r\n"
	    "1 directory, 2 files\r\n";

	red_strip(raw, strlen(raw), &text);
	buf_add(&text, "", 0);
	check_exact("tree", buf_str(&text), "tree", true,
	    ".\n  bin\n    run.sh\n  latest -> bin\n\n1 directory, 2 files\n");
	buf_free(&text);
}
END_TEST

START_TEST(test_tree_declines)
{
	struct red_cmd_result res;
	char *got;

	/* No report (--noreport, a cut-off run), not tree's, empty. */
	check_declines("tree", "proj\n" T_FORK "a\n" T_LAST "b\n");
	check_declines("tree", "bash: tree: command not found\n");
	check_declines("tree", "");
	check_declines("tree", "proj\n\n0 directories, 0 files\n");
	/* JSON, XML, no indentation. */
	check_declines("tree -J", "[\n  {\"type\":\"directory\",\"name\":"
	    "\".\",\"contents\":[\n    {\"type\":\"file\",\"name\":\"a\"}\n"
	    "  ]}\n,\n  {\"type\":\"report\",\"directories\":0,\"files\":1}"
	    "\n]\n");
	check_declines("tree -X", "<?xml version=\"1.0\"?>\n<tree>\n"
	    "  <directory name=\".\">\n    <file name=\"a\"></file>\n"
	    "  </directory>\n  <report>\n    <directories>0</directories>\n"
	    "    <files>1</files>\n  </report>\n</tree>\n");
	check_declines("tree -i", ".\na\nb\n\n0 directories, 2 files\n");
	/* A level skipped: not tree's drawing. */
	check_declines("tree", ".\n" T_RAIL T_FORK "a\n\n0 directories, "
	    "1 file\n");
	/* Sizes before the names, beyond the budget: not packed. */
	got = rt_reduce("tree -s", ".\n" T_FORK "[  4096]  a\n"
	    T_RAIL T_FORK "[  1]  x\n" T_RAIL T_FORK "[  1]  y\n"
	    T_RAIL T_FORK "[  1]  z\n" T_RAIL T_LAST "[  1]  w\n"
	    T_LAST "[  2]  b\n\n1 directory, 5 files\n", 0, 1, &res);
	ck_assert_ptr_null(got);
}
END_TEST

static void
setup(void)
{
	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
}

static void
teardown(void)
{
	registry_reset();
}

/*
 * du
 */

START_TEST(test_du_far)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got, row[64];
	size_t d, j;

	/* 1021 rows, beyond a listing's budget (4 x 200 lines). */
	buf_adds(&b, "du: cannot read directory '/r/x': Permission denied\n");
	for (d = 0; d < 20; d++) {
		for (j = 0; j < 50; j++) {
			if (d == 7 && j == 31)
				buf_printf(&b, "999M\t/r/d%02zu/f%03zu\n", d, j);
			else
				buf_printf(&b, "%zuK\t/r/d%02zu/f%03zu\n",
				    d * 50 + j + 1, d, j);
		}
		buf_printf(&b, "%zuM\t/r/d%02zu\n", d + 1, d);
	}
	buf_adds(&b, "1.2G\t/r\n");
	got = reduce("du -h /r", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "du");
	ck_assert_uint_le(red_line_count(got, strlen(got)), 800);
	/* The error, the folder asked about and every folder below it. */
	ck_assert_ptr_nonnull(strstr(got, "du: cannot read directory '/r/x'"));
	ck_assert_ptr_nonnull(strstr(got, "1.2G\t/r\n"));
	for (d = 0; d < 20; d++) {
		snprintf(row, sizeof row, "%zuM\t/r/d%02zu\n", d + 1, d);
		ck_assert_msg(strstr(got, row) != NULL, "%s lost", row);
	}
	/* The largest of the rest, M above K, in du's order. */
	ck_assert_ptr_nonnull(strstr(got, "999M\t/r/d07/f031\n"));
	ck_assert_ptr_nonnull(strstr(got, "902K\t/r/d18/f001\n"));
	ck_assert_ptr_nonnull(strstr(got, "1000K\t/r/d19/f049\n"));
	ck_assert_ptr_null(strstr(got, "901K\t"));
	ck_assert(strstr(got, "902K\t") < strstr(got, "1000K\t"));
	/* Exactly which rows went: all the others, none larger than this. */
	ck_assert_ptr_nonnull(strstr(got, "(… 900 more rows left out, each "
	    "901K or smaller)\n"));
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_du_declines)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	/* Within the budget: the generic stages keep every row. */
	check_declines("du -h", "4.0K\t./a\n8.0K\t.\n");
	/* Something that is not du's. */
	for (i = 0; i < 900; i++)
		buf_printf(&b, "%zu\t./f%zu\n", i, i);
	buf_adds(&b, "total: a lot\n");
	check_declines("du -a", buf_str(&b));
	buf_free(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("red-files");
	TCase *tc = tcase_create("files");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_fixture, 0,
	    (int)(sizeof fixtures / sizeof fixtures[0]));
	tcase_add_test(tc, test_grep_layout);
	tcase_add_test(tc, test_grep_grouped);
	tcase_add_test(tc, test_grep_many_files);
	tcase_add_test(tc, test_grep_declines);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_find_far_root);
	tcase_add_test(tc, test_find_nearest);
	tcase_add_test(tc, test_find_grouped);
	tcase_add_test(tc, test_find_declines);
	tcase_add_test(tc, test_ls_layout);
	tcase_add_test(tc, test_ls_many);
	tcase_add_test(tc, test_ls_declines);
	tcase_add_test(tc, test_tree_layout);
	tcase_add_test(tc, test_tree_packed);
	tcase_add_test(tc, test_tree_colour);
	tcase_add_test(tc, test_tree_declines);
	tcase_add_test(tc, test_du_far);
	tcase_add_test(tc, test_du_declines);
	tcase_add_test(tc, test_tar_layout);
	tcase_add_test(tc, test_tar_many);
	tcase_add_test(tc, test_tar_declines);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
