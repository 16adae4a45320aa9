/*
 * REM-RELAY DLV-WAIT: remote_wait_rewrite turns the far aiterm-mcp's
 * waiter (its own aiterm-wait, state root and delivery id) into one that
 * runs there through ssh, in wait_process, wait_command and the receipt
 * line; words that need quotes get them, for the far shell and for ours.
 * And a session's watch command (attach) runs there through ssh -t.
 * An askpass socket path too long for sun_path is refused (issue 37).
 */
#include <sys/stat.h>

#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "remote/askpass.h"
#include "remote/family.h"
#include "remote/farcmd.h"
#include "util/buf.h"
#include "util/loop.h"
#include "util/path.h"

/* A far receipt as parent.c writes it: argv, command and line. */
static json_t *
far_result(const char *waiter, const char *state, const char *id)
{
	struct aiterm_buf cmd = BUF_INIT;
	json_t *r;
	char *line;

	buf_add_sq(&cmd, waiter);
	buf_adds(&cmd, " --state-dir ");
	buf_add_sq(&cmd, state);
	buf_printf(&cmd, " %s", id);
	if (asprintf(&line, "launched x\nanswer: pty_read session_id=x "
	    "agent_transcript=true wait=true\ndelivery: %s waiting; its answer "
	    "is printed by: %s\nwatch: tmux\n", id, buf_str(&cmd)) < 0)
		abort();
	r = json_pack("{s:[{s:s, s:s}], s:{s:{s:[s, s, s, s]}, s:s}}",
	    "content", "type", "text", "text", line, "structuredContent",
	    "wait_process", "argv", waiter, "--state-dir", state, id,
	    "wait_command", buf_str(&cmd));
	free(line);
	buf_free(&cmd);
	return r;
}

static const char *
text_of(json_t *r)
{
	return json_string_value(json_object_get(json_array_get(
	    json_object_get(r, "content"), 0), "text"));
}

static const char *
argv_at(json_t *r, size_t i)
{
	return json_string_value(json_array_get(json_object_get(
	    json_object_get(json_object_get(r, "structuredContent"),
	    "wait_process"), "argv"), i));
}

/* The words sh splits line into, each in brackets. */
static const char *
sh_words(const char *line)
{
	static char out[1024];
	struct aiterm_buf b = BUF_INIT;
	size_t n;
	FILE *p;

	buf_adds(&b, "set -- ");
	buf_adds(&b, line);
	buf_adds(&b, "; for a; do printf '[%s]' \"$a\"; done");
	setenv("AITERM_TEST_LINE", buf_str(&b), 1);
	p = popen("sh -c \"$AITERM_TEST_LINE\"", "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	pclose(p);
	buf_free(&b);
	return out;
}

START_TEST(test_plain_paths)
{
	json_t *r = far_result("/usr/bin/aiterm-wait", "/home/u/.local/state/aiterm",
	    "d0123456789abcdef");
	const char *want = "ssh -T -o BatchMode=yes -o ConnectTimeout=10 -o "
	    "ServerAliveInterval=15 -p 2222 -- u@far.example '/usr/bin/"
	    "aiterm-wait --state-dir /home/u/.local/state/aiterm "
	    "d0123456789abcdef'";

	unsetenv("AITERM_SSH_CONFIG");
	remote_far_commands("u@far.example:2222", r);
	ck_assert_str_eq(argv_at(r, 0), "ssh");
	ck_assert_str_eq(argv_at(r, 8), "-p");
	ck_assert_str_eq(argv_at(r, 9), "2222");
	ck_assert_str_eq(argv_at(r, 10), "--");
	ck_assert_str_eq(argv_at(r, 11), "u@far.example");
	ck_assert_str_eq(argv_at(r, 12), "/usr/bin/aiterm-wait --state-dir "
	    "/home/u/.local/state/aiterm d0123456789abcdef");
	ck_assert_ptr_null(argv_at(r, 13));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r,
	    "structuredContent"), "wait_command")), want);
	ck_assert_ptr_nonnull(strstr(text_of(r), want));
	ck_assert_ptr_nonnull(strstr(text_of(r), "\nwatch: tmux\n"));
	ck_assert_ptr_nonnull(strstr(text_of(r), "\nanswer: pty_read "
	    "remote=u@far.example:2222 session_id=x agent_transcript=true "
	    "wait=true\n"));
	json_decref(r);
}
END_TEST

