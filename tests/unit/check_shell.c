/*
 * core/shell: exact strings from every builder, the parsers, and round
 * trips through real shells.  A shell that is not installed fails its
 * tests unless AITERM_ALLOW_SKIPS allows "no-<shell>" (need_shell).  Every shell runs with HOME set to a temporary
 * folder, never the real one.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "shell/base64.h"
#include "shell/dialect.h"
#include "shell/repl-prompt.h"
#include "shell/launch.h"
#include "shell/osc133.h"
#include "shell/posix-eval.h"
#include "shell/pwsh.h"
#include "shell/sanitize.h"
#include "shell/sentinel.h"
#include "shell/utf8.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/xmalloc.h"

#ifndef SHELL_INTEGRATION_DIR
#error "SHELL_INTEGRATION_DIR must point at core/shell/integration"
#endif

#define WAIT_MS		15000
#define TOKEN		"tok-42"

/*
 * Helpers: temporary folders, processes, pseudo-terminals.
 */

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void
rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static char *
make_home(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/aiterm-check-shell.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");

	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void
write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static void
read_file(const char *path, struct aiterm_buf *out)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	ck_assert_msg(f != NULL, "cannot read %s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(out, chunk, n);
	fclose(f);
}

/* The full path of program in PATH, or NULL (allocated). */
static char *
find_program(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *full = NULL;

	if (path == NULL || *path == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		full = xasprintf("%s/%s", dir, name);
		if (access(full, X_OK) == 0)
			break;
		free(full);
		full = NULL;
	}
	free(copy);
	return full;
}

/*
 * A skip named name is allowed by AITERM_ALLOW_SKIPS (comma- or blank-
 * separated names, or "all"; tests/skips.sh).
 */
static bool
skip_allowed(const char *name)
{
	const char *allow = getenv("AITERM_ALLOW_SKIPS");
	char *copy, *tok, *save = NULL;
	bool ok = false;

	if (allow == NULL)
		return false;
	copy = xstrdup(allow);
	for (tok = strtok_r(copy, ", \t", &save); tok != NULL && !ok;
	    tok = strtok_r(NULL, ", \t", &save))
		ok = strcmp(tok, "all") == 0 || strcmp(tok, name) == 0;
	free(copy);
	return ok;
}

/*
 * Return the shell's path.  A shell that is not installed is a skip named
 * "no-<shell>", written to $AITERM_SKIP_LOG when set: NULL when
 * AITERM_ALLOW_SKIPS allows it, else the test fails.
 */
static char *
need_shell(const char *name, const char *what)
{
	char *path = find_program(name), *skip;
	const char *log = getenv("AITERM_SKIP_LOG");
	FILE *f;

	if (path != NULL)
		return path;
	skip = xasprintf("no-%s", name);
	fprintf(stderr, "check_shell: %s not installed, %s skipped\n", name,
	    what);
	if (log != NULL && *log != '\0' && (f = fopen(log, "a")) != NULL) {
		fprintf(f, "check_shell\t%s\t%s: %s is not installed; %s did "
		    "not run\n", skip, skip, name, what);
		fclose(f);
	}
	if (!skip_allowed(skip))
		ck_abort_msg("%s is not installed, so %s cannot run: install it, "
		    "or set AITERM_ALLOW_SKIPS=%s to allow the skip", name, what,
		    skip);
	free(skip);
	return NULL;
}

/* A minimal environment for test shells, plus extra entries. */
static char **
test_env(const char *home, char *const *extra)
{
	const char *path = getenv("PATH");
	char **env = xcalloc(16, sizeof *env);
	size_t n = 0;

	env[n++] = xasprintf("HOME=%s", home);
	env[n++] = xasprintf("PATH=%s",
	    path != NULL ? path : "/usr/local/bin:/usr/bin:/bin");
	env[n++] = xstrdup("LANG=C.UTF-8");
	env[n++] = xstrdup("TERM=xterm");
	env[n++] = xasprintf("AITERM_OUT=%s/out.bin", home);
	env[n++] = xasprintf("XDG_CONFIG_HOME=%s/.config", home);
	env[n++] = xasprintf("XDG_DATA_HOME=%s/.local/share", home);
	for (; extra != NULL && *extra != NULL; extra++) {
		ck_assert_uint_lt(n, 15);
		env[n++] = xstrdup(*extra);
	}
	return env;
}

static void
free_strv(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/*
 * Run argv with env in dir, stdin from /dev/null; collect stdout.  Returns
 * the exit status (or 128 + signal).
 */
static int
run_capture(char *const argv[], char *const env[], const char *dir,
    struct aiterm_buf *out)
{
	char chunk[4096];
	int fds[2], status, devnull;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		if (chdir(dir) == -1)
			_exit(126);
		execve(argv[0], argv, env);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		ck_assert_int_gt(n, 0);
		buf_add(out, chunk, (size_t)n);
	}
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Run "shell -c script" in home; return its stdout in out. */
static int
run_shell(const char *shell, const char *script, const char *home,
    struct aiterm_buf *out)
{
	char *argv[] = { (char *)shell, (char *)"-c", (char *)script, NULL };
	char **env = test_env(home, NULL);
	int status;

	status = run_capture(argv, env, home, out);
	free_strv(env);
	return status;
}

/* A shell on a pseudo-terminal, and everything it printed. */
struct pty_child {
	pid_t			pid;
	int			fd;
	struct aiterm_buf	out;
};

static void
pty_spawn(struct pty_child *c, char *const argv[], char *const env[],
    const char *dir)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 200 };
	const char *name;
	int slave;

	memset(c, 0, sizeof *c);
	c->fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
	ck_assert_int_ge(c->fd, 0);
	ck_assert_int_eq(grantpt(c->fd), 0);
	ck_assert_int_eq(unlockpt(c->fd), 0);
	name = ptsname(c->fd);
	ck_assert_ptr_nonnull(name);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid == 0) {
		setsid();
		slave = open(name, O_RDWR);
		if (slave == -1)
			_exit(126);
		ioctl(slave, TIOCSCTTY, 0);
		ioctl(slave, TIOCSWINSZ, &ws);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		close(c->fd);
		if (chdir(dir) == -1)
			_exit(126);
		execve(argv[0], argv, env);
		_exit(127);
	}
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Read what is there within ms milliseconds; false at end of file. */
static bool
pty_pump(struct pty_child *c, int ms)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	char chunk[8192];
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return true;
	n = read(c->fd, chunk, sizeof chunk);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n <= 0)
		return false;
	buf_add(&c->out, chunk, (size_t)n);
	return true;
}

/*
 * Write all of data, reading the child's output meanwhile: a child that
 * echoes what it reads blocks when its output is not read, and then stops
 * reading too.
 */
static void
pty_write(struct pty_child *c, const char *data, size_t len)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN | POLLOUT };
	long deadline = now_ms() + WAIT_MS;
	ssize_t n;

	while (len > 0) {
		ck_assert_msg(now_ms() < deadline, "timed out writing to the "
		    "shell; output: %s", buf_str(&c->out));
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if (pfd.revents & (POLLIN | POLLHUP))
			ck_assert_msg(pty_pump(c, 0), "shell exited; output: %s",
			    buf_str(&c->out));
		if (!(pfd.revents & POLLOUT))
			continue;
		n = write(c->fd, data, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		ck_assert_int_gt(n, 0);
		data += n;
		len -= (size_t)n;
	}
}

/* Count the marks of kind in everything read; *last gets the last one. */
static size_t
count_marks(const struct aiterm_buf *out, char kind, struct osc133_mark *last)
{
	struct osc133_parser p;
	struct osc133_mark mark;
	size_t off = 0, used, n = 0;

	osc133_init(&p);
	while (off < out->len &&
	    osc133_feed(&p, out->data + off, out->len - off, &used, &mark)) {
		off += used;
		if (mark.kind != kind)
			continue;
		n++;
		if (last != NULL)
			*last = mark;
	}
	return n;
}

/* Wait until at least n marks of kind were read; return the last. */
static struct osc133_mark
pty_wait_marks(struct pty_child *c, char kind, size_t n)
{
	struct osc133_mark last;
	long deadline = now_ms() + WAIT_MS;

	memset(&last, 0, sizeof last);
	while (count_marks(&c->out, kind, &last) < n) {
		ck_assert_msg(now_ms() < deadline,
		    "timed out waiting for OSC 133 %c mark %zu; output: %s",
		    kind, n, buf_str(&c->out));
		ck_assert_msg(pty_pump(c, 100), "shell exited; output: %s",
		    buf_str(&c->out));
	}
	return last;
}

/* Wait until the sentinel for nonce was read. */
static int
pty_wait_sentinel(struct pty_child *c, const char *nonce, size_t *start)
{
	long deadline = now_ms() + WAIT_MS;
	int code = -1;

	while (!sentinel_find(c->out.data, c->out.len, nonce, &code, start,
	    NULL)) {
		ck_assert_msg(now_ms() < deadline,
		    "timed out waiting for sentinel %s; output: %s", nonce,
		    buf_str(&c->out));
		ck_assert_msg(pty_pump(c, 100), "shell exited; output: %s",
		    buf_str(&c->out));
	}
	return code;
}

