/*
 * The package-manager reducers (plugin reducers-pkg: apt/apt-get, apt
 * list, npm/yarn/pnpm, pip, dpkg -l) through the real dispatch: red_cmd_reduce
 * on stripped text, with the plugin loaded from the build tree
 * ($AITERM_PLUGIN_PATH).
 *
 * - Fixtures: the corpus cases of this family reduce, are shorter and
 *   keep every must_keep string.
 * - Exact: the layouts of small apt, npm, yarn, pip and dpkg outputs, and
 *   of apt list and dpkg -l beyond a listing's budget.
 * - Edges: empty output, errors, shapes the reducers do not know.
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

/* red_cmd_reduce on text; the result (or NULL when it declined). */
static char *
reduce(const char *line, const char *text, struct red_cmd_result *res)
{
	return rt_reduce(line, text, 0, 200, res);
}

static void
check_exact(const char *line, const char *text, const char *name,
    const char *want)
{
	rt_check_exact("reducers-pkg", line, text, name, -1, want);
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
	{ "apt-get-install-python3-pytest", "apt", 0 },
	{ "npm-install-spinner-ebadengine", "npm", 1 },
	{ "pip-install-requirements-conflict", "pip", 0 },
	{ "dpkg-l-lib-generic", "dpkg-list", 0 },
};

START_TEST(test_fixture)
{
	rt_check_fixture(FIXTURES_DIR, "reducers-pkg", &fixtures[_i]);
}
END_TEST

/*
 * Exact layouts
 */

START_TEST(test_apt_layout)
{
	check_exact("sudo apt-get install -y jq",
	    "Reading package lists... Done\n"
	    "Building dependency tree... Done\n"
	    "Reading state information... Done\n"
	    "The following NEW packages will be installed:\n"
	    "  jq libjq1 libonig5\n"
	    "0 upgraded, 3 newly installed, 0 to remove and 0 not upgraded.\n"
	    "Get:1 http://deb.debian.org/debian bookworm/main amd64 "
	    "libonig5 amd64 6.9.8-1 [188 kB]\n"
	    "Get:2 http://deb.debian.org/debian bookworm/main amd64 "
	    "libjq1 amd64 1.6-2.1 [135 kB]\n"
	    "Fetched 323 kB in 0s (3,190 kB/s)\n"
	    "Selecting previously unselected package libonig5:amd64.\n"
	    "Preparing to unpack .../libonig5_6.9.8-1_amd64.deb ...\n"
	    "Unpacking libonig5:amd64 (6.9.8-1) ...\n"
	    "Setting up libonig5:amd64 (6.9.8-1) ...\n"
	    "dpkg: error processing package jq (--configure):\n"
	    " installed jq package post-installation script subprocess "
	    "returned error exit status 1\n"
	    "Errors were encountered while processing:\n"
	    " jq\n"
	    "E: Sub-process /usr/bin/dpkg returned an error code (1)\n",
	    "apt",
	    "The following NEW packages will be installed:\n"
	    "  jq libjq1 libonig5\n"
	    "0 upgraded, 3 newly installed, 0 to remove and 0 not upgraded.\n"
	    "Fetched 323 kB in 0s (3,190 kB/s)\n"
	    "Setting up libonig5:amd64 (6.9.8-1) ...\n"
	    "dpkg: error processing package jq (--configure):\n"
	    " installed jq package post-installation script subprocess "
	    "returned error exit status 1\n"
	    "Errors were encountered while processing:\n"
	    " jq\n"
	    "E: Sub-process /usr/bin/dpkg returned an error code (1)\n"
	    "(+3 progress lines, +3 unpack lines, +2 fetch lines)\n");
}
END_TEST

