/*
 * The mux-tmux plugin on a real tmux.  The plugin is loaded from the build
 * tree with libltdl and driven through the core's host table; its private
 * server lives in a temporary state root, with HOME and TMUX_TMPDIR
 * pointed at temporary folders, so the user's tmux server and
 * ~/.tmux.conf are never touched.  The server this suite started is
 * killed by its PID at the end.
 *
 * The "Quoting" case calls the plugin's quoting and argv builders
 * directly (their sources are compiled into this program).
 *
 * Most ops go through the plugin's control client (tmux -C); a case sets
 * AITERM_TMUX_CONTROL=0 where it compares with one-shot tmux clients.
 * The host's run is counted, so "no tmux process per op" and "list is
 * one tmux process" are checked.  Two cases stop the server (SIGSTOP,
 * with a child that always sends SIGCONT) or kill it, and check that the
 * control client is kept while the server is stopped, and reaped and
 * replaced when the server is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <ltdl.h>

#include "aiterm/plugin.h"
#include "plugin/host.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "../../plugins/mux-tmux/mux-tmux.h"

#define WAIT_MS 5000
/* A log may take longer on a loaded machine (wait_log). */
#define LOG_WAIT_MS 30000

static char tmp_root[64];
static char state_dir[96];
static const struct aiterm_host *host;
/* The core's host table with run counted, for "one invocation" checks. */
static struct aiterm_host counting_host;
static int run_count;
static const struct aiterm_mux_ops *ops;
static struct aiterm_mux_info info;
static lt_dlhandle module;

/* Bytes that must survive shell quoting and tmux's own parsing. */
static const char *const nasty[] = {
	"plain",
	"with space",
	"it's",
	"''",
	"$HOME and ${HOME} and $(echo no) and `echo no`",
	"back\\slash\\",
	"semi;",
	"semi\\;",
	";",
	"hash #{pane_id} ## #(echo no)",
	"new\nline",
	"tab\there",
	"\"double\" quotes",
	"utf-8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
	"",
	NULL,
};

static int
counting_run(const char *const argv[], struct aiterm_buf *out,
    struct aiterm_buf *errout, struct aiterm_error *err)
{
	run_count++;
	return host_run(argv, out, errout, err);
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

/* The start of a file (for messages), or "(missing)"; static storage. */
static const char *
file_head(const char *path)
{
	static char buf[65536];
	size_t n;
	FILE *f = fopen(path, "r");

	snprintf(buf, sizeof buf, "(missing)");
	if (f != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
	return buf;
}

static int
file_contains(const char *path, const char *needle)
{
	return strstr(file_head(path), needle) != NULL;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Run tmux on the private socket with extra arguments; stdout into out. */
static int
tmux_cmd(struct aiterm_buf *out, const char *const *args)
{
	struct aiterm_error err = ERROR_INIT;
	const char **argv;
	size_t n = 0, count = 0;
	int rc;

	while (args[count] != NULL)
		count++;
	argv = xmalloc((count + 4) * sizeof *argv);
	argv[n++] = info.binary;
	argv[n++] = "-S";
	argv[n++] = info.socket;
	for (; *args != NULL; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	rc = host_run(argv, out, NULL, &err);
	ck_assert_msg(rc >= 0, "%s", error_msg(&err));
	error_clear(&err);
	free(argv);
	return rc;
}

static char *
log_path(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s.log", tmp_root, name);
	return path;
}

static void
create_ok(const char *session, const char *const *argv,
    const char *const *env, const char *log)
{
	struct aiterm_mux_create o = {
		.session = session,
		.cwd = tmp_root,
		.env = env,
		.argv = argv,
		.cols = 100,
		.rows = 30,
		.log_path = log,
	};
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->create(host, &o, &err) == 0, "create %s: %s",
	    session, error_msg(&err));
	error_clear(&err);
}

static void
pane_info_ok(const char *session, struct aiterm_pane_info *pi)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->pane_info(host, session, pi, &err) == 0,
	    "pane_info %s: %s", session, error_msg(&err));
	error_clear(&err);
}

/*
 * Wait until session's pane is dead and its status known; fills pi.  tmux
 * marks the pane dead when the terminal closes and learns the status when
 * it reaps the process, so for a moment dead is 1 and dead_status -1; a
 * lost SIGCHLD would make that last forever but for the plugin's nudge.
 */
static void
wait_dead(const char *session, struct aiterm_pane_info *pi)
{
	int waited;

	for (waited = 0; waited < WAIT_MS; waited += 5) {
		pane_info_ok(session, pi);
		if (pi->dead && pi->dead_status != -1)
			break;
		sleep_ms(5);
	}
	ck_assert_msg(pi->dead, "%s never died", session);
	ck_assert_msg(pi->dead_status != -1, "%s: no exit status", session);
}

/*
 * Wait until session's pane runs command (fills pi): right after create
 * the pane's process can still be tmux's own child, before its exec.
 */
static void
wait_command(const char *session, const char *command,
    struct aiterm_pane_info *pi)
{
	int waited;

	for (waited = 0; waited < WAIT_MS; waited += 5) {
		pane_info_ok(session, pi);
		if (strcmp(pi->command, command) == 0)
			break;
		sleep_ms(5);
	}
	ck_assert_int_eq(pi->exists, 1);
	ck_assert_str_eq(pi->command, command);
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
wait_log(const char *path, const char *needle)
{
	struct aiterm_buf panes = BUF_INIT;
	static const char *const list[] = { "list-panes", "-a", "-F",
	    "#{session_name} pipe=#{pane_pipe} dead=#{pane_dead}", NULL };
	long long t0 = now_ms();
	long waited = 0;

	/*
	 * Real time, up to LOG_WAIT_MS: under load the pipe-pane writer may
	 * start late.  A late log is said on stderr, a missing one names
	 * whether each pane's pipe is attached (issue 37: the race that
	 * lost a short program's output once).
	 */
	while (!file_contains(path, needle) && waited < LOG_WAIT_MS) {
		sleep_ms(20);
		waited = (long)(now_ms() - t0);
	}
	if (file_contains(path, needle)) {
		if (waited > WAIT_MS)
			fprintf(stderr, "wait_log: %s took %ld ms\n", path,
			    waited);
		return;
	}
	tmux_cmd(&panes, list);
	ck_abort_msg("%s never got '%s' in %ld ms: %.200s\npanes:\n%s",
	    path, needle, waited, file_head(path), buf_str(&panes));
}

/* Type text and press Enter, in one send_text. */
static void
send_line(const char *session, const char *text)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->send_text(host, session, text, strlen(text), 1,
	    &err) == 0, "send_text: %s", error_msg(&err));
	error_clear(&err);
}

static void
kill_ok(const char *session)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(ops->kill(host, session, &err) == 0, "kill %s: %s",
	    session, error_msg(&err));
	error_clear(&err);
}

/* Nonzero when a server accepts connections on the socket at path. */
static int
server_up(const char *path)
{
	struct sockaddr_un sun;
	int fd, up;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert(fd >= 0);
	up = connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0;
	close(fd);
	return up;
}

/* The PID of the private server, by a one-shot client. */
static pid_t
server_pid(void)
{
	static const char *const args[] = {
		"display-message", "-p", "#{pid}", NULL,
	};
	struct aiterm_buf out = BUF_INIT;
	long pid;

	ck_assert_int_eq(tmux_cmd(&out, args), 0);
	pid = strtol(buf_str(&out), NULL, 10);
	buf_free(&out);
	ck_assert_int_gt(pid, 1);
	return (pid_t)pid;
}

/*
 * The plugin's control client: the one control-mode client of the server
 * that is a running child of this process, on the hidden session.  It
 * answers before its own attach command has run, and list-clients shows
 * only attached clients, so it may take a moment to show up.
 */
