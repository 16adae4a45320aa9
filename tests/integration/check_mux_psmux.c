/*
 * The mux-psmux plugin (ADR 0024) on Linux.  psmux speaks tmux's command
 * language, so the plugin is pointed at a real tmux (AITERM_PSMUX, with
 * AITERM_PSMUX_ALLOW_TMUX=1, which only its version gate reads) in a
 * private -L namespace under a temporary TMUX_TMPDIR and HOME.
 *
 * What this covers: the words every op sends (new-session with -e, -c,
 * -x/-y and an argv after "--", remain-on-exit in the same client,
 * pipe-pane, send-keys -l with ';' escaping, named keys, set-buffer +
 * paste-buffer -p, capture-pane, the list-panes formats
 * and their parsing, set-environment, kill-session), exact "=id:" targets
 * (a prefix never matches), a missing session, the namespace per state
 * root, and the version gate on what a fake psmux prints for -V.
 *
 * What it does not cover, because none of it runs here: psmux itself,
 * Windows, ConPTY, PowerShell 7 (the default shell pwsh and the pwsh
 * pipe-pane command), psmux's own error texts and its reading of "=id:"
 * targets and of "\;", and the PATH search with ';' and psmux.exe.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <ltdl.h>

#include "aiterm/plugin.h"
#include "plugin/host.h"
#include "plugin/loader.h"
#include "plugin/manifest.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/error.h"

#define WAIT_MS 5000

static char tmp_root[64];
static char tmux_path[PATH_MAX];
static const struct aiterm_host *host;
static const struct aiterm_mux_ops *ops;
static struct aiterm_mux_info info;
static lt_dlhandle module;

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

static void
write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static int
file_contains(const char *path, const char *needle)
{
	static char text[65536];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return 0;
	n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	return strstr(text, needle) != NULL;
}

/* The screen of session, in buf (reset first); 0 or -1. */
static int
capture(const char *session, struct aiterm_buf *b)
{
	struct aiterm_error err = ERROR_INIT;
	int rc;

	buf_reset(b);
	rc = ops->capture(host, session, b, &err);
	error_clear(&err);
	buf_addc(b, '\0');
	return rc;
}

static void
wait_screen(const char *session, const char *needle)
{
	struct aiterm_buf b = BUF_INIT;
	int waited;

	for (waited = 0; waited < WAIT_MS; waited += 20) {
		if (capture(session, &b) == 0 && strstr(buf_str(&b), needle))
			break;
		sleep_ms(20);
	}
	ck_assert_msg(strstr(buf_str(&b), needle) != NULL,
	    "%s never showed '%s':\n%s", session, needle, buf_str(&b));
	buf_free(&b);
}

static void
create_ok(const char *session, const char *const *argv,
    const char *const *env, const char *log)
{
	struct aiterm_mux_create o = { .session = session, .cwd = tmp_root,
	    .env = env, .argv = argv, .cols = 90, .rows = 25, .log_path = log };
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->create(host, &o, &err) == 0, "create %s: %s",
	    session, error_msg(&err));
}

static void
send_ok(const char *session, const char *text, int enter)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->send_text(host, session, text, strlen(text), enter,
	    &err) == 0, "send_text '%s': %s", text, error_msg(&err));
}

static void
pane_ok(const char *session, struct aiterm_pane_info *pi)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->pane_info(host, session, pi, &err) == 0,
	    "pane_info %s: %s", session, error_msg(&err));
}

static void
kill_ok(const char *session)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->kill(host, session, &err) == 0, "kill %s: %s",
	    session, error_msg(&err));
}

/* Run "tmux -L <ns> args..." (the private namespace) into out. */
static int
tmux_ns(struct aiterm_buf *out, const char *a, const char *b, const char *c,
    const char *d)
{
	const char *argv[] = { tmux_path, "-L", info.socket, a, b, c, d, NULL };
	struct aiterm_error err = ERROR_INIT;
	int rc = host->run(argv, out, NULL, &err);

	error_clear(&err);
	return rc;
}

