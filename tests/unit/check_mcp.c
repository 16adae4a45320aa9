/* Framing, JSON-RPC classification and the argument schema checker. */
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/framing.h"
#include "mcp/jsonrpc.h"
#include "util/jsonschema.h"
#include "util/buf.h"

struct seen {
	struct aiterm_buf	lines;	/* each line followed by '|' */
	size_t			too_large[4];
	size_t			ntoo;
};

static void
on_line(void *arg, const char *line, size_t len)
{
	struct seen *s = arg;

	buf_add(&s->lines, line, len);
	buf_addc(&s->lines, '|');
}

static void
on_too_large(void *arg, size_t total)
{
	struct seen *s = arg;

	s->too_large[s->ntoo++] = total;
}

START_TEST(test_framing_lines)
{
	struct seen s = { BUF_INIT, { 0 }, 0 };
	struct framer f;
	const char *in = "{\"a\":1}\n\r\n{\"b\"";

	framer_init(&f, 64, on_line, on_too_large, &s);
	framer_feed(&f, in, strlen(in));
	ck_assert_str_eq(buf_str(&s.lines), "{\"a\":1}||");
	framer_feed(&f, ":2}\r\n", 5);
	ck_assert_str_eq(buf_str(&s.lines), "{\"a\":1}||{\"b\":2}|");
	framer_feed(&f, "tail", 4);
	framer_finish(&f);
	ck_assert_str_eq(buf_str(&s.lines), "{\"a\":1}||{\"b\":2}|tail|");
	framer_free(&f);
	buf_free(&s.lines);
}
END_TEST

START_TEST(test_framing_byte_by_byte)
{
	struct seen s = { BUF_INIT, { 0 }, 0 };
	const char *in = "abc\ndef\n";
	struct framer f;
	size_t i;

	framer_init(&f, 64, on_line, on_too_large, &s);
	for (i = 0; i < strlen(in); i++)
		framer_feed(&f, in + i, 1);
	ck_assert_str_eq(buf_str(&s.lines), "abc|def|");
	framer_free(&f);
	buf_free(&s.lines);
}
END_TEST

START_TEST(test_framing_too_large)
{
	struct seen s = { BUF_INIT, { 0 }, 0 };
	struct framer f;
	char big[100];

	memset(big, 'x', sizeof big);
	framer_init(&f, 10, on_line, on_too_large, &s);
	framer_feed(&f, "ok\n", 3);
	framer_feed(&f, big, 60);
	framer_feed(&f, big, 40);
	framer_feed(&f, "\nnext\n", 6);
	ck_assert_str_eq(buf_str(&s.lines), "ok|next|");
	ck_assert_uint_eq(s.ntoo, 1);
	ck_assert_uint_eq(s.too_large[0], 100);
	/* Exactly at the limit is fine. */
	framer_feed(&f, big, 10);
	framer_feed(&f, "\n", 1);
	ck_assert_uint_eq(s.ntoo, 1);
	framer_free(&f);
	buf_free(&s.lines);
}
END_TEST

/* Issue 37: the buffer a large line grew is freed once it is handled. */
START_TEST(test_framing_gives_back)
{
	struct seen s = { BUF_INIT, { 0 }, 0 };
	struct framer f;
	char *big = malloc(FRAMER_KEEP * 2);

	ck_assert_ptr_nonnull(big);
	memset(big, 'x', FRAMER_KEEP * 2);
	framer_init(&f, FRAMER_KEEP * 4, on_line, on_too_large, &s);
	framer_feed(&f, "small\n", 6);
	ck_assert_uint_gt(f.line.cap, 0);	/* a small buffer is kept */
	framer_feed(&f, big, FRAMER_KEEP * 2);
	ck_assert_uint_gt(f.line.cap, FRAMER_KEEP);
	framer_feed(&f, "\nnext", 5);
	ck_assert_uint_eq(s.lines.len, 6 + FRAMER_KEEP * 2 + 1);
	ck_assert_uint_lt(f.line.cap, FRAMER_KEEP);
	framer_feed(&f, "\n", 1);
	ck_assert_str_eq(s.lines.data + s.lines.len - 5, "next|");
	framer_free(&f);
	buf_free(&s.lines);
	free(big);
}
END_TEST

static void
classify(const char *text, struct jsonrpc_msg *msg, json_t **root)
{
	*root = json_loads(text, JSON_DECODE_ANY, NULL);
	ck_assert_ptr_nonnull(*root);
	jsonrpc_classify(*root, msg);
}