static pid_t
control_pid(void)
{
	static const char *const args[] = {
		"list-clients", "-F",
		"#{client_control_mode} #{client_pid} #{session_name}", NULL,
	};
	struct aiterm_buf out = BUF_INIT;
	const char *line;
	char name[64];
	long pid;
	int mode, found = 0, waited;
	pid_t ours = -1;

	for (waited = 0; waited < WAIT_MS && found == 0; waited += 10) {
		if (waited > 0)
			sleep_ms(10);
		buf_reset(&out);
		ck_assert_int_eq(tmux_cmd(&out, args), 0);
		for (line = buf_str(&out); *line != '\0';
		    line += strcspn(line, "\n") +
		    (line[strcspn(line, "\n")] != '\0')) {
			if (sscanf(line, "%d %ld %63s", &mode, &pid,
			    name) != 3 || mode != 1 ||
			    waitpid((pid_t)pid, NULL, WNOHANG) != 0)
				continue;
			ck_assert_str_eq(name, "_aiterm_ctl");
			ours = (pid_t)pid;
			found++;
		}
	}
	ck_assert_msg(found == 1, "%d control clients of ours: %s", found,
	    buf_str(&out));
	buf_free(&out);
	return ours;
}

/* Wait until pid is gone: not even a zombie (kill(pid, 0) fails). */
static void
wait_gone(pid_t pid, const char *what)
{
	int waited;

	for (waited = 0; waited < WAIT_MS && kill(pid, 0) == 0; waited += 10)
		sleep_ms(10);
	ck_assert_msg(kill(pid, 0) != 0 && errno == ESRCH,
	    "%s (pid %ld) is still there", what, (long)pid);
}

/*
 * Stop the server now and have a child continue it after ms: the server
 * never stays stopped, whatever the test does meanwhile.
 */
static pid_t
stall_server(pid_t server, long ms)
{
	pid_t helper;

	ck_assert_int_eq(kill(server, SIGSTOP), 0);
	helper = fork();
	ck_assert(helper >= 0);
	if (helper == 0) {
		sleep_ms(ms);
		kill(server, SIGCONT);
		_exit(0);
	}
	return helper;
}

/* Shell in the private server, started once by the "Sessions" tests. */
static const char *const bash_argv[] = {
	"bash", "--norc", "--noprofile", NULL,
};

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
suite_setup(void)
{
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_plugin *(*describe)(void);
	const struct aiterm_plugin *plugin;
	const char *top = getenv("top_builddir");
	char path[PATH_MAX];

	snprintf(tmp_root, sizeof tmp_root, "/tmp/aiterm-mux-XXXXXX");
	ck_assert(mkdtemp(tmp_root) != NULL);
	snprintf(state_dir, sizeof state_dir, "%s/state", tmp_root);
	snprintf(path, sizeof path, "%s/home", tmp_root);
	ck_assert(mkdir(path, 0700) == 0);
	setenv("HOME", path, 1);
	snprintf(path, sizeof path, "%s/home/.tmux.conf", tmp_root);
	write_file(path, "set -g prefix C-q\n"
	    "set -g status-left \"BOGUS-MARKER\"\n"
	    "set -g history-limit 7\n", 0600);
	snprintf(path, sizeof path, "%s/tmp", tmp_root);
	ck_assert(mkdir(path, 0700) == 0);
	setenv("TMUX_TMPDIR", path, 1);
	unsetenv("TMUX");
	unsetenv("TMUX_PANE");
	unsetenv("AITERM_TMUX");
	ck_assert_msg(state_root_init(state_dir, &err) == 0, "%s",
	    error_msg(&err));

	ck_assert_msg(top != NULL, "top_builddir is not set");
	snprintf(path, sizeof path, "%s/plugins/mux-tmux/mux_tmux", top);
	ck_assert(lt_dlinit() == 0);
	module = lt_dlopenext(path);
	ck_assert_msg(module != NULL, "%s: %s", path, lt_dlerror());
	*(void **)&describe = lt_dlsym(module, AITERM_PLUGIN_SYMBOL);
	ck_assert_msg(describe != NULL, "%s: no %s", path,
	    AITERM_PLUGIN_SYMBOL);
	plugin = describe();
	ck_assert_uint_eq(plugin->abi_major, AITERM_ABI_MAJOR);
	ck_assert_uint_le(plugin->abi_minor, AITERM_ABI_MINOR);
	ck_assert_int_eq(plugin->kind, AITERM_KIND_MUX);
	ck_assert_str_eq(plugin->name, "mux-tmux");
	ops = plugin->ops;
	counting_host = *host_get();
	counting_host.run = counting_run;
	host = &counting_host;
	ck_assert_msg(ops->probe(host, &info, &err) == 0, "probe: %s",
	    error_msg(&err));
	error_clear(&err);
}

static void
suite_teardown(void)
{
	static const char *const pid_args[] = {
		"display-message", "-p", "#{pid}", NULL,
	};
	struct aiterm_buf out = BUF_INIT;
	long pid;
	int waited;

	/* End the server this suite started, and nothing else. */
	if (tmux_cmd(&out, pid_args) == 0) {
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

/* ---- Quoting: the plugin's pure builders. ---- */

/* The client argv of a, each word in brackets. */
static char *
joined(const struct tx_argv *a)
{
	struct aiterm_buf b = BUF_INIT;
	char **v = tx_argv_client(a);
	size_t i;

	for (i = 0; v[i] != NULL; i++)
		buf_printf(&b, "%s[%s]", i == 0 ? "" : " ", v[i]);
	tx_strv_free(v);
	return buf_steal(&b, NULL);
}

START_TEST(test_shell_quote_roundtrip)
{
	struct aiterm_buf out = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
	char *quoted, *line;
	int i;

	quoted = tx_shell_quote("it's $x");
	ck_assert_str_eq(quoted, "'it'\\''s $x'");
	free(quoted);
	for (i = 0; nasty[i] != NULL; i++) {
		quoted = tx_shell_quote(nasty[i]);
		line = xasprintf("printf %%s %s", quoted);
		argv[2] = line;
		buf_reset(&out);
		ck_assert_int_eq(host_run(argv, &out, NULL, &err), 0);
		ck_assert_str_eq(buf_str(&out), nasty[i]);
		free(line);
		free(quoted);
	}
	buf_free(&out);
}
END_TEST

START_TEST(test_arg_escape)
{
	static const char *const cases[][2] = {
		{ "abc", "abc" },
		{ "", "" },
		{ "x;", "x\\;" },
		{ "x\\;", "x\\\\;" },
		{ ";", "\\;" },
		{ "a;b", "a;b" },
	};
	char *e;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		e = tx_arg_escape(cases[i][0]);
		ck_assert_str_eq(e, cases[i][1]);
		free(e);
	}
}
END_TEST

START_TEST(test_cmd_quote)
{
	static const char *const cases[][2] = {
		{ "abc", "'abc'" },
		{ "", "''" },
		{ "it's", "'it'\\''s'" },
		{ "'", "\\'" },
		{ "a\nb", "'a'\\012'b'" },
		{ "\t\x01\x7f", "\\011\\001\\177" },
		{ "$HOME ~ #{x} ; \\ \"q\" {}", "'$HOME ~ #{x} ; \\ \"q\" {}'" },
		{ "utf-8 \xc3\xa9", "'utf-8 \xc3\xa9'" },
	};
	struct tx_argv a = TX_ARGV_INIT;
	char *q;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		q = tx_cmd_quote(cases[i][0]);
		ck_assert_str_eq(q, cases[i][1]);
		free(q);
	}
	ck_assert_uint_eq(tx_argv_commands(&a), 0);
	tx_argv_add(&a, "send-keys");
	tx_argv_add(&a, "-l");
	tx_argv_target(&a, "s1");
	tx_argv_add(&a, "--");
	tx_argv_add(&a, "x;");
	tx_argv_next(&a);
	tx_argv_add(&a, "send-keys");
	tx_argv_target(&a, "s1");
	tx_argv_add(&a, "Enter");
	ck_assert_uint_eq(tx_argv_commands(&a), 2);
	q = tx_argv_line(&a);
	ck_assert_str_eq(q, "'send-keys' '-l' '-t' '=s1:' '--' 'x;' ; "
	    "'send-keys' '-t' '=s1:' 'Enter'\n");
	free(q);
	q = joined(&a);
	ck_assert_str_eq(q, "[send-keys] [-l] [-t] [=s1:] [--] [x\\;] [;] "
	    "[send-keys] [-t] [=s1:] [Enter]");
	free(q);
	tx_argv_free(&a);
}
END_TEST

