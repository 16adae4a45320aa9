/*
 * The git reducers (plugin reducers-git: git status, git log, git diff,
 * git show, git merge and its kin, and diff's unified format) through the
 * real dispatch: red_cmd_reduce on stripped text, with the plugins loaded
 * from the build tree ($AITERM_PLUGIN_PATH).
 *
 * - Fixtures: the corpus cases of this family reduce within the core's
 *   budget, are shorter and keep every must_keep string.
 * - Exact: the layout of a small status, log and diff.
 * - Edges: empty output, other formats and languages, errors, listings
 *   larger than the budget.
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
	rt_check_exact("reducers-git", line, text, name, lossless, want);
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
	{ "git-status-mixed-color", "git-status", 1 },
	{ "git-diff-worktree-color", "git-diff", 0 },
	{ "git-log-default", "git-log", 0 },
};

START_TEST(test_fixture)
{
	rt_check_fixture(FIXTURES_DIR, "reducers-git", &fixtures[_i]);
}
END_TEST

/*
 * git status
 */

START_TEST(test_status_layout)
{
	check_exact("git status",
	    "On branch dev\n"
	    "Your branch is up to date with 'origin/dev'.\n"
	    "\n"
	    "Changes to be committed:\n"
	    "  (use \"git restore --staged <file>...\" to unstage)\n"
	    "\trenamed:    a.c -> b.c\n"
	    "\n"
	    "Unmerged paths:\n"
	    "  (use \"git add <file>...\" to mark resolution)\n"
	    "\tboth modified:   src/x.c\n"
	    "\n"
	    "Changes not staged for commit:\n"
	    "\tmodified:   lib/sub (new commits)\n"
	    "\n"
	    "Untracked files:\n"
	    "\tnotes.txt\n",
	    "git-status", true,
	    "On branch dev\n"
	    "Your branch is up to date with 'origin/dev'.\n"
	    "Changes to be committed:\n"
	    "renamed: a.c -> b.c\n"
	    "Unmerged paths (conflicts):\n"
	    "both modified: src/x.c\n"
	    "Changes not staged for commit:\n"
	    "modified: lib/sub (new commits)\n"
	    "Untracked files:\n"
	    "notes.txt\n");
	check_exact("sudo git status",
	    "On branch main\n"
	    "Your branch is up to date with 'origin/main'.\n"
	    "\n"
	    "nothing to commit, working tree clean\n",
	    "git-status", true,
	    "On branch main\n"
	    "Your branch is up to date with 'origin/main'.\n"
	    "nothing to commit, working tree clean\n");
}
END_TEST

START_TEST(test_status_many)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	/* git's "(use ...)" hints are rare lines here, but advice, not
	 * outliers (ADR 0008): the reducer may drop them. */
	buf_adds(&b, "On branch main\n\nChanges not staged for commit:\n"
	    "  (use \"git add <file>...\" to update what will be committed)\n");
	for (i = 0; i < 20; i++)
		buf_printf(&b, "\tmodified:   src/m%zu.c\n", i);
	buf_adds(&b, "\nUntracked files:\n  (use \"git add <file>...\" to "
	    "include in what will be committed)\n");
	for (i = 0; i < 400; i++)
		buf_printf(&b, "\tgen/file%zu.o\n", i);
	got = reduce("git status", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(!res.lossless);
	ck_assert_ptr_nonnull(strstr(got, "modified: src/m19.c\n"));
	ck_assert_ptr_nonnull(strstr(got, "gen/file0.o\n"));
	ck_assert_ptr_nonnull(strstr(got, "more\n"));
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_status_declines)
{
	check_declines("git status", "");
	check_declines("git status",
	    "fatal: not a git repository (or any of the parent "
	    "directories): .git\n");
	check_declines("git status",
	    "Auf Branch main\n\nÄnderungen, die nicht zum Commit vorgemerkt "
	    "sind:\n\tgeändert:       src/net.c\n");
	check_declines("git status -s", " M src/net.c\n?? notes.txt\n"
	    "?? other.txt\n");
	check_declines("git status --porcelain=v2", "1 .M N... 100644 "
	    "100644 100644 aaaa bbbb src/net.c\n");
}
END_TEST

