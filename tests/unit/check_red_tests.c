/*
 * The test-runner reducers (plugin reducers-tests) through the real
 * dispatch: red_cmd_reduce on stripped text, with the plugin loaded from
 * the build tree ($AITERM_PLUGIN_PATH).
 *
 * - Pairs: the rtk 0.42.0 reference pairs (tests/fixtures/rtk-pytest)
 *   come out byte for byte.  Two of them (notests, onlyskip) are longer
 *   than their input, so the core refuses them (RED-FAITHFUL) and the
 *   generic stages run; for those the plugin's own result is compared.
 *   None of the six pairs differs from rtk.  The deliberate differences
 *   (RED-FAITHFUL asks for more) have their own cases below: a FAILED
 *   reason kept whole, collection errors reported, the error count kept,
 *   repeats dropped before failing tests are pushed behind the cap.
 * - Fixtures: the corpus cases of this family reduce, are shorter and
 *   keep every must_keep string.
 * - Edges: empty output, shapes the reducers do not know, exit codes.
 */
#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/host.h"
#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "redtest.h"
#include "reduce/strip.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures"
#endif

/*
 * Helpers
 */


static char *
strip_file(const char *path, size_t *len)
{
	struct aiterm_buf out = BUF_INIT;
	char *raw;
	size_t n;

	raw = rt_slurp(path, &n);
	red_strip(raw, n, &out);
	buf_add(&out, "", 0);
	free(raw);
	return buf_steal(&out, len);
}

/* The reducer of plugin reducers-tests named name, called directly. */
static int
direct(const char *name, const char *const *argv, const char *text,
    size_t len, struct aiterm_buf *out)
{
	const struct aiterm_reducer_ops *ops;
	const struct aiterm_reducer *r;
	const struct aiterm_plugin *p;
	struct aiterm_reduce_input in;

	p = registry_find(AITERM_KIND_REDUCER, "reducers-tests");
	ck_assert_msg(p != NULL, "reducers-tests is not loaded");
	ops = p->ops;
	for (r = ops->reducers; r->name != NULL; r++) {
		if (strcmp(r->name, name) == 0)
			break;
	}
	ck_assert_ptr_nonnull(r->name);
	memset(&in, 0, sizeof in);
	in.text = text;
	in.len = len;
	in.command = argv[0];
	in.argv = argv;
	in.exit_code = -1;
	in.max_lines = 200;
	return r->reduce(host_get(), &in, out);
}

/* red_cmd_reduce on text; the result (or NULL when it declined). */
static char *
reduce(const char *line, const char *text, int exit_code,
    struct red_cmd_result *res)
{
	struct aiterm_buf out = BUF_INIT;

	if (red_cmd_reduce(line, text, strlen(text), exit_code, 200, &out,
	    res) != 0) {
		buf_free(&out);
		return NULL;
	}
	buf_add(&out, "", 0);
	return buf_steal(&out, NULL);
}

static void
check_reduces(const char *line, const char *text, const char *name,
    const char *const *want)
{
	struct red_cmd_result res;
	char *got;
	size_t i;

	got = reduce(line, text, -1, &res);
	ck_assert_msg(got != NULL, "%s declined:\n%s", line, text);
	ck_assert_str_eq(res.name, name);
	ck_assert_uint_lt(strlen(got), strlen(text));
	for (i = 0; want[i] != NULL; i++)
		ck_assert_msg(strstr(got, want[i]) != NULL,
		    "%s: \"%s\" missing from:\n%s", line, want[i], got);
	free(got);
}

static void
check_declines(const char *line, const char *text, int exit_code)
{
	struct red_cmd_result res;
	char *got;

	got = reduce(line, text, exit_code, &res);
	ck_assert_msg(got == NULL, "%s reduced (%s):\n%s", line, res.name,
	    got);
}

/*
 * Pairs: rtk 0.42.0 pytest output, byte for byte.
 */

static const char *const pairs[] = {
	"allpass", "cap", "notests", "onlyskip", "proj", "proj_ra", NULL,
};

