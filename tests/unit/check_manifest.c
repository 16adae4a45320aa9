/*
 * Unit tests for core/plugin/manifest.c: good manifests of every kind, one
 * fixture per error (each asserting the exact message, line and column),
 * and the reader's limits on generated files.
 */
#include <check.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin/manifest.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#ifndef MANIFEST_FIXTURES
#error "MANIFEST_FIXTURES must name the fixture folder"
#endif

#define nitems(a)	(sizeof (a) / sizeof (a)[0])

/* The largest manifest the reader accepts, in bytes. */
#define MAX_SIZE	65536

static const char good_head[] =
    "manifest: 1\n"
    "name: mux-tmux\n"
    "kind: mux\n"
    "module: mux_tmux\n"
    "abi: \"1.0\"\n"
    "version: 0.1.0\n";

static char *
fixture(const char *name)
{
	return xasprintf("%s/%s", MANIFEST_FIXTURES, name);
}

static bool
list_is(char **list, const char *const *want, size_t n)
{
	size_t i;

	if (list == NULL)
		return false;
	for (i = 0; i < n; i++) {
		if (list[i] == NULL || strcmp(list[i], want[i]) != 0)
			return false;
	}
	return list[n] == NULL;
}

static bool
is_zeroed(const struct manifest *m)
{
	static const struct manifest zero;

	return memcmp(m, &zero, sizeof zero) == 0;
}

/* Load a fixture that must be valid; the caller frees the manifest. */
static void
load_good(const char *name, struct manifest *m)
{
	struct aiterm_error err = ERROR_INIT;
	char *path = fixture(name);

	ck_assert_msg(manifest_load(path, m, &err) == 0, "%s: %s", name,
	    error_msg(&err));
	ck_assert_ptr_null(err.msg);
	ck_assert_str_eq(m->path, path);
	ck_assert_int_eq(m->manifest, 1);
	free(path);
}

/* Load path, which must fail with exactly want. */
static void
assert_load_error(const char *path, const char *want)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;

	memset(&m, 0xa5, sizeof m);
	ck_assert_int_eq(manifest_load(path, &m, &err), -1);
	ck_assert_ptr_nonnull(err.msg);
	ck_assert_str_eq(err.msg, want);
	ck_assert(is_zeroed(&m));
	manifest_free(&m);
	error_clear(&err);
}