/* SIGCHLD to the tmux server this suite started (see test_paste_keys_dead). */
static void
nudge_server(void)
{
	struct aiterm_buf out = BUF_INIT;
	long pid;

	if (tmux_ns(&out, "display-message", "-p", "#{pid}", NULL) == 0) {
		pid = strtol(buf_str(&out), NULL, 10);
		if (pid > 1)
			kill((pid_t)pid, SIGCHLD);
	}
	buf_free(&out);
}

static void
suite_setup(void)
{
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_plugin *(*describe)(void);
	const struct aiterm_plugin *plugin;
	const char *top = getenv("top_builddir"), *path_env = getenv("PATH");
	char path[PATH_MAX], *dirs, *dir, *save = NULL;

	snprintf(tmp_root, sizeof tmp_root, "/tmp/aiterm-psmux-XXXXXX");
	ck_assert(mkdtemp(tmp_root) != NULL);
	snprintf(path, sizeof path, "%s/home", tmp_root);
	ck_assert(mkdir(path, 0700) == 0);
	setenv("HOME", path, 1);
	snprintf(path, sizeof path, "%s/tmp", tmp_root);
	ck_assert(mkdir(path, 0700) == 0);
	setenv("TMUX_TMPDIR", path, 1);
	snprintf(path, sizeof path, "%s/bin", tmp_root);
	ck_assert(mkdir(path, 0700) == 0);
	unsetenv("TMUX");
	unsetenv("TMUX_PANE");
	snprintf(path, sizeof path, "%s/state", tmp_root);
	ck_assert_msg(state_root_init(path, &err) == 0, "%s",
	    error_msg(&err));

	/* The tmux this suite stands psmux in with. */
	ck_assert(path_env != NULL);
	dirs = strdup(path_env);
	for (dir = strtok_r(dirs, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		snprintf(tmux_path, sizeof tmux_path, "%s/tmux", dir);
		if (*dir == '/' && access(tmux_path, X_OK) == 0)
			break;
	}
	free(dirs);
	ck_assert_msg(dir != NULL, "tmux is not on PATH");

	ck_assert_msg(top != NULL, "top_builddir is not set");
	snprintf(path, sizeof path, "%s/plugins/mux-psmux/mux_psmux", top);
	ck_assert(lt_dlinit() == 0);
	module = lt_dlopenext(path);
	ck_assert_msg(module != NULL, "%s: %s", path, lt_dlerror());
	*(void **)&describe = lt_dlsym(module, AITERM_PLUGIN_SYMBOL);
	ck_assert(describe != NULL);
	plugin = describe();
	ck_assert_int_eq(plugin->kind, AITERM_KIND_MUX);
	ck_assert_str_eq(plugin->name, "mux-psmux");
	ck_assert_uint_eq(plugin->abi_major, AITERM_ABI_MAJOR);
	ops = plugin->ops;
	host = host_get();
	setenv("AITERM_PSMUX", tmux_path, 1);
	setenv("AITERM_PSMUX_ALLOW_TMUX", "1", 1);
	ck_assert_msg(ops->probe(host, &info, &err) == 0, "probe: %s",
	    error_msg(&err));
	/*
	 * tmux ends its server with its last session, and a client that
	 * comes in while it ends gets "server exited unexpectedly"; a
	 * session kept for the whole suite keeps one server.  (psmux runs a
	 * server per session, so nothing there is shared between them.)
	 */
	{
		static const char *const cat[] = { "/bin/cat", NULL };
		struct aiterm_mux_create o = { .session = "ps-keeper",
		    .cwd = tmp_root, .argv = cat, .cols = 80, .rows = 24 };

		ck_assert_msg(ops->create(host, &o, &err) == 0, "keeper: %s",
		    error_msg(&err));
	}
}

static void
suite_teardown(void)
{
	struct aiterm_buf out = BUF_INIT;
	long pid;
	int waited;

	/* End the tmux server this suite started, by its PID, and no other. */
	if (tmux_ns(&out, "display-message", "-p", "#{pid}", NULL) == 0) {
		pid = strtol(buf_str(&out), NULL, 10);
		if (pid > 1 && kill((pid_t)pid, SIGTERM) == 0)
			for (waited = 0; waited < WAIT_MS &&
			    kill((pid_t)pid, 0) == 0; waited += 20)
				sleep_ms(20);
	}
	buf_free(&out);
	nftw(tmp_root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	lt_dlclose(module);
	lt_dlexit();
	state_root_reset();
}

/* ---- The version gate, on what a stand-in psmux prints for -V. ---- */

START_TEST(test_version_gate)
{
	static const struct {
		const char	*prints;
		const char	*allow;		/* AITERM_PSMUX_ALLOW_TMUX */
		const char	*version;	/* NULL: refused */
		const char	*error;		/* part of the refusal */
	} cases[] = {
		{ "psmux 3.3.8", NULL, "3.3.8", NULL },
		{ "psmux 3.3.10", NULL, "3.3.10", NULL },
		{ "psmux 3.4.0", NULL, "3.4.0", NULL },
		{ "psmux 4.0", NULL, "4.0.0", NULL },
		{ "psmux 3.3.7", NULL, NULL, "psmux 3.3.7 is too old" },
		{ "psmux 3.2.99", NULL, NULL, "too old" },
		{ "tmux 3.3a", NULL, NULL, "is not psmux" },
		{ "tmux 3.3a", "0", NULL, "is not psmux" },
		{ "tmux 3.3a", "1", "3.3.0", NULL },
		{ "pmux 3.3.8", NULL, NULL, "is not psmux" },
		{ "psmux", NULL, NULL, "did not print a version" },
		{ "", NULL, NULL, "did not print a version" },
	};
	struct aiterm_mux_info got;
	struct aiterm_error err = ERROR_INIT;
	char fake[PATH_MAX], script[256];
	size_t i;
	int rc;

	snprintf(fake, sizeof fake, "%s/bin/psmux", tmp_root);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(script, sizeof script,
		    "#!/bin/sh\nprintf '%%s\\n' '%s'\n", cases[i].prints);
		write_file(fake, script, 0700);
		setenv("AITERM_PSMUX", fake, 1);
		if (cases[i].allow != NULL)
			setenv("AITERM_PSMUX_ALLOW_TMUX", cases[i].allow, 1);
		else
			unsetenv("AITERM_PSMUX_ALLOW_TMUX");
		rc = ops->probe(host, &got, &err);
		if (cases[i].version != NULL) {
			ck_assert_msg(rc == 0, "'%s': %s", cases[i].prints,
			    error_msg(&err));
			ck_assert_str_eq(got.version, cases[i].version);
			ck_assert_str_eq(got.binary, fake);
		} else {
			ck_assert_msg(rc == -1, "'%s' was taken",
			    cases[i].prints);
			ck_assert_msg(strstr(error_msg(&err),
			    cases[i].error) != NULL, "'%s': %s",
			    cases[i].prints, error_msg(&err));
		}
		error_clear(&err);
	}
	setenv("AITERM_PSMUX", "relative/psmux", 1);
	ck_assert_int_eq(ops->probe(host, &got, &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "absolute path"));
	error_clear(&err);
	setenv("AITERM_PSMUX", tmux_path, 1);
	setenv("AITERM_PSMUX_ALLOW_TMUX", "1", 1);
}
END_TEST

/* The manifest the loader reads: Windows only, so refused here. */
START_TEST(test_manifest)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;
	char path[PATH_MAX];
	const char *src = getenv("top_srcdir");

	ck_assert(src != NULL);
	snprintf(path, sizeof path, "%s/plugins/mux-psmux/mux-psmux.yaml",
	    src);
	ck_assert_msg(manifest_load(path, &m, &err) == 0, "%s",
	    error_msg(&err));
	ck_assert_str_eq(m.name, "mux-psmux");
	ck_assert_int_eq(m.kind, AITERM_KIND_MUX);
	ck_assert_str_eq(m.module, "mux_psmux");
	ck_assert_uint_eq(m.abi_major, AITERM_ABI_MAJOR);
	ck_assert_uint_eq(m.abi_minor, AITERM_ABI_MINOR);
	ck_assert_str_eq(m.platforms[0], "windows");
	ck_assert_ptr_null(m.platforms[1]);
	ck_assert_ptr_null(loader_load(&m, &err));
	ck_assert_msg(strstr(error_msg(&err), "not built for this platform")
	    != NULL, "%s", error_msg(&err));
	error_clear(&err);
	manifest_free(&m);
}
END_TEST

