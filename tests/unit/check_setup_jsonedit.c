/*
 * SET-RUN: the one-member edit aiterm-setup makes to a client's JSON file.
 * Exact text after adding and removing on compact, tabbed, one-line and
 * empty layouts, strings holding braces, commas and escaped quotes, a
 * missing "mcpServers", and the round trip back to the same bytes.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "jsonedit.h"

static const char *const ENTRY = "{\"command\":\"/x/aiterm-mcp\"}";

static char *
add(const char *text, bool *created)
{
	json_t *v = json_loads(ENTRY, 0, NULL);
	char *out = jedit_add(text, "mcpServers", "aiterm", v, created);

	json_decref(v);
	return out;
}

/* Adds, compares with want, removes, and must get text back. */
static void
round_trip(const char *text, const char *want, bool want_created)
{
	bool created = !want_created;
	char *got = add(text, &created), *back;

	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	ck_assert(created == want_created);
	back = jedit_remove(got, "mcpServers", "aiterm", created);
	ck_assert_ptr_nonnull(back);
	ck_assert_str_eq(back, text);
	free(got);
	free(back);
}

START_TEST(test_layouts)
{
	round_trip("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"/a\"}\n"
	    "  }\n}\n",
	    "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"/a\"},\n"
	    "    \"aiterm\": {\"command\":\"/x/aiterm-mcp\"}\n  }\n}\n",
	    false);
	round_trip("{\n\t\"mcpServers\": {\n\t\t\"a\": 1,\n\t\t\"b\": 2\n\t},"
	    "\n\t\"z\": 1e3\n}",
	    "{\n\t\"mcpServers\": {\n\t\t\"a\": 1,\n\t\t\"b\": 2,\n\t\t"
	    "\"aiterm\": {\"command\":\"/x/aiterm-mcp\"}\n\t},\n\t\"z\": 1e3\n}",
	    false);
	round_trip("{\"mcpServers\":{\"a\":1},\"k\":[1,2]}",
	    "{\"mcpServers\":{\"a\":1, \"aiterm\": "
	    "{\"command\":\"/x/aiterm-mcp\"}},\"k\":[1,2]}", false);
	round_trip("{\"mcpServers\": {}}",
	    "{\"mcpServers\": {\"aiterm\": {\"command\":\"/x/aiterm-mcp\"}}}",
	    false);
}
END_TEST

START_TEST(test_no_servers_yet)
{
	round_trip("{\n  \"theme\": \"dark\"\n}\n",
	    "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\"aiterm\": "
	    "{\"command\":\"/x/aiterm-mcp\"}}\n}\n", true);
	round_trip("{}", "{\"mcpServers\": {\"aiterm\": "
	    "{\"command\":\"/x/aiterm-mcp\"}}}", true);
}
END_TEST

START_TEST(test_tricky_strings)
{
	/* Braces, commas, quotes and a key named like ours inside strings. */
	round_trip("{\"note\": \"}{,\\\"mcpServers\\\": {\", \"mcpServers\": "
	    "{\"s\": {\"args\": [\"{\", \"\\\"aiterm\\\"\"]}}}",
	    "{\"note\": \"}{,\\\"mcpServers\\\": {\", \"mcpServers\": "
	    "{\"s\": {\"args\": [\"{\", \"\\\"aiterm\\\"\"]}, \"aiterm\": "
	    "{\"command\":\"/x/aiterm-mcp\"}}}", false);
}
END_TEST

START_TEST(test_remove_keeps_neighbours)
{
	char *got;

	/* First of three, middle, last: the others and their layout stay. */
	got = jedit_remove("{\"mcpServers\": {\n  \"aiterm\": 1,\n  \"b\": 2,\n"
	    "  \"c\": 3\n}}", "mcpServers", "aiterm", false);
	ck_assert_str_eq(got, "{\"mcpServers\": {\n  \"b\": 2,\n  \"c\": 3\n}}");
	free(got);
	got = jedit_remove("{\"mcpServers\": {\n  \"b\": 2,\n  \"aiterm\": 1,\n"
	    "  \"c\": 3\n}}", "mcpServers", "aiterm", false);
	ck_assert_str_eq(got, "{\"mcpServers\": {\n  \"b\": 2,\n  \"c\": 3\n}}");
	free(got);
	/* Not there, or no such parent: nothing to do. */
	ck_assert_ptr_null(jedit_remove("{\"mcpServers\": {\"b\": 2}}",
	    "mcpServers", "aiterm", false));
	ck_assert_ptr_null(jedit_remove("[1]", "mcpServers", "aiterm", false));
	/* Our parent that is not an object is refused. */
	{
		bool created;
		json_t *v = json_loads(ENTRY, 0, NULL);

		ck_assert_ptr_null(jedit_add("{\"mcpServers\": [1]}",
		    "mcpServers", "aiterm", v, &created));
		json_decref(v);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("setup-jsonedit");
	TCase *tc = tcase_create("edit");

	tcase_add_test(tc, test_layouts);
	tcase_add_test(tc, test_no_servers_yet);
	tcase_add_test(tc, test_tricky_strings);
	tcase_add_test(tc, test_remove_keeps_neighbours);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