/* Write data to a new temporary file; the caller unlinks and frees it. */
static char *
write_temp(const void *data, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	FILE *f;
	int fd;

	path = xasprintf("%s/check_manifest-XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ne(fd, -1);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* text, loaded from a temporary file that is gone on return. */
static int
load_raw(const char *text, struct manifest *m, struct aiterm_error *err,
    char **pathp)
{
	char *path;
	int rc;

	path = write_temp(text, strlen(text));
	rc = manifest_load(path, m, err);
	unlink(path);
	if (pathp != NULL)
		*pathp = path;
	else
		free(path);
	return rc;
}

/* good_head followed by extra. */
static int
load_text(const char *extra, struct manifest *m, struct aiterm_error *err,
    char **pathp)
{
	char *text = xasprintf("%s%s", good_head, extra);
	int rc;

	rc = load_raw(text, m, err, pathp);
	free(text);
	return rc;
}

/* text must fail with "<path>:<want>". */
static void
assert_raw_error(const char *text, const char *want)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;
	char *path, *full;

	ck_assert_int_eq(load_raw(text, &m, &err, &path), -1);
	full = xasprintf("%s:%s", path, want);
	ck_assert_str_eq(error_msg(&err), full);
	ck_assert(is_zeroed(&m));
	free(full);
	free(path);
	error_clear(&err);
}

/* good_head followed by extra must fail with "<path>:<want>". */
static void
assert_text_error(const char *extra, const char *want)
{
	char *text = xasprintf("%s%s", good_head, extra);

	assert_raw_error(text, want);
	free(text);
}

/* Valid. */

START_TEST(test_good_mux)
{
	static const char *const platforms[] = { "linux", "darwin" };
	static const char *const provides[] = { "tmux" };
	struct manifest m;

	load_good("good-mux.yaml", &m);
	ck_assert_str_eq(m.name, "mux-tmux");
	ck_assert_int_eq(m.kind, AITERM_KIND_MUX);
	ck_assert_str_eq(m.module, "mux_tmux");
	ck_assert_uint_eq(m.abi_major, 1);
	ck_assert_uint_eq(m.abi_minor, 0);
	ck_assert_str_eq(m.version, "0.1.0");
	ck_assert_str_eq(m.summary, "tmux sessions on a private socket");
	ck_assert(list_is(m.platforms, platforms, nitems(platforms)));
	ck_assert(list_is(m.provides, provides, nitems(provides)));
	manifest_free(&m);
	ck_assert(is_zeroed(&m));
}
END_TEST

START_TEST(test_good_harness)
{
	static const char *const platforms[] = { "linux", "darwin", "windows" };
	static const char *const provides[] = { "claude-code" };
	struct manifest m;

	/* Its abi is an unquoted 1.0, and it has nested "x-" keys. */
	load_good("good-harness.yaml", &m);
	ck_assert_str_eq(m.name, "harness-claude");
	ck_assert_int_eq(m.kind, AITERM_KIND_HARNESS);
	ck_assert_str_eq(m.module, "harness_claude");
	ck_assert_uint_eq(m.abi_major, 1);
	ck_assert_uint_eq(m.abi_minor, 0);
	ck_assert_str_eq(m.version, "0.1.0");
	ck_assert_str_eq(m.summary, "Claude Code interactive sessions");
	ck_assert(list_is(m.platforms, platforms, nitems(platforms)));
	ck_assert(list_is(m.provides, provides, nitems(provides)));
	manifest_free(&m);
}
END_TEST

START_TEST(test_good_reducer)
{
	static const char *const provides[] = { "git", "git-log" };
	static const char *const status_cmds[] = { "git status",
	    "git -c x status" };
	static const char *const log_cmds[] = { "git log" };
	struct manifest m;

	/* Explicit "---" and "...", single-quoted abi, no summary. */
	load_good("good-reducer.yaml", &m);
	ck_assert_str_eq(m.name, "reducer-git");
	ck_assert_int_eq(m.kind, AITERM_KIND_REDUCER);
	ck_assert_str_eq(m.module, "reducer_git");
	ck_assert_uint_eq(m.abi_major, 1);
	ck_assert_uint_eq(m.abi_minor, 2);
	ck_assert_str_eq(m.version, "2.0");
	ck_assert_ptr_null(m.summary);
	ck_assert_ptr_null(m.platforms);
	ck_assert(list_is(m.provides, provides, nitems(provides)));
	ck_assert_uint_eq(m.nreducers, 2);
	ck_assert_str_eq(m.reducers[0].name, "git-status");
	ck_assert_str_eq(m.reducers[0].version, "1.0.0");
	ck_assert(list_is(m.reducers[0].commands, status_cmds,
	    nitems(status_cmds)));
	ck_assert_str_eq(m.reducers[1].name, "git-log");
	ck_assert_str_eq(m.reducers[1].version, "0.3");
	ck_assert(list_is(m.reducers[1].commands, log_cmds, nitems(log_cmds)));
	manifest_free(&m);
}
END_TEST

START_TEST(test_good_receiver)
{
	struct manifest m;

	/* A flow mapping with the required keys only. */
	load_good("good-receiver.yaml", &m);
	ck_assert_str_eq(m.name, "receiver-claude");
	ck_assert_int_eq(m.kind, AITERM_KIND_RECEIVER);
	ck_assert_str_eq(m.module, "receiver_claude");
	ck_assert_uint_eq(m.abi_major, 1);
	ck_assert_uint_eq(m.abi_minor, 0);
	ck_assert_str_eq(m.version, "0.0.1");
	ck_assert_ptr_null(m.summary);
	ck_assert_ptr_null(m.platforms);
	ck_assert_ptr_null(m.provides);
	manifest_free(&m);
}
END_TEST

START_TEST(test_kind_names)
{
	static const struct {
		const char		*name;
		enum aiterm_plugin_kind	 kind;
	} kinds[] = {
		{ "mux", AITERM_KIND_MUX },
		{ "harness", AITERM_KIND_HARNESS },
		{ "reducer", AITERM_KIND_REDUCER },
		{ "receiver", AITERM_KIND_RECEIVER },
	};
	enum aiterm_plugin_kind kind;
	size_t i;

	for (i = 0; i < nitems(kinds); i++) {
		ck_assert_str_eq(plugin_kind_name(kinds[i].kind), kinds[i].name);
		kind = 0;
		ck_assert_int_eq(plugin_kind_parse(kinds[i].name, &kind), 0);
		ck_assert_int_eq(kind, kinds[i].kind);
	}
	ck_assert_ptr_null(plugin_kind_name(0));
	ck_assert_ptr_null(plugin_kind_name(99));
	kind = AITERM_KIND_MUX;
	ck_assert_int_eq(plugin_kind_parse("Mux", &kind), -1);
	ck_assert_int_eq(plugin_kind_parse("", &kind), -1);
	ck_assert_int_eq(plugin_kind_parse("muxer", &kind), -1);
	ck_assert_int_eq(kind, AITERM_KIND_MUX);
}
END_TEST

START_TEST(test_empty_lists)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;

	ck_assert_int_eq(load_text("platforms: []\nprovides: []\n", &m, &err,
	    NULL), 0);
	ck_assert_ptr_nonnull(m.platforms);
	ck_assert_ptr_null(m.platforms[0]);
	ck_assert_ptr_nonnull(m.provides);
	ck_assert_ptr_null(m.provides[0]);
	manifest_free(&m);
}
END_TEST