/* ---- The command layer, on tmux. ---- */

START_TEST(test_namespace)
{
	ck_assert_msg(strncmp(info.socket, "aiterm-", 7) == 0 &&
	    strlen(info.socket) == 7 + 16, "namespace '%s'", info.socket);
	ck_assert_str_eq(info.binary, tmux_path);
}
END_TEST

START_TEST(test_shell_env_log)
{
	static const char *const sh[] = { "/bin/sh", NULL };
	static const char *const env[] = { "AITERM_PS_X=hello world; $HOME",
	    NULL };
	struct aiterm_pane_info pi;
	char log[PATH_MAX];

	snprintf(log, sizeof log, "%s/log it's.txt", tmp_root);
	create_ok("ps-env", sh, env, log);
	pane_ok("ps-env", &pi);
	ck_assert_int_eq(pi.exists, 1);
	ck_assert_int_eq(pi.dead, 0);
	ck_assert_uint_eq(pi.cols, 90);
	ck_assert_uint_eq(pi.rows, 25);
	ck_assert(pi.pid > 1);
	send_ok("ps-env", "echo \"[$AITERM_PS_X]\"; echo done-$((40+2))", 1);
	wait_screen("ps-env", "[hello world; $HOME]");
	wait_screen("ps-env", "done-42");
	{
		int waited;

		for (waited = 0; waited < WAIT_MS &&
		    !file_contains(log, "done-42"); waited += 20)
			sleep_ms(20);
		ck_assert_msg(file_contains(log, "done-42"),
		    "the log never got the output");
	}
	send_ok("ps-env", "pwd", 1);
	wait_screen("ps-env", tmp_root);
	kill_ok("ps-env");
}
END_TEST

