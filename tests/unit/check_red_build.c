/*
 * The build reducers (plugin reducers-build: make/ninja and C/C++
 * compiler diagnostics, tsc) through the real dispatch: red_cmd_reduce on
 * stripped text, with the plugin loaded from the build tree
 * ($AITERM_PLUGIN_PATH).
 *
 * - Fixtures: the corpus cases of this family reduce, are shorter and
 *   keep every must_keep string.
 * - Exact: the layout of a small make run and of a tsc overload error.
 * - Edges: empty output, nothing to leave out, shapes the reducers do
 *   not know.
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
#include "reduce/strip.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures"
#endif

/*
 * Helpers
 */

static void
check_exact(const char *line, const char *text, const char *name,
    const char *want)
{
	rt_check_exact("reducers-build", line, text, name, -1, want);
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
	{ "make-c-warnings-error", "make", 0 },
	{ "tsc-noemit-errors", "tsc", 0 },
};

START_TEST(test_fixture)
{
	rt_check_fixture(FIXTURES_DIR, "reducers-build", &fixtures[_i]);
}
END_TEST

/*
 * Exact layouts
 */

START_TEST(test_make_layout)
{
	check_exact("make -j4",
	    "make[1]: Entering directory '/srv/kv'\n"
	    "gcc -O2 -Wall -c -o a.o a.c\n"
	    "a.c: In function 'main':\n"
	    "a.c:3:9: warning: unused variable 'x' [-Wunused-variable]\n"
	    "    3 |     int x;\n"
	    "      |         ^\n"
	    "/usr/bin/x86_64-linux-gnu-gcc-12 -o kv a.o\n"
	    "/usr/bin/ld: a.o: in function `main':\n"
	    "a.c:(.text+0x5): undefined reference to `kv_open'\n"
	    "collect2: error: ld returned 1 exit status\n"
	    "make[1]: *** [Makefile:9: kv] Error 1\n"
	    "make[1]: Leaving directory '/srv/kv'\n",
	    "make",
	    "a.c: In function 'main':\n"
	    "a.c:3:9: warning: unused variable 'x' [-Wunused-variable]\n"
	    "    3 |     int x;\n"
	    "/usr/bin/x86_64-linux-gnu-gcc-12 -o kv a.o\n"
	    "/usr/bin/ld: a.o: in function `main':\n"
	    "a.c:(.text+0x5): undefined reference to `kv_open'\n"
	    "collect2: error: ld returned 1 exit status\n"
	    "make[1]: *** [Makefile:9: kv] Error 1\n"
	    "(1 error, 1 warning; +1 commands, +2 directory lines, "
	    "+1 caret lines)\n");
}
END_TEST

START_TEST(test_cc_and_ninja)
{
	check_exact("clang -Wall -c x.c",
	    "x.c:2:12: error: use of undeclared identifier 'y'\n"
	    "    2 |     return y;\n"
	    "      |            ^\n"
	    "x.c:5:20: warning: unused parameter 'argc' [-Wunused-parameter]\n"
	    "    5 | int main(int argc, char **argv)\n"
	    "      |                    ^\n"
	    "x.c:5:33: warning: unused parameter 'argv' [-Wunused-parameter]\n"
	    "    5 | int main(int argc, char **argv)\n"
	    "      |                                 ^\n"
	    "2 warnings and 1 error generated.\n",
	    "cc",
	    "x.c:2:12: error: use of undeclared identifier 'y'\n"
	    "    2 |     return y;\n"
	    "x.c:5:20: warning: unused parameter 'argc' [-Wunused-parameter]\n"
	    "    5 | int main(int argc, char **argv)\n"
	    "x.c:5:33: warning: unused parameter 'argv' [-Wunused-parameter]\n"
	    "    5 | int main(int argc, char **argv)\n"
	    "2 warnings and 1 error generated.\n"
	    "(1 error, 2 warnings; +3 caret lines)\n");
	check_exact("ninja -C build",
	    "[1/3] Building C object CMakeFiles/kv.dir/a.c.o\n"
	    "[2/3] Building C object CMakeFiles/kv.dir/b.c.o\n"
	    "[3/3] Linking C executable kv\n",
	    "make",
	    "(0 errors, 0 warnings; +3 commands)\n");
}
END_TEST

/*
 * A command that failed stays whole (issue 35, RED-FAITHFUL): its flags are
 * what the error is often about: ninja's command after "FAILED:"; the
 * others go.
 */