START_TEST(test_apt_long_list)
{
	check_exact("apt upgrade",
	    "The following packages will be upgraded:\n"
	    "  a b c\n  d e f\n  g h i\n"
	    "  libjson-c5 libkmod2 libnghttp2-14 libpam0g libssl3 openssl\n"
	    "  systemd systemd-sysv udev\n"
	    "18 upgraded, 0 newly installed, 0 to remove and 0 not "
	    "upgraded.\n",
	    "apt",
	    "The following packages will be upgraded:\n"
	    "  a b c\n  d e f\n  g h i\n"
	    "18 upgraded, 0 newly installed, 0 to remove and 0 not "
	    "upgraded.\n"
	    "(+9 more packages in the lists)\n");
}
END_TEST

START_TEST(test_npm_layout)
{
	struct red_cmd_result res;
	char *got;

	got = reduce("npm i",
	    "npm warn ERESOLVE overriding peer dependency\n"
	    "npm warn ERESOLVE While resolving: a@1.0.0\n"
	    "npm warn deprecated inflight@1.0.6: leaks memory\n"
	    "\n"
	    "added 3 packages in 1s\n"
	    "\n"
	    "1 package is looking for funding\n"
	    "  run `npm fund` for details\n", &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "npm");
	ck_assert(res.lossless);
	ck_assert_str_eq(got,
	    "npm warn ERESOLVE overriding peer dependency While resolving: "
	    "a@1.0.0\n"
	    "npm warn deprecated inflight@1.0.6: leaks memory\n"
	    "added 3 packages in 1s\n"
	    "1 package is looking for funding (run `npm fund` for "
	    "details)\n");
	free(got);
	check_exact("yarn install",
	    "yarn install v1.22.19\n"
	    "[1/4] Resolving packages...\n"
	    "[2/4] Fetching packages...\n"
	    "info fsevents@2.3.3: The platform \"linux\" is incompatible "
	    "with this module.\n"
	    "[3/4] Linking dependencies...\n"
	    "warning \" > react-dom@18.2.0\" has unmet peer dependency "
	    "\"react@^18.2.0\".\n"
	    "[4/4] Building fresh packages...\n"
	    "Done in 4.12s.\n",
	    "npm",
	    "yarn install v1.22.19\n"
	    "warning \" > react-dom@18.2.0\" has unmet peer dependency "
	    "\"react@^18.2.0\".\n"
	    "Done in 4.12s.\n"
	    "(+4 yarn steps, +1 info lines)\n");
	/* Any npm command: bare "npm error" lines and the debug log go. */
	check_exact("npm run build",
	    "npm error code ERESOLVE\n"
	    "npm error\n"
	    "npm error Found: react@17.0.2\n"
	    "npm error A complete log of this run can be found in: "
	    "/root/.npm/_logs/2026-12-04T15_06_03_528Z-debug-0.log\n",
	    "npm",
	    "npm error code ERESOLVE\n"
	    "npm error Found: react@17.0.2\n"
	    "(+1 debug-log path)\n");
}
END_TEST

START_TEST(test_pip_layout)
{
	check_exact("python3 -m pip install requests",
	    "Collecting requests\n"
	    "  Downloading requests-2.32.3-py3-none-any.whl (64 kB)\n"
	    "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 64.9/64.9 kB "
	    "2.1 MB/s eta 0:00:00\n"
	    "Requirement already satisfied: idna<4,>=2.5 in "
	    "./venv/lib/python3.11/site-packages (from requests) (3.7)\n"
	    "Installing collected packages: requests\n"
	    "Successfully installed requests-2.32.3\n"
	    "\n"
	    "[notice] A new release of pip is available: 23.2.1 -> 24.1\n"
	    "[notice] To update, run: pip install --upgrade pip\n",
	    "pip",
	    "Installing collected packages: requests\n"
	    "Successfully installed requests-2.32.3\n"
	    "(+4 resolve lines, +2 pip notices)\n");
}
END_TEST

