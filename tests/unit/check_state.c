/*
 * The state layer against the real filesystem and real processes: the
 * state root, atomic files, owner locks and process start identifiers.
 * Everything happens below a directory made by mkdtemp under $TMPDIR (or
 * /tmp); HOME and the XDG variables are pointed there, never at the real
 * ones.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc/proc.h"
#include "state/atomic.h"
#include "state/lock.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

/* The variables the root is resolved from; saved and restored per test. */
static const char *const env_names[] = {
	"AITERM_STATE_DIR", "XDG_STATE_HOME", "HOME",
};
#define ENV_COUNT (sizeof env_names / sizeof env_names[0])

static char *env_saved[ENV_COUNT];
static mode_t umask_saved;
static char *tmpdir;

/*
 * Paths inside tmpdir, made by setup.  Globals, so that forked children
 * that end with _exit still reach them (valgrind follows the children).
 */
static char *lockfile;		/* <tmpdir>/send.lock */
static char *statefile;		/* <tmpdir>/state.json */

/* The file a child leaves unfinished; global for the same reason. */
static struct atomic_file crashed;

static void
setup(void)
{
	const char *base = getenv("TMPDIR");
	const char *value;
	size_t i;

	if (base == NULL || *base == '\0')
		base = "/tmp";
	tmpdir = xasprintf("%s/check_state.XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	lockfile = xasprintf("%s/send.lock", tmpdir);
	statefile = xasprintf("%s/state.json", tmpdir);

	for (i = 0; i < ENV_COUNT; i++) {
		value = getenv(env_names[i]);
		env_saved[i] = value == NULL ? NULL : xstrdup(value);
		unsetenv(env_names[i]);
	}
	umask_saved = umask(022);
	state_root_reset();
}

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void
teardown(void)
{
	size_t i;

	state_root_reset();
	umask(umask_saved);
	for (i = 0; i < ENV_COUNT; i++) {
		if (env_saved[i] != NULL)
			setenv(env_names[i], env_saved[i], 1);
		else
			unsetenv(env_names[i]);
		free(env_saved[i]);
		env_saved[i] = NULL;
	}
	nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(statefile);
	free(lockfile);
	free(tmpdir);
	statefile = lockfile = tmpdir = NULL;
}

/* "<tmpdir>/<formatted>", allocated. */
static char * __attribute__((format(printf, 1, 2)))
tpath(const char *fmt, ...)
{
	va_list ap;
	char *rel, *path;

	va_start(ap, fmt);
	rel = xvasprintf(fmt, ap);
	va_end(ap);
	path = xasprintf("%s/%s", tmpdir, rel);
	free(rel);
	return path;
}

static mode_t
mode_of(const char *path)
{
	struct stat sb;

	ck_assert_msg(lstat(path, &sb) == 0, "lstat %s: %s", path,
	    strerror(errno));
	return sb.st_mode & 07777;
}

static bool
exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

/* Write a file directly, bypassing the code under test. */
static void
write_raw(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "fopen %s: %s", path, strerror(errno));
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

/* The content of a file through file_read, which must succeed. */
static char *
read_ok(const char *path)
{
	struct aiterm_error err = ERROR_INIT;
	char *data = NULL;
	size_t len;

	ck_assert_msg(file_read(path, &data, &len, &err) == 0, "%s",
	    error_msg(&err));
	ck_assert_uint_eq(strlen(data), len);
	return data;
}

/* Entries of dir whose names start with prefix. */
static int
count_entries(const char *dir, const char *prefix)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
			n++;
	}
	closedir(d);
	return n;
}

static void
reap(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "child %ld ended with status %d", (long)pid, status);
}

/* The PID of a process that existed and has been reaped. */
static long
dead_pid(void)
{
	pid_t pid;

	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0)
		_exit(0);
	reap(pid);
	return (long)pid;
}

/*
 * One attempt at the lock: lock_acquire, and with take_over set, a stale
 * lock taken over (lock_take_over) as the send path does.
 */
static int
lock_attempt(const char *path, bool take_over)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	int st;

	st = lock_acquire(path, &owner, &err);
	if (st == LOCK_STALE && take_over)
		st = lock_take_over(path, &owner, &owner, &err);
	error_clear(&err);
	return st;
}

/*
 * A child that tries the lock (lock_attempt) once it reads a byte from *go,
 * reports the status as one byte on *report, and holds on (to the lock, if
 * it got it) until it reads a byte from *release.  Later children inherit
 * the pipes of earlier ones, so the parent signals with bytes, not with
 * end of file.
 */
struct lock_child {
	pid_t	pid;
	int	go;		/* write end: one byte starts the attempt */
	int	report;		/* read end: the status byte */
	int	release;	/* write end: one byte ends the child */
};