static void
pty_finish(struct pty_child *c)
{
	long deadline = now_ms() + 3000;
	int status;

	while (waitpid(c->pid, &status, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &status, 0);
			break;
		}
		if (!pty_pump(c, 50))
			usleep(10000);
	}
	close(c->fd);
	buf_free(&c->out);
}

/* out without its OSC sequences (ESC ] ... BEL or ESC \). */
static void
strip_osc(const struct aiterm_buf *in, struct aiterm_buf *out)
{
	size_t i = 0, j;

	while (i < in->len) {
		if (in->data[i] == 0x1b && i + 1 < in->len &&
		    in->data[i + 1] == ']') {
			for (j = i + 2; j < in->len; j++) {
				if (in->data[j] == 0x07)
					break;
				if (in->data[j] == 0x1b && j + 1 < in->len &&
				    in->data[j + 1] == '\\') {
					j++;
					break;
				}
			}
			i = j + 1;
			continue;
		}
		buf_addc(out, in->data[i++]);
	}
}

static bool
contains(const struct aiterm_buf *b, const char *needle)
{
	return b->len > 0 && memmem(b->data, b->len, needle,
	    strlen(needle)) != NULL;
}

/*
 * The corpus: texts whose bytes must reach the shell exactly.
 */

struct text {
	const char	*name;
	const char	*data;
	size_t		 len;
};

#define TEXT(name, lit)	{ name, lit, sizeof lit - 1 }

static const struct text corpus_fixed[] = {
	TEXT("empty", ""),
	TEXT("newline only", "\n"),
	TEXT("plain", "echo hello world"),
	TEXT("quotes", "echo 'single' \"double\" `echo back` $(echo dollar)\n"
	    "it's \"quoted\" and \\'escaped\\' '\"'\"' ''"),
	TEXT("heredocs", "cat <<EOF\n$HOME `x` \\$y\nEOF\ncat <<'Q'\n$x\\y\nQ\n"
	    "cat <<-\"T\"\n\tindented\n\tT"),
	TEXT("backslashes", "a\\b\\\\c\\n\\t\\0\\101 \\x41 \\u00e9 \\"),
	TEXT("dollars and percents", "$ $$ ${x} $'x' $\"y\" $((1+1)) "
	    "%s %% %d %b %c %n \\045 %"),
	TEXT("tabs", "\tindented\t\ttabs\t\n\t"),
	TEXT("utf-8", "h\xc3\xa9llo \xe2\x80\x94 \xc3\xbcn\xc3\xaf" "c\xc3\xb6"
	    "d\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80 "
	    "\xf0\x9d\x84\x9e \xf0\x9f\x87\xaf\xf0\x9f\x87\xb5"),
	TEXT("trailing backslash", "line ends with a backslash\\"),
	TEXT("trailing backslash newline", "continued \\\n"),
	TEXT("crlf", "one\r\ntwo\r\n\r\nthree"),
	TEXT("lone cr", "a\rb\r"),
	TEXT("leading dash", "-n -e --\n-"),
	TEXT("history", "!history !! !$ !-1 ^a^b !#"),
	TEXT("trailing newlines", "a\n\n\n"),
	TEXT("leading newlines", "\n\nb"),
	TEXT("single quote", "'"),
	TEXT("lone backslash", "\\"),
	TEXT("percent", "%"),
	TEXT("punctuation", "( ) { } [ ] < > | & ; * ? ~ # = , . : @ + ^ _ -"),
};

/* Every byte from 1 to 255, and a long multi-line text. */
static struct text corpus_built[2];
static char all_bytes[255];
static char *long_text;

static void
build_corpus(void)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof all_bytes; i++)
		all_bytes[i] = (char)(i + 1);
	corpus_built[0] = (struct text){ "all bytes", all_bytes,
	    sizeof all_bytes };
	if (long_text == NULL) {
		for (i = 0; i < 300; i++)
			buf_printf(&b, "line %zu: 'q' \"d\" $v \\ %% \xf0\x9f\x98\x80"
			    "\t!\n", i);
		long_text = buf_steal(&b, NULL);
	}
	corpus_built[1] = (struct text){ "long", long_text, strlen(long_text) };
}

static size_t
corpus_len(void)
{
	return sizeof corpus_fixed / sizeof corpus_fixed[0] +
	    sizeof corpus_built / sizeof corpus_built[0];
}

static const struct text *
corpus_get(size_t i)
{
	size_t nfixed = sizeof corpus_fixed / sizeof corpus_fixed[0];

	build_corpus();
	return i < nfixed ? &corpus_fixed[i] : &corpus_built[i - nfixed];
}

/* The text as the shell must see it: CRLF turned into LF. */
static void
normalise(const struct text *t, struct aiterm_buf *out)
{
	size_t i;

	for (i = 0; i < t->len; i++) {
		if (t->data[i] == '\r' && i + 1 < t->len &&
		    t->data[i + 1] == '\n')
			continue;
		buf_addc(out, t->data[i]);
	}
}

/*
 * Turn an eval command into one that prints the string it would have
 * evaluated: the last 'eval "' becomes 'printf %s "' (the payload cannot
 * hold a double quote), and fish's 'eval (' becomes 'printf %s ('.
 */
static char *
eval_to_printf(const char *line)
{
	const char *at = NULL, *p;
	size_t skip;

	for (p = line; (p = strstr(p, "eval \"")) != NULL; p++)
		at = p;
	if (at == NULL)
		at = strstr(line, "eval (");
	ck_assert_ptr_nonnull(at);
	skip = strlen("eval");
	return xasprintf("%.*sprintf %%s%s", (int)(at - line), line, at + skip);
}

static void
assert_bytes(const struct aiterm_buf *got, const struct aiterm_buf *want,
    const char *shell, const char *what, const char *name)
{
	size_t i;

	for (i = 0; i < got->len && i < want->len; i++) {
		if (got->data[i] != want->data[i])
			break;
	}
	ck_assert_msg(got->len == want->len && i == want->len,
	    "%s, %s, text \"%s\": %zu bytes instead of %zu, first "
	    "difference at byte %zu", shell, what, name, got->len, want->len,
	    i);
}

static bool
has_lf_or_cr(const struct aiterm_buf *b)
{
	return memchr(b->data, '\n', b->len) != NULL ||
	    memchr(b->data, '\r', b->len) != NULL;
}

static void
build_posix(const struct text *t, size_t max_line, struct aiterm_buf *out)
{
	struct aiterm_error err = ERROR_INIT;

	ck_assert_msg(shell_eval_posix(t->data, t->len, max_line, out,
	    &err) == 0, "%s", error_msg(&err));
}

/*
 * utf8
 */

