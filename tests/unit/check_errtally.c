/*
 * The runtime error aggregate (OPS-DIAG, issue 17, ADR 0021) against a
 * real state root under $TMPDIR: every code of the table reaches
 * errors.json with its count and times, and nothing else ever does: not
 * names outside the table (fuzzed), not enum values out of range, not
 * what a tampered file held.
 */
#include <check.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state/atomic.h"
#include "state/errtally.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

static char *tmpdir;

static void
setup(void)
{
	struct aiterm_error err = ERROR_INIT;
	const char *base = getenv("TMPDIR");

	tmpdir = xasprintf("%s/check_errtally.XXXXXX",
	    base != NULL && *base != '\0' ? base : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	state_root_reset();
	errtally_reset();
	ck_assert_int_eq(state_root_init(tmpdir, &err), 0);
}

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	remove(path);
	return 0;
}

static void
teardown(void)
{
	state_root_reset();
	errtally_reset();
	nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(tmpdir);
}

/* errors.json as text ("" when missing). */
static char *
file_text(void)
{
	struct aiterm_error err = ERROR_INIT;
	char *path = xasprintf("%s/errors.json", tmpdir), *data = NULL;
	size_t len;

	if (file_read(path, &data, &len, &err) != 0) {
		error_clear(&err);
		data = xstrdup("");
	}
	free(path);
	return data;
}

/*
 * Every key of the file's "codes" is a table code, every entry has only
 * count/first/last of the right types, and the top level only format
 * and codes.  Returns the number of codes.
 */
static size_t
file_check(void)
{
	char *text = file_text();
	json_t *root = json_loads(text, 0, NULL), *codes, *e, *v;
	const char *key, *field;
	size_t n = 0;

	ck_assert_msg(root != NULL, "errors.json parses: %s", text);
	ck_assert_int_eq(json_object_size(root), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(root, "format")), 1);
	codes = json_object_get(root, "codes");
	ck_assert(json_is_object(codes));
	json_object_foreach(codes, key, e) {
		ck_assert_msg(errtally_code(key) >= 0, "'%s' is a table code", key);
		ck_assert_int_eq(json_object_size(e), 3);
		json_object_foreach(e, field, v) {
			if (strcmp(field, "count") == 0)
				ck_assert(json_integer_value(v) > 0);
			else {
				ck_assert(strcmp(field, "first") == 0 ||
				    strcmp(field, "last") == 0);
				ck_assert_uint_eq(strlen(json_string_value(v)), 20);
			}
		}
		n++;
	}
	ck_assert_uint_lt(strlen(text), 4096);	/* bounded */
	json_decref(root);
	free(text);
	return n;
}

static json_int_t
count_of(const char *code)
{
	char *text = file_text();
	json_t *root = json_loads(text, 0, NULL);
	json_int_t n = json_integer_value(json_object_get(json_object_get(
	    json_object_get(root, "codes"), code), "count"));

	json_decref(root);
	free(text);
	return n;
}

/* Table-driven: each code, noted i+1 times, is in the file with i+1. */
START_TEST(test_every_code)
{
	json_t *agg, *e;
	int i, k;

	for (i = 0; i < ERRTALLY_COUNT; i++) {
		ck_assert_ptr_nonnull(errtally_name((enum errtally_code)i));
		ck_assert_int_eq(errtally_code(errtally_name(i)), i);
		for (k = 0; k <= i; k++)
			errtally_note((enum errtally_code)i);
		ck_assert_uint_eq(file_check(), (size_t)i + 1);
		ck_assert_int_eq(count_of(errtally_name(i)), i + 1);
	}
	agg = errtally_json();
	ck_assert_uint_eq(json_array_size(agg), ERRTALLY_COUNT);
	e = json_array_get(agg, 0);
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")),
	    errtally_name(0));
	json_decref(agg);
	/* A second server's counts add to the file's. */
	errtally_reset();
	errtally_note(ERRTALLY_MUX_LOST);
	ck_assert_int_eq(count_of("mux_lost"), 2);
}
END_TEST