START_TEST(test_list_parse)
{
	struct aiterm_pane_info pi;
	const char *name = NULL;
	long created = 0, server = 0;
	char line[128];

	snprintf(line, sizeof line,
	    "my_s-1:1700000000\t77\t123\t0\t\t\t80\t24\t5\t6\tvim");
	ck_assert_int_eq(tx_list_parse(line, &name, &created, &pi, &server),
	    0);
	ck_assert_str_eq(name, "my_s-1");
	ck_assert_int_eq(created, 1700000000L);
	ck_assert_int_eq(server, 77);
	ck_assert_int_eq(pi.exists, 1);
	ck_assert_int_eq(pi.pid, 123);
	ck_assert_int_eq(pi.dead_status, -1);
	ck_assert_str_eq(pi.command, "vim");
	snprintf(line, sizeof line, "s:1700000000\t77\t9\t1\t2\t\t1\t2\t0"
	    "\t0\tsh");
	ck_assert_int_eq(tx_list_parse(line, &name, &created, &pi, &server),
	    0);
	ck_assert_int_eq(pi.dead, 1);
	ck_assert_int_eq(pi.dead_status, 2);
	snprintf(line, sizeof line, "no colon\t1");
	ck_assert_int_eq(tx_list_parse(line, &name, &created, &pi, &server),
	    -1);
	snprintf(line, sizeof line, "s:notime\t77");
	ck_assert_int_eq(tx_list_parse(line, &name, &created, &pi, &server),
	    -1);
	snprintf(line, sizeof line, "s:1700000000\t77\t9");
	ck_assert_int_eq(tx_list_parse(line, &name, &created, &pi, &server),
	    -1);
}
END_TEST

START_TEST(test_format_escape)
{
	char *e = tx_format_escape("a#b##{c}#");

	ck_assert_str_eq(e, "a##b####{c}##");
	free(e);
	e = tx_format_escape("");
	ck_assert_str_eq(e, "");
	free(e);
}
END_TEST

START_TEST(test_session_ids)
{
	static const char *const bad[][2] = {
		{ "", "tmux: empty session id" },
		{ "a.b", "tmux: invalid session id 'a.b': tmux cannot name a "
		    "session with '.'; use [A-Za-z0-9_-]" },
		{ "a:b", "tmux: invalid session id 'a:b': only [A-Za-z0-9_-] "
		    "is allowed" },
		{ "a b", "tmux: invalid session id 'a b': only [A-Za-z0-9_-] "
		    "is allowed" },
		{ "=a", "tmux: invalid session id '=a': only [A-Za-z0-9_-] "
		    "is allowed" },
		{ "#{pane_id}", "tmux: invalid session id '#{pane_id}': only "
		    "[A-Za-z0-9_-] is allowed" },
		{ "_aiterm_ctl", "tmux: invalid session id '_aiterm_ctl': ids "
		    "starting with '_aiterm' are reserved for the plugin" },
		{ "_aitermX", "tmux: invalid session id '_aitermX': ids "
		    "starting with '_aiterm' are reserved for the plugin" },
	};
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	size_t i;

	ck_assert_int_eq(tx_session_check(host, "Ok_id-9", &err), 0);
	ck_assert_int_eq(tx_session_check(host, "_aiter", &err), 0);
	ck_assert_int_eq(tx_session_check(host, "x_aiterm", &err), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(tx_session_check(host, bad[i][0], &err), -1);
		ck_assert_str_eq(error_msg(&err), bad[i][1]);
		ck_assert_int_eq(ops->pane_info(host, bad[i][0], &pi, &err),
		    -1);
		ck_assert_str_eq(error_msg(&err), bad[i][1]);
	}
	error_clear(&err);
}
END_TEST

START_TEST(test_create_argv)
{
	static const char *const env[] = { "A=1", "B=x;", NULL };
	static const char *const one[] = { "/opt/my prog", NULL };
	static const char *const two[] = { "sh", "-c", "exit 3;", NULL };
	struct aiterm_mux_create o = {
		.session = "s1", .cwd = "/w/#x", .env = env, .argv = one,
		.cols = 80, .rows = 24, .log_path = "/l/it's #1.log",
	};
	struct tx_argv a = TX_ARGV_INIT;
	char *s;

	tx_create_argv(&o, 1, "HOME PATH", &a);
	s = joined(&a);
	ck_assert_str_eq(s, "[set-option] [-g] [update-environment] "
	    "[HOME PATH] [;] "
	    "[new-session] [-d] [-s] [s1] [-x] [80] [-y] [24] "
	    "[-c] [/w/##x] [-e] [A=1] [-e] [B=x\\;] [--] [/bin/sh] [-c] "
	    "[exec \"$0\"] [/opt/my prog] [;] "
	    "[set-option] [-gu] [update-environment] [;] "
	    "[set-option] [-w] [-t] [=s1:] "
	    "[window-size] [manual] [;] [set-option] [-t] [=s1:] "
	    "[default-shell] [/bin/sh] [;] [pipe-pane] [-o] [-t] [=s1:] "
	    "[exec 3>> '/l/it'\\''s ##1.log'; until cat >&3; do :; done] "
	    "[;] [set-option] [-u] [-t] "
	    "[=s1:] [default-shell]");
	free(s);
	tx_argv_free(&a);

	/* tmux 3.0 and 3.1: env(1) in front, then set-environment. */
	o.argv = two;
	o.cwd = NULL;
	o.log_path = NULL;
	o.cols = o.rows = 0;
	tx_create_argv(&o, 0, NULL, &a);
	s = joined(&a);
	ck_assert_str_eq(s, "[new-session] [-d] [-s] [s1] [--] [/usr/bin/env] "
	    "[A=1] [B=x\\;] [/bin/sh] [-c] [exec \"$@\"] [sh] [sh] [-c] "
	    "[exit 3\\;] [;] [set-option] [-w] [-t] [=s1:] [window-size] "
	    "[manual] [;] [set-environment] [-t] [=s1:] [A] [1] [;] "
	    "[set-environment] [-t] [=s1:] [B] [x\\;]");
	free(s);
	tx_argv_free(&a);

	/* No command: tmux's default shell, so nothing after the flags. */
	o.argv = NULL;
	o.env = NULL;
	tx_create_argv(&o, 1, NULL, &a);
	s = joined(&a);
	ck_assert_str_eq(s, "[new-session] [-d] [-s] [s1] [;] [set-option] "
	    "[-w] [-t] [=s1:] [window-size] [manual]");
	free(s);
	tx_argv_free(&a);
}
END_TEST

START_TEST(test_versions)
{
	ck_assert(tx_version_at_least("3.3a", 3, 2));
	ck_assert(tx_version_at_least("3.2", 3, 2));
	ck_assert(!tx_version_at_least("3.1c", 3, 2));
	ck_assert(!tx_version_at_least("2.9a", 3, 2));
	ck_assert(tx_version_at_least("next-3.4", 3, 2));
	ck_assert(tx_version_at_least("openbsd-7.4", 3, 2));
	ck_assert(tx_version_at_least("master", 3, 2));
}
END_TEST