START_TEST(test_classify)
{
	static const struct {
		const char *text;
		enum jsonrpc_kind kind;
	} cases[] = {
		{ "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ping\"}",
		    JSONRPC_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\"}",
		    JSONRPC_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"n\"}",
		    JSONRPC_NOTIFICATION },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
		    JSONRPC_RESPONSE },
		{ "[]", JSONRPC_INVALID },
		{ "42", JSONRPC_INVALID },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
		    JSONRPC_INVALID },
		{ "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
		    JSONRPC_INVALID },
		{ "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
		    JSONRPC_INVALID },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1}", JSONRPC_INVALID },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}",
		    JSONRPC_INVALID },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\","
		    "\"params\":3}", JSONRPC_INVALID },
	};
	struct jsonrpc_msg msg;
	json_t *root;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		classify(cases[i].text, &msg, &root);
		ck_assert_msg(msg.kind == cases[i].kind, "case %zu: %s", i,
		    cases[i].text);
		if (msg.kind == JSONRPC_INVALID)
			ck_assert_int_eq(msg.code, JSONRPC_INVALID_REQUEST);
		json_decref(root);
	}
}
END_TEST

/*
 * Issue 37: text jansson refuses only for its limits is still JSON, and
 * its top-level id is found; text that is not JSON is not.
 */
START_TEST(test_beyond_limits)
{
	static const struct {
		const char *text;
		const char *id;		/* the id as JSON; NULL: none */
		bool json;
	} cases[] = {
		{ "{\"id\":1,\"s\":\"\\u0000\"}", "1", true },
		{ " {\"s\":\"\\u0000\", \"id\" : \"a\\u0000b\" } ",
		    "\"a\\u0000b\"", true },
		{ "{\"id\":1,\"n\":9223372036854775808,\"id\":2}", "2", true },
		{ "{\"n\":1e400,\"\\u0069d\":-5}", "-5", true },
		{ "{\"a\":{\"id\":3},\"s\":\"\\u0000\"}", NULL, true },
		{ "{\"id\":[1],\"s\":\"\\u0000\"}", NULL, true },
		{ "{\"id\":9223372036854775808}", NULL, true },
		{ "[\"\\u0000\"]", NULL, true },
		{ "{\"id\":1,\"s\":\"\\u0000\",}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\"} 1", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\\ud800\"}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\\udc00x\"}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\xff\"}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\",\"n\":01}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\",\"n\":1.}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\",\"t\":tru}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\",\"n\":[1 2]}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\",\"o\":{1:2}}", NULL, false },
		{ "{\"id\":1,\"s\":\"\\u0000\",\"o\":[}", NULL, false },
	};
	struct aiterm_buf deep = BUF_INIT;
	json_error_t jerr;
	json_t *id, *want;
	const char *what;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_ptr_null(json_loads(cases[i].text, JSON_DECODE_ANY,
		    &jerr));
		what = jsonrpc_beyond_limits(cases[i].text,
		    strlen(cases[i].text), &jerr, &id);
		ck_assert_msg((what != NULL) == cases[i].json, "case %zu: %s",
		    i, cases[i].text);
		want = cases[i].id == NULL ? NULL : json_loads(cases[i].id,
		    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
		ck_assert_msg(want == NULL ? id == NULL : json_equal(id, want),
		    "case %zu: id", i);
		json_decref(want);
		json_decref(id);
	}
	/* 3000 levels, the id after them. */
	buf_adds(&deep, "{\"x\":");
	for (i = 0; i < 3000; i++)
		buf_adds(&deep, "[{\"id\":7,\"a\":");
	buf_adds(&deep, "0");
	for (i = 0; i < 3000; i++)
		buf_adds(&deep, "}]");
	buf_adds(&deep, ",\"id\":\"deep\"}");
	ck_assert_ptr_null(json_loadb(deep.data, deep.len, 0, &jerr));
	what = jsonrpc_beyond_limits(deep.data, deep.len, &jerr, &id);
	ck_assert_ptr_nonnull(what);
	ck_assert_ptr_nonnull(strstr(what, "2048"));
	ck_assert_str_eq(json_string_value(id), "deep");
	json_decref(id);
	buf_free(&deep);
	/* Not a limit at all. */
	ck_assert_ptr_null(json_loads("{\"id\":1,", 0, &jerr));
	ck_assert_ptr_null(jsonrpc_beyond_limits("{\"id\":1,", 8, &jerr, &id));
	ck_assert_ptr_null(id);
}
END_TEST

static const char schema_text[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"id\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":4},"
    "\"n\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10},"
    "\"mode\":{\"enum\":[\"a\",\"b\"]},"
    "\"list\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
    "\"required\":[\"id\"],\"additionalProperties\":false}";

typedef int (*schema_fn)(const json_t *, const json_t *,
    struct aiterm_error *);

/* value against the schema text by fn: conforms (want NULL) or fails so. */
static void
assert_check(schema_fn fn, const char *text, const char *value,
    const char *want)
{
	struct aiterm_error err = ERROR_INIT;
	json_t *schema = json_loads(text, 0, NULL);
	json_t *v = json_loads(value, 0, NULL);
	int rc;

	ck_assert_ptr_nonnull(schema);
	ck_assert_ptr_nonnull(v);
	rc = fn(schema, v, &err);
	if (want == NULL) {
		ck_assert_msg(rc == 0, "%s: %s", value, error_msg(&err));
	} else {
		ck_assert_int_eq(rc, -1);
		ck_assert_str_eq(error_msg(&err), want);
	}
	error_clear(&err);
	json_decref(schema);
	json_decref(v);
}

