/*
 * Plugin loader and registry against the test-only plugins of
 * tests/plugins: a good plugin of each kind loads and is callable, and
 * every broken one is refused with its precise reason while the others
 * keep loading.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/host.h"
#include "plugin/registry.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/xmalloc.h"

static char *dir;

static void
setup(void)
{
	const char *top = getenv("top_builddir");

	ck_assert_msg(top != NULL, "top_builddir must be set by make check");
	dir = xasprintf("%s/tests/plugins", top);
	registry_load(dir, NULL);
}

static void
teardown(void)
{
	registry_reset();
	free(dir);
}

static const struct plugin_entry *
entry_named(const char *file)
{
	const struct plugin_entry *e;
	char *path = xasprintf("%s/%s", dir, file);
	size_t i;

	for (i = 0; (e = registry_entry(i)) != NULL; i++) {
		if (strcmp(e->manifest_path, path) == 0)
			break;
	}
	free(path);
	ck_assert_msg(e != NULL, "no entry for %s", file);
	return e;
}

static void
assert_refused(const char *file, const char *fmt, ...)
{
	const struct plugin_entry *e = entry_named(file);
	va_list ap;
	char *want;

	va_start(ap, fmt);
	want = xvasprintf(fmt, ap);
	va_end(ap);
	ck_assert_msg(!e->loaded, "%s loaded but must be refused", file);
	ck_assert_ptr_nonnull(e->error);
	ck_assert_str_eq(e->error, want);
	free(want);
}

START_TEST(test_good_plugins_load)
{
	static const struct {
		const char *file;
		enum aiterm_plugin_kind kind;
	} good[] = {
		{ "good-mux.yaml", AITERM_KIND_MUX },
		{ "good-harness.yaml", AITERM_KIND_HARNESS },
		{ "good-reducer.yaml", AITERM_KIND_REDUCER },
		{ "good-receiver.yaml", AITERM_KIND_RECEIVER },
	};
	const struct plugin_entry *e;
	size_t i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		e = entry_named(good[i].file);
		ck_assert_msg(e->loaded, "%s: %s", good[i].file, e->error);
		ck_assert_ptr_null(e->error);
		ck_assert_int_eq(e->kind, good[i].kind);
		ck_assert_ptr_nonnull(e->plugin);
	}
}
END_TEST

START_TEST(test_good_plugins_callable)
{
	const struct aiterm_plugin *p;
	const struct aiterm_reducer_ops *red;
	const struct aiterm_mux_ops *mux;
	const struct aiterm_harness_ops *har;
	const struct aiterm_receiver_ops *rcv;
	const char *argv[] = { "testcmd", NULL };
	struct aiterm_reduce_input in = { "hello", 5, "testcmd", argv, 0,
	    200, 0 };
	struct aiterm_buf out = BUF_INIT;
	struct aiterm_mux_info info;

	p = registry_find(AITERM_KIND_REDUCER, "good-reducer");
	ck_assert_ptr_nonnull(p);
	red = p->ops;
	ck_assert_str_eq(red->reducers[0].name, "testcmd");
	ck_assert_ptr_null(red->reducers[1].name);
	ck_assert_int_eq(red->reducers[0].reduce(host_get(), &in, &out), 0);
	ck_assert_str_eq(buf_str(&out), "5 bytes");
	buf_free(&out);

	p = registry_find(AITERM_KIND_MUX, "good-mux");
	ck_assert_ptr_nonnull(p);
	mux = p->ops;
	ck_assert_int_eq(mux->probe(host_get(), &info, NULL), 0);
	ck_assert_str_eq(info.version, "test");

	p = registry_find(AITERM_KIND_HARNESS, NULL);
	ck_assert_ptr_nonnull(p);
	har = p->ops;
	ck_assert_str_eq(har->binaries[0], "true");
	ck_assert_str_eq(har->min_version, "0.0.1");

	p = registry_find(AITERM_KIND_RECEIVER, NULL);
	ck_assert_ptr_nonnull(p);
	rcv = p->ops;
	{
		struct aiterm_parent parent = { "", "", "" };

		ck_assert(rcv->detect("test-parent", "{}", &parent));
		ck_assert_str_eq(parent.conversation, "test");
		ck_assert(!rcv->detect("other", "{}", &parent));
		ck_assert_str_eq(rcv->kind, "test");
	}
}
END_TEST

START_TEST(test_abi_refused)
{
	assert_refused("abi-too-new.yaml",
	    "module ABI 2.99 is newer than this Aiterm's 2.6");
	assert_refused("abi-major.yaml",
	    "module ABI 1.6 has major 1, this Aiterm speaks major 2");
	assert_refused("abi-manifest-new.yaml",
	    "manifest ABI 2.7 is newer than this Aiterm's 2.6");
	/* The receiver table of 2.0 was never implemented (ADR 0019). */
	assert_refused("old-receiver.yaml",
	    "a receiver needs ABI 2.1 or later; 'old-receiver' reports 2.0");
}
END_TEST