START_TEST(utf8_valid_sequences)
{
	static const struct {
		const char	*s;
		size_t		 len;
		size_t		 seq;	/* 0: invalid */
	} cases[] = {
		{ "A", 1, 1 },
		{ "\xc3\xa9", 2, 2 },
		{ "\xe2\x82\xac", 3, 3 },
		{ "\xf0\x9f\x98\x80", 4, 4 },
		{ "\xf4\x8f\xbf\xbf", 4, 4 },		/* U+10FFFF */
		{ "\x80", 1, 0 },			/* continuation */
		{ "\xc0\xaf", 2, 0 },			/* overlong '/' */
		{ "\xc1\xbf", 2, 0 },
		{ "\xe0\x80\xaf", 3, 0 },		/* overlong */
		{ "\xed\xa0\x80", 3, 0 },		/* surrogate */
		{ "\xf0\x8f\xbf\xbf", 4, 0 },		/* overlong */
		{ "\xf4\x90\x80\x80", 4, 0 },		/* > U+10FFFF */
		{ "\xf5\x80\x80\x80", 4, 0 },
		{ "\xff", 1, 0 },
		{ "\xe2\x82", 2, 0 },			/* cut short */
		{ "\xe2\x28\xa1", 3, 0 },		/* bad continuation */
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(utf8_seq_len((const unsigned char *)cases[i].s,
		    cases[i].len) == cases[i].seq, "case %zu", i);
}
END_TEST

START_TEST(utf8_valid_offset)
{
	size_t bad = 99;

	ck_assert(utf8_valid("", 0, &bad));
	ck_assert(utf8_valid("h\xc3\xa9\xf0\x9f\x98\x80", 7, &bad));
	ck_assert(!utf8_valid("ab\xc3\xa9\xff", 5, &bad));
	ck_assert_uint_eq(bad, 4);
	ck_assert(!utf8_valid("ab\xf0\x9f\x98", 5, &bad));
	ck_assert_uint_eq(bad, 2);
}
END_TEST

START_TEST(utf8_chunks_never_split)
{
	struct aiterm_buf b = BUF_INIT;
	size_t *lens, n, i, off, pad;

	/* Shift the 4-byte characters against the chunk edge every way. */
	for (pad = 0; pad < 4; pad++) {
		buf_reset(&b);
		for (i = 0; i < pad; i++)
			buf_addc(&b, 'a');
		for (i = 0; i < 300; i++)
			buf_adds(&b, i % 3 == 0 ? "\xf0\x9f\x98\x80" :
			    i % 3 == 1 ? "\xe6\x97\xa5" : "\xc3\xa9");
		n = utf8_chunks(b.data, b.len, UTF8_CHUNK_MAX, &lens);
		ck_assert_uint_gt(n, 1);
		for (i = 0, off = 0; i < n; i++) {
			ck_assert_uint_le(lens[i], UTF8_CHUNK_MAX);
			if (i + 1 < n)
				ck_assert_uint_ge(lens[i], UTF8_CHUNK_MAX - 3);
			ck_assert(utf8_valid(b.data + off, lens[i], NULL));
			off += lens[i];
		}
		ck_assert_uint_eq(off, b.len);
		free(lens);
	}
	ck_assert_uint_eq(utf8_chunk_len("abc", 3, 256), 3);
	ck_assert_uint_eq(utf8_chunk_len("abcdefgh", 8, 5), 5);
	ck_assert_uint_eq(utf8_chunk_len("abc\xf0\x9f\x98\x80", 7, 5), 3);
	/* A max below 4 still takes a whole character. */
	ck_assert_uint_eq(utf8_chunk_len("a\xf0\x9f\x98\x80", 5, 1), 1);
	ck_assert_uint_eq(utf8_chunk_len("\xf0\x9f\x98\x80z", 5, 1), 4);
	ck_assert_uint_eq(utf8_chunks("", 0, 256, &lens), 0);
	free(lens);
	buf_free(&b);
}
END_TEST

/*
 * sanitize
 */

START_TEST(sanitize_removes_controls)
{
	/* What is removed is counted by kind, with the first named (issue 37). */
	static const struct {
		const char	*in;
		const char	*out;
		size_t		 controls, c1, escapes;
		const char	*first;
	} cases[] = {
		{ "plain text", "plain text", 0, 0, 0, "" },
		{ "tab\tlf\ncr\r", "tab\tlf\ncr\r", 0, 0, 0, "" },
		{ "bell\a nul-free \x01\x02\x7f end", "bell nul-free  end",
		    4, 0, 0, "U+0007" },
		{ "echo start\x03" "echo after", "echo startecho after",
		    1, 0, 0, "U+0003" },
		{ "\x1b[200~pasted\x1b[201~", "pasted", 0, 0, 2, "ESC [200~" },
		{ "\x1b[1;31mred\x1b[0m", "red", 0, 0, 2, "ESC [1;31m" },
		{ "\x1b]0;title\x07" "after", "after", 0, 0, 1, "ESC ]0;title" },
		{ "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link", 0, 0, 2,
		    "ESC ]8;;http://x" },
		{ "\x1bPdcs data\x1b\\x", "x", 0, 0, 1, "ESC Pdcs data" },
		{ "\x1b_apc\x07y\x1b^pm\x1b\\z\x1bXsos\x07w", "yzw", 0, 0, 3,
		    "ESC _apc" },
		{ "\x1b(Bcharset \x1b" "7save \x1b=keypad",
		    "charset save keypad", 0, 0, 3, "ESC (B" },
		{ "\x1b]unterminated", "unterminated", 0, 0, 1, "ESC ]" },
		{ "lone esc\x1b", "lone esc", 0, 0, 1, "ESC " },
		{ "csi cut\x1b[12", "csi cut", 0, 0, 1, "ESC [12" },
		{ "csi bad\x1b[12\xc3\xa9", "csi bad\xc3\xa9", 0, 0, 1,
		    "ESC [12" },
		{ "c1 \xc2\x9b" "31m \xc2\x85 kept \xc2\xa0",
		    "c1 31m  kept \xc2\xa0", 0, 2, 0, "U+009B" },
		{ "utf-8 \xf0\x9f\x98\x80 \xe6\x97\xa5",
		    "utf-8 \xf0\x9f\x98\x80 \xe6\x97\xa5", 0, 0, 0, "" },
		{ "\x1b[31m" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x07", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		    1, 0, 1, "ESC [31m" },
		{ "\x1b]" "0123456789012345678901234567890\x07", "", 0, 0, 1,
		    "ESC ]012345678901234567" },
	};
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	struct shell_removed r;
	size_t i, len;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&b);
		len = strlen(cases[i].in);
		ck_assert_int_eq(shell_sanitize(cases[i].in, len, &b, &r,
		    &err), 0);
		ck_assert_msg(strcmp(buf_str(&b), cases[i].out) == 0,
		    "case %zu: got \"%s\"", i, buf_str(&b));
		ck_assert_msg(r.count[SANITIZE_CONTROL] == cases[i].controls &&
		    r.count[SANITIZE_C1] == cases[i].c1 &&
		    r.count[SANITIZE_ESCAPE] == cases[i].escapes,
		    "case %zu: removed %zu controls, %zu C1, %zu escapes", i,
		    r.count[SANITIZE_CONTROL], r.count[SANITIZE_C1],
		    r.count[SANITIZE_ESCAPE]);
		ck_assert_uint_eq(r.bytes, len - b.len);
		ck_assert_msg(strcmp(r.first, cases[i].first) == 0,
		    "case %zu: first \"%s\"", i, r.first);
	}
	buf_free(&b);
}
END_TEST

START_TEST(sanitize_invalid_utf8)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;

	ck_assert_int_eq(shell_sanitize("ok \xe2\x82\xac \xc0\xaf", 9, &b,
	    NULL, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "invalid UTF-8 at byte offset 7 (0xc0)");
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(shell_sanitize("\xff", 1, &b, NULL, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "invalid UTF-8 at byte offset 0 (0xff)");
	error_clear(&err);
	buf_free(&b);
}
END_TEST

START_TEST(sanitize_nul)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	struct shell_removed r;

	ck_assert_int_eq(shell_sanitize("a\0b", 3, &b, &r, &err), 0);
	ck_assert_str_eq(buf_str(&b), "ab");
	ck_assert_uint_eq(r.count[SANITIZE_CONTROL], 1);
	ck_assert_str_eq(r.first, "U+0000");
	buf_free(&b);
}
END_TEST

/*
 * dialect
 */

START_TEST(dialect_names)
{
	static const struct {
		const char		*name;
		enum shell_dialect	 dialect;
	} cases[] = {
		{ "bash", SHELL_POSIX },
		{ "/bin/sh", SHELL_POSIX },
		{ "/usr/bin/dash", SHELL_POSIX },
		{ "-zsh", SHELL_POSIX },
		{ "ksh", SHELL_POSIX },
		{ "mksh", SHELL_POSIX },
		{ "ash", SHELL_POSIX },
		{ "busybox", SHELL_POSIX },
		{ "/usr/bin/fish", SHELL_FISH },
		{ "pwsh", SHELL_POWERSHELL },
		{ "pwsh.exe", SHELL_POWERSHELL },
		{ "PowerShell.exe", SHELL_POWERSHELL },
		{ "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
		    SHELL_POWERSHELL },
		{ "/opt/microsoft/powershell/7/pwsh", SHELL_POWERSHELL },
		{ "cmd.exe", SHELL_UNKNOWN },
		{ "csh", SHELL_UNKNOWN },
		{ "python3", SHELL_UNKNOWN },
		{ "bashful", SHELL_UNKNOWN },
		{ "", SHELL_UNKNOWN },
		{ ".exe", SHELL_UNKNOWN },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(shell_dialect_for(cases[i].name) ==
		    cases[i].dialect, "%s", cases[i].name);
	ck_assert(shell_dialect_for(NULL) == SHELL_UNKNOWN);
	ck_assert_str_eq(shell_dialect_name(SHELL_POSIX), "posix");
	ck_assert_str_eq(shell_dialect_name(SHELL_POWERSHELL), "powershell");
	ck_assert_str_eq(shell_dialect_name(SHELL_FISH), "fish");
	ck_assert_str_eq(shell_dialect_name(SHELL_UNKNOWN), "unknown");
}
END_TEST

START_TEST(dialect_prompt)
{
	static const struct {
		const char		*screen;
		enum shell_dialect	 dialect;
	} cases[] = {
		{ "PS C:\\Users\\me> ", SHELL_POWERSHELL },
		{ "PS C:\\Users\\me>", SHELL_POWERSHELL },
		{ "Windows PowerShell\r\n\r\nPS C:\\> \r\n\r\n   \n",
		    SHELL_POWERSHELL },
		{ "user@host:~$ ssh win\nPS /home/me> ", SHELL_POWERSHELL },
		{ "PS C:\\Program Files>>> ", SHELL_POWERSHELL },
		{ "[server01]: PS C:\\Users\\me\\Documents> ", SHELL_POWERSHELL },
		{ "PS HKLM:\\Software> ", SHELL_POWERSHELL },
		/* An old PowerShell prompt in the scrollback does not count. */
		{ "PS C:\\> exit\nuser@host:~$ ", SHELL_UNKNOWN },
		{ "PS C:\\> \nuser@host:~$ \n\n", SHELL_UNKNOWN },
		/* A command typed after the prompt, or output. */
		{ "PS C:\\> dir", SHELL_UNKNOWN },
		{ "PS> ", SHELL_UNKNOWN },
		{ "PS > ", SHELL_UNKNOWN },
		{ "PS", SHELL_UNKNOWN },
		{ "ps aux>", SHELL_UNKNOWN },
		{ "[]: PS C:\\> ", SHELL_UNKNOWN },
		{ "", SHELL_UNKNOWN },
		{ "\n \n", SHELL_UNKNOWN },
		{ "$ ", SHELL_UNKNOWN },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(shell_dialect_from_prompt(cases[i].screen) ==
		    cases[i].dialect, "case %zu: \"%s\"", i, cases[i].screen);
	ck_assert(shell_dialect_from_prompt(NULL) == SHELL_UNKNOWN);
}
END_TEST

START_TEST(repl_prompt)
{
	static const struct {
		const char	*screen;
		const char	*repl;	/* NULL: not a REPL's prompt */
	} cases[] = {
		{ "Python 3.11.7\n>>> ", "python" },
		{ ">>> def f():\n...     return 1\n... ", "python" },
		{ "Welcome to Node.js v20.20.2.\n> ", "node" },
		{ "sqlite> ", "sqlite3" },
		{ "sqlite> SELECT 1,\n   ...> ", "sqlite3" },
		{ "postgres=# ", "psql" },
		{ "app_db=> ", "psql" },
		{ "postgres=# SELECT\npostgres-# ", "psql" },
		{ "postgres'# ", "psql" },
		{ "postgres(> ", "psql" },
		{ "mysql> ", "mysql" },
		{ "mysql> SELECT 1,\n    -> ", "mysql" },
		{ "MariaDB [(none)]> ", "mysql" },
		{ "MariaDB [shop]> \n\n", "mysql" },
		{ "In [3]: ", "ipython" },
		{ "   ...: ", "ipython" },
		/* Shell prompts, output, a REPL prompt above the last line. */
		{ "user@host:~$ ", NULL },
		{ "root@host:/srv# ", NULL },
		{ "[root@host ~]# ", NULL },
		{ "PS C:\\Users\\me> ", NULL },
		{ "C:\\Users\\me>", NULL },
		{ ">>> exit()\nuser@host:~$ ", NULL },
		{ ">>> print(1)", NULL },
		{ "sqlite> .tables", NULL },
		{ "my db=# ", NULL },
		{ "=# ", NULL },
		{ "", NULL },
		{ "\n \n", NULL },
	};
	size_t i;
	const char *got;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = shell_repl_prompt(cases[i].screen);
		if (cases[i].repl == NULL)
			ck_assert_msg(got == NULL, "case %zu: \"%s\" is %s", i,
			    cases[i].screen, got);
		else
			ck_assert_msg(got != NULL && strcmp(got,
			    cases[i].repl) == 0, "case %zu: \"%s\" is %s", i,
			    cases[i].screen, got != NULL ? got : "none");
	}
	ck_assert(shell_repl_prompt(NULL) == NULL);
}
END_TEST

/* The programs replwait.c waits for: named by the prompt table alone. */
START_TEST(repl_known)
{
	static const char *const yes[] = {
		"python3", "python3.11", "node", "sqlite3", "psql", "mysql",
		"mariadb", "ipython3",
	};
	static const char *const no[] = { "bash", "ssh", "vim", "less", "" };
	size_t i;

	for (i = 0; i < sizeof yes / sizeof yes[0]; i++)
		ck_assert_msg(shell_repl_known(yes[i]), "%s", yes[i]);
	for (i = 0; i < sizeof no / sizeof no[0]; i++)
		ck_assert_msg(!shell_repl_known(no[i]), "%s", no[i]);
	ck_assert(!shell_repl_known(NULL));
}
END_TEST

/*
 * base64 and PowerShell
 */

START_TEST(base64_rfc4648)
{
	static const char *vectors[][2] = {
		{ "", "" },
		{ "f", "Zg==" },
		{ "fo", "Zm8=" },
		{ "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" },
		{ "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" },
	};
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
		buf_reset(&b);
		base64_encode(vectors[i][0], strlen(vectors[i][0]), &b);
		ck_assert_str_eq(buf_str(&b), vectors[i][1]);
		ck_assert_uint_eq(base64_encoded_len(strlen(vectors[i][0])),
		    strlen(vectors[i][1]));
	}
	buf_reset(&b);
	base64_encode("\x00\xff\xfe\x80", 4, &b);
	ck_assert_str_eq(buf_str(&b), "AP/+gA==");
	buf_free(&b);
}
END_TEST

START_TEST(pwsh_scriptblock)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	const char *text = "cd C:\\tmp\r\n$x = 'caf\xc3\xa9'\nWrite-Host $x";

	ck_assert_int_eq(shell_eval_pwsh(text, strlen(text), &b, &err), 0);
	ck_assert_str_eq(buf_str(&b),
	    ". ([scriptblock]::Create([Text.Encoding]::UTF8.GetString("
	    "[Convert]::FromBase64String('Y2QgQzpcdG1wDQokeCA9ICdjYWbDqScK"
	    "V3JpdGUtSG9zdCAkeA=='))))");
	ck_assert(!has_lf_or_cr(&b));
	buf_reset(&b);
	ck_assert_int_eq(shell_eval_pwsh("", 0, &b, &err), 0);
	ck_assert_str_eq(buf_str(&b),
	    ". ([scriptblock]::Create([Text.Encoding]::UTF8.GetString("
	    "[Convert]::FromBase64String(''))))");
	buf_reset(&b);
	ck_assert_int_eq(shell_eval_pwsh("ab\xe2\x82", 4, &b, &err), -1);
	ck_assert_str_eq(error_msg(&err), "invalid UTF-8 at byte offset 2");
	ck_assert_uint_eq(b.len, 0);
	error_clear(&err);
	buf_free(&b);
}
END_TEST

