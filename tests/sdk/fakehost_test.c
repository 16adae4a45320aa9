/*
 * The test kit's fake host (libaiterm-plugin-test, issue 39): buffers,
 * errors, the log and AITERM_PLUGIN_LOG, run, spawn_program, state_root
 * and write_state behave as aiterm-plugin(7) says.  Exits 0 when every
 * check passed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <aiterm/plugin-test.h>

static int failed;

static void
check(int ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok" : "not ok", what);
	failed += !ok;
}

static int
canned(const char *const argv[], struct aiterm_buf *out,
    struct aiterm_buf *errout, struct aiterm_error *err)
{
	(void)errout;
	(void)err;
	aiterm_test_host()->buf_printf(out, "%s 1.2.3\n", argv[0]);
	return 0;
}

int
main(void)
{
	const struct aiterm_host *h = aiterm_test_host();
	struct aiterm_buf *b = h->buf_new(), *out = aiterm_test_buf();
	struct aiterm_error *err = aiterm_test_error();
	const char *argv[] = { "mycli", "--version", NULL };
	const char *spawn[] = { "aiterm-hook", "codex-queue", "x", NULL };
	char path[4096];
	struct stat st;

	check(h->abi_major == AITERM_ABI_MAJOR && h->abi_minor ==
	    AITERM_ABI_MINOR, "the header's ABI");
	h->buf_add(b, "ab\0c", 4);
	h->buf_printf(b, "%d", 42);
	check(h->buf_len(b) == 6 && memcmp(h->buf_data(b), "ab\0c42", 7) == 0,
	    "buf_add, buf_printf, NUL-ended");
	aiterm_test_buf_reset(b);
	check(aiterm_test_buf_len(b) == 0 && *aiterm_test_buf_str(b) == '\0',
	    "buf reset");
	check(aiterm_test_error_msg(err) == NULL && h->error(err, "bad %s",
	    "thing") == -1 && strcmp(aiterm_test_error_msg(err),
	    "bad thing") == 0, "error");
	aiterm_test_error_clear(err);
	check(aiterm_test_error_msg(err) == NULL, "error clear");
	setenv("AITERM_PLUGIN_LOG", "error", 1);
	h->log(AITERM_LOG_DEBUG, "p", "one %d", 1);
	h->log(AITERM_LOG_WARNING, NULL, "two");
	check(strcmp(aiterm_test_log(), "debug: p: one 1\nwarning: core: "
	    "two\n") == 0, "log: every line kept, whatever the level");
	aiterm_test_log_clear();
	check(*aiterm_test_log() == '\0', "log clear");
	check(h->run(argv, out, NULL, err) == -1 &&
	    strstr(aiterm_test_error_msg(err), "aiterm_test_set_run") != NULL,
	    "run: none set");
	aiterm_test_set_run(canned);
	check(h->run(argv, out, NULL, err) == 0 &&
	    strcmp(aiterm_test_buf_str(out), "mycli 1.2.3\n") == 0,
	    "run: the test's function");
	check(h->spawn_program(spawn, err) == 0 && strcmp(aiterm_test_spawned(),
	    "aiterm-hook codex-queue x\n") == 0, "spawn_program recorded");
	check(stat(h->state_root(), &st) == 0 && S_ISDIR(st.st_mode) &&
	    (st.st_mode & 0777) == 0700, "state_root: a 0700 folder");
	check(h->write_state("a/b/c.json", "{}", 2, err) == 0, "write_state");
	snprintf(path, sizeof path, "%s/a/b/c.json", h->state_root());
	check(stat(path, &st) == 0 && st.st_size == 2 &&
	    (st.st_mode & 0777) == 0600, "write_state: the file, 0600");
	check(h->write_state("../x", "{}", 2, err) == -1 &&
	    strcmp(aiterm_test_error_msg(err), "not a path below the state "
	    "root: '../x'") == 0, "write_state: .. refused");
	check(h->write_state("a/", "{}", 2, err) == -1, "write_state: a "
	    "folder refused");
	h->buf_free(b);
	aiterm_test_buf_free(out);
	aiterm_test_error_free(err);
	return failed > 0;
}