START_TEST(test_rtk_pair)
{
	static const char *const argv[] = { "pytest", NULL };
	struct aiterm_buf out = BUF_INIT;
	struct red_cmd_result res;
	char *path, *text, *want;
	size_t len, wlen;
	int rc;

	path = xasprintf("%s/rtk-pytest/%s.input.txt", FIXTURES_DIR,
	    pairs[_i]);
	text = strip_file(path, &len);
	free(path);
	path = xasprintf("%s/rtk-pytest/%s.expected.txt", FIXTURES_DIR,
	    pairs[_i]);
	want = rt_slurp(path, &wlen);
	free(path);
	rc = red_cmd_reduce("pytest", text, len, 1, 200, &out, &res);
	if (wlen < len) {
		ck_assert_int_eq(rc, 0);
		ck_assert_str_eq(res.name, "pytest");
		ck_assert_str_eq(res.plugin, "reducers-tests");
		ck_assert(!res.lossless);
	} else {
		/* Longer than the input: the core keeps the input. */
		ck_assert_int_eq(rc, -1);
		ck_assert_int_eq(direct("pytest", argv, text, len, &out), 0);
	}
	buf_add(&out, "", 0);
	ck_assert_str_eq(buf_str(&out), want);
	buf_free(&out);
	free(text);
	free(want);
}
END_TEST

/*
 * Deliberate differences from rtk (RED-FAITHFUL asks for more).
 */

/*
 * rtk cuts the reason at the second " - " and at 100 characters, and
 * puts it under "[FAIL] node": the summary line is shown whole.
 */
START_TEST(test_pytest_whole_reason)
{
	static const char *const want[] = {
		"1. FAILED t.py::test_a - "
		"AssertionError: a - b - c and a reason much longer than "
		"a hundred characters, which rtk would cut short here: "
		"the end\n", NULL,
	};

	check_reduces("pytest -q",
	    "F                                                         [100%]\n"
	    "=========================== short test summary info "
	    "============================\n"
	    "FAILED t.py::test_a - AssertionError: a - b - c and a reason "
	    "much longer than a hundred characters, which rtk would cut short "
	    "here: the end\n"
	    "1 failed in 0.01s\n", "pytest", want);
}
END_TEST