/*
 * POSIX and fish eval: exact strings
 */

START_TEST(eval_posix_strings)
{
	static const struct {
		const char	*in;
		const char	*out;
	} cases[] = {
		{ "", "eval \"$(__aiterm_s=$?;printf '';exit $__aiterm_s)\"" },
		{ "echo hi", "eval \"$(__aiterm_s=$?;printf 'echo hi';"
		    "exit $__aiterm_s)\"" },
		{ "cd /tmp\necho \"$X\" 'y' `z` (a) 100% !!\t\\",
		    "eval \"$(__aiterm_s=$?;printf 'cd /tmp\\necho \\042\\044X"
		    "\\042 \\047y\\047 \\140z\\140 \\050a\\051 100\\045 \\041\\041"
		    "\\t\\134';exit $__aiterm_s)\"" },
		{ "-x", "eval \"$(__aiterm_s=$?;printf '\\055x';"
		    "exit $__aiterm_s)\"" },
		{ "a-b\r\nc\rd\r\n", "__aiterm_eval=$(__aiterm_s=$?;printf "
		    "'a-b\\nc\\015d\\n_';exit $__aiterm_s);"
		    "eval \"${__aiterm_eval%_}\"" },
		{ "\xc3\xa9\x1b\x7f", "eval \"$(__aiterm_s=$?;printf "
		    "'\\303\\251\\033\\177';exit $__aiterm_s)\"" },
	};
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&b);
		ck_assert_int_eq(shell_eval_posix(cases[i].in,
		    strlen(cases[i].in), 0, &b, &err), 0);
		ck_assert_str_eq(buf_str(&b), cases[i].out);
	}
	buf_reset(&b);
	ck_assert_int_eq(shell_eval_posix("a\0b", 3, 0, &b, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "text holds a NUL byte at offset 1, which no shell string can carry");
	ck_assert_int_eq(shell_eval_posix("a", 1, 100, &b, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "max_line 100 is below the minimum of 128");
	ck_assert_uint_eq(b.len, 0);
	error_clear(&err);
	buf_free(&b);
}
END_TEST

START_TEST(eval_fish_strings)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;

	ck_assert_int_eq(shell_eval_fish("cd /tmp\nset x 'a\\b'\n", 20, &b,
	    &err), 0);
	ck_assert_str_eq(buf_str(&b), "eval (printf 'cd\\040/tmp\\nset\\040x"
	    "\\040\\047a\\134b\\047\\n' | string collect -N)");
	buf_reset(&b);
	ck_assert_int_eq(shell_eval_fish("\0", 1, &b, &err), -1);
	ck_assert_str_eq(error_msg(&err),
	    "text holds a NUL byte at offset 0, which no shell string can carry");
	error_clear(&err);
	buf_free(&b);
}
END_TEST

START_TEST(eval_one_line_ascii)
{
	struct aiterm_buf b = BUF_INIT;
	const struct text *t;
	size_t i, j;

	for (i = 0; i < corpus_len(); i++) {
		t = corpus_get(i);
		buf_reset(&b);
		build_posix(t, 0, &b);
		ck_assert_msg(!has_lf_or_cr(&b), "%s", t->name);
		for (j = 0; j < b.len; j++)
			ck_assert_msg(b.data[j] >= 0x20 && b.data[j] < 0x7f &&
			    b.data[j] != '!', "%s: byte %zu", t->name, j);
	}
	buf_free(&b);
}
END_TEST