START_TEST(test_pane_parse)
{
	struct aiterm_pane_info pi;
	long server = 0;

	memset(&pi, 0, sizeof pi);
	pi.dead_status = -1;
	ck_assert_int_eq(tx_pane_parse("77\t123\t0\t\t\t80\t24\t5\t6\tbash\n",
	    &pi, &server), 0);
	ck_assert_int_eq(server, 77);
	ck_assert_int_eq(pi.exists, 1);
	ck_assert_int_eq(pi.pid, 123);
	ck_assert_int_eq(pi.dead, 0);
	ck_assert_int_eq(pi.dead_status, -1);
	ck_assert_uint_eq(pi.cols, 80);
	ck_assert_uint_eq(pi.rows, 24);
	ck_assert_uint_eq(pi.cursor_x, 5);
	ck_assert_uint_eq(pi.cursor_y, 6);
	ck_assert_str_eq(pi.command, "bash");

	/* Killed by a signal: no status, the signal instead. */
	pi.dead_status = -1;
	ck_assert_int_eq(tx_pane_parse("77\t9\t1\t\t15\t80\t24\t0\t23\tsh\n",
	    &pi, &server), 0);
	ck_assert_int_eq(pi.dead, 1);
	ck_assert_int_eq(pi.dead_status, 143);

	/* Dead but not reaped yet: neither. */
	pi.dead_status = -1;
	ck_assert_int_eq(tx_pane_parse("77\t9\t1\t\t\t80\t24\t0\t23\tsh\n",
	    &pi, &server), 0);
	ck_assert_int_eq(pi.dead, 1);
	ck_assert_int_eq(pi.dead_status, -1);

	/* A tab in the command name stays in the name. */
	ck_assert_int_eq(tx_pane_parse("77\t9\t1\t3\t\t1\t2\t0\t0\ta\tb\n",
	    &pi, &server), 0);
	ck_assert_int_eq(pi.dead_status, 3);
	ck_assert_str_eq(pi.command, "a\tb");

	/* What display-message prints with no target at all. */
	ck_assert_int_eq(tx_pane_parse("\t\n", &pi, &server), -1);
	ck_assert_int_eq(tx_pane_parse("77\t1\t0\t\t\t80\n", &pi, &server),
	    -1);
}
END_TEST

/* ---- Sessions: the ops on the real private server. ---- */

START_TEST(test_probe)
{
	char socket[PATH_MAX];
	struct stat st;

	ck_assert_msg(info.binary[0] == '/', "binary %s", info.binary);
	ck_assert(stat(info.binary, &st) == 0 && S_ISREG(st.st_mode));
	ck_assert_msg(strchr("0123456789", info.version[0]) != NULL ||
	    strchr(info.version, '-') != NULL, "version %s", info.version);
	snprintf(socket, sizeof socket, "%s/tmux.sock", state_dir);
	ck_assert_str_eq(info.socket, socket);
}
END_TEST

struct seen {
	const char		*want;
	int			 found;
	long			 created;
	struct aiterm_pane_info	 pane;
	int			 reserved;	/* names starting "_aiterm" */
	int			 total;
};

static void
list_cb(const char *session, long created, const struct aiterm_pane_info *pane,
    void *arg)
{
	struct seen *s = arg;

	s->total++;
	if (strncmp(session, "_aiterm", 7) == 0)
		s->reserved++;
	if (strcmp(session, s->want) == 0) {
		s->found++;
		s->created = created;
		s->pane = *pane;
	}
}

START_TEST(test_shell_roundtrip)
{
	static const char *const env[] = {
		"AITERM_SESSION_ID=shell1", "FOO=bar baz;", NULL,
	};
	struct aiterm_pane_info pi;
	struct aiterm_buf screen = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct seen seen = { .want = "shell1" };
	char want[PATH_MAX + 8], real[PATH_MAX];
	const char *log = log_path("shell1");
	struct stat st;
	int waited;

	create_ok("shell1", bash_argv, env, log);
	ck_assert(stat(log, &st) == 0 && (st.st_mode & 0777) == 0600);
	send_line("shell1", "echo hi-$FOO-$AITERM_SESSION_ID");
	wait_log(log, "hi-bar baz;-shell1");
	for (waited = 0; waited < WAIT_MS; waited += 20) {
		buf_reset(&screen);
		ck_assert_msg(ops->capture(host, "shell1", &screen, &err) == 0,
		    "capture: %s", error_msg(&err));
		if (strstr(buf_str(&screen), "\nhi-bar baz;-shell1") != NULL)
			break;
		sleep_ms(20);
	}
	ck_assert_msg(strstr(buf_str(&screen), "\nhi-bar baz;-shell1") != NULL,
	    "screen: %s", buf_str(&screen));

	ck_assert(realpath(tmp_root, real) != NULL);
	snprintf(want, sizeof want, "cwd=%s", real);
	send_line("shell1", "echo cwd=$PWD");
	wait_log(log, want);

	/* Text without Enter, then Enter alone (no text). */
	ck_assert_int_eq(ops->send_text(host, "shell1", "echo split-$((6*7))",
	    19, 0, &err), 0);
	ck_assert_int_eq(ops->send_text(host, "shell1", NULL, 0, 1, &err), 0);
	wait_log(log, "split-42");

	pane_info_ok("shell1", &pi);
	ck_assert_int_eq(pi.exists, 1);
	ck_assert_int_eq(pi.dead, 0);
	ck_assert_int_eq(pi.dead_status, -1);
	ck_assert_int_gt(pi.pid, 1);
	ck_assert_int_eq(kill((pid_t)pi.pid, 0), 0);
	ck_assert_str_eq(pi.command, "bash");
	ck_assert_uint_eq(pi.cols, 100);
	ck_assert_uint_eq(pi.rows, 30);
	ck_assert_uint_lt(pi.cursor_y, 30);

	ck_assert_int_eq(ops->list(host, list_cb, &seen, &err), 0);
	ck_assert_int_eq(seen.found, 1);
	ck_assert_int_gt(seen.created, 1600000000L);
	ck_assert_int_eq(seen.pane.exists, 1);
	ck_assert_int_eq(seen.pane.pid, pi.pid);
	ck_assert_str_eq(seen.pane.command, "bash");
	ck_assert_uint_eq(seen.pane.cols, 100);
	ck_assert_uint_eq(seen.pane.rows, 30);

	kill_ok("shell1");
	buf_free(&screen);
	error_clear(&err);
}
END_TEST

START_TEST(test_exact_target)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	struct aiterm_pane_info pi;
	struct aiterm_buf screen = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;

	create_ok("foobar", sleeper, NULL, NULL);
	pane_info_ok("foo", &pi);
	ck_assert_int_eq(pi.exists, 0);
	ck_assert_int_eq(ops->send_text(host, "foo", "x", 1, 0, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "tmux: session 'foo' does not exist (can't find session: foo)");
	ck_assert_int_eq(ops->capture(host, "foo", &screen, &err), -1);
	ck_assert_uint_eq(screen.len, 0);
	kill_ok("foo");
	wait_command("foobar", "sleep", &pi);

	create_ok("foo", sleeper, NULL, NULL);
	kill_ok("foo");
	pane_info_ok("foo", &pi);
	ck_assert_int_eq(pi.exists, 0);
	pane_info_ok("foobar", &pi);
	ck_assert_int_eq(pi.exists, 1);

	/* A second create of a live id fails and leaves the first alone. */
	ck_assert_int_eq(ops->create(host, &(struct aiterm_mux_create){
	    .session = "foobar", .argv = sleeper }, &err), -1);
	ck_assert_msg(strstr(error_msg(&err), "duplicate session") != NULL,
	    "%s", error_msg(&err));
	pane_info_ok("foobar", &pi);
	ck_assert_int_eq(pi.exists, 1);
	kill_ok("foobar");
	buf_free(&screen);
	error_clear(&err);
}
END_TEST

START_TEST(test_set_env)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	static const char *const show[] = {
		"show-environment", "-t", "=envs:", "AITERM_CHECK", NULL,
	};
	struct aiterm_buf out = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;

	create_ok("envs", sleeper, NULL, NULL);
	ck_assert_msg(ops->set_env(host, "envs", "AITERM_CHECK",
	    "v a;l #{pane_id} $HOME;", &err) == 0, "%s", error_msg(&err));
	ck_assert_int_eq(tmux_cmd(&out, show), 0);
	ck_assert_str_eq(buf_str(&out), "AITERM_CHECK=v a;l #{pane_id} $HOME;\n");
	ck_assert_int_eq(ops->set_env(host, "envs", "BAD-KEY", "v", &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "tmux: invalid environment variable name 'BAD-KEY'");
	ck_assert_int_eq(ops->set_env(host, "nosuch", "K", "v", &err), -1);
	ck_assert_msg(strstr(error_msg(&err), "'nosuch' does not exist") !=
	    NULL, "%s", error_msg(&err));
	kill_ok("envs");
	buf_free(&out);
	error_clear(&err);
}
END_TEST