static void
lock_child_start(struct lock_child *lc, const char *path, bool take_over)
{
	int go[2], report[2], release[2];
	char c;
	int st;

	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(report), 0);
	ck_assert_int_eq(pipe(release), 0);
	ck_assert_int_ne(lc->pid = fork(), -1);
	if (lc->pid == 0) {
		close(go[1]);
		close(report[0]);
		close(release[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		st = lock_attempt(path, take_over);
		c = st == -1 ? 'E' : "AHS"[st];
		if (write(report[1], &c, 1) != 1)
			_exit(2);
		if (read(release[0], &c, 1) == -1)
			_exit(2);
		_exit(0);
	}
	close(go[0]);
	close(report[1]);
	close(release[0]);
	lc->go = go[1];
	lc->report = report[0];
	lc->release = release[1];
}

static void
lock_child_go(struct lock_child *lc)
{
	ck_assert_int_eq(write(lc->go, "g", 1), 1);
	close(lc->go);
}

static char
lock_child_status(struct lock_child *lc)
{
	char c;

	ck_assert_int_eq(read(lc->report, &c, 1), 1);
	close(lc->report);
	return c;
}

static void
lock_child_end(struct lock_child *lc)
{
	ck_assert_int_eq(write(lc->release, "r", 1), 1);
	close(lc->release);
	reap(lc->pid);
}

/* Valid. */

START_TEST(test_root_order)
{
	struct aiterm_error err = ERROR_INIT;
	char *env_dir = tpath("env"), *xdg = tpath("xdg"), *home = tpath("home");
	char *override = tpath("override"), *want, *path;

	setenv("AITERM_STATE_DIR", env_dir, 1);
	setenv("XDG_STATE_HOME", xdg, 1);
	setenv("HOME", home, 1);

	ck_assert_ptr_null(state_root());
	ck_assert_int_eq(state_root_init(override, &err), 0);
	ck_assert_str_eq(state_root(), override);

	ck_assert_int_eq(state_root_init(NULL, &err), 0);
	ck_assert_str_eq(state_root(), env_dir);
	ck_assert_int_eq(mode_of(env_dir), 0700);

	unsetenv("AITERM_STATE_DIR");
	ck_assert_int_eq(state_root_init(NULL, &err), 0);
	want = tpath("xdg/aiterm");
	ck_assert_str_eq(state_root(), want);
	free(want);

	unsetenv("XDG_STATE_HOME");
	ck_assert_int_eq(state_root_init(NULL, &err), 0);
	want = tpath("home/.local/state/aiterm");
	ck_assert_str_eq(state_root(), want);
	ck_assert_int_eq(mode_of(want), 0700);

	path = state_path("sessions/%d.json", 7);
	free(want);
	want = tpath("home/.local/state/aiterm/sessions/7.json");
	ck_assert_str_eq(path, want);
	free(path);
	free(want);

	ck_assert_ptr_null(err.msg);
	free(env_dir);
	free(xdg);
	free(home);
	free(override);
}
END_TEST

START_TEST(test_root_empty_and_relative)
{
	struct aiterm_error err = ERROR_INIT;
	char *home = tpath("home"), *want, *cwd;

	/* Empty variables count as unset; a relative XDG_STATE_HOME too. */
	setenv("AITERM_STATE_DIR", "", 1);
	setenv("XDG_STATE_HOME", "relative/state", 1);
	setenv("HOME", home, 1);
	ck_assert_int_eq(state_root_init(NULL, &err), 0);
	want = tpath("home/.local/state/aiterm");
	ck_assert_str_eq(state_root(), want);
	free(want);

	/* A relative override is made absolute; trailing slashes go. */
	ck_assert_ptr_nonnull(cwd = getcwd(NULL, 0));
	ck_assert_int_eq(chdir(tmpdir), 0);
	ck_assert_int_eq(state_root_init("rel/root//", &err), 0);
	ck_assert_int_eq(chdir(cwd), 0);
	want = tpath("rel/root");
	ck_assert_str_eq(state_root(), want);
	ck_assert_int_eq(mode_of(want), 0700);

	free(want);
	free(cwd);
	free(home);
}
END_TEST

START_TEST(test_modes_whatever_umask)
{
	static const mode_t masks[] = { 0, 0777, 0022 };
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	char *root, *p, *sub;
	size_t i;

	for (i = 0; i < sizeof masks / sizeof masks[0]; i++) {
		umask(masks[i]);
		root = tpath("u%zu/a/b/root", i);
		ck_assert_msg(state_root_init(root, &err) == 0, "%s",
		    error_msg(&err));

		/* Every directory created on the way is 0700. */
		p = tpath("u%zu", i);
		ck_assert_int_eq(mode_of(p), 0700);
		free(p);
		p = tpath("u%zu/a", i);
		ck_assert_int_eq(mode_of(p), 0700);
		free(p);
		p = tpath("u%zu/a/b", i);
		ck_assert_int_eq(mode_of(p), 0700);
		free(p);
		ck_assert_int_eq(mode_of(root), 0700);

		sub = state_path("x/y");
		ck_assert_int_eq(state_mkdir(sub, &err), 0);
		ck_assert_int_eq(mode_of(sub), 0700);
		free(sub);
		sub = state_path("x");
		ck_assert_int_eq(mode_of(sub), 0700);
		free(sub);

		p = state_path("file.json");
		ck_assert_int_eq(atomic_write(p, "{}", 2, &err), 0);
		ck_assert_int_eq(mode_of(p), 0600);
		ck_assert_int_eq(atomic_write(p, "[]", 2, &err), 0);
		ck_assert_int_eq(mode_of(p), 0600);
		free(p);

		p = state_path("send.lock");
		ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_ACQUIRED);
		ck_assert_int_eq(mode_of(p), 0600);
		ck_assert_int_eq(lock_release(p, &err), 0);
		free(p);
		free(root);
	}
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_root_existing_is_tightened)
{
	struct aiterm_error err = ERROR_INIT;
	char *root = tpath("loose");

	ck_assert_int_eq(mkdir(root, 0700), 0);
	ck_assert_int_eq(chmod(root, 0755), 0);
	ck_assert_int_eq(state_root_init(root, &err), 0);
	ck_assert_int_eq(mode_of(root), 0700);
	free(root);
}
END_TEST