START_TEST(eval_max_line)
{
	struct aiterm_buf b = BUF_INIT;
	const struct text *t;
	const char *line, *nl;
	size_t i, max;

	for (max = SHELL_EVAL_MIN_LINE; max <= 4000; max *= 5) {
		for (i = 0; i < corpus_len(); i++) {
			t = corpus_get(i);
			buf_reset(&b);
			build_posix(t, max, &b);
			for (line = b.data; ; line = nl + 1) {
				nl = strchr(line, '\n');
				ck_assert_msg((size_t)((nl == NULL ?
				    b.data + b.len : nl) - line) <= max,
				    "%s: a line is over %zu", t->name, max);
				if (nl == NULL)
					break;
				ck_assert(nl[-1] == '\\' && nl[-2] == '\'' &&
				    nl[1] == '\'');
			}
		}
	}
	buf_free(&b);
}
END_TEST

/*
 * POSIX eval: round trips through dash, bash and zsh
 */

static const char *posix_shells[] = { "dash", "bash", "zsh" };

/* The string eval gets is the text, byte for byte. */
START_TEST(eval_posix_exact)
{
	struct aiterm_buf line = BUF_INIT, got = BUF_INIT, want = BUF_INIT;
	static const size_t max_lines[] = { 0, SHELL_EVAL_MIN_LINE };
	char *shell, *home, *script;
	const struct text *t;
	size_t i, m;

	shell = need_shell(posix_shells[_i], "eval round trip");
	if (shell == NULL)
		return;
	home = make_home();
	for (m = 0; m < sizeof max_lines / sizeof max_lines[0]; m++) {
		for (i = 0; i < corpus_len(); i++) {
			t = corpus_get(i);
			buf_reset(&line);
			buf_reset(&got);
			buf_reset(&want);
			build_posix(t, max_lines[m], &line);
			script = eval_to_printf(buf_str(&line));
			ck_assert_int_eq(run_shell(shell, script, home, &got), 0);
			normalise(t, &want);
			assert_bytes(&got, &want, shell, max_lines[m] == 0 ?
			    "eval string" : "eval string, split lines", t->name);
			free(script);
		}
	}
	buf_free(&line);
	buf_free(&got);
	buf_free(&want);
	rm_tree(home);
	free(home);
	free(shell);
}
END_TEST

/*
 * Text that writes itself through a heredoc: the file is the text and the
 * newline before the delimiter (CRLF taken as LF, also where the text ends
 * in CR).
 */
static void
heredoc_text(const struct text *t, struct aiterm_buf *script,
    struct aiterm_buf *want)
{
	struct aiterm_buf body = BUF_INIT;
	struct text whole;

	buf_add(&body, t->data, t->len);
	buf_addc(&body, '\n');
	whole = (struct text){ t->name, body.data, body.len };
	normalise(&whole, want);
	buf_adds(script, "cat <<'AITERM_END_OF_TEXT' > \"$AITERM_OUT\"\n");
	buf_add(script, body.data, body.len);
	buf_adds(script, "AITERM_END_OF_TEXT\n");
	buf_free(&body);
}

START_TEST(eval_posix_heredoc)
{
	struct aiterm_buf line = BUF_INIT, got = BUF_INIT, want = BUF_INIT;
	struct aiterm_buf script = BUF_INIT, out = BUF_INIT;
	struct text wrapped;
	char *shell, *home, *path;
	const struct text *t;
	size_t i;

	shell = need_shell(posix_shells[_i], "heredoc round trip");
	if (shell == NULL)
		return;
	home = make_home();
	path = xasprintf("%s/out.bin", home);
	for (i = 0; i < corpus_len(); i++) {
		t = corpus_get(i);
		buf_reset(&script);
		buf_reset(&want);
		buf_reset(&line);
		buf_reset(&got);
		heredoc_text(t, &script, &want);
		wrapped = (struct text){ t->name, script.data, script.len };
		build_posix(&wrapped, 0, &line);
		remove(path);
		ck_assert_int_eq(run_shell(shell, buf_str(&line), home, &out), 0);
		read_file(path, &got);
		assert_bytes(&got, &want, shell, "heredoc", t->name);
	}
	buf_free(&line);
	buf_free(&got);
	buf_free(&want);
	buf_free(&script);
	buf_free(&out);
	rm_tree(home);
	free(home);
	free(path);
	free(shell);
}
END_TEST

/* cd, variables, $? and a final backslash-newline behave as if typed. */
START_TEST(eval_posix_semantics)
{
	static const struct {
		const char	*text;
		const char	*before;
		const char	*after;
		const char	*want;
	} cases[] = {
		{ "cd /tmp\nAITERM_X=persisted\nexport AITERM_Y=exported\n", "",
		    ";pwd;echo \"$AITERM_X\";sh -c 'echo \"$AITERM_Y\"'",
		    "/tmp\npersisted\nexported\n" },
		{ "cd /\nAITERM_X=two", "", ";pwd;echo \"$AITERM_X\"",
		    "/\ntwo\n" },
		{ "echo \"st=$?\"", "false;", "", "st=1\n" },
		{ "echo \"st=$?\"\n", "(exit 3);", "", "st=3\n" },
		{ "printf '%s' x\\\n", "", "", "x" },
		{ "f() { echo \"in f: $1\"; }\nf arg\n", "", ";f again",
		    "in f: arg\nin f: again\n" },
		{ "false\n", "", ";echo \"after=$?\"", "after=1\n" },
		{ "true", "false;", ";echo \"after=$?\"", "after=0\n" },
	};
	struct aiterm_buf line = BUF_INIT, got = BUF_INIT, script = BUF_INIT;
	struct text t;
	char *shell, *home;
	size_t i;

	shell = need_shell(posix_shells[_i], "eval semantics");
	if (shell == NULL)
		return;
	home = make_home();
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&line);
		buf_reset(&got);
		buf_reset(&script);
		t = (struct text){ cases[i].text, cases[i].text,
		    strlen(cases[i].text) };
		build_posix(&t, 0, &line);
		buf_printf(&script, "%s%s%s", cases[i].before, buf_str(&line),
		    cases[i].after);
		run_shell(shell, buf_str(&script), home, &got);
		ck_assert_msg(strcmp(buf_str(&got), cases[i].want) == 0,
		    "%s, case %zu: got \"%s\"", shell, i, buf_str(&got));
	}
	buf_free(&line);
	buf_free(&got);
	buf_free(&script);
	rm_tree(home);
	free(home);
	free(shell);
}
END_TEST

/* A line split for canonical mode runs the same text. */
START_TEST(eval_posix_split_long)
{
	struct aiterm_buf text = BUF_INIT, line = BUF_INIT, got = BUF_INIT;
	struct text t;
	char *shell, *home;
	size_t i;

	shell = need_shell(posix_shells[_i], "split eval line");
	if (shell == NULL)
		return;
	home = make_home();
	buf_adds(&text, "AITERM_X='");
	for (i = 0; i < 6000; i++)
		buf_addc(&text, (char)('a' + i % 26));
	buf_adds(&text, "'\nprintf 'len=%s\\n' \"${#AITERM_X}\"\n");
	t = (struct text){ "long", text.data, text.len };
	build_posix(&t, 200, &line);
	ck_assert_int_eq(run_shell(shell, buf_str(&line), home, &got), 0);
	ck_assert_str_eq(buf_str(&got), "len=6000\n");
	buf_free(&text);
	buf_free(&line);
	buf_free(&got);
	rm_tree(home);
	free(home);
	free(shell);
}
END_TEST

/*
 * fish eval
 */

START_TEST(eval_fish_exact)
{
	struct aiterm_buf line = BUF_INIT, got = BUF_INIT, want = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	char *shell, *home, *script;
	const struct text *t;
	size_t i;

	shell = need_shell("fish", "fish eval round trip");
	if (shell == NULL)
		return;
	home = make_home();
	for (i = 0; i < corpus_len(); i++) {
		t = corpus_get(i);
		buf_reset(&line);
		buf_reset(&got);
		buf_reset(&want);
		ck_assert_int_eq(shell_eval_fish(t->data, t->len, &line, &err),
		    0);
		script = eval_to_printf(buf_str(&line));
		ck_assert_int_eq(run_shell(shell, script, home, &got), 0);
		normalise(t, &want);
		assert_bytes(&got, &want, shell, "eval string", t->name);
		free(script);
	}
	buf_reset(&line);
	buf_reset(&got);
	ck_assert_int_eq(shell_eval_fish("cd /tmp\nset AITERM_X persisted\n",
	    31, &line, &err), 0);
	buf_adds(&line, "; pwd; echo $AITERM_X");
	ck_assert_int_eq(run_shell(shell, buf_str(&line), home, &got), 0);
	ck_assert_str_eq(buf_str(&got), "/tmp\npersisted\n");
	buf_free(&line);
	buf_free(&got);
	buf_free(&want);
	rm_tree(home);
	free(home);
	free(shell);
}
END_TEST

/*
 * OSC 133
 */