/* rtk says "No tests collected" when collection failed. */
START_TEST(test_pytest_collection_errors)
{
	static const char *const want[] = {
		"Pytest: 1 error in 0.05s\n",
		"Interrupted: 1 error during collection\n",
		"Errors:\n1. ERROR collecting tests/test_x.py\n",
		"E   ModuleNotFoundError: No module named 'nope'\n",
		NULL,
	};
	struct red_cmd_result res;
	char *got;

	check_reduces("python3 -m pytest",
	    "==================================== ERRORS "
	    "====================================\n"
	    "_______________________ ERROR collecting tests/test_x.py "
	    "________________________\n"
	    "ImportError while importing test module "
	    "'/srv/p/tests/test_x.py'.\n"
	    "Hint: make sure your test modules/packages have valid Python "
	    "names.\n"
	    "Traceback:\n"
	    "tests/test_x.py:1: in <module>\n"
	    "    import nope\n"
	    "E   ModuleNotFoundError: No module named 'nope'\n"
	    "=========================== short test summary info "
	    "============================\n"
	    "ERROR tests/test_x.py\n"
	    "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection "
	    "!!!!!!!!!!!!!!!!!!!!\n"
	    "1 error in 0.05s\n", "pytest", want);
	got = reduce("pytest", "=== ERRORS ===\n___ ERROR collecting a.py ___\n"
	    "/usr/lib/python3/dist-packages/_pytest/python.py:618: in "
	    "_importtestmodule\n"
	    "    mod = import_path(self.path, mode=importmode, "
	    "root=self.config.rootpath)\n"
	    "/usr/lib/python3/dist-packages/_pytest/pathlib.py:533: in "
	    "import_path\n"
	    "    importlib.import_module(module_name)\n"
	    "E     File \"/srv/p/a.py\", line 3\n"
	    "E   SyntaxError: invalid syntax\n=== short test summary info ===\n"
	    "ERROR a.py\n!!! Interrupted: 1 error during collection !!!\n"
	    "1 error in 0.05s\n", 2, &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_null(strstr(got, "No tests collected"));
	ck_assert_ptr_nonnull(strstr(got, "SyntaxError: invalid syntax"));
	free(got);
}
END_TEST

/* rtk's header has no error or warning count; setup errors are lost. */
START_TEST(test_pytest_error_count)
{
	static const char *const want[] = {
		"Pytest: 1 failed, 2 passed, 1 warning, 1 error in 0.10s\n",
		"1. ERROR at setup of test_db\n",
		"E       ModuleNotFoundError: No module named 'psycopg2'\n",
		"2. [FAIL] test_b\n",
		"E       assert 1 == 2\n",
		/* The summary lines, whole: they give the tests' file. */
		"3. FAILED tests/test_a.py::test_b - assert 1 == 2\n",
		"4. ERROR tests/test_a.py::test_db - ModuleNotFoundError: No "
		"module named 'psycopg2'\n",
		/* The warnings summary rtk leaves out. */
		"\nWarnings:\n  tests/test_a.py::test_c\n  DeprecationWarning: "
		"old\n",
		NULL,
	};

	check_reduces("pytest tests/",
	    "============================= test session starts "
	    "==============================\n"
	    "collected 4 items\n\n"
	    "tests/test_a.py .E.F                                  [100%]\n\n"
	    "==================================== ERRORS "
	    "====================================\n"
	    "__________________________ ERROR at setup of test_db "
	    "___________________________\n\n"
	    "    @pytest.fixture\n    def db():\n"
	    ">       import psycopg2\n"
	    "E       ModuleNotFoundError: No module named 'psycopg2'\n\n"
	    "tests/conftest.py:3: ModuleNotFoundError\n"
	    "=================================== FAILURES "
	    "===================================\n"
	    "____________________________________ test_b "
	    "____________________________________\n\n"
	    "    def test_b():\n>       assert 1 == 2\n"
	    "E       assert 1 == 2\n\ntests/test_a.py:9: AssertionError\n"
	    "=============================== warnings summary "
	    "===============================\n"
	    "tests/test_a.py::test_c\n  DeprecationWarning: old\n\n"
	    "=========================== short test summary info "
	    "============================\n"
	    "FAILED tests/test_a.py::test_b - assert 1 == 2\n"
	    "ERROR tests/test_a.py::test_db - ModuleNotFoundError: No module "
	    "named 'psycopg2'\n"
	    "========== 1 failed, 2 passed, 1 warning, 1 error in 0.10s "
	    "===========\n", "pytest", want);
}
END_TEST

/* Over the cap of ten, FAILED lines repeating a block go first. */
START_TEST(test_pytest_cap_drops_repeats)
{
	struct aiterm_buf in = BUF_INIT;
	struct red_cmd_result res;
	char *got, name[32];
	int i;

	buf_adds(&in, "FFFFFFFF                                [100%]\n"
	    "=================== FAILURES ===================\n");
	for (i = 0; i < 8; i++)
		buf_printf(&in, "______________ test_%d ______________\n"
		    "t.py:%d: in test_%d\n    assert 0\nE   assert 0\n",
		    i, i, i);
	buf_adds(&in, "============ short test summary info ============\n");
	for (i = 0; i < 8; i++)
		buf_printf(&in, "FAILED t.py::test_%d - assert 0\n", i);
	buf_adds(&in, "8 failed in 0.02s\n");
	got = reduce("pytest", buf_str(&in), 1, &res);
	ck_assert_ptr_nonnull(got);
	/* Each test once, titled by the node id of its summary line. */
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof name, "[FAIL] t.py::test_%d\n", i);
		ck_assert_ptr_nonnull(strstr(got, name));
		ck_assert_ptr_null(strstr(strstr(got, name) + 1, name));
	}
	ck_assert_ptr_null(strstr(got, "more failures"));
	ck_assert_ptr_null(strstr(got, "[FAIL] test_"));
	free(got);
	buf_free(&in);
}
END_TEST

/* The first E line and the exception are kept; the rest is counted. */
START_TEST(test_pytest_block_lines)
{
	static const char *const want[] = {
		"1. [FAIL] test_x\n"
		"     >       assert f() == 3\n"
		"     E       assert 2 == 3\n"
		"     t.py:4: AssertionError\n"
		"     … +5 lines\n", NULL,
	};

	check_reduces("pytest",
	    "F                                                         [100%]\n"
	    "=================================== FAILURES "
	    "===================================\n"
	    "____________________________________ test_x "
	    "____________________________________\n\n"
	    "    def test_x():\n"
	    ">       assert f() == 3\n"
	    "E       assert 2 == 3\n"
	    "E        +  where 2 = f()\n"
	    "E        +    and more detail\n\n"
	    "t.py:4: AssertionError\n"
	    "------------------------- Captured stdout call "
	    "--------------------------\n"
	    "hello\n"
	    "1 failed in 0.01s\n", "pytest", want);
}
END_TEST