/* Invalid: one fixture per error, with its exact message. */

static const struct {
	const char	*file;
	const char	*error;		/* after "<path>:" */
} bad[] = {
	{ "unknown-key.yaml", "4:1: unknown key 'foo'" },
	{ "missing-module.yaml", "3:1: missing required key 'module'" },
	{ "manifest-not-integer.yaml", "1:11: 'manifest' must be an integer" },
	{ "manifest-version-2.yaml",
	    "1:11: unsupported manifest version 2 (this Aiterm reads 1)" },
	{ "name-not-string.yaml", "3:3: 'name' must be a string" },
	{ "name-null.yaml", "2:7: 'name' must be a string" },
	{ "name-bad.yaml",
	    "2:7: 'name' must match [a-z0-9][a-z0-9-]*, got 'Mux_Tmux'" },
	{ "name-leading-dash.yaml",
	    "2:7: 'name' must match [a-z0-9][a-z0-9-]*, got '-mux'" },
	{ "kind-bad.yaml", "3:9: 'kind' must be one of mux, harness, reducer, "
	    "receiver, got 'foo'" },
	{ "module-bad.yaml",
	    "4:9: 'module' must match [A-Za-z0-9_]+, got 'mux-tmux.so'" },
	{ "duplicate-key.yaml", "7:1: duplicate key 'name'" },
	{ "duplicate-x-key.yaml", "8:1: duplicate key 'x-note'" },
	{ "abi-bad.yaml", "5:6: 'abi' must be \"MAJOR.MINOR\", got 'x'" },
	{ "abi-integer.yaml", "5:6: 'abi' must be \"MAJOR.MINOR\", got '1'" },
	{ "abi-three-parts.yaml",
	    "5:6: 'abi' must be \"MAJOR.MINOR\", got '1.0.1'" },
	{ "version-empty.yaml", "6:10: 'version' must not be empty" },
	{ "summary-sequence.yaml", "7:10: 'summary' must be a string" },
	{ "platforms-scalar.yaml",
	    "7:12: 'platforms' must be a sequence of strings" },
	{ "platforms-bad.yaml", "7:20: 'platforms' entries must be one of "
	    "linux, darwin, windows, got 'beos'" },
	{ "platforms-duplicate.yaml",
	    "10:5: duplicate 'platforms' entry 'linux'" },
	{ "provides-mapping-entry.yaml",
	    "9:5: 'provides' must be a sequence of strings" },
	{ "provides-empty-entry.yaml",
	    "7:18: 'provides' entries must not be empty" },
	{ "key-not-string.yaml", "7:3: keys must be strings" },
	{ "not-mapping.yaml", "2:1: top level must be a mapping" },
	{ "empty.yaml", "1:1: empty manifest" },
	{ "comments-only.yaml", "1:1: empty manifest" },
	{ "two-documents.yaml", "7:1: more than one YAML document" },
	{ "yaml-error.yaml",
	    "3:10: YAML error: mapping values are not allowed in this context" },
	{ "yaml-unclosed.yaml", "4:1: YAML error: found unexpected end of "
	    "stream while scanning a quoted scalar" },
	{ "yaml-alias.yaml", "2:7: YAML error: found undefined alias" },
	{ "yaml-bad-utf8.yaml",
	    "2:11: YAML error: invalid leading UTF-8 octet" },
	{ "reducers-missing.yaml",
	    "1:1: missing required key 'reducers' (a reducer manifest "
	    "lists its reducers)" },
	{ "reducers-on-mux.yaml",
	    "1:1: 'reducers' is only for kind 'reducer'" },
	{ "reducers-scalar.yaml",
	    "7:11: 'reducers' must be a sequence of mappings" },
	{ "reducers-entry-scalar.yaml",
	    "8:5: 'reducers' entries must be mappings" },
	{ "reducers-empty.yaml",
	    "7:11: 'reducers' must not be empty" },
	{ "reducers-unknown-key.yaml",
	    "11:5: unknown key 'claims' in a 'reducers' entry" },
	{ "reducers-missing-commands.yaml",
	    "8:5: missing required key 'commands' in a 'reducers' entry" },
	{ "reducers-no-commands.yaml",
	    "8:5: reducer 'a' claims no commands" },
	{ "reducers-bad-pattern.yaml",
	    "10:16: 'commands' entries must be words separated by single "
	    "spaces, got 'git  status'" },
	{ "reducers-quote-pattern.yaml",
	    "10:16: 'commands' entries must be words separated by single "
	    "spaces, got 'git 'status''" },
	{ "reducers-duplicate.yaml",
	    "9:5: duplicate reducer 'a'" },
	{ "reducers-bad-name.yaml",
	    "8:12: 'name' must match [a-z0-9][a-z0-9-]*, got 'Git'" },
};