/* Names outside the table, and numbers outside the enum, reach nothing. */
START_TEST(test_fuzz_names)
{
	static const char *const names[] = {
		"", "MUX_LOST", "mux_lost ", " mux_lost", "mux_lost\n",
		"mux_lost\"", "mux_lost,\"x\":1", "/home/user/.ssh/id_rsa",
		"API_TOKEN=sk-secret-123", "session 'a' lost: terminal",
		"../errors", "mux", "lost", "mux_lostx", "\xff\xfe", "%s%n",
	};
	char *text, buf[64];
	size_t i, j;
	unsigned seed = 17;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		ck_assert_int_eq(errtally_note_name(names[i]), -1);
	ck_assert_int_eq(errtally_note_name(NULL), -1);
	/* Random bytes, and table names with a byte changed. */
	for (i = 0; i < 2000; i++) {
		size_t len = (size_t)(rand_r(&seed) % (sizeof buf - 1));
		for (j = 0; j < len; j++)
			buf[j] = (char)(1 + rand_r(&seed) % 255);
		buf[len] = '\0';
		if (i % 2 == 1) {
			snprintf(buf, sizeof buf, "%s",
			    errtally_name(rand_r(&seed) % ERRTALLY_COUNT));
			buf[rand_r(&seed) % strlen(buf)] ^= (char)(1 +
			    rand_r(&seed) % 127);
		}
		if (errtally_code(buf) < 0)
			ck_assert_int_eq(errtally_note_name(buf), -1);
	}
	errtally_note((enum errtally_code)-1);
	errtally_note(ERRTALLY_COUNT);
	errtally_note((enum errtally_code)1000);
	text = file_text();
	ck_assert_str_eq(text, "");	/* nothing was ever counted */
	free(text);
	/* A table name is counted. */
	ck_assert_int_eq(errtally_note_name("stdout_closed"), 0);
	ck_assert_uint_eq(file_check(), 1);
}
END_TEST

/* What a hand edit or a stranger put in the file is dropped on write. */
START_TEST(test_tampered_file)
{
	struct aiterm_error err = ERROR_INIT;
	char *path = xasprintf("%s/errors.json", tmpdir), *text;
	const char *junk = "{\"format\":1,\"secret\":\"sk-live-XYZ\","
	    "\"codes\":{\"/home/u/.netrc\":{\"count\":1,\"first\":"
	    "\"2026-01-01T00:00:00Z\",\"last\":\"2026-01-01T00:00:00Z\"},"
	    "\"mux_lost\":{\"count\":4,\"first\":\"2026-01-01T00:00:00Z\","
	    "\"last\":\"2026-01-02T00:00:00Z\",\"text\":\"sk-live-XYZ\"},"
	    "\"lock_stale\":{\"count\":\"sk-live-XYZ\",\"first\":\"a\","
	    "\"last\":\"b\"},\"disk_full\":{\"count\":2,\"first\":"
	    "\"/home/u/secret\",\"last\":\"2026-01-01T00:00:00Z\"}}}";

	ck_assert_int_eq(atomic_write(path, junk, strlen(junk), &err), 0);
	errtally_note(ERRTALLY_SESSION_BUSY);
	text = file_text();
	ck_assert_ptr_null(strstr(text, "sk-live"));
	ck_assert_ptr_null(strstr(text, "/home"));
	ck_assert_ptr_null(strstr(text, "secret"));
	free(text);
	ck_assert_uint_eq(file_check(), 2);	/* mux_lost, session_busy */
	ck_assert_int_eq(count_of("mux_lost"), 4);
	ck_assert_int_eq(count_of("lock_stale"), 0);
	/* A file too large to be ours is not read. */
	text = xmalloc(70000);
	memset(text, ' ', 69999);
	text[69999] = '\0';
	ck_assert_int_eq(atomic_write(path, text, strlen(text), &err), 0);
	free(text);
	errtally_note(ERRTALLY_DISK_FULL);
	ck_assert_uint_eq(file_check(), 1);
	free(path);
}
END_TEST

static Suite *
errtally_suite(void)
{
	Suite *s = suite_create("errtally");
	TCase *tc = tcase_create("errtally");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_every_code);
	tcase_add_test(tc, test_fuzz_names);
	tcase_add_test(tc, test_tampered_file);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(errtally_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