/*
 * Fixtures: the corpus cases of this family.
 */

static const struct rt_fixture fixtures[] = {
	{ "pytest-collection-errors", "pytest", -1 },
	{ "pytest-mixed-results-color", "pytest", -1 },
	{ "cargo-test-failures-color", "cargo-test", -1 },
	{ "jest-failures-tty", "jest", -1 },
	{ "node-test-spec-failures", "node-test", -1 },
};

START_TEST(test_fixture)
{
	rt_check_fixture(FIXTURES_DIR, "reducers-tests", &fixtures[_i]);
}
END_TEST

/*
 * Edges
 */

START_TEST(test_empty_declined)
{
	static const char *const lines[] = {
		"pytest", "cargo test", "npx jest", "vitest run", "node --test",
		NULL,
	};
	size_t i;

	for (i = 0; lines[i] != NULL; i++)
		check_declines(lines[i], "", 0);
}
END_TEST

START_TEST(test_unknown_shape_declined)
{
	static const char help[] = "Execute all unit and integration "
	    "tests and build examples of a local package\n\nUsage: cargo test "
	    "[OPTIONS] [TESTNAME] [-- [ARGS]...]\n";
	struct red_cmd_result res;
	char *got;

	check_declines("pytest --version", "pytest 7.2.1 and some more text "
	    "so that the output is not tiny\n", 0);
	/* The cargo reducer declines help; help is a listing: it goes whole. */
	got = reduce("cargo test --help", help, 0, &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, help);
	ck_assert_str_eq(res.name, RED_CMD_WHOLE);
	free(got);
	check_declines("npx jest --version", "29.7.0 and nothing that jest "
	    "prints for a test run at all\n", 0);
	check_declines("node --test", "TAP version 13\n# Subtest: a\nok 1 - a\n"
	    "  ---\n  duration_ms: 1.2\n  ...\n1..1\n# tests 1\n# pass 1\n", 0);
	check_declines("vitest", "some text that is not vitest output at all "
	    "and has no summary line\n", 0);
}
END_TEST

/* "no tests ran" is "No tests collected" only when nothing went wrong. */
START_TEST(test_pytest_no_tests_exit)
{
	static const char text[] =
	    "============================= test session starts "
	    "==============================\n"
	    "platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0\n"
	    "rootdir: /srv/p\ncollected 0 items\n\n"
	    "============================ no tests ran in 0.01s "
	    "=============================\n";
	static const char usage[] =
	    "ERROR: file or directory not found: tests/test_nope.py\n\n"
	    "============================ no tests ran in 0.01s "
	    "=============================\n";
	struct red_cmd_result res;
	char *got;

	got = reduce("pytest", text, 5, &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "Pytest: No tests collected\n");
	free(got);
	check_declines("pytest", text, 2);
	check_declines("pytest tests/test_nope.py", usage, 4);
}
END_TEST

START_TEST(test_pytest_all_passed)
{
	struct red_cmd_result res;
	char *got;

	got = reduce("uv run pytest -q", "........................... [ 50%]\n"
	    "...........................                                "
	    "[100%]\n54 passed, 2 warnings in 1.23s\n", 0, &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "Pytest: 54 passed, 2 warnings in 1.23s\n");
	free(got);
}
END_TEST

START_TEST(test_cargo_compile_error)
{
	static const char *const want[] = {
		"error[E0425]: cannot find value `y` in this scope\n",
		" --> src/lib.rs:3:5\n",
		"error: could not compile `demo` (lib test) due to 1 previous "
		"error\n", NULL,
	};

	check_reduces("cargo test",
	    "   Compiling demo v0.1.0 (/srv/demo)\n"
	    "error[E0425]: cannot find value `y` in this scope\n"
	    " --> src/lib.rs:3:5\n  |\n3 |     y\n  |     ^ not found in this "
	    "scope\n\n"
	    "For more information about this error, try `rustc --explain "
	    "E0425`.\n"
	    "error: could not compile `demo` (lib test) due to 1 previous "
	    "error\n", "cargo-test", want);
}
END_TEST