START_TEST(test_bad_fixture)
{
	char *path = fixture(bad[_i].file);
	char *want = xasprintf("%s:%s", path, bad[_i].error);

	assert_load_error(path, want);
	free(want);
	free(path);
}
END_TEST

START_TEST(test_cannot_open)
{
	char *path = fixture("no-such-manifest.yaml");
	char *want = xasprintf("%s: cannot open: No such file or directory",
	    path);

	assert_load_error(path, want);
	free(want);
	free(path);
}
END_TEST

START_TEST(test_cannot_read)
{
	assert_load_error(MANIFEST_FIXTURES,
	    MANIFEST_FIXTURES ": cannot read: Is a directory");
}
END_TEST

START_TEST(test_null_error_slot)
{
	struct manifest m;
	char *path = fixture("unknown-key.yaml");

	ck_assert_int_eq(manifest_load(path, &m, NULL), -1);
	ck_assert(is_zeroed(&m));
	free(path);
}
END_TEST

/*
 * manifest_load_data (the fuzz harness's entry point) is manifest_load
 * without the file: the same result and the same message for every
 * fixture, and the same size limit.
 */
START_TEST(test_load_data_same)
{
	struct aiterm_error err = ERROR_INIT, err2 = ERROR_INIT;
	struct manifest m, m2;
	struct aiterm_buf data = BUF_INIT;
	char chunk[4096], *path;
	size_t i, n;
	FILE *f;
	int rc;

	for (i = 0; i < nitems(bad) + 1; i++) {
		path = fixture(i < nitems(bad) ? bad[i].file :
		    "good-reducer.yaml");
		f = fopen(path, "rb");
		ck_assert_ptr_nonnull(f);
		buf_reset(&data);
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			buf_add(&data, chunk, n);
		fclose(f);
		rc = manifest_load(path, &m, &err);
		ck_assert_int_eq(manifest_load_data(path, data.data, data.len,
		    &m2, &err2), rc);
		if (rc == 0) {
			ck_assert_str_eq(m2.path, m.path);
			ck_assert_str_eq(m2.name, m.name);
			ck_assert_uint_eq(m2.nreducers, m.nreducers);
			manifest_free(&m);
			manifest_free(&m2);
		} else {
			ck_assert_str_eq(error_msg(&err2), error_msg(&err));
			ck_assert(is_zeroed(&m2));
		}
		error_clear(&err);
		error_clear(&err2);
		free(path);
	}
	buf_reset(&data);
	while (data.len <= MAX_SIZE)
		buf_adds(&data, "# a long comment\n");
	ck_assert_int_eq(manifest_load_data("big.yaml", data.data, data.len,
	    &m2, &err2), -1);
	ck_assert_str_eq(error_msg(&err2), "big.yaml: larger than 65536 bytes");
	ck_assert(is_zeroed(&m2));
	error_clear(&err2);
	buf_free(&data);
}
END_TEST