static void
assert_schema(const char *value, const char *want)
{
	assert_check(schema_check, schema_text, value, want);
}

START_TEST(test_schema_valid)
{
	assert_schema("{\"id\":\"ab\"}", NULL);
	assert_schema("{\"id\":\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\","
	    "\"n\":10,\"mode\":\"b\",\"list\":[\"x\"]}", NULL);
	assert_schema("{\"id\":\"a\",\"n\":3.0}", NULL);
}
END_TEST

START_TEST(test_schema_invalid)
{
	assert_schema("{}", "missing required argument 'id'");
	assert_schema("{\"id\":1}",
	    "argument 'id' must be a string, got integer");
	assert_schema("{\"id\":\"abcde\"}",
	    "argument 'id' must be at most 4 characters, got 5");
	assert_schema("{\"id\":\"\"}",
	    "argument 'id' must be at least 1 characters");
	assert_schema("{\"id\":\"a\",\"n\":0}",
	    "argument 'n' must be at least 1, got 0");
	assert_schema("{\"id\":\"a\",\"n\":2.5}",
	    "argument 'n' must be an integer, got number");
	assert_schema("{\"id\":\"a\",\"mode\":\"c\"}",
	    "argument 'mode' must be one of \"a\", \"b\"");
	assert_schema("{\"id\":\"a\",\"list\":[1]}",
	    "argument 'list'[0] must be a string, got integer");
	assert_schema("{\"id\":\"a\",\"bogus\":1}",
	    "unknown argument 'bogus' (accepted: id, n, mode, list)");
}
END_TEST

/* A result's schema: anyOf forms that say which fields each path has. */
static const char result_schema_text[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"id\":{\"type\":\"string\"},\"via\":{\"type\":[\"string\",\"null\"]},"
    "\"turn\":{\"type\":\"integer\"}},"
    "\"anyOf\":[{\"required\":[\"id\",\"via\"]},"
    "{\"required\":[\"id\",\"turn\"]}]}";

static void
assert_result(const char *value, const char *want)
{
	assert_check(schema_check_result, result_schema_text, value, want);
}

START_TEST(test_schema_result_forms)
{
	assert_result("{\"id\":\"s\",\"via\":null}", NULL);
	assert_result("{\"id\":\"s\",\"turn\":2}", NULL);
	assert_result("{\"id\":\"s\",\"via\":\"exit\",\"turn\":2}", NULL);
	/* The agent answer of issue 32 against a shell read's form alone. */
	assert_result("{\"id\":\"s\"}", "the result matches none of its "
	    "forms: missing required field 'via'; missing required field "
	    "'turn'");
	assert_result("{\"id\":\"s\",\"turn\":\"2\"}", "field 'turn' must "
	    "be an integer, got string");
	assert_result("[]", "the result must be an object, got array");
}
END_TEST

/* Issue 37: an integer argument written 80.0 is read as 80. */
START_TEST(test_schema_integer)
{
	static const struct {
		const char *text;
		json_int_t want;
	} cases[] = {
		{ "80", 80 }, { "80.0", 80 }, { "-3.0", -3 }, { "0.0", 0 },
		{ "1e3", 1000 }, { "80.5", -1 }, { "\"80\"", -1 },
		{ "true", -1 }, { "null", -1 },
		{ "1e300", 9223372036854775807LL },
		{ "-1e300", -9223372036854775807LL - 1 },
		{ "9223372036854775807", 9223372036854775807LL },
	};
	size_t i;
	json_t *v;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = json_loads(cases[i].text, JSON_DECODE_ANY, NULL);
		ck_assert_ptr_nonnull(v);
		ck_assert_msg(schema_integer(v, -1) == cases[i].want,
		    "%s: %lld", cases[i].text, (long long)schema_integer(v, -1));
		json_decref(v);
	}
	ck_assert_int_eq(schema_integer(NULL, 120), 120);
}
END_TEST

static Suite *
make_mcp_suite(void)
{
	Suite *s = suite_create("mcp");
	TCase *tc;

	tc = tcase_create("Framing");
	tcase_add_test(tc, test_framing_lines);
	tcase_add_test(tc, test_framing_byte_by_byte);
	tcase_add_test(tc, test_framing_too_large);
	tcase_add_test(tc, test_framing_gives_back);
	suite_add_tcase(s, tc);
	tc = tcase_create("Classify");
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_beyond_limits);
	suite_add_tcase(s, tc);
	tc = tcase_create("Schema");
	tcase_add_test(tc, test_schema_valid);
	tcase_add_test(tc, test_schema_invalid);
	tcase_add_test(tc, test_schema_result_forms);
	tcase_add_test(tc, test_schema_integer);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_mcp_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