/*
 * git diff and git show
 */

static const char small_diff[] =
    "diff --git a/src/a.c b/src/a.c\n"
    "index 1111111..2222222 100644\n"
    "--- a/src/a.c\n"
    "+++ b/src/a.c\n"
    "@@ -1,9 +1,9 @@ int main(void)\n"
    " one\n"
    " two\n"
    " three\n"
    "-four\n"
    "+FOUR\n"
    " five\n"
    "-six\n"
    "+SIX\n"
    " seven\n"
    " eight\n"
    " nine\n"
    "diff --git a/old.txt b/new.txt\n"
    "similarity index 90%\n"
    "rename from old.txt\n"
    "rename to new.txt\n"
    "diff --git a/logo.png b/logo.png\n"
    "new file mode 100644\n"
    "index 0000000..3333333\n"
    "Binary files /dev/null and b/logo.png differ\n"
    "diff --git a/run.sh b/run.sh\n"
    "old mode 100644\n"
    "new mode 100755\n";

START_TEST(test_diff_layout)
{
	check_exact("git diff", small_diff, "git-diff", false,
	    "diff --git a/src/a.c b/src/a.c\n"
	    "@@ -1,9 +1,9 @@ int main(void)\n"
	    "-four\n"
	    "+FOUR\n"
	    " five\n"
	    "-six\n"
	    "+SIX\n"
	    "diff --git a/old.txt b/new.txt\n"
	    "similarity index 90%\n"
	    "rename from old.txt\n"
	    "rename to new.txt\n"
	    "diff --git a/logo.png b/logo.png (new file) (binary)\n"
	    "diff --git a/run.sh b/run.sh (mode 100644 -> 100755)\n"
	    "(6 context lines left out)\n");
}
END_TEST

/*
 * RED-FAITHFUL: a combined (merge-conflict) diff keeps its "diff --cc"
 * header verbatim, and its hunk header and conflict markers.
 */
START_TEST(test_diff_combined)
{
	static const char cc[] =
	    "diff --cc src/config.c\n"
	    "index 1111111,2222222..0000000\n"
	    "--- a/src/config.c\n"
	    "+++ b/src/config.c\n"
	    "@@@ -10,3 -10,3 +10,7 @@@ int load(void)\n"
	    "  int a = 1;\n"
	    "++<<<<<<< HEAD\n"
	    " +  timeout = 30;\n"
	    "++=======\n"
	    "+   timeout = 60;\n"
	    "++>>>>>>> feature\n"
	    "  return 0;\n";
	struct red_cmd_result res;
	char *got = reduce("git diff", cc, &res);

	ck_assert_msg(got != NULL, "the git-diff reducer takes a combined diff");
	ck_assert_msg(strstr(got, "diff --cc src/config.c\n") != NULL, "%s", got);
	ck_assert_ptr_null(strstr(got, "diff --git a/src/config.c"));
	ck_assert_ptr_nonnull(strstr(got, "@@@ -10,3 -10,3 +10,7 @@@"));
	ck_assert_ptr_nonnull(strstr(got, "++<<<<<<< HEAD"));
	ck_assert_ptr_nonnull(strstr(got, "++>>>>>>> feature"));
	free(got);
}
END_TEST