START_TEST(test_kill)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	struct aiterm_pane_info pi;
	pid_t pid;
	int waited;

	create_ok("killme", sleeper, NULL, NULL);
	pane_info_ok("killme", &pi);
	ck_assert_int_eq(pi.exists, 1);
	pid = (pid_t)pi.pid;
	kill_ok("killme");
	pane_info_ok("killme", &pi);
	ck_assert_int_eq(pi.exists, 0);
	ck_assert_int_eq(pi.pid, -1);
	kill_ok("killme");
	for (waited = 0; waited < WAIT_MS && kill(pid, 0) == 0; waited += 20)
		sleep_ms(20);
	ck_assert_msg(kill(pid, 0) != 0, "the pane's process outlived it");
}
END_TEST

START_TEST(test_dead_pane)
{
	static const char *const exit3[] = { "sh", "-c", "exit 3", NULL };
	static const char *const term[] = {
		"sh", "-c", "kill -TERM $$", NULL,
	};
	struct aiterm_pane_info pi;

	create_ok("dead3", exit3, NULL, NULL);
	wait_dead("dead3", &pi);
	ck_assert_int_eq(pi.exists, 1);
	ck_assert_int_eq(pi.dead_status, 3);
	kill_ok("dead3");

	create_ok("deadsig", term, NULL, NULL);
	wait_dead("deadsig", &pi);
	ck_assert_int_eq(pi.dead_status, 128 + SIGTERM);
	kill_ok("deadsig");
}
END_TEST

START_TEST(test_early_output)
{
	static const char *const quick[] = {
		"sh", "-c", "echo early-bird; exit 0", NULL,
	};
	struct aiterm_pane_info pi;
	const char *log = log_path("early");

	/* No delay in the program: pipe-pane must already be there. */
	create_ok("early", quick, NULL, log);
	wait_dead("early", &pi);
	ck_assert_int_eq(pi.dead_status, 0);
	wait_log(log, "early-bird");
	kill_ok("early");
}
END_TEST

START_TEST(test_log_path_quoting)
{
	char dir[256], log[PATH_MAX];
	struct aiterm_pane_info pi;

	snprintf(dir, sizeof dir, "%s/log dir 'q' \"d\" $HOME", tmp_root);
	ck_assert(mkdir(dir, 0700) == 0);
	snprintf(log, sizeof log, "%s/it's $HOME `x` #{pane_id} ## a;", dir);
	create_ok("quoted", bash_argv, NULL, log);
	send_line("quoted", "echo quoted-ok");
	wait_log(log, "quoted-ok");
	pane_info_ok("quoted", &pi);
	ck_assert_int_eq(pi.dead, 0);
	kill_ok("quoted");
}
END_TEST

START_TEST(test_single_argv)
{
	static const char *const env[] = { "SINGLE=one;", NULL };
	char prog[PATH_MAX];
	const char *argv[] = { prog, NULL };
	const char *log = log_path("single");
	struct aiterm_pane_info pi;

	/* One argument goes to tmux's shell as a line unless wrapped. */
	snprintf(prog, sizeof prog, "%s/my prog; $x", tmp_root);
	write_file(prog, "#!/bin/sh\necho \"single-ok $SINGLE $#\"\n", 0700);
	create_ok("single", argv, env, log);
	wait_dead("single", &pi);
	ck_assert_int_eq(pi.dead_status, 0);
	wait_log(log, "single-ok one; 0");
	kill_ok("single");
}
END_TEST

START_TEST(test_default_shell)
{
	const char *log = log_path("defsh");
	const char *shell = getenv("SHELL");
	struct aiterm_pane_info pi;
	char want[PATH_MAX + 8];

	/*
	 * No argv: tmux starts its default shell, the user's $SHELL, and
	 * SHELL stays the user's (the pipe-pane's /bin/sh does not leak).
	 */
	create_ok("defsh", NULL, NULL, log);
	send_line("defsh", "echo defsh-ok");
	wait_log(log, "defsh-ok");
	if (shell != NULL && *shell == '/' && access(shell, X_OK) == 0) {
		snprintf(want, sizeof want, "sh=%s", shell);
		send_line("defsh", "echo sh=$SHELL");
		wait_log(log, want);
	}
	pane_info_ok("defsh", &pi);
	ck_assert_int_eq(pi.dead, 0);
	kill_ok("defsh");
}
END_TEST

/*
 * paste: multi-line text arrives as one bracketed paste when the program
 * asked for it (printf turns it on in cat's terminal, and the markers
 * ESC[200~ ESC[201~ reach cat); a NUL and an oversize paste are refused.
 */
START_TEST(test_paste)
{
	const char *log = log_path("paste");
	struct aiterm_error err = ERROR_INIT;
	static const char text[] = "first line\nsecond 'line' $x ;";
	char *big;

	create_ok("paste", NULL, NULL, log);
	send_line("paste", "printf '\\033[?2004h'; stty -echo; cat -v");
	sleep_ms(300);
	ck_assert_msg(ops->paste(host, "paste", text, strlen(text), &err) ==
	    0, "paste: %s", error_msg(&err));
	wait_log(log, "^[[200~first line");
	/* The last line waits in the terminal's line buffer for its Enter. */
	ck_assert_int_eq(ops->send_text(host, "paste", NULL, 0, 1, &err), 0);
	wait_log(log, "second 'line' $x ;^[[201~");
	ck_assert_int_eq(ops->paste(host, "paste", "a\0b", 3, &err), -1);
	ck_assert_str_eq(error_msg(&err), "tmux: paste cannot send a NUL byte");
	big = calloc(1, 65538);
	memset(big, 'x', 65537);
	ck_assert_int_eq(ops->paste(host, "paste", big, 65537, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "tmux: paste takes at most 65536 bytes (got 65537)");
	free(big);
	error_clear(&err);
	kill_ok("paste");
}
END_TEST

START_TEST(test_keys)
{
	const char *const *keys = ops->key_names();
	struct tx_argv a = TX_ARGV_INIT;
	struct aiterm_buf out = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	char **words;
	size_t i;

	/* bind-key rejects an unknown name; send-keys would type it. */
	for (i = 0; keys[i] != NULL; i++) {
		if (i > 0)
			tx_argv_next(&a);
		tx_argv_add(&a, "bind-key");
		tx_argv_add(&a, "-T");
		tx_argv_add(&a, "aiterm-check");
		tx_argv_add(&a, "--");
		tx_argv_add(&a, keys[i]);
		tx_argv_add(&a, "display-message");
		tx_argv_add(&a, "x");
	}
	ck_assert_uint_gt(i, 100);
	create_ok("keys", bash_argv, NULL, NULL);
	words = tx_argv_client(&a);
	ck_assert_int_eq(tmux_cmd(&out, (const char *const *)words), 0);
	tx_strv_free(words);
	ck_assert_int_eq(ops->send_key(host, "keys", "Bogus", &err), -1);
	ck_assert_str_eq(error_msg(&err), "tmux: unknown key name 'Bogus'");
	ck_assert_int_eq(ops->send_key(host, "keys", "C-c", &err), 0);
	ck_assert_int_eq(ops->send_text(host, "keys", "x", 257, 0, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "tmux: send_text takes at most 256 bytes (got 257)");
	ck_assert_int_eq(ops->send_text(host, "keys", "a\0b", 3, 0, &err),
	    -1);
	ck_assert_str_eq(error_msg(&err),
	    "tmux: send_text cannot send a NUL byte");
	ck_assert_int_eq(ops->send_text(host, "keys", "", 0, 0, &err), 0);
	pane_info_ok("keys", &pi);
	ck_assert_int_eq(pi.dead, 0);
	kill_ok("keys");
	tx_argv_free(&a);
	buf_free(&out);
	error_clear(&err);
}
END_TEST

START_TEST(test_private_config)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	static const struct {
		const char	*args[6];
		const char	*want;
	} opts[] = {
		{ { "show-options", "-gv", "prefix", NULL }, "C-b\n" },
		{ { "show-options", "-gv", "history-limit", NULL }, "50000\n" },
		{ { "show-options", "-gv", "remain-on-exit", NULL }, "on\n" },
		{ { "show-options", "-gv", "escape-time", NULL }, "0\n" },
		{ { "show-options", "-gv", "exit-empty", NULL }, "off\n" },
		{ { "show-options", "-gv", "allow-rename", NULL }, "off\n" },
		{ { "show-options", "-gv", "automatic-rename", NULL }, "off\n" },
		{ { "show-options", "-gv", "status-left", NULL },
		    "[aiterm #{session_name}] \n" },
		{ { "show-options", "-wv", "-t", "=conf:", "window-size",
		    NULL }, "manual\n" },
	};
	static const char *const attach[] = {
		"-C", "attach-session", "-t", "=conf:", ";", "refresh-client",
		"-C", "200x50", NULL,
	};
	struct aiterm_buf out = BUF_INIT;
	struct aiterm_pane_info pi;
	char conf[PATH_MAX];
	struct stat st;
	size_t i;

	create_ok("conf", sleeper, NULL, NULL);
	for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		buf_reset(&out);
		ck_assert_int_eq(tmux_cmd(&out, opts[i].args), 0);
		ck_assert_str_eq(buf_str(&out), opts[i].want);
	}
	snprintf(conf, sizeof conf, "%s/tmux.conf", state_dir);
	ck_assert(stat(conf, &st) == 0 && (st.st_mode & 0777) == 0600);
	ck_assert(!file_contains(conf, "BOGUS"));

	/* A person attaching with a bigger terminal does not resize it. */
	ck_assert_int_eq(tmux_cmd(NULL, attach), 0);
	pane_info_ok("conf", &pi);
	ck_assert_uint_eq(pi.cols, 100);
	ck_assert_uint_eq(pi.rows, 30);
	kill_ok("conf");
	buf_free(&out);
}
END_TEST