static const char osc_stream[] =
    "out\x1b]133;A\x07prompt$ "
    "\x1b]133;C;aiterm=t1\x1b\\hello\n"
    "\x1b]0;title\x07"
    "\x1b]1337;SetMark\x07"
    "\x1b]133;D;-3;aiterm=t1\x07"
    "\x1b]133;D\x07"
    "\x1b]133;Z\x07"
    "\x1b[31m\x1b\x1b]133;B\x07"
    "\x1b]133;D;1\x18"
    "\x1b]133;D;9\x1b]133;D;5\x07"
    "\x1b]133;D;7;k=v;aiterm=tok-2.x\x1b\\"
    "\x1b]133;D;99999999999;aiterm=bad/token\x07"
    "\x1b]133;A;aiterm=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\x07"
    "tail";

static const struct osc133_mark osc_want[] = {
	{ 'A', false, 0, "", 3, 11 },
	{ 'C', false, 0, "t1", 19, 38 },
	{ 'D', true, -3, "t1", 69, 90 },
	{ 'D', false, 0, "", 90, 98 },
	{ 'B', false, 0, "", 112, 120 },
	{ 'D', true, 5, "", 139, 149 },
	{ 'D', true, 7, "tok-2.x", 149, 179 },
	{ 'D', false, 0, "", 179, 216 },
	{ 'A', false, 0, "", 216, 297 },
};

/* Parse stream in pieces of the given sizes (cycled); compare to osc_want. */
static void
check_osc_stream(const size_t *pieces, size_t npieces)
{
	struct osc133_parser p;
	struct osc133_mark mark;
	size_t len = sizeof osc_stream - 1, off = 0, piece, used, n = 0, k = 0;

	osc133_init(&p);
	while (off < len) {
		piece = pieces[k++ % npieces];
		if (piece > len - off)
			piece = len - off;
		while (piece > 0) {
			if (!osc133_feed(&p, osc_stream + off, piece, &used,
			    &mark)) {
				ck_assert_uint_eq(used, piece);
				off += used;
				break;
			}
			ck_assert_uint_lt(n, sizeof osc_want / sizeof osc_want[0]);
			ck_assert_int_eq(mark.kind, osc_want[n].kind);
			ck_assert_int_eq(mark.has_exit, osc_want[n].has_exit);
			ck_assert_int_eq(mark.exit_code, osc_want[n].exit_code);
			ck_assert_str_eq(mark.token, osc_want[n].token);
			ck_assert_uint_eq(mark.start, osc_want[n].start);
			ck_assert_uint_eq(mark.end, osc_want[n].end);
			n++;
			off += used;
			piece -= used;
		}
	}
	ck_assert_uint_eq(n, sizeof osc_want / sizeof osc_want[0]);
	ck_assert_uint_eq(p.offset, len);
}

START_TEST(osc133_whole)
{
	size_t whole = sizeof osc_stream;

	check_osc_stream(&whole, 1);
}
END_TEST

START_TEST(osc133_split_everywhere)
{
	size_t one = 1, two[2], len = sizeof osc_stream - 1, cut;
	static const size_t odd[] = { 3, 7, 2, 11, 5 };

	check_osc_stream(&one, 1);
	check_osc_stream(odd, sizeof odd / sizeof odd[0]);
	for (cut = 1; cut < len; cut++) {
		two[0] = cut;
		two[1] = len;
		check_osc_stream(two, 2);
	}
}
END_TEST

START_TEST(osc133_long_body)
{
	struct aiterm_buf b = BUF_INIT;
	struct osc133_parser p;
	struct osc133_mark mark;
	size_t used, i;

	buf_adds(&b, "\x1b]133;D;1;");
	for (i = 0; i < 1000; i++)
		buf_addc(&b, 'x');
	buf_adds(&b, "\x07\x1b]133;D;2\x07");
	osc133_init(&p);
	ck_assert(osc133_feed(&p, b.data, b.len, &used, &mark));
	ck_assert_int_eq(mark.exit_code, 2);
	ck_assert_uint_eq(used, b.len);
	ck_assert_uint_eq(mark.start, b.len - 10);
	buf_free(&b);
}
END_TEST

/*
 * Sentinels
 */

START_TEST(sentinel_strings)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;

	ck_assert_int_eq(sentinel_build(SHELL_POSIX, "n1", &b, &err), 0);
	ck_assert_str_eq(buf_str(&b),
	    "; printf '\\033]133;D;%s;aiterm=n1\\007' \"$?\"");
	buf_reset(&b);
	ck_assert_int_eq(sentinel_build(SHELL_FISH, "n1", &b, &err), 0);
	ck_assert_str_eq(buf_str(&b),
	    "; printf '\\033]133;D;%s;aiterm=n1\\007' $status");
	buf_reset(&b);
	ck_assert_int_eq(sentinel_build(SHELL_POWERSHELL, "n1", &b, &err), 0);
	ck_assert_str_eq(buf_str(&b),
	    "; $__aitermS = if ($?) { 0 } elseif ($LASTEXITCODE) "
	    "{ $LASTEXITCODE } else { 1 }; Write-Host -NoNewline "
	    "\"$([char]27)]133;D;$__aitermS;aiterm=n1$([char]7)\"");
	buf_reset(&b);
	ck_assert_int_eq(sentinel_build(SHELL_UNKNOWN, "n1", &b, &err), -1);
	ck_assert_str_eq(error_msg(&err), "no sentinel for the unknown dialect");
	ck_assert_int_eq(sentinel_build(SHELL_POSIX, "a b", &b, &err), -1);
	ck_assert_str_eq(error_msg(&err), "invalid sentinel nonce: 1 to 64 "
	    "characters from [A-Za-z0-9_.-] expected");
	ck_assert_int_eq(sentinel_build(SHELL_POSIX, "", &b, &err), -1);
	ck_assert_uint_eq(b.len, 0);
	error_clear(&err);
	buf_free(&b);
}
END_TEST

START_TEST(sentinel_find_marks)
{
	static const char echo[] =
	    "$ true; printf '\\033]133;D;%s;aiterm=n1\\007' \"$?\"\r\n"
	    "\x1b]133;D;4;aiterm=other\x07"
	    "\x1b]133;D;aiterm=n1\x07"
	    "\x1b]133;D;2;aiterm=n1\x07$ ";
	size_t start = 0, end = 0;
	int code = -1;

	/* The echo alone never matches. */
	ck_assert(!sentinel_find(echo, 51, "n1", &code, &start, &end));
	ck_assert(sentinel_find(echo, sizeof echo - 1, "n1", &code, &start,
	    &end));
	ck_assert_int_eq(code, 2);
	ck_assert_uint_eq(start, 92);
	ck_assert_uint_eq(end, 112);
	ck_assert(!sentinel_find(echo, sizeof echo - 1, "n2", NULL, NULL,
	    NULL));
	ck_assert(!sentinel_find(echo, sizeof echo - 1, NULL, NULL, NULL,
	    NULL));
}
END_TEST

START_TEST(sentinel_wrap_strings)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf b = BUF_INIT;
	size_t at = 0;

	buf_adds(&b, "make");
	ck_assert_int_eq(sentinel_wrap(SHELL_POSIX, "n1", &b, &at, &err), 0);
	ck_assert_str_eq(buf_str(&b), "printf '\\033]133;C;aiterm=n1\\007'; "
	    "make; printf '\\033]133;D;%s;aiterm=n1\\007' \"$?\"");
	ck_assert_str_eq(buf_str(&b) + at,
	    "; printf '\\033]133;D;%s;aiterm=n1\\007' \"$?\"");
	buf_reset(&b);
	buf_adds(&b, "ls");
	ck_assert_int_eq(sentinel_wrap(SHELL_POWERSHELL, "n1", &b, NULL,
	    &err), 0);
	ck_assert(strncmp(buf_str(&b), "Write-Host -NoNewline "
	    "\"$([char]27)]133;C;aiterm=n1$([char]7)\"; ls; $__aitermS", 63) == 0);
	buf_reset(&b);
	buf_adds(&b, "ls");
	ck_assert_int_eq(sentinel_wrap(SHELL_UNKNOWN, "n1", &b, NULL, &err),
	    -1);
	ck_assert_str_eq(buf_str(&b), "ls");
	error_clear(&err);
	buf_free(&b);
}
END_TEST

/* The [start, end) of the first mark of kind with token in data. */
static bool
find_mark(const struct aiterm_buf *data, char kind, const char *token,
    size_t *start, size_t *end)
{
	struct osc133_parser p;
	struct osc133_mark m;
	size_t off = 0, used;

	osc133_init(&p);
	while (off < data->len && osc133_feed(&p, data->data + off,
	    data->len - off, &used, &m)) {
		off += used;
		if (m.kind == kind && strcmp(m.token, token) == 0) {
			*start = (size_t)m.start;
			*end = (size_t)m.end;
			return true;
		}
	}
	return false;
}

/*
 * The sentinel around an eval line reports the text's status, and the
 * text's output is exactly what lies between its start and end marks
 * (issue 34).
 */