START_TEST(test_diff_budget)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i, f;

	for (f = 0; f < 3; f++) {
		buf_printf(&b, "diff --git a/f%zu b/f%zu\nindex 1..2 100644\n"
		    "--- a/f%zu\n+++ b/f%zu\n@@ -1,300 +1,300 @@\n", f, f, f,
		    f);
		for (i = 0; i < 300; i++)
			buf_printf(&b, "-old %zu\n+new %zu\n", i, i);
	}
	got = reduce("git diff", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(!res.lossless);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	ck_assert_ptr_nonnull(strstr(got, "diff --git a/f2 b/f2\n"));
	ck_assert_ptr_nonnull(strstr(got, "-old 0\n+new 0\n"));
	ck_assert_ptr_nonnull(strstr(got, "more changed lines (+"));
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_diff_declines)
{
	check_declines("git diff", "");
	check_declines("git diff --stat", " src/a.c | 4 ++--\n 1 file "
	    "changed, 2 insertions(+), 2 deletions(-)\n");
	check_declines("git diff", "fatal: ambiguous argument 'x': unknown "
	    "revision or path not in the working tree.\n");
}
END_TEST

/*
 * diff -u and diff -ru (RED-FAITHFUL): "--- x" and "+++ y" name both
 * files and stay as they are, so do diff -r's lines; a removed line that
 * reads "-- x" inside a hunk is a change, not a header.
 */
START_TEST(test_plain_diff)
{
	check_exact("diff -ru old new",
	    "Only in old: gone.txt\n"
	    "diff -ru old/q.sql new/q.sql\n"
	    "--- old/q.sql\t2026-12-01 10:00:00.000000000 +0000\n"
	    "+++ new/q.sql\t2026-12-02 10:00:00.000000000 +0000\n"
	    "@@ -1,8 +1,8 @@\n"
	    " select 1;\n"
	    " select 2;\n"
	    " select 3;\n"
	    "--- old comment\n"
	    "+-- new comment\n"
	    " select 4;\n"
	    " select 5;\n"
	    " select 6;\n"
	    " select 7;\n",
	    "diff", false,
	    "Only in old: gone.txt\n"
	    "diff -ru old/q.sql new/q.sql\n"
	    "--- old/q.sql\t2026-12-01 10:00:00.000000000 +0000\n"
	    "+++ new/q.sql\t2026-12-02 10:00:00.000000000 +0000\n"
	    "@@ -1,8 +1,8 @@\n"
	    "--- old comment\n"
	    "+-- new comment\n"
	    "(7 context lines left out)\n");
}
END_TEST

/*
 * A diff -ru whose hunks do not fit even a count line each: the headers
 * alone, each hunk's count after its header (RED-FAITHFUL keeps them; the
 * reducer counted "---" and "+++" as one line and was refused).
 */
START_TEST(test_plain_diff_headers_only)
{
	struct aiterm_buf b = BUF_INIT, hdr = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t f, k;

	for (f = 0; f < 20; f++) {
		buf_printf(&b, "diff -ru old/f%zu.c new/f%zu.c\n--- old/f%zu.c\t"
		    "2026-12-01 10:00:00 +0000\n+++ new/f%zu.c\t2026-12-02 "
		    "10:00:00 +0000\n", f, f, f, f);
		for (k = 0; k < 4; k++)
			buf_printf(&b, "@@ -%zu,3 +%zu,3 @@ int g%zu(void)\n a\n"
			    "-\treturn %zu;\n+\treturn %zu;\n b\n", 10 + 50 * k,
			    10 + 50 * k, k, f, f + 1);
	}
	got = reduce("diff -ru old new", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "diff");
	ck_assert(!res.lossless);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	for (f = 0; f < 20; f++) {
		buf_reset(&hdr);
		buf_printf(&hdr, "diff -ru old/f%zu.c new/f%zu.c\n--- old/f%zu.c\t"
		    "2026-12-01 10:00:00 +0000\n+++ new/f%zu.c\t2026-12-02 "
		    "10:00:00 +0000\n", f, f, f, f);
		for (k = 0; k < 4; k++)
			buf_printf(&hdr, "@@ -%zu,3 +%zu,3 @@ int g%zu(void)  "
			    "(+1 -1)\n", 10 + 50 * k, 10 + 50 * k, k);
		ck_assert_msg(strstr(got, buf_str(&hdr)) != NULL, "f%zu: %s",
		    f, got);
	}
	free(got);
	buf_free(&hdr);
	buf_free(&b);
}
END_TEST