START_TEST(test_socket_protected)
{
	struct stat st;

	ck_assert(stat(state_dir, &st) == 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);
	ck_assert_uint_eq(st.st_uid, getuid());
	ck_assert_msg(stat(info.socket, &st) == 0, "%s", info.socket);
	ck_assert(S_ISSOCK(st.st_mode));
	ck_assert_uint_eq(st.st_uid, getuid());
	ck_assert_uint_eq(st.st_mode & 0007, 0);
}
END_TEST

START_TEST(test_create_errors)
{
	static const char *const bad_env[] = { "NOEQUALS", NULL };
	struct aiterm_mux_create o = { .session = "errs" };
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	char missing[PATH_MAX];

	snprintf(missing, sizeof missing, "%s/no-such-dir", tmp_root);
	o.cwd = missing;
	ck_assert_int_eq(ops->create(host, &o, &err), -1);
	ck_assert_msg(strstr(error_msg(&err), "No such file") != NULL, "%s",
	    error_msg(&err));
	o.cwd = NULL;
	o.env = bad_env;
	ck_assert_int_eq(ops->create(host, &o, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "tmux: environment entry 'NOEQUALS' is not KEY=VALUE");
	o.env = NULL;
	o.session = "a.b";
	ck_assert_int_eq(ops->create(host, &o, &err), -1);
	pane_info_ok("errs", &pi);
	ck_assert_int_eq(pi.exists, 0);
	error_clear(&err);
}
END_TEST

/*
 * Once the control client runs, no op starts a tmux process, the hidden
 * session it sits on is not listed, and its id is refused.
 */
START_TEST(test_control_client)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	static const char *const has_hidden[] = {
		"has-session", "-t", "=_aiterm_ctl:", NULL,
	};
	struct aiterm_mux_create o = { .session = "_aiterm_x",
	    .argv = sleeper };
	struct aiterm_pane_info pi;
	struct aiterm_buf screen = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct seen seen = { .want = "ctl1" };
	const char *log = log_path("ctl1");
	pid_t ctl;

	create_ok("ctl1", bash_argv, NULL, log);
	pane_info_ok("ctl1", &pi);
	ck_assert_int_eq(pi.exists, 1);
	ctl = control_pid();
	ck_assert_int_eq(tmux_cmd(NULL, has_hidden), 0);

	run_count = 0;
	pane_info_ok("ctl1", &pi);
	send_line("ctl1", "echo ctl-$((20+3))");
	ck_assert_int_eq(ops->send_key(host, "ctl1", "Enter", &err), 0);
	wait_log(log, "ctl-23");
	ck_assert_int_eq(ops->capture(host, "ctl1", &screen, &err), 0);
	ck_assert_int_eq(ops->set_env(host, "ctl1", "K", "v", &err), 0);
	ck_assert_int_eq(ops->list(host, list_cb, &seen, &err), 0);
	pane_info_ok("nosuch", &pi);
	ck_assert_int_eq(pi.exists, 0);
	ck_assert_int_eq(ops->send_text(host, "nosuch", "x", 1, 1, &err), -1);
	ck_assert_str_eq(error_msg(&err), "tmux: session 'nosuch' does not "
	    "exist (can't find session: nosuch)");
	kill_ok("ctl1");
	ck_assert_int_eq(run_count, 0);
	ck_assert_int_eq(control_pid(), ctl);

	ck_assert_int_eq(seen.found, 1);
	ck_assert_int_eq(seen.reserved, 0);
	ck_assert_int_eq(ops->create(host, &o, &err), -1);
	ck_assert_str_eq(error_msg(&err), "tmux: invalid session id "
	    "'_aiterm_x': ids starting with '_aiterm' are reserved for the "
	    "plugin");
	buf_free(&screen);
	error_clear(&err);
}
END_TEST

/*
 * Without the control client, list is one tmux process however many
 * sessions there are, and gives each one's pane.
 */
START_TEST(test_list_one_call)
{
	static const char *const exit5[] = { "sh", "-c", "exit 5", NULL };
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	static const char *const ids[] = { "many1", "many2", "many3" };
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	struct seen seen = { .want = "many3" };
	int mode, before;
	size_t i;

	for (i = 0; i < 3; i++)
		create_ok(ids[i], i < 2 ? sleeper : exit5, NULL, NULL);
	wait_dead("many3", &pi);
	for (mode = 0; mode < 2; mode++) {
		if (mode == 0)
			setenv("AITERM_TMUX_CONTROL", "0", 1);
		memset(&seen, 0, sizeof seen);
		seen.want = "many3";
		before = run_count;
		ck_assert_int_eq(ops->list(host, list_cb, &seen, &err), 0);
		ck_assert_int_eq(run_count - before, mode == 0 ? 1 : 0);
		unsetenv("AITERM_TMUX_CONTROL");
		ck_assert_int_eq(seen.found, 1);
		ck_assert_int_eq(seen.reserved, 0);
		ck_assert_int_ge(seen.total, 3);
		ck_assert_int_eq(seen.pane.exists, 1);
		ck_assert_int_eq(seen.pane.dead, 1);
		ck_assert_int_eq(seen.pane.dead_status, 5);
		ck_assert_uint_eq(seen.pane.cols, 100);
	}
	for (i = 0; i < 3; i++)
		kill_ok(ids[i]);
	error_clear(&err);
}
END_TEST