START_TEST(sentinel_posix_real)
{
	static const struct {
		const char	*text;
		int		 code;
		const char	*output;
	} cases[] = {
		{ "true", 0, "" },
		{ "false", 1, "" },
		{ "echo out\n(exit 42)\n", 42, "out\n" },
		{ "printf no-newline", 0, "no-newline" },
	};
	size_t c_start, c_end, d_start, d_end;
	struct aiterm_buf line = BUF_INIT, got = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct text t;
	char *shell, *home;
	size_t i;
	int code;

	shell = need_shell(posix_shells[_i], "sentinel");
	if (shell == NULL)
		return;
	home = make_home();
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&line);
		buf_reset(&got);
		t = (struct text){ "", cases[i].text, strlen(cases[i].text) };
		build_posix(&t, 0, &line);
		ck_assert_int_eq(sentinel_wrap(SHELL_POSIX, "Nonce-1", &line,
		    NULL, &err), 0);
		run_shell(shell, buf_str(&line), home, &got);
		ck_assert(sentinel_find(got.data, got.len, "Nonce-1", &code,
		    NULL, NULL));
		ck_assert_int_eq(code, cases[i].code);
		ck_assert(find_mark(&got, 'C', "Nonce-1", &c_start, &c_end));
		ck_assert(find_mark(&got, 'D', "Nonce-1", &d_start, &d_end));
		ck_assert_uint_eq(c_start, 0);
		ck_assert_uint_eq(d_end, got.len);
		ck_assert_uint_eq(d_start - c_end, strlen(cases[i].output));
		ck_assert(memcmp(got.data + c_end, cases[i].output,
		    d_start - c_end) == 0);
		/* The command text itself holds no mark. */
		ck_assert(!sentinel_find(line.data, line.len, "Nonce-1", NULL,
		    NULL, NULL));
	}
	buf_free(&line);
	buf_free(&got);
	rm_tree(home);
	free(home);
	free(shell);
}
END_TEST

/*
 * A nested shell without integration: the echoed command never fires the
 * sentinel; the mark the shell prints does, after the echo.
 */
START_TEST(sentinel_interactive_bash)
{
	struct aiterm_buf line = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct pty_child c;
	struct text t = { "", "cd /\n(exit 5)\n", 14 };
	char *shell, *home, **env, *argv[4];
	const char *echo_at;
	size_t start;

	shell = need_shell("bash", "interactive sentinel");
	if (shell == NULL)
		return;
	home = make_home();
	env = test_env(home, NULL);
	argv[0] = shell;
	argv[1] = (char *)"--norc";
	argv[2] = (char *)"-i";
	argv[3] = NULL;
	pty_spawn(&c, argv, env, home);
	build_posix(&t, 0, &line);
	ck_assert_int_eq(sentinel_build(SHELL_POSIX, "abc123", &line, &err), 0);
	buf_addc(&line, '\r');
	pty_write(&c, line.data, line.len);
	ck_assert_int_eq(pty_wait_sentinel(&c, "abc123", &start), 5);
	echo_at = memmem(c.out.data, c.out.len, "aiterm=abc123\\007",
	    strlen("aiterm=abc123\\007"));
	ck_assert_ptr_nonnull(echo_at);
	ck_assert_uint_gt(start, (size_t)(echo_at - c.out.data));
	pty_write(&c, "exit\r", 5);
	pty_finish(&c);
	buf_free(&line);
	free_strv(env);
	rm_tree(home);
	free(home);
	free(shell);
}
END_TEST

/*
 * Shell integration
 */

START_TEST(launch_argv)
{
	struct shell_integration_options o = {
		.shell = "/bin/bash", .dir = "/usr/share/aiterm/shell",
		.token = "t1",
	};
	struct aiterm_error err = ERROR_INIT;
	struct shell_launch l;

	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert(l.integrated);
	ck_assert_str_eq(l.argv[0], "/bin/bash");
	ck_assert_str_eq(l.argv[1], "--rcfile");
	ck_assert_str_eq(l.argv[2], "/usr/share/aiterm/shell/aiterm.bash");
	ck_assert_ptr_null(l.argv[3]);
	ck_assert_str_eq(l.env[0], "AITERM_SHELL_TOKEN=t1");
	ck_assert_ptr_null(l.env[1]);
	shell_launch_free(&l);

	o.shell = "zsh";
	o.user_zdotdir = "/home/u/.config/zsh";
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert_str_eq(l.argv[0], "zsh");
	ck_assert_ptr_null(l.argv[1]);
	ck_assert_str_eq(l.env[0], "ZDOTDIR=/usr/share/aiterm/shell/zsh");
	ck_assert_str_eq(l.env[1], "AITERM_USER_ZDOTDIR=/home/u/.config/zsh");
	ck_assert_str_eq(l.env[2], "AITERM_SHELL_TOKEN=t1");
	ck_assert_ptr_null(l.env[3]);
	shell_launch_free(&l);

	o.shell = "/usr/bin/dash";
	o.token = NULL;
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert_str_eq(l.env[0], "ENV=/usr/share/aiterm/shell/aiterm.sh");
	ck_assert_ptr_null(l.env[1]);
	shell_launch_free(&l);
	o.user_env = "/home/u/.shrc";
	o.shell = "sh";
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert_str_eq(l.env[1], "AITERM_USER_ENV=/home/u/.shrc");
	shell_launch_free(&l);

	o.shell = "fish";
	o.dir = "/opt/it's\\here";
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert_str_eq(l.argv[1], "--init-command");
	ck_assert_str_eq(l.argv[2], "source '/opt/it\\'s\\\\here/aiterm.fish'");
	ck_assert_ptr_null(l.env[0]);
	shell_launch_free(&l);

	o.shell = "/bin/mksh";
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert(!l.integrated);
	ck_assert_str_eq(l.argv[0], "/bin/mksh");
	ck_assert_ptr_null(l.argv[1]);
	ck_assert_ptr_null(l.env[0]);
	shell_launch_free(&l);

	/* Scripts required but missing: the shell alone, no integration. */
	o.shell = "/bin/bash";
	o.dir = "/nonexistent/aiterm/shell";
	o.require_scripts = true;
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert(!l.integrated);
	ck_assert_str_eq(l.argv[0], "/bin/bash");
	ck_assert_ptr_null(l.argv[1]);
	ck_assert_ptr_null(l.env[0]);
	shell_launch_free(&l);
	o.require_scripts = false;

	o.token = "bad token";
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), -1);
	ck_assert_str_eq(error_msg(&err), "invalid shell integration token: "
	    "1 to 64 characters from [A-Za-z0-9_.-] expected");
	o.shell = NULL;
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), -1);
	ck_assert_str_eq(error_msg(&err), "no shell to start");
	error_clear(&err);
}
END_TEST

/* One shell with its integration, and the user's startup file. */
static const struct integration_case {
	const char	*shell;
	const char	*rc_path;	/* under HOME */
	const char	*rc;
	const char	*check;		/* a command to run at the prompt */
	const char	*want;		/* what it must print */
	enum shell_dialect dialect;
	size_t		 max_line;
} integration_cases[] = {
	{ "bash", ".bashrc",
	    "AITERM_TEST_RC=yes\nPROMPT_COMMAND='__aiterm_test_pc=ran'\n",
	    "echo \"rc=$AITERM_TEST_RC pc=$__aiterm_test_pc "
	    "tok=${AITERM_SHELL_TOKEN-unset}\"",
	    "rc=yes pc=ran tok=unset", SHELL_POSIX,
	    SHELL_EVAL_CANON_LINE_MAX },
	{ "zsh", ".zshrc", "AITERM_TEST_RC=yes\n",
	    "echo \"rc=$AITERM_TEST_RC zdotdir=${ZDOTDIR-unset} "
	    "tok=${AITERM_SHELL_TOKEN-unset}\"",
	    "rc=yes zdotdir=unset tok=unset", SHELL_POSIX,
	    SHELL_EVAL_CANON_LINE_MAX },
	{ "dash", ".shrc", "AITERM_TEST_RC=yes\n",
	    "echo \"rc=$AITERM_TEST_RC env=${ENV##*/} "
	    "tok=${AITERM_SHELL_TOKEN-unset}\"",
	    "rc=yes env=.shrc tok=unset", SHELL_POSIX,
	    SHELL_EVAL_CANON_LINE_MAX },
	{ "fish", ".config/fish/config.fish", "set -g AITERM_TEST_RC yes\n",
	    "echo \"rc=$AITERM_TEST_RC tok=\"(set -q AITERM_SHELL_TOKEN; "
	    "and echo set; or echo unset)",
	    "rc=yes tok=unset", SHELL_FISH, 0 },
};