START_TEST(test_mismatch_refused)
{
	assert_refused("wrong-kind.yaml",
	    "manifest kind 'reducer' does not match the module's kind 'mux'");
	assert_refused("name-mismatch.yaml",
	    "manifest name 'name-mismatch' does not match the module's name "
	    "'other-name'");
	assert_refused("missing-symbol.yaml",
	    "module %s/missing_symbol does not export aiterm_plugin_describe",
	    dir);
	assert_refused("no-module.yaml",
	    "cannot load module %s/does_not_exist(.la|.so): file not found",
	    dir);
	assert_refused("shadow.yaml",
	    "shadowed by %s/good-mux.yaml, found earlier on the search path",
	    dir);
}
END_TEST

START_TEST(test_bad_yaml_refused)
{
	assert_refused("bad-yaml.yaml", "%s/bad-yaml.yaml:4:7: YAML error: "
	    "did not find expected ',' or ']' while parsing a flow sequence",
	    dir);
}
END_TEST

START_TEST(test_registry_json)
{
	json_t *list = registry_to_json(), *o;
	size_t i, loaded = 0;

	ck_assert_uint_eq(json_array_size(list), registry_count());
	json_array_foreach(list, i, o) {
		ck_assert(json_is_string(json_object_get(o, "manifest")));
		if (json_is_true(json_object_get(o, "loaded")))
			loaded++;
		else
			ck_assert(json_is_string(json_object_get(o, "error")));
	}
	ck_assert_uint_eq(loaded, 4);
	json_decref(list);
}
END_TEST

/* host->run: a program that does not end is killed at the deadline. */
START_TEST(test_host_run_deadline)
{
	const char *const slow[] = { "sleep", "30", NULL };
	const char *const quick[] = { "sh", "-c", "echo out; echo err >&2; "
	    "exit 3", NULL };
	struct aiterm_buf out = BUF_INIT, err_out = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	int rc;

	setenv("AITERM_HOST_RUN_TIMEOUT_MS", "300", 1);
	rc = host_run(slow, &out, &err_out, &err);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(err.msg);
	ck_assert_msg(strstr(err.msg, "sleep did not finish within 300 ms; "
	    "it was killed") != NULL, "%s", err.msg);
	error_clear(&err);
	/* A program that ends in time is not touched. */
	rc = host_run(quick, &out, &err_out, &err);
	ck_assert_int_eq(rc, 3);
	ck_assert_str_eq(buf_str(&out), "out\n");
	ck_assert_str_eq(buf_str(&err_out), "err\n");
	unsetenv("AITERM_HOST_RUN_TIMEOUT_MS");
	buf_free(&out);
	buf_free(&err_out);
}
END_TEST

static Suite *
make_loader_suite(void)
{
	Suite *s = suite_create("loader");
	TCase *tc;

	tc = tcase_create("Valid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_good_plugins_load);
	tcase_add_test(tc, test_good_plugins_callable);
	tcase_add_test(tc, test_registry_json);
	tcase_add_test(tc, test_host_run_deadline);
	suite_add_tcase(s, tc);
	tc = tcase_create("Invalid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_abi_refused);
	tcase_add_test(tc, test_mismatch_refused);
	tcase_add_test(tc, test_bad_yaml_refused);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_loader_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