/* Limits. */

START_TEST(test_size_limit)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;
	char *data, *path, *want;
	size_t head = strlen(good_head);

	/* good_head, then a comment filling the file to exactly MAX_SIZE. */
	data = xmalloc(MAX_SIZE + 1);
	memcpy(data, good_head, head);
	data[head] = '#';
	memset(data + head + 1, 'x', MAX_SIZE - head - 2);
	data[MAX_SIZE - 1] = '\n';
	path = write_temp(data, MAX_SIZE);
	ck_assert_msg(manifest_load(path, &m, &err) == 0, "%s",
	    error_msg(&err));
	manifest_free(&m);
	unlink(path);
	free(path);

	/* One byte more is refused before parsing. */
	data[MAX_SIZE - 1] = 'x';
	data[MAX_SIZE] = '\n';
	path = write_temp(data, MAX_SIZE + 1);
	want = xasprintf("%s: larger than 65536 bytes", path);
	assert_load_error(path, want);
	unlink(path);
	free(want);
	free(path);
	free(data);
}
END_TEST

START_TEST(test_deep_nesting)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	struct manifest m;
	int i;

	/*
	 * An "x-" value may nest 31 levels under the top-level mapping; the
	 * 32nd "[" of a 20000-deep value is refused at once (line 7, column
	 * 8 + 32), not after libyaml's slow scan of the whole thing.
	 */
	buf_adds(&b, "x-deep: ");
	for (i = 0; i < 31; i++)
		buf_addc(&b, '[');
	for (i = 0; i < 31; i++)
		buf_addc(&b, ']');
	buf_addc(&b, '\n');
	ck_assert_msg(load_text(buf_str(&b), &m, &err, NULL) == 0, "%s",
	    error_msg(&err));
	manifest_free(&m);
	buf_reset(&b);

	buf_adds(&b, "x-deep: ");
	for (i = 0; i < 20000; i++)
		buf_addc(&b, '[');
	for (i = 0; i < 20000; i++)
		buf_addc(&b, ']');
	buf_addc(&b, '\n');
	assert_text_error(buf_str(&b), "7:40: nested deeper than 32 levels");
	buf_free(&b);
}
END_TEST

START_TEST(test_many_keys)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	struct manifest m;
	char *want;
	int i;

	/* Thousands of distinct "x-" keys, each checked for duplicates. */
	for (i = 0; b.len < MAX_SIZE - 200; i++)
		buf_printf(&b, "x-%d: %d\n", i, i);
	ck_assert_msg(load_text(buf_str(&b), &m, &err, NULL) == 0, "%s",
	    error_msg(&err));
	manifest_free(&m);

	/* A repeat at the end is found; good_head is 6 lines long. */
	buf_printf(&b, "x-%d: again\n", i / 2);
	want = xasprintf("%d:1: duplicate key 'x-%d'", 6 + i + 1, i / 2);
	assert_text_error(buf_str(&b), want);
	free(want);
	buf_free(&b);
}
END_TEST