START_TEST(test_literal_text)
{
	static const char *const cat[] = { "/bin/cat", NULL };
	static const char *const texts[] = {
		"semi;", ";", "semi\\;", "it's", "$HOME `x` $(y)", "-l", "--",
		"#{pane_id} ##", "back\\slash\\", "utf-8 \xc3\xa9\xe2\x82\xac",
		NULL,
	};
	struct aiterm_error err = ERROR_INIT;
	size_t i;

	create_ok("ps-cat", cat, NULL, NULL);
	for (i = 0; texts[i] != NULL; i++) {
		send_ok("ps-cat", texts[i], 1);
		wait_screen("ps-cat", texts[i]);
	}
	/* Typed without Enter: on screen, and cat has not echoed it. */
	send_ok("ps-cat", "no-enter-yet", 0);
	wait_screen("ps-cat", "no-enter-yet");
	ck_assert_int_eq(ops->send_text(host, "ps-cat", "a\0b", 3, 0, &err),
	    -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "NUL"));
	error_clear(&err);
	{
		char big[300];

		memset(big, 'x', sizeof big);
		ck_assert_int_eq(ops->send_text(host, "ps-cat", big,
		    sizeof big, 0, &err), -1);
		error_clear(&err);
	}
	kill_ok("ps-cat");
}
END_TEST