START_TEST(test_atomic_replace)
{
	const char *p = statefile;
	struct aiterm_error err = ERROR_INIT;
	char *data;
	size_t len;

	ck_assert_int_eq(atomic_write(p, "old", 3, &err), 0);
	data = read_ok(p);
	ck_assert_str_eq(data, "old");
	free(data);

	ck_assert_int_eq(atomic_write(p, "newer", 5, &err), 0);
	data = read_ok(p);
	ck_assert_str_eq(data, "newer");
	free(data);

	/* Nothing is left beside the target. */
	ck_assert_int_eq(count_entries(tmpdir, ""), 1);

	ck_assert_int_eq(atomic_write(p, "", 0, &err), 0);
	ck_assert_int_eq(file_read(p, &data, &len, &err), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(data, "");
	free(data);
}
END_TEST

START_TEST(test_atomic_abort)
{
	const char *p = statefile;
	struct aiterm_error err = ERROR_INIT;
	struct atomic_file af;
	char *data;

	ck_assert_int_eq(atomic_write(p, "kept", 4, &err), 0);
	ck_assert_int_eq(atomic_open(p, &af, &err), 0);
	ck_assert_int_eq(atomic_append(&af, "dropped", 7, &err), 0);
	ck_assert_int_eq(count_entries(tmpdir, ".state.json.tmp."), 1);
	atomic_abort(&af);
	ck_assert_ptr_null(af.tmp);
	ck_assert_int_eq(af.fd, -1);

	ck_assert_int_eq(count_entries(tmpdir, ""), 1);
	data = read_ok(p);
	ck_assert_str_eq(data, "kept");
	free(data);
}
END_TEST

START_TEST(test_lock_cycle)
{
	const char *p = lockfile;
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner, read_back;
	char self_start[32];
	char *data, *want;

	ck_assert_int_eq(proc_start_id(getpid(), self_start, sizeof self_start), 0);

	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_ACQUIRED);
	ck_assert_int_eq(owner.pid, getpid());
	ck_assert_str_eq(owner.start, self_start);
	ck_assert(lock_owner_alive(&owner));

	/* The record is the documented JSON. */
	data = read_ok(p);
	want = xasprintf("{\"pid\":%ld,\"start\":\"%s\"}", (long)getpid(),
	    self_start);
	ck_assert_str_eq(data, want);
	free(want);
	free(data);
	ck_assert_int_eq(lock_read(p, &read_back, &err), 0);
	ck_assert_int_eq(read_back.pid, owner.pid);
	ck_assert_str_eq(read_back.start, owner.start);

	/* Not re-entrant: a second attempt sees us as the live holder. */
	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_HELD);
	ck_assert_int_eq(owner.pid, getpid());

	ck_assert_int_eq(lock_release(p, &err), 0);
	ck_assert(!exists(p));
	ck_assert_int_eq(lock_acquire(p, NULL, &err), LOCK_ACQUIRED);
	ck_assert_int_eq(lock_release(p, &err), 0);

	/* No temporary is left behind. */
	ck_assert_int_eq(count_entries(tmpdir, ""), 0);
	ck_assert_ptr_null(err.msg);
}
END_TEST

START_TEST(test_proc_self)
{
	char a[32], b[32];
	size_t i;

	ck_assert_int_eq(proc_start_id(getpid(), a, sizeof a), 0);
	ck_assert_int_gt(strlen(a), 0);
	for (i = 0; a[i] != '\0'; i++)
		ck_assert_msg(strchr("0123456789.", a[i]) != NULL,
		    "unexpected start id '%s'", a);
	ck_assert_int_eq(proc_start_id(getpid(), b, sizeof b), 0);
	ck_assert_str_eq(a, b);
}
END_TEST

/*
 * A command name with spaces and parentheses must not shift the fields:
 * the start identifier survives exec, so reading it before and after an
 * exec under such a name gives the same answer.
 */
START_TEST(test_proc_odd_command_name)
{
	char *link = tpath("p) (q) 1 2 )"), before[32], after[32], c;
	int go[2], execd[2];
	pid_t pid;

	ck_assert_int_eq(symlink("/bin/sleep", link), 0);
	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(execd), 0);
	ck_assert_int_ne(fcntl(execd[1], F_SETFD, FD_CLOEXEC), -1);
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		close(go[1]);
		close(execd[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		execl(link, link, "30", (char *)NULL);
		c = 'x';
		if (write(execd[1], &c, 1) != 1)
			_exit(3);
		_exit(4);
	}
	close(go[0]);
	close(execd[1]);

	ck_assert_int_eq(proc_start_id(pid, before, sizeof before), 0);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	/* End of file: the close-on-exec end went away with the exec. */
	ck_assert_int_eq(read(execd[0], &c, 1), 0);
	ck_assert_int_eq(proc_start_id(pid, after, sizeof after), 0);
	ck_assert_str_eq(before, after);

	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	close(go[1]);
	close(execd[0]);
	free(link);
}
END_TEST

