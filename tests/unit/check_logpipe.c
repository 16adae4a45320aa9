/*
 * The output log's writer (core/pty/logpipe.c, issue 17) on a log that
 * refuses every write: the log is a symlink to /dev/full (ENOSPC), its
 * .gaps file a real file beside it.  Table-driven: for each input, the
 * gaps recorded count every byte and keep exactly the
 * OSC 133 marks of the input (BEL or ST ended; not other OSCs, not an
 * OSC cut by another, not a backslash inside one), also when the input
 * arrives in small pieces.  Then a real file takes everything and no gap
 * is recorded.
 */
#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pty/logpipe.h"
#include "util/xmalloc.h"

static char *tmpdir;

static void
setup(void)
{
	const char *base = getenv("TMPDIR");

	tmpdir = xasprintf("%s/check_logpipe.XXXXXX",
	    base != NULL && *base != '\0' ? base : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	signal(SIGPIPE, SIG_IGN);
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
	nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(tmpdir);
}

/* Run the writer on log with input given in pieces of step bytes. */
static void
run_writer(const char *log, const char *input, size_t len, size_t step)
{
	int fds[2], status;
	size_t off;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[1]);
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		_exit(logpipe_main(log));
	}
	close(fds[0]);
	for (off = 0; off < len; off += step) {
		ck_assert_int_eq(write(fds[1], input + off,
		    len - off < step ? len - off : step),
		    (ssize_t)(len - off < step ? len - off : step));
		if (step < len)
			usleep(2000);	/* separate reads for the writer */
	}
	close(fds[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The gaps file's records, summed: bytes and marks; *n records. */
static void
gaps_sum(const char *log, json_int_t *bytes, json_int_t *marks, int *n)
{
	char *path = xasprintf("%s.gaps", log), line[512];
	FILE *f = fopen(path, "r");
	json_t *o;

	*bytes = *marks = 0;
	*n = 0;
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL) {
		o = json_loads(line, 0, NULL);
		ck_assert_ptr_nonnull(o);
		ck_assert_int_eq(json_integer_value(json_object_get(o, "format")), 1);
		ck_assert(json_integer_value(json_object_get(o, "from_ms")) <=
		    json_integer_value(json_object_get(o, "to_ms")));
		*bytes += json_integer_value(json_object_get(o, "bytes"));
		*marks += json_integer_value(json_object_get(o, "marks"));
		(*n)++;
		json_decref(o);
	}
	fclose(f);
	free(path);
}

static const struct {
	const char	*input;
	unsigned	 marks;
} cases[] = {
	{ "plain text\r\n", 0 },
	{ "\033]133;A;aiterm=t\a$ ls\r\n", 1 },
	{ "out\r\n\033]133;D;3;aiterm=t\033\\\033]133;A;aiterm=t\a", 2 },
	{ "\033]0;title\a\033]7;file://h/x\a", 0 },
	{ "\033]133;D;0;path=a\\b;aiterm=t\a", 1 },
	{ "\033]133;A;cut\033]133;B;aiterm=t\a", 1 },
	{ "\033]13;no\a\033]1333;no\a\033]133;C;aiterm=t\a", 1 },
	{ "\033\033]133;A;aiterm=t\a", 1 },
};

START_TEST(test_full_log)
{
	char *log = xasprintf("%s/out%d.log", tmpdir, _i), *full;
	size_t len = strlen(cases[_i].input), step;
	json_int_t bytes, marks;
	int n;

	for (step = len; step >= 1; step = step > 3 ? 3 : step - 1) {
		full = xasprintf("%s.gaps", log);
		unlink(full);
		free(full);
		unlink(log);
		ck_assert_int_eq(symlink("/dev/full", log), 0);
		run_writer(log, cases[_i].input, len, step);
		gaps_sum(log, &bytes, &marks, &n);
		ck_assert_int_ge(n, 1);
		ck_assert_int_eq(bytes, (json_int_t)len);
		ck_assert_int_eq(marks, cases[_i].marks);
		if (step == 1)
			break;
	}
	free(log);
}
END_TEST

/* With room, the log gets every byte and no gap is recorded. */
START_TEST(test_room)
{
	char *log = xasprintf("%s/ok.log", tmpdir), *gaps = xasprintf(
	    "%s.gaps", log), buf[256];
	const char *in = cases[2].input;
	struct logpipe_gap sum;
	struct stat st;
	FILE *f;
	size_t n;

	run_writer(log, in, strlen(in), 5);
	f = fopen(log, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	ck_assert_uint_eq(n, strlen(in));
	ck_assert(memcmp(buf, in, n) == 0);
	ck_assert_int_eq(stat(gaps, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	ck_assert_uint_eq(logpipe_gaps(log, 0, UINT64_MAX, &sum), 0);
	free(gaps);
	free(log);
}
END_TEST

static Suite *
logpipe_suite(void)
{
	Suite *s = suite_create("logpipe");
	TCase *tc = tcase_create("logpipe");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_full_log, 0,
	    (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, test_room);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(logpipe_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