START_TEST(test_paste_keys_dead)
{
	static const char *const cat[] = { "/bin/cat", NULL };
	static const char *const exit3[] = { "/bin/sh", "-c", "exit 3", NULL };
	const char *const *names = ops->key_names();
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	int waited, has_enter = 0;
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		has_enter |= strcmp(names[i], "Enter") == 0;
	ck_assert(has_enter);
	create_ok("ps-keys", cat, NULL, NULL);
	ck_assert_msg(ops->paste(host, "ps-keys", "first line\nsecond;", 18,
	    &err) == 0, "paste: %s", error_msg(&err));
	wait_screen("ps-keys", "first line");
	wait_screen("ps-keys", "second;");
	ck_assert_int_eq(ops->send_key(host, "ps-keys", "Nope", &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "unknown key"));
	error_clear(&err);
	ck_assert_msg(ops->send_key(host, "ps-keys", "C-c", &err) == 0,
	    "C-c: %s", error_msg(&err));
	/* cat ended by C-c: the pane stays, dead (remain-on-exit). */
	for (waited = 0; waited < WAIT_MS; waited += 20) {
		pane_ok("ps-keys", &pi);
		if (pi.dead)
			break;
		sleep_ms(20);
	}
	ck_assert_int_eq(pi.exists, 1);
	ck_assert_int_eq(pi.dead, 1);
	kill_ok("ps-keys");

	/*
	 * Debian's tmux (built with libutempter) can lose the SIGCHLD that
	 * makes it reap a pane's process and learn its status; mux-tmux
	 * nudges its server for that.  There is no SIGCHLD on Windows, so
	 * mux-psmux does not: the test nudges its own tmux server instead.
	 */
	create_ok("ps-exit", exit3, NULL, NULL);
	for (waited = 0; waited < WAIT_MS; waited += 20) {
		pane_ok("ps-exit", &pi);
		if (pi.dead && pi.dead_status != -1)
			break;
		if (pi.dead)
			nudge_server();
		sleep_ms(20);
	}
	ck_assert_msg(pi.exists && pi.dead, "the dead pane was not kept");
	ck_assert_int_eq(pi.dead_status, 3);
	kill_ok("ps-exit");
}
END_TEST

struct seen {
	int	 n;
	int	 found;
	long	 created;
};

static void
on_session(const char *session, long created,
    const struct aiterm_pane_info *pi, void *arg)
{
	struct seen *s = arg;

	s->n++;
	if (strcmp(session, "ps-list") == 0 && pi->exists) {
		s->found++;
		s->created = created;
	}
}

START_TEST(test_list_env_exact_kill)
{
	static const char *const sh[] = { "/bin/sh", NULL };
	static const char *const bad[] = { "echo hi; touch x", NULL };
	struct aiterm_mux_create o = { .session = "ps-bad", .cwd = tmp_root,
	    .argv = bad, .cols = 80, .rows = 24 };
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf out = BUF_INIT;
	struct aiterm_pane_info pi;
	struct seen s = { 0, 0, 0 };

	create_ok("ps-list", sh, NULL, NULL);
	ck_assert_msg(ops->list(host, on_session, &s, &err) == 0, "list: %s",
	    error_msg(&err));
	ck_assert_int_eq(s.found, 1);
	ck_assert(s.created > 1000000000L);

	ck_assert_msg(ops->set_env(host, "ps-list", "AITERM_LATE", "v;",
	    &err) == 0, "set_env: %s", error_msg(&err));
	ck_assert_int_eq(tmux_ns(&out, "show-environment", "-t", "=ps-list:",
	    "AITERM_LATE"), 0);
	ck_assert_str_eq(buf_str(&out), "AITERM_LATE=v;\n");
	ck_assert_int_eq(ops->set_env(host, "ps-list", "1BAD", "v", &err),
	    -1);
	error_clear(&err);

	/* "ps" is a prefix of "ps-list": never taken for it. */
	kill_ok("ps");
	pane_ok("ps", &pi);
	ck_assert_int_eq(pi.exists, 0);
	pane_ok("ps-list", &pi);
	ck_assert_int_eq(pi.exists, 1);
	ck_assert_int_eq(ops->send_text(host, "ps", "x", 1, 0, &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "does not exist"));
	error_clear(&err);

	kill_ok("ps-list");
	pane_ok("ps-list", &pi);
	ck_assert_int_eq(pi.exists, 0);
	kill_ok("ps-list");	/* a missing session is not an error */

	ck_assert_int_eq(ops->create(host, &o, &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "shell line"));
	error_clear(&err);
	o.session = "bad id";
	o.argv = sh;
	ck_assert_int_eq(ops->create(host, &o, &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "invalid session id"));
	error_clear(&err);
	buf_free(&out);
}
END_TEST

static Suite *
psmux_suite(void)
{
	Suite *s = suite_create("mux-psmux");
	TCase *tc = tcase_create("on-tmux");

	tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_manifest);
	tcase_add_test(tc, test_version_gate);
	tcase_add_test(tc, test_namespace);
	tcase_add_test(tc, test_shell_env_log);
	tcase_add_test(tc, test_literal_text);
	tcase_add_test(tc, test_paste_keys_dead);
	tcase_add_test(tc, test_list_env_exact_kill);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(psmux_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