static void
start_integrated(const struct integration_case *ic, const char *shell,
    const char *home, struct pty_child *c)
{
	struct shell_integration_options o = {
		.shell = shell, .dir = SHELL_INTEGRATION_DIR, .token = TOKEN,
	};
	struct aiterm_error err = ERROR_INIT;
	struct shell_launch l;
	char *rc, *dir, **env;

	rc = xasprintf("%s/%s", home, ic->rc_path);
	dir = xstrdup(rc);
	*strrchr(dir, '/') = '\0';
	mkdir(dir, 0700);
	if (strchr(ic->rc_path, '/') != NULL) {
		*strrchr(dir, '/') = '\0';
		mkdir(dir, 0700);
		free(dir);
		dir = xstrdup(rc);
		*strrchr(dir, '/') = '\0';
		mkdir(dir, 0700);
	}
	write_file(rc, ic->rc, strlen(ic->rc));
	if (strcmp(ic->shell, "dash") == 0)
		o.user_env = rc;
	ck_assert_int_eq(shell_integration_argv(&o, &l, &err), 0);
	ck_assert(l.integrated);
	env = test_env(home, l.env);
	pty_spawn(c, l.argv, env, home);
	free_strv(env);
	shell_launch_free(&l);
	free(rc);
	free(dir);
}

/* Build the command that runs text in this shell. */
static void
integrated_eval(const struct integration_case *ic, const struct text *t,
    struct aiterm_buf *line)
{
	struct aiterm_error err = ERROR_INIT;

	if (ic->dialect == SHELL_FISH)
		ck_assert_int_eq(shell_eval_fish(t->data, t->len, line, &err), 0);
	else
		build_posix(t, ic->max_line, line);
}

/* Type line and Enter; return the status of the D mark that follows. */
static int
run_typed(struct pty_child *c, const char *line, size_t *ndone)
{
	struct osc133_mark mark;

	pty_write(c, line, strlen(line));
	pty_write(c, "\r", 1);
	mark = pty_wait_marks(c, 'D', ++*ndone);
	ck_assert_str_eq(mark.token, TOKEN);
	ck_assert(mark.has_exit);
	return mark.exit_code;
}

START_TEST(integration_marks)
{
	const struct integration_case *ic = &integration_cases[_i];
	struct aiterm_buf visible = BUF_INIT;
	struct osc133_mark mark;
	struct pty_child c;
	char *shell, *home;
	size_t ndone = 0;

	shell = need_shell(ic->shell, "shell integration");
	if (shell == NULL)
		return;
	home = make_home();
	start_integrated(ic, shell, home, &c);
	mark = pty_wait_marks(&c, 'A', 1);
	ck_assert_str_eq(mark.token, TOKEN);
	/* No D before the first command. */
	ck_assert_uint_eq(count_marks(&c.out, 'D', NULL), 0);
	ck_assert_int_eq(run_typed(&c, "false", &ndone), 1);
	ck_assert_int_eq(run_typed(&c, "true", &ndone), 0);
	ck_assert_int_eq(run_typed(&c, ic->check, &ndone), 0);
	pty_wait_marks(&c, 'A', 4);
	strip_osc(&c.out, &visible);
	ck_assert_msg(contains(&visible, ic->want), "%s: \"%s\" not in %s",
	    ic->shell, ic->want, buf_str(&visible));
	/* No mark text was typed or shown. */
	ck_assert_msg(!contains(&visible, "133;") &&
	    !contains(&visible, "aiterm="), "%s: mark text visible: %s",
	    ic->shell, buf_str(&visible));
	pty_write(&c, "exit\r", 5);
	pty_finish(&c);
	buf_free(&visible);
	rm_tree(home);
	free(home);
	free(shell);
}
END_TEST

/*
 * The eval line typed at a real prompt (line editor, history expansion,
 * canonical mode for dash): the bytes still arrive exactly, and cd and
 * variables persist.
 */
START_TEST(integration_typed_eval)
{
	const struct integration_case *ic = &integration_cases[_i];
	struct aiterm_buf line = BUF_INIT, script = BUF_INIT, want = BUF_INIT;
	struct aiterm_buf got = BUF_INIT, visible = BUF_INIT;
	struct text wrapped, cd_text = { "cd", "cd /tmp\nAITERM_X=kept\n", 22 };
	struct pty_child c;
	const struct text *t;
	char *shell, *home, *path, *typed;
	size_t ndone = 0, i;

	shell = need_shell(ic->shell, "typed eval");
	if (shell == NULL)
		return;
	home = make_home();
	path = xasprintf("%s/out.bin", home);
	start_integrated(ic, shell, home, &c);
	pty_wait_marks(&c, 'A', 1);
	for (i = 0; i < corpus_len(); i++) {
		t = corpus_get(i);
		/* The string eval would run, written to a file. */
		buf_reset(&line);
		buf_reset(&want);
		buf_reset(&got);
		integrated_eval(ic, t, &line);
		typed = eval_to_printf(buf_str(&line));
		buf_reset(&line);
		buf_printf(&line, "%s > \"$AITERM_OUT\"", typed);
		free(typed);
		remove(path);
		ck_assert_int_eq(run_typed(&c, buf_str(&line), &ndone), 0);
		read_file(path, &got);
		normalise(t, &want);
		assert_bytes(&got, &want, ic->shell, "typed eval string",
		    t->name);
		if (ic->dialect == SHELL_FISH)
			continue;
		/* And run for real: a heredoc writes the text. */
		buf_reset(&script);
		buf_reset(&want);
		buf_reset(&got);
		buf_reset(&line);
		heredoc_text(t, &script, &want);
		wrapped = (struct text){ t->name, script.data, script.len };
		integrated_eval(ic, &wrapped, &line);
		remove(path);
		ck_assert_int_eq(run_typed(&c, buf_str(&line), &ndone), 0);
		read_file(path, &got);
		assert_bytes(&got, &want, ic->shell, "typed heredoc", t->name);
	}
	if (ic->dialect == SHELL_FISH)
		cd_text = (struct text){ "cd", "cd /tmp\nset AITERM_X kept\n",
		    26 };
	buf_reset(&line);
	integrated_eval(ic, &cd_text, &line);
	ck_assert_int_eq(run_typed(&c, buf_str(&line), &ndone), 0);
	ck_assert_int_eq(run_typed(&c, "echo \"cwd=$PWD x=$AITERM_X\"",
	    &ndone), 0);
	strip_osc(&c.out, &visible);
	ck_assert_msg(contains(&visible, "cwd=/tmp x=kept"), "%s: %s",
	    ic->shell, buf_str(&visible));
	pty_write(&c, "exit\r", 5);
	pty_finish(&c);
	buf_free(&line);
	buf_free(&script);
	buf_free(&want);
	buf_free(&got);
	buf_free(&visible);
	rm_tree(home);
	free(home);
	free(path);
	free(shell);
}
END_TEST

static Suite *
make_shell_suite(void)
{
	Suite *s = suite_create("shell");
	TCase *tc;
	int nposix = sizeof posix_shells / sizeof posix_shells[0];
	int nint = sizeof integration_cases / sizeof integration_cases[0];

	tc = tcase_create("Utf8");
	tcase_add_test(tc, utf8_valid_sequences);
	tcase_add_test(tc, utf8_valid_offset);
	tcase_add_test(tc, utf8_chunks_never_split);
	suite_add_tcase(s, tc);

	tc = tcase_create("Sanitize");
	tcase_add_test(tc, sanitize_removes_controls);
	tcase_add_test(tc, sanitize_invalid_utf8);
	tcase_add_test(tc, sanitize_nul);
	suite_add_tcase(s, tc);

	tc = tcase_create("Dialect");
	tcase_add_test(tc, dialect_names);
	tcase_add_test(tc, dialect_prompt);
	tcase_add_test(tc, repl_prompt);
	tcase_add_test(tc, repl_known);
	suite_add_tcase(s, tc);

	tc = tcase_create("PowerShell");
	tcase_add_test(tc, base64_rfc4648);
	tcase_add_test(tc, pwsh_scriptblock);
	suite_add_tcase(s, tc);

	tc = tcase_create("Eval");
	tcase_add_test(tc, eval_posix_strings);
	tcase_add_test(tc, eval_fish_strings);
	tcase_add_test(tc, eval_one_line_ascii);
	tcase_add_test(tc, eval_max_line);
	tcase_add_loop_test(tc, eval_posix_exact, 0, nposix);
	tcase_add_loop_test(tc, eval_posix_heredoc, 0, nposix);
	tcase_add_loop_test(tc, eval_posix_semantics, 0, nposix);
	tcase_add_loop_test(tc, eval_posix_split_long, 0, nposix);
	tcase_add_test(tc, eval_fish_exact);
	suite_add_tcase(s, tc);

	tc = tcase_create("Osc133");
	tcase_add_test(tc, osc133_whole);
	tcase_add_test(tc, osc133_split_everywhere);
	tcase_add_test(tc, osc133_long_body);
	suite_add_tcase(s, tc);

	tc = tcase_create("Sentinel");
	tcase_add_test(tc, sentinel_strings);
	tcase_add_test(tc, sentinel_find_marks);
	tcase_add_test(tc, sentinel_wrap_strings);
	tcase_add_loop_test(tc, sentinel_posix_real, 0, nposix);
	tcase_add_test(tc, sentinel_interactive_bash);
	suite_add_tcase(s, tc);

	tc = tcase_create("Integration");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, launch_argv);
	tcase_add_loop_test(tc, integration_marks, 0, nint);
	tcase_add_loop_test(tc, integration_typed_eval, 0, nint);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_shell_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(long_text);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