START_TEST(test_dpkg_small)
{
	struct red_cmd_result res;
	char *got;

	got = reduce("dpkg -l bash",
	    "Desired=Unknown/Install/Remove/Purge/Hold\n"
	    "| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/"
	    "trig-aWait/Trig-pend\n"
	    "|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)\n"
	    "||/ Name           Version      Architecture Description\n"
	    "+++-==============-============-============-=================\n"
	    "ii  bash           5.2.15-2+b7  amd64        GNU Bourne Again "
	    "SHell\n"
	    "rc  bash-static    5.2.15-2+b7  amd64        GNU Bourne Again "
	    "SHell (static)\n", &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "dpkg-list");
	ck_assert(res.lossless);
	/* A listing that fits keeps every line but the rule (RED-FAITHFUL). */
	ck_assert_str_eq(got,
	    "Desired=Unknown/Install/Remove/Purge/Hold\n"
	    "| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/"
	    "trig-aWait/Trig-pend\n"
	    "|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)\n"
	    "||/ Name  Version  Architecture Description\n"
	    "ii  bash  5.2.15-2+b7  amd64  GNU Bourne Again SHell\n"
	    "rc  bash-static  5.2.15-2+b7  amd64  GNU Bourne Again SHell "
	    "(static)\n");
	free(got);
}
END_TEST

/*
 * Beyond a listing's budget (RED-FAITHFUL: a listing keeps every name):
 * apt list and dpkg -l keep their first and last rows whole and the names
 * of every row between, by status, one blank apart.
 */
START_TEST(test_apt_list_far)
{
	static const char *const st[] = { "[installed,automatic]",
	    "[installed,upgradable to: 2.0-1]", "[installed]" };
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	buf_adds(&b, "Listing... Done\n");
	for (i = 0; i < 1000; i++)
		buf_printf(&b, "pkg%03zu/oldstable,now 1.%zu-1 amd64 %s\n", i, i,
		    st[i % 3]);
	buf_adds(&b, "N: Ignoring file 'x.disabled' in directory "
	    "'/etc/apt/sources.list.d/'\n");
	got = reduce("apt list --installed", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "apt-list");
	ck_assert(!res.lossless);
	ck_assert_msg(strstr(got, "Listing... Done\npkg000/oldstable,now 1.0-1 "
	    "amd64 [installed,automatic]\n") == got, "%s", got);
	ck_assert_ptr_nonnull(strstr(got, "pkg019/oldstable,now 1.19-1 amd64 "
	    "[installed,upgradable to: 2.0-1]\n… 960 more packages, names "
	    "only, by status (suite, version and architecture left out):\n"
	    "[installed] (320):\npkg020 pkg023 pkg026 "));
	ck_assert_ptr_nonnull(strstr(got, "\n[installed,automatic] (320):\n"
	    "pkg021 pkg024 "));
	ck_assert_ptr_nonnull(strstr(got, "\n[installed,upgradable to: …] "
	    "(320):\npkg022 pkg025 "));
	ck_assert_ptr_nonnull(strstr(got, "pkg979\npkg980/oldstable,now "
	    "1.980-1 amd64 [installed]\n"));
	ck_assert_ptr_nonnull(strstr(got, "pkg999/oldstable,now 1.999-1 amd64 "
	    "[installed,automatic]\nN: Ignoring file"));
	free(got);
	buf_free(&b);
	/* Within the budget it goes whole: the reducer declines. */
	check_declines("apt list --installed", "Listing... Done\n"
	    "jq/oldstable,now 1.6-2.1 amd64 [installed]\n");
}
END_TEST