START_TEST(test_cargo_all_ok)
{
	static const char *const want[] = {
		"unittests src/lib.rs: 3 tests, 3 ok\n",
		"test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; "
		"0 filtered out; finished in 0.00s\n",
		"Doc-tests demo: 0 tests\n", NULL,
	};

	check_reduces("cargo test",
	    "    Finished `test` profile [unoptimized + debuginfo] target(s) "
	    "in 0.02s\n"
	    "     Running unittests src/lib.rs (target/debug/deps/demo-1)\n\n"
	    "running 3 tests\ntest a ... ok\ntest b ... ok\ntest c ... ok\n\n"
	    "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; "
	    "0 filtered out; finished in 0.00s\n\n"
	    "   Doc-tests demo\n\nrunning 0 tests\n\n"
	    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; "
	    "0 filtered out; finished in 0.00s\n\n", "cargo-test", want);
}
END_TEST

/* RED-FAITHFUL: a failing test's own line stays whole under its count. */
START_TEST(test_cargo_failed_lines)
{
	static const char *const want[] = {
		"unittests src/lib.rs: 3 tests, 1 ok, 2 FAILED\n"
		"test b ... FAILED\ntest c::d ... FAILED\n",
		"---- b stdout ----\n", NULL,
	};

	check_reduces("cargo test",
	    "     Running unittests src/lib.rs (target/debug/deps/demo-1)\n\n"
	    "running 3 tests\ntest a ... ok\ntest b ... FAILED\n"
	    "test c::d ... FAILED\n\nfailures:\n\n---- b stdout ----\n"
	    "thread 'b' panicked at src/lib.rs:9:5:\nboom\n\n"
	    "---- c::d stdout ----\nthread 'c::d' panicked at src/lib.rs:12:5:"
	    "\nbang\n\nfailures:\n    b\n    c::d\n\n"
	    "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; "
	    "0 filtered out; finished in 0.00s\n\n", "cargo-test", want);
}
END_TEST

START_TEST(test_jest_all_passed)
{
	static const char *const want[] = {
		"Test Suites: 3 passed, 3 total\n",
		"Tests:  12 passed, 12 total\n", NULL,
	};

	check_reduces("npx jest",
	    " PASS  __tests__/a.test.js\n PASS  __tests__/b.test.js\n"
	    " PASS  __tests__/c.test.js\n\n"
	    "Test Suites: 3 passed, 3 total\n"
	    "Tests:       12 passed, 12 total\n"
	    "Snapshots:   0 total\nTime:        0.8 s\nRan all test suites.\n",
	    "jest", want);
}
END_TEST

/* Passing files are named when there are few of them. */
START_TEST(test_jest_pass_named)
{
	static const char *const want[] = {
		" PASS  __tests__/a.test.js\n", " FAIL  __tests__/b.test.js\n",
		"  ● sum › adds\n", "Tests:  1 failed, 3 passed, 4 total\n",
		NULL,
	};

	check_reduces("npx jest",
	    " PASS  __tests__/a.test.js\n FAIL  __tests__/b.test.js\n"
	    "  ● sum › adds\n\n    expect(received).toBe(expected)\n\n"
	    "Test Suites: 1 failed, 1 passed, 2 total\n"
	    "Tests:       1 failed, 3 passed, 4 total\n"
	    "Snapshots:   0 total\nTime:        0.8 s\nRan all test suites.\n",
	    "jest", want);
}
END_TEST

/* node: node's own frames folded; the program's frames and message kept. */
START_TEST(test_trace_node)
{
	static const char *const want[] = {
		"SyntaxError: Unexpected token ']'\n",
		"    at file:///srv/app/server.mjs:4:21\n",
		"    at \xe2\x80\xa6 (+3 frames in node)\n",
		"Node.js v20.20.2\n", NULL,
	};

	check_reduces("node server.mjs",
	    "SyntaxError: Unexpected token ']'\n"
	    "    at JSON.parse (<anonymous>)\n"
	    "    at file:///srv/app/server.mjs:4:21\n"
	    "    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)\n"
	    "    at async ModuleLoader.import (node:internal/modules/esm/loader:"
	    "606:24)\n"
	    "    at async asyncRunEntryPointWithESMLoader (node:internal/modules/"
	    "run_main:117:5)\n\nNode.js v20.20.2\n", "trace", want);
}
END_TEST