/* Values with every parser-special byte reach tmux unchanged. */
START_TEST(test_control_literal)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	static const char *const more[] = {
		"~", "~root", "x ~ y", "-t", "%if", "%%", "{", "}", "{ a }",
		"a\\", "\\012", "\\", "#", "#{", "# comment", "a ;b",
		"'", "'a'\\''", "\x01\x1b\x7f", "\r", "$", "${HOME}", "$1",
		NULL,
	};
	static const char *const show[] = {
		"show-environment", "-t", "=lit:", "LIT", NULL,
	};
	static const char *const chunks[] = {
		"a'b\\;", "\n$HOME ~ #{pane_id} ; \"q\"", "\t;", "\x01\r",
		"\x7f%end 1 2 1\n", "utf-8 \xc3\xa9\xe2\x82\xac", "~",
	};
	static const char *const keys[] = { ";", "#", "~", "q", NULL };
	struct aiterm_buf out = BUF_INIT, want = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	const char *sink[] = { "sh", "-c", NULL, NULL };
	char *script, *path;
	size_t i, j, total = 0;
	int waited, pass;

	create_ok("lit", sleeper, NULL, NULL);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < 2; i++) {
			for (j = 0; (i == 0 ? nasty : more)[j] != NULL; j++) {
				const char *v = (i == 0 ? nasty : more)[j];

				ck_assert_msg(ops->set_env(host, "lit", "LIT", v,
				    &err) == 0, "set_env '%s': %s", v,
				    error_msg(&err));
				buf_reset(&out);
				buf_reset(&want);
				buf_printf(&want, "LIT=%s\n", v);
				ck_assert_int_eq(tmux_cmd(&out, show), 0);
				ck_assert_msg(strcmp(buf_str(&out),
				    buf_str(&want)) == 0, "pass %d: sent '%s', "
				    "tmux has '%s'", pass, v, buf_str(&out));
			}
		}
		setenv("AITERM_TMUX_CONTROL", "0", 1);
	}
	unsetenv("AITERM_TMUX_CONTROL");
	kill_ok("lit");

	/* Typed bytes reach the terminal as they are, LF as LF. */
	for (pass = 0; pass < 2; pass++) {
		path = xasprintf("%s/typed%d", tmp_root, pass);
		buf_reset(&want);
		for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++)
			buf_adds(&want, chunks[i]);
		buf_adds(&want, ";#~q\r");
		total = want.len;
		script = xasprintf("stty raw -echo; exec head -c %zu > '%s'",
		    total, path);
		sink[2] = script;
		if (pass == 1)
			setenv("AITERM_TMUX_CONTROL", "0", 1);
		create_ok("typed", sink, NULL, NULL);
		wait_command("typed", "head", &pi);
		for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++)
			ck_assert_msg(ops->send_text(host, "typed", chunks[i],
			    strlen(chunks[i]), 0, &err) == 0, "send_text: %s",
			    error_msg(&err));
		/* One printable character is a key of its own. */
		for (i = 0; keys[i] != NULL; i++)
			ck_assert_msg(ops->send_key(host, "typed", keys[i],
			    &err) == 0, "send_key %s: %s", keys[i],
			    error_msg(&err));
		ck_assert_int_eq(ops->send_text(host, "typed", "", 0, 1, &err),
		    0);
		for (waited = 0; waited < WAIT_MS; waited += 10) {
			struct stat st;

			if (stat(path, &st) == 0 && (size_t)st.st_size == total)
				break;
			sleep_ms(10);
		}
		ck_assert_msg(memcmp(file_head(path), buf_str(&want), total) ==
		    0 && strlen(file_head(path)) == total,
		    "pass %d: typed '%s'", pass, file_head(path));
		unsetenv("AITERM_TMUX_CONTROL");
		kill_ok("typed");
		free(script);
		free(path);
	}
	buf_free(&out);
	buf_free(&want);
	error_clear(&err);
}
END_TEST

/* Lines on the screen that look like control-mode guards stay text. */
/*
 * SEC-SECRET (issue 36, ADR 0037): send_secret types over the control
 * client and never by a one-shot tmux process, whose argv any process can
 * read: with control mode off it fails and types nothing.
 */
START_TEST(test_send_secret)
{
	static const char secret[] = "s3cret pass;word";
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	const char *sink[] = { "sh", "-c", NULL, NULL };
	char *script, *path;
	struct stat st;
	int waited;

	ck_assert_msg(ops->send_secret != NULL, "mux-tmux has send_secret");
	path = xasprintf("%s/secret", tmp_root);
	script = xasprintf("stty raw -echo; exec head -c %zu > '%s'",
	    sizeof secret, path);
	sink[2] = script;
	create_ok("secret", sink, NULL, NULL);
	wait_command("secret", "head", &pi);

	/* Control mode off: refused, nothing typed. */
	setenv("AITERM_TMUX_CONTROL", "0", 1);
	ck_assert_int_eq(ops->send_secret(host, "secret", secret,
	    strlen(secret), &err), -1);
	ck_assert_msg(strstr(error_msg(&err), "a secret is never typed by a "
	    "one-shot tmux process") != NULL, "%s", error_msg(&err));
	error_clear(&err);
	unsetenv("AITERM_TMUX_CONTROL");
	sleep_ms(200);
	ck_assert_msg(stat(path, &st) == 0 && st.st_size == 0,
	    "nothing typed, got '%s'", file_head(path));

	/* Over the control client: the secret, then Enter (CR). */
	ck_assert_msg(ops->send_secret(host, "secret", secret, strlen(secret),
	    &err) == 0, "send_secret: %s", error_msg(&err));
	for (waited = 0; waited < WAIT_MS; waited += 10) {
		if (stat(path, &st) == 0 && (size_t)st.st_size == sizeof secret)
			break;
		sleep_ms(10);
	}
	ck_assert_msg(strncmp(file_head(path), secret, strlen(secret)) == 0 &&
	    file_head(path)[strlen(secret)] == '\r', "typed '%s'",
	    file_head(path));
	kill_ok("secret");
	free(script);
	free(path);
	error_clear(&err);
}
END_TEST

/*
 * pane_screen (ABI 2.5): pane_info and capture in one command list, its
 * answer split by the control client's blocks (a screen holding lines
 * that look like them too); the same with one-shot clients (control mode
 * off), and a missing session exists 0.
 */
static void
pane_screen_same(const char *session, const struct aiterm_pane_info *want,
    const char *screen)
{
	struct aiterm_buf got = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	int pass;

	ck_assert_msg(ops->pane_screen != NULL, "mux-tmux has pane_screen");
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			setenv("AITERM_TMUX_CONTROL", "0", 1);
		buf_reset(&got);
		ck_assert_msg(ops->pane_screen(host, session, &pi, &got,
		    &err) == 0, "pane_screen: %s", error_msg(&err));
		ck_assert_int_eq(pi.exists, 1);
		ck_assert_int_eq(pi.pid, want->pid);
		ck_assert_str_eq(pi.command, want->command);
		ck_assert_uint_eq(pi.cursor_y, want->cursor_y);
		ck_assert_str_eq(buf_str(&got), screen);
		buf_reset(&got);
		ck_assert_int_eq(ops->pane_screen(host, "nosuch", &pi, &got,
		    &err), 0);
		ck_assert_int_eq(pi.exists, 0);
		ck_assert_uint_eq(got.len, 0);
		unsetenv("AITERM_TMUX_CONTROL");
	}
	buf_free(&got);
	error_clear(&err);
}

START_TEST(test_capture_guards)
{
	static const char *const show[] = {
		"sh", "-c", "printf '%%begin 1 2 1\\n%%end 1 2 1\\n"
		"%%error 1 2 1\\n%%exit\\nplain\\n'; exec sleep 1000", NULL,
	};
	static const char *const one_shot[] = {
		"capture-pane", "-p", "-t", "=guards:", NULL,
	};
	struct aiterm_buf screen = BUF_INIT, direct = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	int waited;

	create_ok("guards", show, NULL, NULL);
	for (waited = 0; waited < WAIT_MS; waited += 10) {
		buf_reset(&screen);
		ck_assert_int_eq(ops->capture(host, "guards", &screen, &err),
		    0);
		if (strstr(buf_str(&screen), "plain") != NULL)
			break;
		sleep_ms(10);
	}
	ck_assert_msg(strstr(buf_str(&screen), "%begin 1 2 1\n%end 1 2 1\n"
	    "%error 1 2 1\n%exit\nplain\n") != NULL, "%s", buf_str(&screen));
	ck_assert_int_eq(tmux_cmd(&direct, one_shot), 0);
	ck_assert_str_eq(buf_str(&screen), buf_str(&direct));
	wait_command("guards", "sleep", &pi);
	pane_screen_same("guards", &pi, buf_str(&direct));
	kill_ok("guards");
	buf_free(&screen);
	buf_free(&direct);
	error_clear(&err);
}
END_TEST

/*
 * A stalled server: the control client's answer does not come in time,
 * so the op fails saying so (a one-shot client would only wait on the
 * same server, issue 20).  The client is kept (issue 37: tmux 3.3a died
 * on resume when it found the killed client and its successors at once):
 * until it has its answer, the next op fails at once, starts no tmux
 * process and sends nothing.  Once the server answers, the same client
 * serves the next op; typing is not sent again.
 */