START_TEST(test_failed_command_kept)
{
	check_exact("ninja -C build",
	    "[1/3] Compiling C object t.p/src_main.c.o\n"
	    "FAILED: t.p/src_clock.c.o \n"
	    "cc -It.p -Wall -std=c11 -O0 -g -o t.p/src_clock.c.o -c ../src/clock.c\n"
	    "../src/clock.c:11:23: error: 'CLOCK_MONOTONIC' undeclared\n"
	    "   11 |  clock_gettime(CLOCK_MONOTONIC, &ts);\n"
	    "      |                ^~~~~~~~~~~~~~~\n"
	    "[2/3] Compiling C object t.p/src_queue.c.o\n"
	    "ninja: build stopped: subcommand failed.\n",
	    "make",
	    "FAILED: t.p/src_clock.c.o \n"
	    "cc -It.p -Wall -std=c11 -O0 -g -o t.p/src_clock.c.o -c ../src/clock.c\n"
	    "../src/clock.c:11:23: error: 'CLOCK_MONOTONIC' undeclared\n"
	    "   11 |  clock_gettime(CLOCK_MONOTONIC, &ts);\n"
	    "ninja: build stopped: subcommand failed.\n"
	    "(1 error, 0 warnings; +2 commands, +1 caret lines)\n");
	/* make names no failed command: they are all counted. */
	check_exact("make",
	    "gcc -std=c99 -O2 -c -o a.o a.c\n"
	    "gcc -std=c99 -O2 -c -o b.o b.c\n"
	    "b.c:4:5: error: 'for' loop initial declarations are only allowed in C99 mode\n"
	    "make: *** [Makefile:4: b.o] Error 1\n",
	    "make",
	    "b.c:4:5: error: 'for' loop initial declarations are only allowed in C99 mode\n"
	    "make: *** [Makefile:4: b.o] Error 1\n"
	    "(1 error, 0 warnings; +2 commands)\n");
}
END_TEST

/* Commands asked for (V=1, --verbose) stay; carets still go. */
START_TEST(test_verbose_keeps_commands)
{
	check_exact("make V=1",
	    "gcc -O2 -Wall -c -o a.o a.c\n"
	    "a.c:3:7: warning: unused variable 'x' [-Wunused-variable]\n"
	    "    3 |   int x;\n"
	    "      |       ^\n"
	    "a.c:4:7: warning: unused variable 'y' [-Wunused-variable]\n"
	    "    4 |   int y;\n"
	    "      |       ^\n"
	    "a.c:5:7: warning: unused variable 'z' [-Wunused-variable]\n"
	    "    5 |   int z;\n"
	    "      |       ^\n"
	    "gcc -o app a.o\n",
	    "make",
	    "gcc -O2 -Wall -c -o a.o a.c\n"
	    "a.c:3:7: warning: unused variable 'x' [-Wunused-variable]\n"
	    "    3 |   int x;\n"
	    "a.c:4:7: warning: unused variable 'y' [-Wunused-variable]\n"
	    "    4 |   int y;\n"
	    "a.c:5:7: warning: unused variable 'z' [-Wunused-variable]\n"
	    "    5 |   int z;\n"
	    "gcc -o app a.o\n"
	    "(0 errors, 3 warnings; +3 caret lines)\n");
	check_declines("cmake --build build --verbose",
	    "[ 50%] Building C object CMakeFiles/g.dir/g.c.o\n"
	    "/usr/bin/cc -O2 -o CMakeFiles/g.dir/g.c.o -c /src/g.c\n"
	    "[100%] Linking C executable g\n");
}
END_TEST

/* cmake: configure checks and "[ 42%]" progress counted, the rest kept. */
START_TEST(test_cmake)
{
	check_exact("cmake -S . -B build && cmake --build build",
	    "-- The C compiler identification is GNU 12.2.0\n"
	    "-- Detecting C compiler ABI info\n"
	    "-- Detecting C compiler ABI info - done\n"
	    "-- Check for working C compiler: /usr/bin/cc - skipped\n"
	    "-- Found Threads: TRUE\n"
	    "CMake Warning at CMakeLists.txt:8 (message):\n"
	    "  libmodbus not found\n"
	    "-- Configuring done\n"
	    "-- Build files have been written to: /src/build\n"
	    "[ 50%] Building C object CMakeFiles/g.dir/src/g.c.o\n"
	    "/src/g.c:7:5: error: too many arguments to function 'f'\n"
	    "    7 |     f(g, 50);\n"
	    "      |     ^\n"
	    "[100%] Built target g\n"
	    "gmake: *** [Makefile:91: all] Error 2\n",
	    "make",
	    "-- Found Threads: TRUE\n"
	    "CMake Warning at CMakeLists.txt:8 (message):\n"
	    "  libmodbus not found\n"
	    "-- Build files have been written to: /src/build\n"
	    "/src/g.c:7:5: error: too many arguments to function 'f'\n"
	    "    7 |     f(g, 50);\n"
	    "gmake: *** [Makefile:91: all] Error 2\n"
	    "(1 error, 0 warnings; +2 commands, +5 configure checks, "
	    "+1 caret lines)\n");
}
END_TEST