/* Crash: what is left behind by processes that died. */

START_TEST(test_atomic_crash_before_rename)
{
	const char *p = statefile;
	struct aiterm_error err = ERROR_INIT;
	struct atomic_file live;
	char *prefix, *data, *live_tmp;
	pid_t pid;

	ck_assert_int_eq(atomic_write(p, "old", 3, &err), 0);

	/* The child writes the new content, then dies before the rename. */
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		if (atomic_open(p, &crashed, &err) == -1)
			_exit(2);
		if (atomic_append(&crashed, "new", 3, &err) == -1)
			_exit(3);
		if (fsync(crashed.fd) == -1)
			_exit(4);
		_exit(0);
	}
	reap(pid);

	prefix = xasprintf(".state.json.tmp.%ld.", (long)pid);
	ck_assert_int_eq(count_entries(tmpdir, prefix), 1);
	data = read_ok(p);
	ck_assert_str_eq(data, "old");
	free(data);

	/* A writer that is still alive keeps its temporary. */
	ck_assert_int_eq(atomic_open(p, &live, &err), 0);
	live_tmp = xstrdup(live.tmp);

	ck_assert_msg(atomic_cleanup(tmpdir, &err) == 0, "%s", error_msg(&err));
	ck_assert_int_eq(count_entries(tmpdir, prefix), 0);
	ck_assert(exists(live_tmp));
	data = read_ok(p);
	ck_assert_str_eq(data, "old");
	free(data);

	ck_assert_int_eq(atomic_append(&live, "newest", 6, &err), 0);
	ck_assert_int_eq(atomic_commit(&live, &err), 0);
	ck_assert(!exists(live_tmp));
	data = read_ok(p);
	ck_assert_str_eq(data, "newest");
	free(data);
	ck_assert_int_eq(count_entries(tmpdir, ""), 1);

	free(live_tmp);
	free(prefix);
}
END_TEST

START_TEST(test_lock_held_then_stale)
{
	const char *p = lockfile;
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	struct lock_child lc;
	char child_start[32];
	char *before, *after, *want;

	lock_child_start(&lc, p, false);
	lock_child_go(&lc);
	ck_assert_int_eq(lock_child_status(&lc), 'A');
	ck_assert_int_eq(proc_start_id(lc.pid, child_start, sizeof child_start), 0);

	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_HELD);
	ck_assert_int_eq(owner.pid, lc.pid);
	ck_assert_str_eq(owner.start, child_start);
	ck_assert(lock_owner_alive(&owner));

	/* Only the owner may release it. */
	ck_assert_int_eq(lock_release(p, &err), -1);
	want = xasprintf("cannot release lock '%s': it belongs to process %ld "
	    "(start %s), not to this process", p, (long)lc.pid, child_start);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);
	error_clear(&err);
	ck_assert(exists(p));

	before = read_ok(p);
	lock_child_end(&lc);

	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_STALE);
	ck_assert_int_eq(owner.pid, lc.pid);
	ck_assert_str_eq(owner.start, child_start);
	ck_assert(!lock_owner_alive(&owner));

	/* Reported, never removed: the file is still the dead owner's. */
	ck_assert(exists(p));
	after = read_ok(p);
	ck_assert_str_eq(before, after);
	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_STALE);
	ck_assert_int_eq(lock_release(p, &err), -1);
	error_clear(&err);
	ck_assert(exists(p));
	ck_assert_int_eq(count_entries(tmpdir, ""), 1);

	free(before);
	free(after);
}
END_TEST

START_TEST(test_lock_pid_reused)
{
	const char *p = lockfile;
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	char start[32], *text;

	/* A live PID (ours) with a start id that is not its own. */
	ck_assert_int_eq(proc_start_id(getpid(), start, sizeof start), 0);
	text = xasprintf("{\"pid\":%ld,\"start\":\"%s9\"}", (long)getpid(), start);
	write_raw(p, text);

	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_STALE);
	ck_assert_int_eq(owner.pid, getpid());
	ck_assert_str_ne(owner.start, start);
	ck_assert(!lock_owner_alive(&owner));
	ck_assert(exists(p));

	/* Nor is it ours to release. */
	ck_assert_int_eq(lock_release(p, &err), -1);
	error_clear(&err);
	ck_assert(exists(p));

	free(text);
}
END_TEST

/* Invalid. */

START_TEST(test_proc_missing)
{
	char buf[32];

	ck_assert_int_eq(proc_start_id(0, buf, sizeof buf), -1);
	ck_assert_int_eq(proc_start_id(-1, buf, sizeof buf), -1);
	ck_assert_int_eq(proc_start_id(LONG_MAX, buf, sizeof buf), -1);
	/* Above every PID limit (Linux 2^22, macOS 99999). */
	ck_assert_int_eq(proc_start_id(INT_MAX - 1, buf, sizeof buf), -1);
	ck_assert_int_eq(proc_start_id(dead_pid(), buf, sizeof buf), -1);
}
END_TEST