START_TEST(test_long_value_cut)
{
	struct aiterm_buf b = BUF_INIT;
	char *want;
	int i;

	/* Values in messages stop after 64 bytes. */
	buf_adds(&b, "x");
	for (i = 0; i < 100; i++)
		buf_addc(&b, 'a' + i % 26);
	want = xasprintf("7:1: unknown key '%.64s...'", buf_str(&b));
	buf_adds(&b, ": 1\n");
	assert_text_error(buf_str(&b), want);
	free(want);
	buf_free(&b);

	/*
	 * A cut never splits a UTF-8 character: "\xc3\xa9" (e-acute) number
	 * 30 spans bytes 63 and 64, so only 29 of them are kept.
	 */
	buf_adds(&b, "key-x");
	for (i = 0; i < 40; i++)
		buf_adds(&b, "\xc3\xa9");
	buf_adds(&b, ": 1\n");
	want = xasprintf("7:1: unknown key 'key-x%s...'",
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	assert_text_error(buf_str(&b), want);
	free(want);
	buf_free(&b);
}
END_TEST

START_TEST(test_control_escaped)
{
	assert_text_error("\"bad\\nkey\\x01\\t\": 1\n",
	    "7:1: unknown key 'bad\\nkey\\x01\\t'");
	assert_text_error("summary: \"a\\0b\"\n",
	    "7:10: 'summary' must not contain a NUL byte");
	assert_text_error("provides: [\"a\\0b\"]\n",
	    "7:12: 'provides' must not contain a NUL byte");
}
END_TEST

START_TEST(test_number_limits)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;
	char *text, *path;

	/* Both abi parts may be as large as an unsigned. */
	text = xasprintf("manifest: 1\nname: a\nkind: mux\nmodule: a\n"
	    "abi: %u.%u\nversion: 1\n", UINT_MAX, UINT_MAX);
	path = write_temp(text, strlen(text));
	ck_assert_msg(manifest_load(path, &m, &err) == 0, "%s",
	    error_msg(&err));
	ck_assert_uint_eq(m.abi_major, UINT_MAX);
	ck_assert_uint_eq(m.abi_minor, UINT_MAX);
	manifest_free(&m);
	unlink(path);
	free(path);
	free(text);
}
END_TEST

START_TEST(test_number_overflow)
{
	static const char tail[] = "name: a\nkind: mux\nmodule: a\n"
	    "version: 1\n";
	char *text, *want;

	text = xasprintf("abi: %lu.0\n%s", (unsigned long)UINT_MAX + 1, tail);
	want = xasprintf("1:6: 'abi' must be \"MAJOR.MINOR\", got '%lu.0'",
	    (unsigned long)UINT_MAX + 1);
	assert_raw_error(text, want);
	free(want);
	free(text);

	text = xasprintf("abi: 1.%lu\n%s", (unsigned long)UINT_MAX + 1, tail);
	want = xasprintf("1:6: 'abi' must be \"MAJOR.MINOR\", got '1.%lu'",
	    (unsigned long)UINT_MAX + 1);
	assert_raw_error(text, want);
	free(want);
	free(text);

	assert_raw_error("manifest: 99999999999999999999\n",
	    "1:11: unsupported manifest version 99999999999999999999 "
	    "(this Aiterm reads 1)");
	assert_raw_error("manifest: -1\n",
	    "1:11: unsupported manifest version -1 (this Aiterm reads 1)");
	assert_raw_error("manifest: 1.0\n",
	    "1:11: 'manifest' must be an integer");
}
END_TEST

static Suite *
make_manifest_suite(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc;

	tc = tcase_create("Valid");
	tcase_add_test(tc, test_good_mux);
	tcase_add_test(tc, test_good_harness);
	tcase_add_test(tc, test_good_reducer);
	tcase_add_test(tc, test_good_receiver);
	tcase_add_test(tc, test_kind_names);
	tcase_add_test(tc, test_empty_lists);
	suite_add_tcase(s, tc);

	tc = tcase_create("Invalid");
	tcase_add_loop_test(tc, test_bad_fixture, 0, nitems(bad));
	tcase_add_test(tc, test_cannot_open);
	tcase_add_test(tc, test_cannot_read);
	tcase_add_test(tc, test_null_error_slot);
	tcase_add_test(tc, test_load_data_same);
	suite_add_tcase(s, tc);

	tc = tcase_create("Limits");
	tcase_add_test(tc, test_size_limit);
	tcase_add_test(tc, test_deep_nesting);
	tcase_add_test(tc, test_many_keys);
	tcase_add_test(tc, test_long_value_cut);
	tcase_add_test(tc, test_control_escaped);
	tcase_add_test(tc, test_number_limits);
	tcase_add_test(tc, test_number_overflow);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_manifest_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