START_TEST(test_tsc_overloads)
{
	check_exact("npx tsc --noEmit",
	    "src/a.ts(3,1): error TS2769: No overload matches this call.\n"
	    "  Overload 1 of 2, '(x: number): void', gave the following "
	    "error.\n"
	    "    Argument of type 'string' is not assignable to parameter of "
	    "type 'number'.\n"
	    "  Overload 2 of 2, '(x: number, y?: number): void', gave the "
	    "following error.\n"
	    "    Argument of type 'string' is not assignable to parameter of "
	    "type 'number'.\n"
	    "src/b.ts(1,7): error TS2322: Type 'string' is not assignable to "
	    "type 'number'.\n",
	    "tsc",
	    "src/a.ts(3,1): error TS2769: No overload matches this call.\n"
	    "  Overload 1 of 2, '(x: number): void', gave the following "
	    "error.\n"
	    "    Argument of type 'string' is not assignable to parameter of "
	    "type 'number'.\n"
	    "  (+1 more overloads, same error)\n"
	    "src/b.ts(1,7): error TS2322: Type 'string' is not assignable to "
	    "type 'number'.\n"
	    "(2 errors in 2 files)\n");
}
END_TEST

START_TEST(test_tsc_pretty)
{
	check_exact("tsc --pretty",
	    "src/a.ts:9:24 - error TS7006: Parameter 'limit' implicitly has "
	    "an 'any' type.\n\n"
	    "9 export function recent(limit) {\n"
	    "                         ~~~~~\n\n\n"
	    "Found 1 error in src/a.ts:9\n\n",
	    "tsc",
	    "src/a.ts:9:24 - error TS7006: Parameter 'limit' implicitly has "
	    "an 'any' type.\n"
	    "9 export function recent(limit) {\n"
	    "Found 1 error in src/a.ts:9\n");
}
END_TEST

/*
 * Edges
 */

START_TEST(test_declined)
{
	check_declines("make", "");
	check_declines("tsc", "");
	check_declines("make", "make: Nothing to be done for 'all'.\n");
	check_declines("gcc -o x x.c", "x.c:1:1: warning: empty file\n");
	/* Nothing to fold: tsc's lines are the facts. */
	check_declines("tsc", "src/b.ts(1,7): error TS2322: Type 'string' is "
	    "not assignable to type 'number'.\n");
	check_declines("tsc --version", "Version 5.4.5\n");
}
END_TEST

/* rustc: gutter lines and cargo's progress bar go, nothing else. */
START_TEST(test_rustc_layout)
{
	struct red_cmd_result res;
	char *got;

	check_exact("cargo build",
	    "   Compiling tallyq v0.1.0 (/src/tallyq)\n"
	    "    Building [    ] 0/1: tallyq(bin)    error[E0308]: mismatched "
	    "types\n"
	    "  --> src/main.rs:36:22\n"
	    "   |\n"
	    "36 |     let count: u32 = orders.len();\n"
	    "   |                ---   ^^^^^^^^^^^^ expected `u32`\n"
	    "   |\n"
	    "error: could not compile `tallyq` (bin \"tallyq\") due to 1 "
	    "previous error\n",
	    "rustc",
	    "   Compiling tallyq v0.1.0 (/src/tallyq)\n"
	    "error[E0308]: mismatched types\n"
	    "  --> src/main.rs:36:22\n"
	    "36 |     let count: u32 = orders.len();\n"
	    "   |                ---   ^^^^^^^^^^^^ expected `u32`\n"
	    "error: could not compile `tallyq` (bin \"tallyq\") due to 1 "
	    "previous error\n");
	got = rt_reduce("cargo build", "error: x\n   |\n", 0, 200, &res);
	ck_assert_ptr_nonnull(got);
	ck_assert(res.lossless);
	free(got);
	/* A clean build is short already. */
	check_declines("cargo build", "   Compiling a v0.1.0 (/a)\n"
	    "    Finished `dev` profile [unoptimized] target(s) in 0.5s\n");
}
END_TEST

static Suite *
make_red_build_suite(void)
{
	Suite *s = suite_create("red_build");
	TCase *tc;

	tc = tcase_create("Fixtures");
	tcase_add_loop_test(tc, test_fixture, 0,
	    (int)(sizeof fixtures / sizeof fixtures[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("Exact");
	tcase_add_test(tc, test_make_layout);
	tcase_add_test(tc, test_cc_and_ninja);
	tcase_add_test(tc, test_failed_command_kept);
	tcase_add_test(tc, test_cmake);
	tcase_add_test(tc, test_verbose_keeps_commands);
	tcase_add_test(tc, test_tsc_overloads);
	tcase_add_test(tc, test_tsc_pretty);
	tcase_add_test(tc, test_rustc_layout);
	suite_add_tcase(s, tc);

	tc = tcase_create("Edges");
	tcase_add_test(tc, test_declined);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
	sr = srunner_create(make_red_build_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