/* python: carets under the outer frames go, the raising frame keeps its. */
START_TEST(test_trace_python)
{
	struct red_cmd_result res;
	char *got;

	got = reduce("python3 app.py",
	    "Traceback (most recent call last):\n"
	    "  File \"/srv/app.py\", line 12, in main\n"
	    "    prices = load(path)\n"
	    "             ^^^^^^^^^^\n"
	    "  File \"/srv/prices.py\", line 19, in value\n"
	    "    return sum(prices[s] * q for s, q in items)\n"
	    "               ~~~~~~^^^\n"
	    "KeyError: 'NUT-M6'\n", 1, &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "trace");
	ck_assert_str_eq(got,
	    "Traceback (most recent call last):\n"
	    "  File \"/srv/app.py\", line 12, in main\n"
	    "    prices = load(path)\n"
	    "  File \"/srv/prices.py\", line 19, in value\n"
	    "    return sum(prices[s] * q for s, q in items)\n"
	    "               ~~~~~~^^^\n"
	    "KeyError: 'NUT-M6'\n"
	    "(+1 caret line)\n");
	free(got);
	/* Nothing of the runtime to leave out: declined. */
	check_declines("python3 app.py", "hello\nworld\n", 0);
}
END_TEST

START_TEST(test_vitest_failure)
{
	static const char *const want[] = {
		"❯ src/b.test.ts (2 tests | 1 failed) 5ms\n",
		"Failed Tests 1\n",
		" FAIL  src/b.test.ts > sum > adds\n",
		"AssertionError: expected 3 to be 4 // Object.is equality\n",
		" ❯ src/b.test.ts:5:15\n",
		"Test Files  1 failed | 1 passed (2)\n",
		"Tests  1 failed | 4 passed (5)\n", NULL,
	};

	check_reduces("npx vitest run",
	    "\n RUN  v1.6.0 /srv/app\n\n"
	    " ✓ src/a.test.ts (3 tests) 2ms\n"
	    " ❯ src/b.test.ts (2 tests | 1 failed) 5ms\n"
	    "   × sum > adds\n     → expected 3 to be 4\n\n"
	    "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n"
	    " FAIL  src/b.test.ts > sum > adds\n"
	    "AssertionError: expected 3 to be 4 // Object.is equality\n\n"
	    "- Expected\n+ Received\n\n- 4\n+ 3\n\n"
	    " ❯ src/b.test.ts:5:15\n"
	    "      3| describe('sum', () => {\n"
	    "      4|   it('adds', () => {\n"
	    "      5|     expect(sum(1, 2)).toBe(4)\n"
	    "       |               ^\n"
	    "      6|   })\n\n"
	    "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\n\n"
	    " Test Files  1 failed | 1 passed (2)\n"
	    "      Tests  1 failed | 4 passed (5)\n"
	    "   Start at  10:00:00\n"
	    "   Duration  300ms (transform 20ms, setup 0ms, collect 30ms)\n",
	    "vitest", want);
}
END_TEST

static Suite *
make_red_tests_suite(void)
{
	Suite *s = suite_create("red_tests");
	TCase *tc;

	tc = tcase_create("Pairs");
	tcase_add_loop_test(tc, test_rtk_pair, 0,
	    (int)(sizeof pairs / sizeof pairs[0]) - 1);
	tcase_add_test(tc, test_pytest_whole_reason);
	tcase_add_test(tc, test_pytest_collection_errors);
	tcase_add_test(tc, test_pytest_error_count);
	tcase_add_test(tc, test_pytest_cap_drops_repeats);
	tcase_add_test(tc, test_pytest_block_lines);
	suite_add_tcase(s, tc);

	tc = tcase_create("Fixtures");
	tcase_add_loop_test(tc, test_fixture, 0,
	    (int)(sizeof fixtures / sizeof fixtures[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("Edges");
	tcase_add_test(tc, test_empty_declined);
	tcase_add_test(tc, test_unknown_shape_declined);
	tcase_add_test(tc, test_pytest_no_tests_exit);
	tcase_add_test(tc, test_pytest_all_passed);
	tcase_add_test(tc, test_cargo_compile_error);
	tcase_add_test(tc, test_cargo_all_ok);
	tcase_add_test(tc, test_cargo_failed_lines);
	tcase_add_test(tc, test_jest_all_passed);
	tcase_add_test(tc, test_jest_pass_named);
	tcase_add_test(tc, test_trace_node);
	tcase_add_test(tc, test_trace_python);
	tcase_add_test(tc, test_vitest_failure);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
	sr = srunner_create(make_red_tests_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