START_TEST(test_plain_diff_declines)
{
	/* The default format, context diffs, -q: not unified. */
	check_declines("diff a b", "3c3\n< three\n---\n> THREE\n");
	check_declines("diff -c a b", "*** a\t2026-12-01\n--- b\t2026-12-02\n"
	    "***************\n*** 3 ****\n! three\n--- 3 ----\n! THREE\n");
	check_declines("diff -q a b", "Files a and b differ\n");
	check_declines("diff -u a b", "");
}
END_TEST

/*
 * git merge and its kin: "Auto-merging X" goes only where git's conflict
 * in the same X follows it; the other lines stay as git wrote them.
 */
START_TEST(test_merge)
{
	static const char merge[] =
	    "Auto-merging README.md\n"
	    "CONFLICT (content): Merge conflict in README.md\n"
	    "Auto-merging docs/guide.md\n"
	    "Auto-merging src/a.c\n"
	    "CONFLICT (add/add): Merge conflict in src/a.c\n"
	    "Auto-merging src/b.c\n"
	    "CONFLICT (content): Merge conflict in src/b.cc\n"
	    "CONFLICT (modify/delete): src/c.c deleted in HEAD and modified "
	    "in topic.\n"
	    "Automatic merge failed; fix conflicts and then commit the "
	    "result.\n";

	check_exact("git merge topic", merge, "git-merge", true,
	    "CONFLICT (content): Merge conflict in README.md\n"
	    "Auto-merging docs/guide.md\n"
	    "CONFLICT (add/add): Merge conflict in src/a.c\n"
	    "Auto-merging src/b.c\n"
	    "CONFLICT (content): Merge conflict in src/b.cc\n"
	    "CONFLICT (modify/delete): src/c.c deleted in HEAD and modified "
	    "in topic.\n"
	    "Automatic merge failed; fix conflicts and then commit the "
	    "result.\n");
	check_exact("git cherry-pick b4962f6",
	    "Auto-merging x.py\n"
	    "CONFLICT (content): Merge conflict in x.py\n"
	    "error: could not apply b4962f6... Fix x\n"
	    "hint: \"git add/rm <pathspec>\", then run\n"
	    "hint: \"git cherry-pick --continue\".\n", "git-merge", true,
	    "CONFLICT (content): Merge conflict in x.py\n"
	    "error: could not apply b4962f6... Fix x\n"
	    "hint: \"git add/rm <pathspec>\", then run\n"
	    "hint: \"git cherry-pick --continue\".\n");
}
END_TEST

START_TEST(test_merge_declines)
{
	check_declines("git merge topic", "");
	check_declines("git merge topic", "Already up to date.\n");
	check_declines("git pull", "Updating 1a2b3c4..5d6e7f8\nFast-forward\n"
	    " src/a.c | 2 +-\n 1 file changed, 1 insertion(+), 1 "
	    "deletion(-)\n");
	check_declines("git rebase main", "Auto-merging src/a.c\n"
	    "Successfully rebased and updated refs/heads/topic.\n");
}
END_TEST