/* A state root with a blank and a quote: quoted for both shells. */
START_TEST(test_quoted_paths)
{
	json_t *r = far_result("/opt/a b/aiterm-wait", "/srv/it's", "d1");
	const char *cmd;

	setenv("AITERM_SSH_CONFIG", "/tmp/ssh config", 1);
	remote_far_commands("far", r);
	ck_assert_str_eq(argv_at(r, 8), "-F");
	ck_assert_str_eq(argv_at(r, 9), "/tmp/ssh config");
	ck_assert_str_eq(argv_at(r, 11), "far");
	ck_assert_str_eq(argv_at(r, 12), "'/opt/a b/aiterm-wait' --state-dir "
	    "'/srv/it'\\''s' d1");
	/* What sh makes of the command, and the far shell of its last word. */
	cmd = json_string_value(json_object_get(json_object_get(r,
	    "structuredContent"), "wait_command"));
	ck_assert_ptr_nonnull(strstr(text_of(r), cmd));
	ck_assert_str_eq(sh_words(cmd), "[ssh][-T][-o][BatchMode=yes][-o]"
	    "[ConnectTimeout=10][-o][ServerAliveInterval=15][-F]"
	    "[/tmp/ssh config][--][far]['/opt/a b/aiterm-wait' --state-dir "
	    "'/srv/it'\\''s' d1]");
	ck_assert_str_eq(sh_words(argv_at(r, 12)), "[/opt/a b/aiterm-wait]"
	    "[--state-dir][/srv/it's][d1]");
	unsetenv("AITERM_SSH_CONFIG");
	json_decref(r);
}
END_TEST

/* A session's watch command: ssh -t, for a person at a terminal. */
START_TEST(test_watch)
{
	json_t *r = json_pack("{s:[{s:s, s:s}], s:{s:s, s:s}}", "content",
	    "type", "text", "text", "opened x (bash, 80x24)\nwatch: tmux -S "
	    "/s/tmux.sock attach -t x\n", "structuredContent", "session_id",
	    "x", "attach", "tmux -S /s/tmux.sock attach -t x");

	unsetenv("AITERM_SSH_CONFIG");
	remote_far_commands("me@far:22", r);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(r,
	    "structuredContent"), "attach")), "ssh -t -p 22 -- me@far 'tmux -S "
	    "/s/tmux.sock attach -t x'");
	ck_assert_str_eq(text_of(r), "opened x (bash, 80x24)\nwatch: ssh -t "
	    "-p 22 -- me@far 'tmux -S /s/tmux.sock attach -t x'\n");
	json_decref(r);
}
END_TEST

/* Results without a waiter, or with a strange one, stay as they are. */
START_TEST(test_untouched)
{
	json_t *r = json_pack("{s:[], s:{s:s}}", "content", "structuredContent",
	    "session_id", "x"), *copy = json_deep_copy(r);

	remote_far_commands("far", r);
	ck_assert(json_equal(r, copy));
	json_decref(r);
	json_decref(copy);
	r = json_pack("{s:{s:{s:[i]}}}", "structuredContent", "wait_process",
	    "argv", 3);
	copy = json_deep_copy(r);
	remote_far_commands("far", r);
	ck_assert(json_equal(r, copy));
	remote_far_commands("far", NULL);
	json_decref(r);
	json_decref(copy);
}
END_TEST

/*
 * REM-RELAY (ADR 0028): a command line for each far shell family: POSIX
 * words bare or in single quotes, cmd's bare or in double quotes (and
 * refused when cmd would change them), PowerShell's "& " and quotes.
 */