START_TEST(test_root_unresolvable)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_int_eq(state_root_init(NULL, &err), -1);
	ck_assert_str_eq(error_msg(&err), "cannot resolve the state root: none "
	    "of AITERM_STATE_DIR, XDG_STATE_HOME or HOME is set");
	ck_assert_ptr_null(state_root());
	ck_assert_ptr_null(state_path("x"));
	error_clear(&err);
}
END_TEST

START_TEST(test_root_through_a_file)
{
	struct aiterm_error err = ERROR_INIT;
	char *file = tpath("file"), *root = tpath("file/sub"), *want;

	write_raw(file, "x");
	want = xasprintf("cannot create directory '%s': %s", file,
	    strerror(ENOTDIR));

	ck_assert_int_eq(state_root_init(root, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	ck_assert_ptr_null(state_root());

	ck_assert_int_eq(state_root_init(file, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);

	ck_assert_int_eq(state_mkdir(root, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);

	error_clear(&err);
	free(want);
	free(root);
	free(file);
}
END_TEST

START_TEST(test_root_foreign_owner)
{
	struct aiterm_error err = ERROR_INIT;
	struct stat sb;
	char *root, *want;

	/*
	 * As root, hand a directory to another user; otherwise "/" already
	 * belongs to someone else.
	 */
	if (geteuid() == 0) {
		root = tpath("foreign");
		ck_assert_int_eq(mkdir(root, 0755), 0);
		ck_assert_int_eq(chown(root, 65534, 65534), 0);
	} else
		root = xstrdup("/");
	ck_assert_int_eq(stat(root, &sb), 0);
	ck_assert_uint_ne(sb.st_uid, geteuid());

	ck_assert_int_eq(state_root_init(root, &err), -1);
	want = xasprintf("the state root '%s' is owned by uid %lu, not by uid %lu",
	    root, (unsigned long)sb.st_uid, (unsigned long)geteuid());
	ck_assert_str_eq(error_msg(&err), want);
	ck_assert_ptr_null(state_root());
	ck_assert_int_eq(mode_of(root), sb.st_mode & 07777);

	error_clear(&err);
	free(want);
	free(root);
}
END_TEST

/* The error naming parent as a folder others can write, for root. */
static char *
parent_error(const char *root, const char *parent, const char *who,
    unsigned mode)
{
	return xasprintf("the state root '%s' is below '%s', which is writable "
	    "by %s (mode %04o, not sticky): another user could swap the state "
	    "root there; choose a state root whose parent folders only you or "
	    "root can change", root, parent, who, mode);
}

/* A folder as given, whatever the umask. */
static char *
make_dir(const char *name, mode_t mode)
{
	char *p = tpath("%s", name);

	ck_assert_int_eq(mkdir(p, 0700), 0);
	ck_assert_int_eq(chmod(p, mode), 0);
	return p;
}

/* state_root_init(rel) fails with the shared folder parent named. */
static void
refused_below(const char *rel, const char *parent)
{
	struct aiterm_error err = ERROR_INIT;
	char *root = tpath("%s", rel), *want;

	want = parent_error(root, parent, "every user", 0777);
	ck_assert_int_eq(state_root_init(root, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	ck_assert_ptr_null(state_root());
	error_clear(&err);
	free(want);
	free(root);
}

START_TEST(test_root_below_a_shared_folder)
{
	struct aiterm_error err = ERROR_INIT;
	char *shared = make_dir("shared", 0777), *sticky = make_dir("sticky",
	    01777), *link = tpath("link"), *inner = tpath("shared/mine"),
	    *root;

	/* Anyone could rename the root away and put theirs in its place. */
	refused_below("shared/state", shared);
	root = tpath("shared/state");
	ck_assert_int_eq(access(root, F_OK), -1);	/* nothing made there */
	free(root);

	/* Deeper below it, and a folder of ours in between, the same. */
	ck_assert_int_eq(mkdir(inner, 0700), 0);
	refused_below("shared/mine/a/state", shared);

	/* Through a link of ours: where it really is counts. */
	ck_assert_int_eq(symlink(inner, link), 0);
	refused_below("link/state", shared);

	/* Sticky (/tmp): others cannot rename or remove what is ours. */
	root = tpath("sticky/state");
	ck_assert_msg(state_root_init(root, &err) == 0, "%s", error_msg(&err));
	ck_assert_str_eq(state_root(), root);
	free(root);

	error_clear(&err);
	free(inner);
	free(link);
	free(sticky);
	free(shared);
}
END_TEST

START_TEST(test_root_below_another_user)
{
	struct aiterm_error err = ERROR_INIT;
	char *theirs, *group, *root, *want;

	if (geteuid() != 0)
		return;	/* handing a folder to another user needs root */
	/* nobody's folder (0755): nobody can swap what is in it. */
	theirs = make_dir("theirs", 0755);
	ck_assert_int_eq(chown(theirs, 65534, 65534), 0);
	root = tpath("theirs/state");
	ck_assert_int_eq(state_root_init(root, &err), -1);
	want = xasprintf("the state root '%s' is below '%s', which is owned by "
	    "uid 65534: another user could swap the state root there; choose "
	    "a state root whose parent folders only you or root can change",
	    root, theirs);
	ck_assert_str_eq(error_msg(&err), want);
	ck_assert_int_eq(access(root, F_OK), -1);
	free(want);
	free(root);

	/* Ours, writable by a group that is not only us. */
	group = make_dir("group", 0770);
	ck_assert_int_eq(chown(group, 0, 65534), 0);
	root = tpath("group/state");
	ck_assert_int_eq(state_root_init(root, &err), -1);
	want = parent_error(root, group, "its group", 0770);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);
	free(root);

	/* Writable by our own private group (umask 002): fine. */
	ck_assert_int_eq(chown(group, 0, getpwuid(0)->pw_gid), 0);
	root = tpath("group/state");
	ck_assert_msg(state_root_init(root, &err) == 0, "%s", error_msg(&err));
	free(root);

	error_clear(&err);
	free(group);
	free(theirs);
}
END_TEST

START_TEST(test_root_swapped_while_running)
{
	struct aiterm_error err = ERROR_INIT;
	char *root = tpath("a/root"), *old = tpath("a/old"), *want;

	ck_assert_int_eq(state_root_init(root, &err), 0);
	ck_assert_int_eq(state_root_require(&err), 0);

	/* Moved away and another folder put in its place. */
	ck_assert_int_eq(rename(root, old), 0);
	ck_assert_int_eq(mkdir(root, 0700), 0);
	ck_assert_int_eq(state_root_require(&err), -1);
	want = xasprintf("the state root '%s' is not the directory the server "
	    "started with: it was moved or replaced; nothing is written there; "
	    "restart the server", root);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);

	/* A link back to the very folder is that folder. */
	ck_assert_int_eq(rmdir(root), 0);
	ck_assert_int_eq(symlink(old, root), 0);
	ck_assert_int_eq(state_root_require(&err), 0);

	ck_assert_int_eq(unlink(root), 0);
	ck_assert_int_eq(state_root_require(&err), -1);
	want = xasprintf("the state root '%s' is gone since the server started "
	    "(%s); restart the server", root, strerror(ENOENT));
	ck_assert_str_eq(error_msg(&err), want);

	error_clear(&err);
	free(want);
	free(old);
	free(root);
}
END_TEST

START_TEST(test_read_missing)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	char *p = tpath("missing"), *want, *data = NULL;

	want = xasprintf("cannot open '%s': %s", p, strerror(ENOENT));
	ck_assert_int_eq(file_read(p, &data, NULL, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	ck_assert_ptr_null(data);
	ck_assert_int_eq(lock_read(p, &owner, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	ck_assert_int_eq(lock_release(p, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);

	want = xasprintf("cannot open directory '%s': %s", p, strerror(ENOENT));
	ck_assert_int_eq(atomic_cleanup(p, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);

	error_clear(&err);
	free(p);
}
END_TEST

START_TEST(test_write_nowhere)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	char *p = tpath("nodir/state.json"), *slash, *want;

	slash = xasprintf("%s/", tmpdir);
	want = xasprintf("cannot create a temporary file beside '%s': %s", p,
	    strerror(ENOENT));
	ck_assert_int_eq(atomic_write(p, "x", 1, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	ck_assert_int_eq(lock_acquire(p, &owner, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);

	want = xasprintf("cannot write '%s': %s", slash, strerror(EISDIR));
	ck_assert_int_eq(atomic_write(slash, "x", 1, &err), -1);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);

	error_clear(&err);
	free(slash);
	free(p);
}
END_TEST

START_TEST(test_lock_bad_records)
{
	static const char *const bad[] = {
		"not json",
		"[1, 2]",
		"{\"pid\":1}",
		"{\"pid\":\"1\",\"start\":\"5\"}",
		"{\"pid\":1,\"start\":\"5\",\"host\":\"h\"}",
		"{\"pid\":1,\"pid\":2,\"start\":\"5\"}",
	};
	const char *p = lockfile;
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	char *prefix, *want;
	size_t i;

	prefix = xasprintf("invalid lock file '%s': ", p);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_raw(p, bad[i]);
		ck_assert_int_eq(lock_acquire(p, &owner, &err), -1);
		ck_assert_msg(strncmp(error_msg(&err), prefix, strlen(prefix)) == 0 &&
		    strlen(error_msg(&err)) > strlen(prefix),
		    "record '%s' gave '%s'", bad[i], error_msg(&err));
		/* A lock we cannot read is left alone too. */
		ck_assert(exists(p));
	}

	write_raw(p, "{\"pid\":0,\"start\":\"5\"}");
	ck_assert_int_eq(lock_read(p, &owner, &err), -1);
	want = xasprintf("%spid 0 is out of range", prefix);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);

	write_raw(p, "{\"pid\":12,\"start\":\"\"}");
	ck_assert_int_eq(lock_read(p, &owner, &err), -1);
	want = xasprintf("%sthe start identifier is empty or longer than 31 "
	    "bytes", prefix);
	ck_assert_str_eq(error_msg(&err), want);
	free(want);

	/*
	 * An empty record (a lock made without fsync whose data did not
	 * reach the disk before a power cut): its owner is dead, the lock
	 * is stale, reported and left alone.
	 */
	write_raw(p, "");
	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_STALE);
	ck_assert_int_eq(owner.pid, 0);
	ck_assert(exists(p));

	/* No temporary is left behind by the failed attempts. */
	ck_assert_int_eq(count_entries(tmpdir, ""), 1);

	error_clear(&err);
	free(prefix);
}
END_TEST

/* atomic_replace: the rename without fsyncs; old or new, nothing beside. */
START_TEST(test_atomic_replace_light)
{
	const char *p = statefile;
	struct aiterm_error err = ERROR_INIT;
	char *data;

	ck_assert_int_eq(atomic_replace(p, "first", 5, &err), 0);
	data = read_ok(p);
	ck_assert_str_eq(data, "first");
	free(data);
	ck_assert_int_eq(atomic_replace(p, "second", 6, &err), 0);
	data = read_ok(p);
	ck_assert_str_eq(data, "second");
	free(data);
	ck_assert_int_eq(count_entries(tmpdir, ""), 1);
	/* Nowhere to write: a clear error, not a crash. */
	ck_assert_int_eq(atomic_replace("/nonexistent-aiterm/x", "y", 1,
	    &err), -1);
	ck_assert_ptr_nonnull(strstr(error_msg(&err), "/nonexistent-aiterm"));
	error_clear(&err);
}
END_TEST

/* Limits. */

START_TEST(test_proc_buffer_size)
{
	char buf[32], small[32];
	size_t len;

	ck_assert_int_eq(proc_start_id(getpid(), buf, sizeof buf), 0);
	len = strlen(buf);
	ck_assert_int_eq(proc_start_id(getpid(), small, len + 1), 0);
	ck_assert_str_eq(small, buf);
	ck_assert_int_eq(proc_start_id(getpid(), small, len), -1);
	ck_assert_int_eq(proc_start_id(getpid(), small, 1), -1);
}
END_TEST

START_TEST(test_lock_start_length)
{
	const char *p = lockfile;
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	char *text;
	char start[33];

	memset(start, '7', 31);
	start[31] = '\0';
	text = xasprintf("{\"pid\":%ld,\"start\":\"%s\"}", dead_pid(), start);
	write_raw(p, text);
	free(text);
	ck_assert_int_eq(lock_read(p, &owner, &err), 0);
	ck_assert_str_eq(owner.start, start);
	ck_assert_int_eq(lock_acquire(p, &owner, &err), LOCK_STALE);

	start[31] = '7';
	start[32] = '\0';
	text = xasprintf("{\"pid\":%ld,\"start\":\"%s\"}", dead_pid(), start);
	write_raw(p, text);
	free(text);
	ck_assert_int_eq(lock_read(p, &owner, &err), -1);
	error_clear(&err);

	text = xasprintf("{\"pid\":%lld,\"start\":\"1\"}", (long long)INT_MAX + 1);
	write_raw(p, text);
	free(text);
	ck_assert_int_eq(lock_read(p, &owner, &err), -1);
	error_clear(&err);
}
END_TEST

START_TEST(test_atomic_large)
{
	struct aiterm_error err = ERROR_INIT;
	size_t len = (1 << 20) + 3, got, i;
	char *p = tpath("big"), *data, *back;

	data = xmalloc(len);
	for (i = 0; i < len; i++)
		data[i] = (char)('a' + i % 26);
	data[len / 2] = '\0';
	ck_assert_int_eq(atomic_write(p, data, len, &err), 0);
	ck_assert_int_eq(file_read(p, &back, &got, &err), 0);
	ck_assert_uint_eq(got, len);
	ck_assert_int_eq(memcmp(back, data, len), 0);
	ck_assert_int_eq(back[len], '\0');
	free(back);
	free(data);
	free(p);
}
END_TEST

START_TEST(test_cleanup_names)
{
	/* Names around a dead writer's PID that are not temporaries. */
	static const char *const kept[][2] = {
		{ "state.json.tmp.", ".ABCDEF" },	/* no leading dot */
		{ ".state.json.tmp.", ".ABCDE" },	/* random part too short */
		{ ".state.json.tmp.", ".ABCDEFG" },	/* random part too long */
		{ ".tmp.", ".ABCDEF" },			/* no name */
		{ ".state.json.tmp.", "x.ABCDEF" },	/* not a PID */
		{ ".state.json.tmp.", ".AB-DEF" },	/* not from mkstemp */
		{ ".state.json.tmpx", ".ABCDEF" },	/* no ".tmp." */
	};
	struct aiterm_error err = ERROR_INIT;
	char *p, *sub;
	long dead = dead_pid();
	size_t i;

	for (i = 0; i < sizeof kept / sizeof kept[0]; i++) {
		p = tpath("%s%ld%s", kept[i][0], dead, kept[i][1]);
		write_raw(p, "x");
		free(p);
	}
	p = tpath(".state.json.tmp.%ld.Ab9dEf", dead);
	write_raw(p, "x");
	/* A directory with a temporary's name is not touched. */
	sub = tpath(".dir.tmp.%ld.ABCDEF", dead);
	ck_assert_int_eq(mkdir(sub, 0700), 0);

	ck_assert_int_eq(atomic_cleanup(tmpdir, &err), 0);
	ck_assert(!exists(p));
	ck_assert(exists(sub));
	ck_assert_int_eq(count_entries(tmpdir, ""),
	    (int)(sizeof kept / sizeof kept[0]) + 1);
	free(sub);
	free(p);
}
END_TEST

/* Many processes race for one lock: exactly one gets it. */
/* Start RACERS children at once; how many got the lock ('A') and 'H'. */
static void
lock_race_run(struct lock_child *lc, int n, const char *path, bool take_over,
    int *acquired, int *held)
{
	int i;
	char c;

	*acquired = *held = 0;
	for (i = 0; i < n; i++)
		lock_child_start(&lc[i], path, take_over);
	for (i = 0; i < n; i++)
		lock_child_go(&lc[i]);
	for (i = 0; i < n; i++) {
		c = lock_child_status(&lc[i]);
		*acquired += c == 'A';
		*held += c == 'H';
	}
}

START_TEST(test_lock_race)
{
	const char *p = lockfile;
	enum { RACERS = 8 };
	struct lock_child lc[RACERS];
	
	int i, acquired, held;

	lock_race_run(lc, RACERS, p, false, &acquired, &held);
	ck_assert_int_eq(acquired, 1);
	ck_assert_int_eq(held, RACERS - 1);
	for (i = 0; i < RACERS; i++)
		lock_child_end(&lc[i]);
	ck_assert_int_eq(count_entries(tmpdir, ""), 1);
}
END_TEST

/*
 * Issue 37: a lock left by a process that is gone is taken over, by one
 * of many processes deciding it at once (ABA: never two owners), and
 * only while it still names that owner.
 */
START_TEST(test_lock_take_over_race)
{
	const char *p = lockfile;
	enum { RACERS = 8, ROUNDS = 20 };
	struct lock_child lc[RACERS];
	struct lock_owner owner;
	struct aiterm_error err = ERROR_INIT;
	int i, r, acquired, held;
	char *text;

	for (r = 0; r < ROUNDS; r++) {
		text = xasprintf("{\"pid\":%ld,\"start\":\"1\"}", dead_pid());
		unlink(p);
		write_raw(p, text);
		free(text);
		lock_race_run(lc, RACERS, p, true, &acquired, &held);
		ck_assert_int_eq(acquired, 1);
		ck_assert_int_eq(held, RACERS - 1);
		/* The winner's record, whole. */
		ck_assert_int_eq(lock_read(p, &owner, &err), 0);
		ck_assert(lock_owner_alive(&owner));
		for (i = 0; i < RACERS; i++)
			lock_child_end(&lc[i]);
	}
}
END_TEST

/* A lock that names another owner than the one found gone is left alone. */
START_TEST(test_lock_take_over_changed)
{
	const char *p = lockfile;
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner gone = { 0 }, owner;
	char *text;

	gone.pid = dead_pid();
	snprintf(gone.start, sizeof gone.start, "1");
	/* A live owner took it meanwhile: this process. */
	ck_assert_int_eq(lock_acquire(p, NULL, &err), LOCK_ACQUIRED);
	ck_assert_int_eq(lock_take_over(p, &gone, &owner, &err), LOCK_HELD);
	ck_assert_int_eq(owner.pid, getpid());
	ck_assert_int_eq(lock_release(p, &err), 0);
	/* Another dead owner than the one decided on: still stale, kept. */
	text = xasprintf("{\"pid\":%ld,\"start\":\"2\"}", gone.pid);
	write_raw(p, text);
	ck_assert_int_eq(lock_take_over(p, &gone, &owner, &err), LOCK_STALE);
	ck_assert_str_eq(owner.start, "2");
	free(text);
	text = read_ok(p);
	ck_assert(strstr(text, "\"2\"") != NULL);
	free(text);
}
END_TEST

static Suite *
make_state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc;

	tc = tcase_create("Valid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_root_order);
	tcase_add_test(tc, test_root_empty_and_relative);
	tcase_add_test(tc, test_modes_whatever_umask);
	tcase_add_test(tc, test_root_existing_is_tightened);
	tcase_add_test(tc, test_root_below_a_shared_folder);
	tcase_add_test(tc, test_root_below_another_user);
	tcase_add_test(tc, test_root_swapped_while_running);
	tcase_add_test(tc, test_atomic_replace);
	tcase_add_test(tc, test_atomic_replace_light);
	tcase_add_test(tc, test_atomic_abort);
	tcase_add_test(tc, test_lock_cycle);
	tcase_add_test(tc, test_proc_self);
	tcase_add_test(tc, test_proc_odd_command_name);
	suite_add_tcase(s, tc);

	tc = tcase_create("Crash");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_atomic_crash_before_rename);
	tcase_add_test(tc, test_lock_held_then_stale);
	tcase_add_test(tc, test_lock_pid_reused);
	suite_add_tcase(s, tc);

	tc = tcase_create("Invalid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_proc_missing);
	tcase_add_test(tc, test_root_unresolvable);
	tcase_add_test(tc, test_root_through_a_file);
	tcase_add_test(tc, test_root_foreign_owner);
	tcase_add_test(tc, test_read_missing);
	tcase_add_test(tc, test_write_nowhere);
	tcase_add_test(tc, test_lock_bad_records);
	suite_add_tcase(s, tc);

	tc = tcase_create("Limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_proc_buffer_size);
	tcase_add_test(tc, test_lock_start_length);
	tcase_add_test(tc, test_atomic_large);
	tcase_add_test(tc, test_cleanup_names);
	tcase_add_test(tc, test_lock_race);
	tcase_add_test(tc, test_lock_take_over_race);
	tcase_add_test(tc, test_lock_take_over_changed);
	suite_add_tcase(s, tc);

	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_state_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