START_TEST(test_control_timeout)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	const char *log = log_path("stall");
	const char *p;
	pid_t ctl, server, helper;
	long long t0;
	int count, runs;

	create_ok("stall", bash_argv, NULL, log);
	pane_info_ok("stall", &pi);
	ctl = control_pid();
	server = server_pid();
	setenv("AITERM_TMUX_CONTROL_TIMEOUT_MS", "300", 1);

	helper = stall_server(server, 1200);
	t0 = now_ms();
	ck_assert_int_eq(ops->pane_info(host, "stall", &pi, &err), -1);
	ck_assert_str_eq(error_msg(&err), "tmux server not answering for "
	    "300 ms");
	error_clear(&err);
	ck_assert_int_ge(now_ms() - t0, 300);
	runs = run_count;
	t0 = now_ms();
	ck_assert_int_eq(ops->pane_info(host, "stall", &pi, &err), -1);
	ck_assert_int_lt(now_ms() - t0, 300);
	ck_assert_msg(strstr(error_msg(&err), "tmux server not answering "
	    "(stopped?) for ") != NULL && strstr(error_msg(&err), " ms; "
	    "nothing is sent to it until it answers") != NULL, "%s",
	    error_msg(&err));
	error_clear(&err);
	ck_assert_int_eq(ops->send_text(host, "stall", "echo never-$((2+3))",
	    19, 1, &err), -1);
	error_clear(&err);
	ck_assert_int_eq(run_count, runs);
	ck_assert_int_eq(kill(ctl, 0), 0);
	ck_assert_int_eq(waitpid(helper, NULL, 0), helper);
	pane_info_ok("stall", &pi);
	ck_assert_int_eq(control_pid(), ctl);

	helper = stall_server(server, 800);
	ck_assert_int_eq(ops->send_text(host, "stall", "echo once-$((40+2))",
	    19, 1, &err), -1);
	ck_assert_str_eq(error_msg(&err), "tmux server not answering for 300 "
	    "ms (the command was not sent again: it may still run when tmux "
	    "recovers)");
	error_clear(&err);
	ck_assert_int_eq(waitpid(helper, NULL, 0), helper);
	unsetenv("AITERM_TMUX_CONTROL_TIMEOUT_MS");
	send_line("stall", "echo done-$((1+1))");
	wait_log(log, "done-2");
	ck_assert_int_eq(control_pid(), ctl);
	for (count = 0, p = file_head(log); (p = strstr(p, "once-42")) != NULL;
	    p++)
		count++;
	ck_assert_int_eq(count, 1);
	ck_assert_ptr_null(strstr(file_head(log), "never-5"));
	kill_ok("stall");
	error_clear(&err);
}
END_TEST

/*
 * The server is killed under the control client: the next op says "not
 * there" like before, the old client is reaped, and after create starts
 * a server again a new client serves.
 */
START_TEST(test_server_restart)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	struct seen seen = { .want = "before" };
	pid_t ctl, server;

	create_ok("before", sleeper, NULL, NULL);
	pane_info_ok("before", &pi);
	ck_assert_int_eq(pi.exists, 1);
	ctl = control_pid();
	server = server_pid();
	ck_assert_int_eq(kill(server, SIGTERM), 0);
	wait_gone(server, "the tmux server");

	pane_info_ok("before", &pi);
	ck_assert_int_eq(pi.exists, 0);
	wait_gone(ctl, "the old control client");
	ck_assert_int_eq(ops->list(host, list_cb, &seen, &err), 0);
	ck_assert_int_eq(seen.total, 0);
	kill_ok("before");
	ck_assert_int_eq(server_up(info.socket), 0);

	create_ok("after", sleeper, NULL, NULL);
	wait_command("after", "sleep", &pi);
	ck_assert_int_ne(server_pid(), server);
	ck_assert_int_ne(control_pid(), ctl);
	kill_ok("after");
	error_clear(&err);
}
END_TEST

/* ---- Other roots: each test points the host at another state root. ---- */

static void
root_restore(void)
{
	struct aiterm_error err = ERROR_INIT;

	state_root_reset();
	ck_assert_msg(state_root_init(state_dir, &err) == 0, "%s",
	    error_msg(&err));
}

START_TEST(test_no_server)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	struct seen seen = { .want = "anything" };
	char root[PATH_MAX];

	snprintf(root, sizeof root, "%s/empty-root", tmp_root);
	state_root_reset();
	ck_assert(state_root_init(root, &err) == 0);
	pane_info_ok("nothere", &pi);
	ck_assert_int_eq(pi.exists, 0);
	ck_assert_int_eq(ops->list(host, list_cb, &seen, &err), 0);
	ck_assert_int_eq(seen.found, 0);
	kill_ok("nothere");
	ck_assert_int_eq(ops->send_key(host, "nothere", "Enter", &err), -1);
	ck_assert_msg(strstr(error_msg(&err), "does not exist") != NULL, "%s",
	    error_msg(&err));
	ck_assert_int_eq(ops->send_text(host, "nothere", "x", 1, 1, &err), -1);
	ck_assert_msg(strstr(error_msg(&err), "does not exist") != NULL, "%s",
	    error_msg(&err));
	/* None of that started a server (or a control client) there. */
	snprintf(root, sizeof root, "%s/empty-root/tmux.sock", tmp_root);
	ck_assert_int_eq(server_up(root), 0);
	error_clear(&err);
}
END_TEST

START_TEST(test_socket_too_long)
{
	static const char *const sleeper[] = { "sleep", "1000", NULL };
	struct aiterm_mux_create o = { .session = "long", .argv = sleeper };
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf want = BUF_INIT;
	struct sockaddr_un sun;
	char root[PATH_MAX];
	size_t len;

	snprintf(root, sizeof root, "%s/%0100d", tmp_root, 0);
	state_root_reset();
	ck_assert(state_root_init(root, &err) == 0);
	len = strlen(root) + strlen("/tmux.sock");
	ck_assert_int_eq(ops->create(host, &o, &err), -1);
	buf_printf(&want, "tmux socket path %s/tmux.sock is %zu bytes, longer "
	    "than the %zu a Unix socket allows; set AITERM_STATE_DIR to a "
	    "shorter directory", root, len, sizeof sun.sun_path - 1);
	ck_assert_str_eq(error_msg(&err), buf_str(&want));
	buf_free(&want);
	error_clear(&err);
}
END_TEST

static Suite *
make_mux_tmux_suite(void)
{
	Suite *s = suite_create("mux_tmux");
	TCase *tc;

	tc = tcase_create("Quoting");
	tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
	tcase_add_test(tc, test_shell_quote_roundtrip);
	tcase_add_test(tc, test_arg_escape);
	tcase_add_test(tc, test_format_escape);
	tcase_add_test(tc, test_cmd_quote);
	tcase_add_test(tc, test_list_parse);
	tcase_add_test(tc, test_session_ids);
	tcase_add_test(tc, test_create_argv);
	tcase_add_test(tc, test_versions);
	tcase_add_test(tc, test_pane_parse);
	suite_add_tcase(s, tc);

	tc = tcase_create("Sessions");
	tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
	tcase_add_test(tc, test_probe);
	tcase_add_test(tc, test_shell_roundtrip);
	tcase_add_test(tc, test_exact_target);
	tcase_add_test(tc, test_set_env);
	tcase_add_test(tc, test_kill);
	tcase_add_test(tc, test_dead_pane);
	tcase_add_test(tc, test_early_output);
	tcase_add_test(tc, test_log_path_quoting);
	tcase_add_test(tc, test_single_argv);
	tcase_add_test(tc, test_default_shell);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_paste);
	tcase_add_test(tc, test_private_config);
	tcase_add_test(tc, test_socket_protected);
	tcase_add_test(tc, test_create_errors);
	tcase_add_test(tc, test_control_client);
	tcase_add_test(tc, test_list_one_call);
	tcase_add_test(tc, test_control_literal);
	tcase_add_test(tc, test_send_secret);
	tcase_add_test(tc, test_capture_guards);
	tcase_add_test(tc, test_control_timeout);
	tcase_add_test(tc, test_server_restart);
	suite_add_tcase(s, tc);

	tc = tcase_create("OtherRoots");
	tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
	tcase_add_checked_fixture(tc, NULL, root_restore);
	tcase_add_test(tc, test_no_server);
	tcase_add_test(tc, test_socket_too_long);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_mux_tmux_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