START_TEST(test_family_lines)
{
	static const struct {
		enum remote_family	 f;
		const char		*words[3];
		const char		*line;	/* NULL: refused */
	} cases[] = {
		{ REMOTE_FAM_POSIX, { "aiterm-mcp" }, "aiterm-mcp" },
		{ REMOTE_FAM_UNKNOWN, { "/a b/w", "it's" }, "'/a b/w' 'it'\\''s'" },
		{ REMOTE_FAM_CMD, { "aiterm-mcp" }, "aiterm-mcp" },
		{ REMOTE_FAM_CMD, { "C:\\Program Files\\Aiterm\\aiterm-wait.exe",
		    "--state-dir", "C:\\s" }, "\"C:\\Program Files\\Aiterm\\"
		    "aiterm-wait.exe\" --state-dir C:\\s" },
		{ REMOTE_FAM_CMD, { "a&b", "" }, "\"a&b\" \"\"" },
		{ REMOTE_FAM_CMD, { "%PATH%" }, NULL },
		{ REMOTE_FAM_CMD, { "say \"hi\"" }, NULL },
		{ REMOTE_FAM_PWSH, { "aiterm-mcp" }, "& 'aiterm-mcp'" },
		{ REMOTE_FAM_PWSH, { "C:\\it's\\w.exe", "$x" },
		    "& 'C:\\it''s\\w.exe' '$x'" },
		{ REMOTE_FAM_PWSH, { "two\nlines" }, NULL },
	};
	size_t i, n;
	char *line;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (n = 0; n < 3 && cases[i].words[n] != NULL; n++)
			;
		line = remote_family_line(cases[i].f, cases[i].words, n);
		if (cases[i].line == NULL)
			ck_assert_msg(line == NULL, "case %zu: %s", i, line);
		else
			ck_assert_str_eq(line, cases[i].line);
		free(line);
	}
	ck_assert_str_eq(remote_family_name(REMOTE_FAM_PWSH), "PowerShell");
	ck_assert_str_eq(remote_family_name(REMOTE_FAM_UNKNOWN), "POSIX");
}
END_TEST

/*
 * Issue 37: a socket path longer than sun_path holds is refused before
 * the bind, naming the path and the limit; libuv would have bound the
 * socket at the path cut short.
 */
START_TEST(test_askpass_long_path)
{
	char dir[] = "/tmp/aiterm-check-remote-XXXXXX";
	char long_dir[512], path[600], *why = NULL, *msg;
	struct askpass *a;
	struct dirent *e;
	size_t n = 0;
	DIR *d;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(long_dir, sizeof long_dir, "%s/%0120d", dir, 0);
	ck_assert_int_eq(mkdir(long_dir, 0700), 0);
	snprintf(path, sizeof path, "%s/ap-1-1", long_dir);
	core_loop_set(uv_default_loop());
	a = askpass_start(path, "secret", &why);
	/* Nothing was made in dir (the cut path) nor in long_dir. */
	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, long_dir +
		    strlen(dir) + 1) == 0)
			continue;
		n++;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	unlink(path);
	rmdir(long_dir);
	rmdir(dir);
	ck_assert_ptr_null(a);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, path) != NULL, "%s", why);
	ck_assert_msg(strstr(why, " 107 ") != NULL, "%s", why);
	free(why);
	ck_assert_uint_eq(n, 0);
	/* The bound: 107 bytes fit, 108 do not; extra counts. */
	memset(path, 'p', sizeof path);
	path[0] = '/';
	path[107] = '\0';
	ck_assert_ptr_null(path_socket_too_long(path, 0));
	msg = path_socket_too_long(path, 1);
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(strstr(msg, "108 bytes"));
	free(msg);
	path[107] = 'p';
	path[108] = '\0';
	msg = path_socket_too_long(path, 0);
	ck_assert_ptr_nonnull(msg);
	free(msg);
	core_loop_set(NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("remote");
	TCase *tc = tcase_create("waitcmd");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_plain_paths);
	tcase_add_test(tc, test_quoted_paths);
	tcase_add_test(tc, test_watch);
	tcase_add_test(tc, test_untouched);
	tcase_add_test(tc, test_family_lines);
	tcase_add_test(tc, test_askpass_long_path);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