START_TEST(test_show)
{
	struct aiterm_buf b = BUF_INIT;

	buf_adds(&b, "commit 0123456789abcdef0123456789abcdef01234567\n"
	    "Author: A U Thor <a@example.com>\n"
	    "Date:   Mon Jun 10 12:00:00 2024 +0200\n"
	    "\n"
	    "    Fix the frobnicator\n"
	    "\n"
	    "    It frobbed twice.\n"
	    "\n");
	buf_adds(&b, small_diff);
	check_exact("git show", buf_str(&b), "git-show", false,
	    "commit 0123456789abcdef0123456789abcdef01234567\n"
	    "Author: A U Thor <a@example.com>\n"
	    "Date:  Mon Jun 10 12:00:00 2024 +0200\n"
	    "Fix the frobnicator\n"
	    "It frobbed twice.\n"
	    "diff --git a/src/a.c b/src/a.c\n"
	    "@@ -1,9 +1,9 @@ int main(void)\n"
	    "-four\n"
	    "+FOUR\n"
	    " five\n"
	    "-six\n"
	    "+SIX\n"
	    "diff --git a/old.txt b/new.txt\n"
	    "similarity index 90%\n"
	    "rename from old.txt\n"
	    "rename to new.txt\n"
	    "diff --git a/logo.png b/logo.png (new file) (binary)\n"
	    "diff --git a/run.sh b/run.sh (mode 100644 -> 100755)\n"
	    "(6 context lines left out)\n");
	check_declines("git show HEAD:README", "# Project\n\nSome text that "
	    "is a file, not a commit.\n");
	buf_free(&b);
}
END_TEST

/*
 * git log
 */

START_TEST(test_log_layout)
{
	check_exact("git log -2",
	    "commit aaaaaaa1111111111111111111111111111111111 (HEAD -> main)\n"
	    "Merge: bbbbbbb ccccccc\n"
	    "Author: A U Thor <a@example.com>\n"
	    "Date:   Tue Feb  4 09:10:11 2025 +0100\n"
	    "\n"
	    "    Merge branch 'x'\n"
	    "\n"
	    "commit bbbbbbb2222222222222222222222222222222222\n"
	    "Author: B Other <b@example.com>\n"
	    "Date:   Mon Feb  3 09:10:11 2025 +0100\n"
	    "\n"
	    "    Add x\n"
	    "    \n"
	    "    Signed-off-by: B Other <b@example.com>\n",
	    "git-log", false,
	    "aaaaaaa (HEAD -> main) [merge] Merge branch 'x' (2025-02-04, "
	    "A U Thor)\n"
	    "bbbbbbb Add x (2025-02-03, B Other)\n"
	    "[2 commits; message bodies left out: 1 line]\n");
}
END_TEST

START_TEST(test_log_many)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	for (i = 0; i < 500; i++)
		buf_printf(&b, "commit %040zx\nAuthor: X <x@y>\nDate:   Mon "
		    "Jun 10 12:00:00 2024 +0200\n\n    Change %zu\n\n", i + 1,
		    i);
	got = reduce("git log", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_le(red_line_count(got, strlen(got)), 200);
	ck_assert_ptr_nonnull(strstr(got, "Change 0 (2024-06-10, X)\n"));
	ck_assert_ptr_nonnull(strstr(got, "more commits\n"));
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_log_declines)
{
	check_declines("git log --oneline", "825aff1 Bump version\n"
	    "624d7af hash: free the old slot array after a resize\n");
	check_declines("git log --graph", "* commit 825aff1e15aa19b92ec2c7f"
	    "eeb76bacd2d80be17\n| Author: M <m@x>\n");
	check_declines("git log", "fatal: your current branch 'main' does "
	    "not have any commits yet\n");
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

int
main(void)
{
	Suite *s = suite_create("red-git");
	TCase *tc = tcase_create("git");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_fixture, 0,
	    (int)(sizeof fixtures / sizeof fixtures[0]));
	tcase_add_test(tc, test_status_layout);
	tcase_add_test(tc, test_status_many);
	tcase_add_test(tc, test_status_declines);
	tcase_add_test(tc, test_diff_layout);
	tcase_add_test(tc, test_diff_combined);
	tcase_add_test(tc, test_diff_budget);
	tcase_add_test(tc, test_diff_declines);
	tcase_add_test(tc, test_plain_diff);
	tcase_add_test(tc, test_plain_diff_headers_only);
	tcase_add_test(tc, test_plain_diff_declines);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_merge_declines);
	tcase_add_test(tc, test_show);
	tcase_add_test(tc, test_log_layout);
	tcase_add_test(tc, test_log_many);
	tcase_add_test(tc, test_log_declines);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