START_TEST(test_dpkg_far)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	buf_adds(&b, "Desired=Unknown/Install/Remove/Purge/Hold\n"
	    "||/ Name    Version  Architecture Description\n"
	    "+++-=======-========-============-===========\n");
	for (i = 0; i < 900; i++)
		buf_printf(&b, "%s  lib%03zu  1.%zu  amd64  library %zu\n",
		    i == 450 ? "rc" : i % 100 == 7 ? "un" : "ii", i, i, i);
	got = reduce("dpkg -l", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "dpkg-list");
	ck_assert(!res.lossless);
	ck_assert_msg(strstr(got, "||/ Name  Version  Architecture Description\n"
	    "ii  lib000  1.0  amd64  library 0\n") == got, "%s", got);
	/* The 20 first ii rows whole (lib007 is un), then the names. */
	ck_assert_ptr_nonnull(strstr(got, "ii  lib020  1.20  amd64  library "
	    "20\n… 850 more installed (ii) rows, names only (version, "
	    "architecture and description left out):\nlib021 lib022 "));
	/* A row in another state stays whole, after the names. */
	ck_assert_ptr_nonnull(strstr(got, " lib449 lib451 "));
	ck_assert_ptr_nonnull(strstr(got, "lib879\nrc  lib450  1.450  amd64  "
	    "library 450\nii  lib880  1.880  amd64"));
	ck_assert_ptr_nonnull(strstr(got, "ii  lib899  1.899  amd64  library "
	    "899\n(+9 'un' rows: known, not installed)\n"));
	ck_assert_ptr_null(strstr(got, "lib007"));
	free(got);
	buf_free(&b);

	/* Rows in other states past the budget: every name, by state. */
	buf_adds(&b, "||/ Name    Version  Architecture Description\n");
	for (i = 0; i < 900; i++)
		buf_printf(&b, "%s  lib%03zu  1.%zu  amd64  library %zu\n",
		    i < 3 ? "ii" : "rc", i, i, i);
	got = reduce("dpkg -l", buf_str(&b), &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "dpkg-list");
	ck_assert_msg(!res.lossless, "versions were left out: not lossless");
	ck_assert_ptr_nonnull(strstr(got, "ii (3):\nlib000 lib001 lib002\n"
	    "rc (897):\nlib003 lib004 "));
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * Edges
 */

START_TEST(test_declined)
{
	check_declines("apt-get install jq", "");
	check_declines("npm install", "");
	check_declines("pip install x", "");
	check_declines("dpkg -l", "");
	/* Errors that are not the shapes these reducers know. */
	check_declines("apt-get install jq",
	    "E: Could not open lock file /var/lib/dpkg/lock-frontend - open "
	    "(13: Permission denied)\n"
	    "E: Unable to acquire the dpkg frontend lock, are you root?\n");
	check_declines("dpkg -l nosuch",
	    "dpkg-query: no packages found matching nosuch\n");
	check_declines("pip install nosuch",
	    "ERROR: Could not find a version that satisfies the requirement "
	    "nosuch (from versions: none)\n"
	    "ERROR: No matching distribution found for nosuch\n");
	/* Nothing to change. */
	check_declines("npm ci", "added 3 packages in 1s\n");
}
END_TEST

START_TEST(test_pip_error_kept)
{
	struct red_cmd_result res;
	char *got;

	got = reduce("pip install -r req.txt",
	    "Collecting nosuch==1.0\n"
	    "ERROR: Could not find a version that satisfies the requirement "
	    "nosuch==1.0 (from versions: none)\n"
	    "ERROR: No matching distribution found for nosuch==1.0\n", &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_ptr_nonnull(strstr(got, "ERROR: No matching distribution "
	    "found for nosuch==1.0\n"));
	ck_assert_ptr_nonnull(strstr(got, "(+1 resolve lines)"));
	free(got);
}
END_TEST

static Suite *
make_red_pkg_suite(void)
{
	Suite *s = suite_create("red_pkg");
	TCase *tc;

	tc = tcase_create("Fixtures");
	tcase_add_loop_test(tc, test_fixture, 0,
	    (int)(sizeof fixtures / sizeof fixtures[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("Exact");
	tcase_add_test(tc, test_apt_layout);
	tcase_add_test(tc, test_apt_long_list);
	tcase_add_test(tc, test_npm_layout);
	tcase_add_test(tc, test_pip_layout);
	tcase_add_test(tc, test_dpkg_small);
	tcase_add_test(tc, test_apt_list_far);
	tcase_add_test(tc, test_dpkg_far);
	suite_add_tcase(s, tc);

	tc = tcase_create("Edges");
	tcase_add_test(tc, test_declined);
	tcase_add_test(tc, test_pip_error_kept);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
	sr = srunner_create(make_red_pkg_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
